"use client";
/** Under each turn: how it ended, how long it took, and the tokens it used (when reported). */
import { memo } from "react";
import type { Turn } from "@/lib/folds/session-view";
import { JsonRpcErrorView } from "../JsonRpcErrorView";
import { CopyFrameLink } from "../transcripts/CopyFrameLink";
import { formatMs, formatUsage } from "@/lib/folds/session-view-format";
import { useLiveState } from "./live-state";

const badge = "rounded px-1.5 py-px text-[10px] ring-1 ring-inset";

export const TurnFooter = memo(function TurnFooter({
  turn,
  index,
  waiting = false,
}: {
  turn: Turn;
  index: number;
  /** A request of this turn waits for the user's answer. */
  waiting?: boolean;
}) {
  const usage = turn.usage ? formatUsage(turn.usage) : "";
  // The agent exited mid-turn: the turn will never end, and nothing waits for the user any more.
  const stopped = useLiveState() === "stopped" && !turn.ended;
  return (
    <div
      data-testid="turn-footer"
      data-ended={turn.ended}
      data-waiting={waiting && !stopped}
      data-agent-stopped={stopped || undefined}
      data-stop-reason={turn.stopReason ?? ""}
      className="flex flex-wrap items-center gap-x-3 gap-y-1 border-t border-zinc-800/80 pt-1.5 text-[11px] text-zinc-500"
    >
      <span className="text-zinc-600">turn {index + 1}</span>
      <CopyFrameLink seq={turn.seq} what="turn" className="text-zinc-500 hover:text-zinc-300 hover:underline" />
      {stopped ? (
        <span data-testid="turn-agent-stopped" className="font-medium text-zinc-300">
          ended: the agent stopped
        </span>
      ) : !turn.ended && waiting ? (
        <span data-testid="turn-waiting" className="flex items-center gap-1.5 font-medium text-amber-300">
          <span className="h-1.5 w-1.5 animate-pulse rounded-full bg-amber-400" /> waiting for you
        </span>
      ) : !turn.ended ? (
        <span className="flex items-center gap-1.5 text-sky-300">
          <span className="h-1.5 w-1.5 animate-pulse rounded-full bg-sky-400" /> running
        </span>
      ) : turn.error ? (
        <span data-testid="turn-error">
          <JsonRpcErrorView error={turn.error} prefix="error: " />
        </span>
      ) : (
        <span
          data-testid="stop-reason"
          className={`${badge} ${turn.stopReason === "end_turn" ? "text-emerald-300 ring-emerald-500/30" : "text-amber-300 ring-amber-500/30"}`}
        >
          {turn.stopReason ?? "no stop reason"}
        </span>
      )}
      {turn.timeToFirstChunkMs !== undefined ? (
        <span title="from the prompt to the first agent output">first chunk {formatMs(turn.timeToFirstChunkMs)}</span>
      ) : null}
      {turn.durationMs !== undefined ? <span>total {formatMs(turn.durationMs)}</span> : null}
      {usage ? (
        <span
          data-testid="turn-usage"
          title={turn.usage?.source === "_meta.quota" ? "from result._meta.quota" : "from result.usage"}
        >
          tokens {usage}
        </span>
      ) : null}
      {turn.emptyResponse ? (
        <span
          data-testid="empty-response"
          className={`${badge} text-amber-300 ring-amber-500/40`}
          title="the turn ended with no message and no stop reason"
        >
          ⚠ empty response
        </span>
      ) : null}
      {turn.cancelRequested ? (
        <span data-testid="cancel-requested" className={`${badge} text-zinc-300 ring-zinc-500/40`}>
          cancel requested
        </span>
      ) : null}
    </div>
  );
});
