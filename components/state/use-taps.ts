"use client";
/** The relay's tapped conversations, and whether the surrounding tab watches one. */
import { useSyncExternalStore } from "react";
import { tapIdOf } from "@/lib/contracts/tap-wire";
import { getTapsStore, TapsStore, type TapsSnapshot } from "./taps-store";
import type { SessionStore } from "./session-store";
import { useSession } from "./use-session";

export function useTaps(): TapsSnapshot {
  const store = getTapsStore();
  return useSyncExternalStore(store.subscribe, store.getSnapshot, () => TapsStore.serverSnapshot);
}

/** The tap id when the tab (the surrounding one, or `store`'s) watches a tapped conversation. */
export function useTappedId(store?: SessionStore): string | undefined {
  return tapIdOf(useSession((s) => s.clientId, store));
}
