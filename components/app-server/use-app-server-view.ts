"use client";
/**
 * The app-server view of the surrounding tab: the threads the store folds as frames arrive (the
 * app-server's conversation, lib/features/protocols/codex-app-server/conversation.ts), empty while
 * the snapshot still holds another protocol's. At most one React update per animation frame, as
 * a transition (useStoreFold, as for the ACP session view).
 */
import { isAppServerConversation } from "@/lib/features/protocols/codex-app-server/conversation";
import { EMPTY_APP_SERVER_VIEW, type AppServerViewState } from "@/lib/folds/codex-app-server/view";
import type { SessionStore } from "../state/session-store";
import { useStoreFold } from "../state/use-session";

export interface AppServerViewSnapshot {
  epoch: number;
  /** Highest seq folded into `state`. */
  lastSeq: number;
  state: AppServerViewState;
}

function read(store: SessionStore, prev: AppServerViewSnapshot | undefined): AppServerViewSnapshot {
  const { conversation, epoch, lastSeq } = store.getSnapshot();
  const view = isAppServerConversation(conversation.state) ? conversation.state.view : EMPTY_APP_SERVER_VIEW;
  return prev?.state === view && prev.epoch === epoch && prev.lastSeq === lastSeq
    ? prev
    : { epoch, lastSeq, state: view };
}

export const useAppServerView = (): AppServerViewSnapshot => useStoreFold(read);
