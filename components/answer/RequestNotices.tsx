"use client";
/**
 * Requests in flight both ways that are not answer cards: the client's own
 * requests still waiting for the agent, each of which can be withdrawn with
 * `$/cancel_request`, and what the agent withdrew or completed itself (its
 * `$/cancel_request`, `elicitation/complete`), said once the card is gone.
 */
import { useState } from "react";
import type { Frame, JsonRpcId } from "@/lib/protocol/frame";
import { canWithdraw, cancelRequestFrame, describeDismissal } from "@/lib/features/answers/request-cancel";
import { formatAge } from "../compose/use-now";
import { button } from "../compose/ui";
import { formatId } from "../format";
import { useSession, useSessionStore } from "../state/use-session";

/** A control that withdraws one request the client sent; says when the cancel went out. */
export function WithdrawButton({ frame, label = "Cancel request" }: { frame: Frame; label?: string }) {
  const store = useSessionStore();
  const withdrawnBy = useSession((s) => s.index.withdrawnBy(frame.seq));
  const [error, setError] = useState<string>();
  if (withdrawnBy !== undefined) {
    return (
      <span data-testid="withdrawn" className="text-[11px] text-amber-300">
        cancel sent (#{withdrawnBy}), waiting for the agent&apos;s answer
      </span>
    );
  }
  const withdraw = async (id: JsonRpcId) => {
    setError(undefined);
    const res = await store.send(cancelRequestFrame(id));
    if (!res.ok) setError(res.error?.message ?? "failed");
  };
  return (
    <>
      <button
        type="button"
        data-testid="withdraw-request"
        className={button}
        title="Send $/cancel_request naming this request's id"
        onClick={() => void withdraw(frame.id!)}
      >
        {label}
      </button>
      {error ? <span className="text-[11px] text-red-300">{error}</span> : null}
    </>
  );
}

export function WaitingOnAgent({ now }: { now: number }) {
  const index = useSession((s) => s.index);
  // Once the agent is gone nothing waits for it, and a cancel could not be sent.
  const running = useSession((s) => s.agent.state === "running");
  // The index changes in place; its version says when the unanswered set did.
  useSession((s) => s.index.version);
  const mine = running ? index.unanswered("to-agent").filter((f) => canWithdraw(f, true)) : [];
  if (mine.length === 0) return null;
  return (
    <section aria-label="Requests waiting for the agent" className="flex flex-col gap-1">
      <h3 className="text-[11px] uppercase tracking-wider text-zinc-500">Waiting for the agent ({mine.length})</h3>
      <ul className="flex flex-col gap-1">
        {mine.map((f) => (
          <li
            key={f.seq}
            data-testid="outgoing-pending"
            data-method={f.method}
            data-seq={f.seq}
            className="flex flex-wrap items-center gap-2 rounded border border-sky-500/30 bg-sky-500/5 px-1.5 py-1 font-mono text-[11px]"
          >
            <span className="text-sky-300">{f.method}</span>
            <span className="text-zinc-500">
              id {formatId(f.id)} · {formatAge(Math.max(0, now - f.ts))}
            </span>
            <span className="ml-auto">
              <WithdrawButton frame={f} />
            </span>
          </li>
        ))}
      </ul>
    </section>
  );
}

/** What the agent's exit left unanswered: said once, where the cards were. */
export function EndedByExit() {
  const ended = useSession((s) => s.endedByExit);
  if (ended.length === 0) return null;
  return (
    <p role="status" data-testid="ended-by-exit" className="text-[11px] text-zinc-300">
      {ended.length === 1 ? "1 request" : `${ended.length} requests`} ended unanswered: the agent stopped (
      {ended.map((f) => f.method ?? "?").join(", ")}).
    </p>
  );
}

export function AgentDismissals() {
  const dismissals = useSession((s) => s.index.dismissals);
  if (dismissals.length === 0) return null;
  return (
    <ul role="status" aria-label="Requests the agent withdrew" className="flex flex-col gap-0.5">
      {dismissals.slice(-3).map((d) => (
        <li
          key={d.bySeq}
          data-testid="agent-dismissal"
          data-reason={d.reason}
          className="text-[11px] text-amber-200/90"
        >
          {describeDismissal(d)}
        </li>
      ))}
    </ul>
  );
}
