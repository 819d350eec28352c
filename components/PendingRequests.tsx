"use client";
/** Agent->client requests still waiting for an answer; picking one drafts a response. */
import { formatId, formatTime } from "./format";
import { responseTemplate } from "./templates";
import { useSession } from "./use-session";

export function PendingRequests({ onPick }: { onPick: (draft: string) => void }) {
  const pending = useSession((s) => s.pending);
  return (
    <section className="flex min-h-0 flex-col gap-2 p-3" aria-label="Pending agent requests">
      <h2 className="text-xs font-semibold uppercase tracking-wider text-zinc-400">
        Waiting for you <span className="font-normal text-zinc-500">({pending.length})</span>
      </h2>
      {pending.length === 0 ? (
        <p className="text-xs text-zinc-600">No agent request is waiting for an answer.</p>
      ) : (
        <ul className="flex min-h-0 flex-col gap-1 overflow-y-auto">
          {pending.map((frame) => (
            <li key={frame.seq}>
              <button
                type="button"
                data-testid="pending-request"
                data-seq={frame.seq}
                onClick={() => onPick(responseTemplate(frame))}
                className="flex w-full flex-col gap-0.5 rounded border border-amber-500/30 bg-amber-500/5 px-2 py-1 text-left font-mono text-xs hover:border-amber-400 hover:bg-amber-500/10"
                title="Draft a response in the composer"
              >
                <span className="truncate text-amber-300">{frame.method}</span>
                <span className="text-[11px] text-zinc-500">
                  id {formatId(frame.id)} · seq {frame.seq} · {formatTime(frame.ts)}
                </span>
              </button>
            </li>
          ))}
        </ul>
      )}
    </section>
  );
}
