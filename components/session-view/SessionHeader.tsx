"use client";
/** Above the conversation: which session (a picker when there are several), its state, and Cancel. */
import { useState } from "react";
import { NO_SESSION, type SessionState, type SessionViewState } from "@/lib/folds/session-view";
import { useSession, useSessionStore } from "../state/use-session";
import { AGENT_METHODS } from "@/lib/protocol/methods";

const short = (id: string) =>
  id === NO_SESSION ? "(no session id)" : id.length > 14 ? `${id.slice(0, 8)}…${id.slice(-4)}` : id;

function CancelButton({ sessionId, requested }: { sessionId: string; requested: boolean }) {
  const store = useSessionStore();
  const [error, setError] = useState<string>();
  const cancel = async () => {
    setError(undefined);
    // A notification: the turn ends when the agent answers the prompt (stopReason "cancelled").
    const res = await store.send({ jsonrpc: "2.0", method: AGENT_METHODS.session_cancel, params: { sessionId } });
    if (!res.ok) setError(res.error?.message);
  };
  return (
    <>
      <button
        type="button"
        data-testid="cancel-turn"
        onClick={() => void cancel()}
        className="rounded border border-red-800/70 bg-red-950/40 px-2 py-0.5 text-[11px] font-medium text-red-200 hover:border-red-500 hover:bg-red-900/50"
        title="Send session/cancel for the running turn"
      >
        {requested ? "Cancel again" : "Cancel turn"}
      </button>
      {error ? <span className="text-[11px] text-red-300">{error}</span> : null}
    </>
  );
}

interface Props {
  state: SessionViewState;
  session: SessionState;
  onPick: (sessionId: string) => void;
}

export function SessionHeader({ state, session, onPick }: Props) {
  // A read-only view (transcript, share page) has no live controls.
  const live = !useSessionStore().isOffline;
  const running = useSession((s) => s.agent.state === "running") && live;
  const last = session.turns.at(-1);
  const model = session.models?.currentModelId;
  return (
    <div
      data-testid="session-header"
      className="flex min-h-9 shrink-0 flex-wrap items-center gap-x-3 gap-y-1 border-b border-zinc-800 bg-zinc-900/40 px-3 py-1.5 text-[11px]"
    >
      {state.order.length > 1 ? (
        <select
          data-testid="session-picker"
          value={session.sessionId}
          onChange={(e) => onPick(e.target.value)}
          className="rounded border border-zinc-700 bg-zinc-900 px-1.5 py-0.5 font-mono text-[11px] text-zinc-200 focus:border-sky-500 focus:outline-none"
        >
          {state.order.map((id, i) => (
            <option key={id} value={id}>
              session {i + 1} · {short(id)} · {state.sessions[id]?.turns.length ?? 0} turns
            </option>
          ))}
        </select>
      ) : (
        <span className="font-mono text-zinc-300" title={session.sessionId}>
          session {short(session.sessionId)}
        </span>
      )}
      {session.info.title ? <span className="truncate text-zinc-200">“{session.info.title}”</span> : null}
      <span className="text-zinc-500">
        {session.turns.length} turn{session.turns.length === 1 ? "" : "s"}
      </span>
      {session.currentModeId ? (
        <span className="text-zinc-500">
          mode <span className="text-zinc-300">{session.currentModeId}</span>
        </span>
      ) : null}
      {model ? (
        <span className="text-zinc-500">
          model <span className="text-zinc-300">{model}</span>
        </span>
      ) : null}
      {session.unknown.length ? <span className="text-amber-300">{session.unknown.length} unknown</span> : null}
      <span className="ml-auto flex items-center gap-2">
        {last && !last.ended && running ? (
          <CancelButton sessionId={session.sessionId} requested={!!last.cancelRequested} />
        ) : null}
      </span>
    </div>
  );
}
