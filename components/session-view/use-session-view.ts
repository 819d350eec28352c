"use client";
/**
 * The decoded session view of the surrounding tab. The store folds it as
 * frames arrive (it is the source of the agent facts too); this hook turns a
 * flood of frame batches into at most one React update per animation frame,
 * as a transition so a big render yields to input.
 */
import { startTransition, useEffect, useState } from "react";
import type { SessionViewState } from "@/lib/folds/session-view";
import type { SessionStore } from "../state/session-store";
import { useSessionStore } from "../state/use-session";

export interface SessionViewSnapshot {
  /** The log's epoch (bumped whenever seqs restart). */
  epoch: number;
  /** Highest seq folded into `state`. */
  lastSeq: number;
  state: SessionViewState;
}

function read(store: SessionStore): SessionViewSnapshot {
  const { view, epoch, lastSeq } = store.getSnapshot();
  return { epoch, lastSeq, state: view };
}

export function useSessionView(): SessionViewSnapshot {
  const store = useSessionStore();
  const [view, setView] = useState(() => read(store));
  useEffect(() => {
    let raf = 0;
    const flush = () => {
      raf = 0;
      const next = read(store);
      startTransition(() =>
        setView((prev) =>
          prev.state === next.state && prev.epoch === next.epoch && prev.lastSeq === next.lastSeq ? prev : next,
        ),
      );
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
