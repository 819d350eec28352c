"use client";
/** Thin React bindings over the session store. */
import { useSyncExternalStore } from "react";
import { getSessionStore, SessionStore, type SessionSnapshot } from "./session-store";

export function useSessionStore(): SessionStore {
  return getSessionStore();
}

/**
 * Subscribes to one slice of the snapshot. The selector must return a value
 * already in the snapshot (not a new object), or React would re-render forever.
 */
export function useSession<T>(select: (s: SessionSnapshot) => T): T {
  const store = getSessionStore();
  return useSyncExternalStore(
    store.subscribe,
    () => select(store.getSnapshot()),
    () => select(SessionStore.serverSnapshot),
  );
}
