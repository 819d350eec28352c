"use client";
/**
 * The decoded session view of the surrounding tab, kept up to date cheaply:
 * the reduced state lives per store (so switching tabs or views re-reduces
 * nothing), only frames after the last reduced seq are folded in, and a flood
 * of frame batches becomes at most one React update per animation frame, as a
 * transition so a big render yields to input.
 */
import { startTransition, useEffect, useState } from "react";
import { advanceView, type ViewCache } from "@/lib/session-view-cache";
import type { SessionStore } from "../session-store";
import { useSessionStore } from "../use-session";

const caches = new WeakMap<SessionStore, ViewCache>();

function advance(store: SessionStore): ViewCache {
  const { frames, epoch } = store.getSnapshot();
  const next = advanceView(caches.get(store), frames, epoch);
  caches.set(store, next);
  return next;
}

export function useSessionView(): ViewCache {
  const store = useSessionStore();
  const [view, setView] = useState(() => advance(store));
  useEffect(() => {
    let raf = 0;
    const flush = () => {
      raf = 0;
      const next = advance(store);
      startTransition(() => setView(next));
    };
    const unsubscribe = store.subscribe(() => {
      if (raf === 0) raf = requestAnimationFrame(flush);
    });
    flush(); // frames that arrived between the first render and this effect
    return () => {
      unsubscribe();
      if (raf !== 0) cancelAnimationFrame(raf);
    };
  }, [store]);
  return view;
}
