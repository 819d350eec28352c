"use client";
/** The browser tab's title says when an agent waits for the user, so it shows from another window too. */
import { useEffect } from "react";
import type { Tab } from "./state/tabs-store";

export const BASE_TITLE = "ACP Playground";

export function useWaitingTitle(tabs: readonly Tab[]): void {
  useEffect(() => {
    const update = () => {
      const waiting = tabs.reduce((n, t) => n + t.store.getSnapshot().pending.length, 0);
      const title = waiting ? `(${waiting}) waiting for you · ${BASE_TITLE}` : BASE_TITLE;
      if (document.title !== title) document.title = title;
    };
    update();
    const unsubscribe = tabs.map((t) => t.store.subscribe(update));
    return () => {
      for (const u of unsubscribe) u();
      document.title = BASE_TITLE;
    };
  }, [tabs]);
}
