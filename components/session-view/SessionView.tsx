"use client";
/**
 * The decoded session view of one tab: the conversation of one ACP session
 * (a picker when there are several), built from the tab's frames by
 * lib/folds/session-view/. Clicking an item selects its frames: the Frames view
 * highlights them, and a frame selected there highlights its item here.
 */
import { useItemSelection } from "../state/frame-selection";
import "./session-view.css";
import { useMemo, useRef } from "react";
import type { Frame } from "@/lib/protocol/frame";
import { requestSessionId } from "../answer/InlineRequests";
import { usePageShortcuts, useRequestShortcuts } from "../answer/shortcuts";
import { useSession, useSessionStore, useTabState } from "../state/use-session";
import { Conversation } from "./Conversation";
import type { Highlight } from "./highlight";
import { SessionsContext } from "./NewItems";
import { SessionHeader } from "./SessionHeader";
import { TerminalsContext } from "./ToolCallCard";
import { useSessionView } from "./use-session-view";
import { LiveStateContext } from "./live-state";

const NO_REQUESTS: readonly Frame[] = [];

interface Props {
  onHighlight: (highlight: Highlight) => void;
  /** Switch to the Frames view with this frame in view. */
  onShowFrames: (seq: number) => void;
}

export function SessionView({ onHighlight, onShowFrames }: Props) {
  const { state, epoch, lastSeq } = useSessionView();
  const [picked, setPicked] = useTabState<string | undefined>("session.picked", undefined);
  // Shared with the frame inspector (never mounted at the same time): one selection per tab.
  const { selectedSeq, select, showFrames } = useItemSelection(epoch, onHighlight, onShowFrames);

  // Follow the newest session unless the user picked one; a subagent's session shows under its parent's card.
  const newest = state.order.findLast((id) => state.sessions[id]?.parentSessionId === undefined) ?? state.order.at(-1);
  const sessionId = picked !== undefined && Object.hasOwn(state.sessions, picked) ? picked : newest;
  const session = sessionId !== undefined ? state.sessions[sessionId] : undefined;
  const sessionsValue = useMemo(
    () => ({ sessions: state.sessions, depth: 0, within: sessionId !== undefined ? [sessionId] : [] }),
    [state.sessions, sessionId],
  );
  const store = useSessionStore();
  const live = !store.isOffline;
  const exited = useSession((s) => s.agent.state === "exited");
  const watchEnded = useSession((s) => s.watchEnded !== undefined);
  const pending = useSession((s) => s.pending);
  // Requests naming no session go to the session shown: they wait for the user all the same.
  const requests = useMemo(
    () =>
      live && sessionId !== undefined
        ? pending.filter((f) => (requestSessionId(f) ?? sessionId) === sessionId)
        : NO_REQUESTS,
    [live, pending, sessionId],
  );
  const ref = useRef<HTMLDivElement>(null);
  // The playground's tab listens itself (in every view); elsewhere (compare) this view does.
  const pageListens = usePageShortcuts();
  useRequestShortcuts(ref, live && requests.length > 0 && !pageListens);

  return (
    <div ref={ref} data-testid="session-view" data-last-seq={lastSeq} className="flex min-h-0 flex-1 flex-col">
      {session ? (
        <>
          <SessionHeader state={state} session={session} onPick={setPicked} />
          <LiveStateContext.Provider value={!live ? "read-only" : exited ? "stopped" : "live"}>
            <TerminalsContext.Provider value={state.terminals}>
              <SessionsContext.Provider value={sessionsValue}>
                <Conversation
                  key={session.sessionId}
                  session={session}
                  version={lastSeq}
                  selectedSeq={selectedSeq}
                  onSelect={select}
                  onShowFrames={showFrames}
                  requests={requests}
                />
              </SessionsContext.Provider>
            </TerminalsContext.Provider>
          </LiveStateContext.Provider>
        </>
      ) : (
        <p data-testid="session-empty" className="px-3 py-6 text-center text-sm text-zinc-500">
          {/* Connect is the playground tab's (the page that listens for its keys): not a watcher's, nor a comparison side's. */}
          {store.watching ? (
            watchEnded ? (
              "No session was opened while this link was live."
            ) : (
              "No session yet: it shows here once the session's owner opens one."
            )
          ) : live && !pageListens ? (
            "No session yet: it shows here once the agent has opened one."
          ) : live ? (
            <>
              No session yet. Press <span className="font-medium text-zinc-300">Connect</span> right above: it starts
              the agent, initializes it and opens a session, and the conversation appears here. (By hand: start an
              agent, then send <code className="text-zinc-400">initialize</code>,{" "}
              <code className="text-zinc-400">session/new</code> and a{" "}
              <code className="text-zinc-400">session/prompt</code>.)
            </>
          ) : (
            "No session in this transcript up to here."
          )}
        </p>
      )}
    </div>
  );
}
