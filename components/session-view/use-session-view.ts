"use client";
/**
 * The decoded session view of the surrounding tab. The store folds it as
 * frames arrive (it is the source of the agent facts too); this hook turns a
 * flood of frame batches into at most one React update per animation frame,
 * as a transition so a big render yields to input.
 */
import type { SessionViewState } from "@/lib/folds/session-view";
import type { SessionStore } from "../state/session-store";
import { useStoreFold } from "../state/use-session";

export interface SessionViewSnapshot {
  /** The log's epoch (bumped whenever seqs restart). */
  epoch: number;
  /** Highest seq folded into `state`. */
  lastSeq: number;
  state: SessionViewState;
}

function read(store: SessionStore, prev: SessionViewSnapshot | undefined): SessionViewSnapshot {
  const { view, epoch, lastSeq } = store.getSnapshot();
  return prev?.state === view && prev.epoch === epoch && prev.lastSeq === lastSeq
    ? prev
    : { epoch, lastSeq, state: view };
}

export const useSessionView = (): SessionViewSnapshot => useStoreFold(read);
