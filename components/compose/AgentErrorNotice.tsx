"use client";
/**
 * The last agent:error: its message as the relay gave it, plus what can be
 * done: a crashed agent lists the requests it will never answer; a request
 * timeout offers to stop the agent (it is a notice, nothing was cancelled).
 */
import type { RelayError } from "@/lib/contracts/wire";
import { formatId } from "../format";
import { useSessionStore } from "../state/use-session";
import { button, danger } from "./ui";

export function AgentErrorNotice({ error }: { error: RelayError }) {
  const store = useSessionStore();
  const requests = error.data?.requests ?? [];
  return (
    <div
      data-testid="agent-error-notice"
      data-code={error.code}
      role="alert"
      className="flex flex-col gap-1 rounded bg-red-950/60 px-2 py-1 text-xs text-red-300"
    >
      <div className="flex items-start gap-2">
        <p data-testid="agent-error" className="min-w-0 flex-1 break-words">
          {error.message}
        </p>
        <button type="button" className={button} title="dismiss" onClick={() => store.dismissAgentError()}>
          ×
        </button>
      </div>
      {requests.length ? (
        <ul className="flex flex-col gap-0.5 text-[11px] text-red-200/80" data-testid="agent-error-requests">
          {requests.map((r) => (
            <li key={`${r.seq}`} className="font-mono">
              {r.method} · id {formatId(r.id)} · #{r.seq} · waited {Math.round(r.ageMs / 1000)} s
              {error.code === "process_exited" ? " · will never be answered" : ""}
            </li>
          ))}
        </ul>
      ) : null}
      {error.code === "request_timeout" ? (
        <div>
          <button type="button" data-testid="timeout-stop" className={danger} onClick={() => void store.stopAgent()}>
            Stop the agent
          </button>
        </div>
      ) : null}
    </div>
  );
}
