"use client";
/**
 * The app-server view of the surrounding tab, folded from its frames as they arrive
 * (lib/folds/codex-app-server/view.ts): only the frames after those already folded, from scratch
 * when the log restarts (a new epoch). At most one React update per animation frame, as a
 * transition (useStoreFold, as for the ACP session view).
 */
import {
  EMPTY_APP_SERVER_VIEW,
  reduceAppServerFrames,
  type AppServerViewState,
} from "@/lib/folds/codex-app-server/view";
import type { SessionStore } from "../state/session-store";
import { useStoreFold } from "../state/use-session";

export interface AppServerViewSnapshot {
  epoch: number;
  /** Highest seq folded into `state`. */
  lastSeq: number;
  state: AppServerViewState;
}

const EMPTY: AppServerViewSnapshot = { epoch: -1, lastSeq: 0, state: EMPTY_APP_SERVER_VIEW };

function fold(store: SessionStore, prev = EMPTY): AppServerViewSnapshot {
  const { frames, epoch } = store.getSnapshot();
  const last = frames.last?.seq ?? 0;
  if (epoch === prev.epoch && last === prev.lastSeq) return prev;
  const from = epoch === prev.epoch ? frames.indexOfSeq(prev.lastSeq) + 1 : 0;
  const base = epoch === prev.epoch ? prev.state : EMPTY_APP_SERVER_VIEW;
  return { epoch, lastSeq: last, state: reduceAppServerFrames(frames.slice(from), base) };
}

export const useAppServerView = (): AppServerViewSnapshot => useStoreFold(fold);
