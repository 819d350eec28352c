/**
 * The app-server's conversation as the browser holds it (its spec's `foldLog`): the thread opened
 * last and the newest turn, which Connect, the prompt box and the forms follow (./handshake.ts),
 * and the decoded threads the thread view shows (lib/folds/codex-app-server/view.ts). Both are
 * folded from each frame once, as it arrives.
 */
import type { Frame } from "../../../protocol/frame";
import { isObject } from "../../../protocol/json";
import {
  EMPTY_APP_SERVER_VIEW,
  reduceAppServerFrames,
  type AppServerViewState,
} from "../../../folds/codex-app-server/view";
import { EMPTY_APP_SERVER_STATE, foldAppServer, type AppServerState } from "./handshake";

export interface AppServerConversation {
  /** The thread opened last, the newest turn, pages and providers. */
  readonly current: AppServerState;
  /** Every thread decoded, with its turns and items. */
  readonly view: AppServerViewState;
}

export const EMPTY_APP_SERVER_CONVERSATION: AppServerConversation = {
  current: EMPTY_APP_SERVER_STATE,
  view: EMPTY_APP_SERVER_VIEW,
};

/** Folds frames after those already folded; the same object back when they changed nothing. */
export function foldAppServerConversation(
  frames: readonly Frame[],
  prev: AppServerConversation = EMPTY_APP_SERVER_CONVERSATION,
): AppServerConversation {
  const current = foldAppServer(frames, prev.current);
  const view = reduceAppServerFrames(frames, prev.view);
  return current === prev.current && view === prev.view ? prev : { current, view };
}

/** Whether a conversation's state is the app-server's (a view checks before reading the snapshot's). */
export const isAppServerConversation = (state: unknown): state is AppServerConversation =>
  isObject(state) && isObject(state.current) && isObject(state.view) && Array.isArray(state.view.order);
