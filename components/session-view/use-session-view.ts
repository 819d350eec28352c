"use client";
/**
 * The decoded session view of the surrounding tab: the conversation the store folds as frames
 * arrive (the source of the agent facts too), when it is a session view (ACP's; empty while the
 * snapshot still holds another protocol's). This hook turns a flood of frame batches into at most
 * one React update per animation frame, as a transition so a big render yields to input.
 */
import { emptyView, isSessionView, type SessionViewState } from "@/lib/folds/session-view";
import type { SessionStore } from "../state/session-store";
import { useStoreFold } from "../state/use-session";

export interface SessionViewSnapshot {
  /** The log's epoch (bumped whenever seqs restart). */
  epoch: number;
  /** Highest seq folded into `state`. */
  lastSeq: number;
  state: SessionViewState;
}

const EMPTY = emptyView();

function read(store: SessionStore, prev: SessionViewSnapshot | undefined): SessionViewSnapshot {
  const { conversation, epoch, lastSeq } = store.getSnapshot();
  const view = isSessionView(conversation.state) ? conversation.state : EMPTY;
  return prev?.state === view && prev.epoch === epoch && prev.lastSeq === lastSeq
    ? prev
    : { epoch, lastSeq, state: view };
}

export const useSessionView = (): SessionViewSnapshot => useStoreFold(read);
