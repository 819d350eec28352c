"use client";
/**
 * Agent->client requests still waiting for an answer, each as a card that can
 * answer it (or draft any answer by hand), and the per-method policies that
 * decide which requests wait for the user at all.
 */
import { PendingCard } from "./answer/PendingCard";
import { PolicyControls, usePersistedPolicies } from "./answer/PolicyControls";
import { AgentDismissals, EndedByExit, WaitingOnAgent } from "./answer/RequestNotices";
import { useNow } from "./compose/use-now";
import { useSession } from "./state/use-session";

export function PendingRequests({ onPick }: { onPick: (draft: string) => void }) {
  const pending = useSession((s) => s.pending);
  const now = useNow(1000);
  usePersistedPolicies();
  return (
    <section className="flex min-h-0 flex-col gap-2 p-3" aria-label="Pending agent requests">
      <h2 className="text-xs font-semibold uppercase tracking-wider text-zinc-400">
        Waiting for you <span className="font-normal text-zinc-500">({pending.length})</span>
      </h2>
      <AgentDismissals />
      <EndedByExit />
      {pending.length === 0 ? (
        <p className="text-xs text-zinc-600">No agent request is waiting for an answer.</p>
      ) : (
        <ul className="flex min-h-0 flex-col gap-1.5">
          {pending.map((frame, i) => (
            <PendingCard key={frame.seq} frame={frame} now={now} onDraft={onPick} shortcuts={i === 0} />
          ))}
        </ul>
      )}
      <WaitingOnAgent now={now} />
      <details className="rounded border border-zinc-800 px-2 py-1" data-testid="policies">
        <summary className="cursor-pointer text-[11px] text-zinc-400">
          Answer policies (ask · auto · deny), kept in this browser
        </summary>
        <div className="pt-1.5">
          <PolicyControls />
        </div>
      </details>
    </section>
  );
}
