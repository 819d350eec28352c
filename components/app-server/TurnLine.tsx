"use client";
/** Under each app-server turn: its status, how long it took and the tokens its last model call used. */
import type { TokenUsage, TurnView } from "@/lib/folds/codex-app-server/view";
import { formatMs, formatUsage } from "@/lib/folds/session-view-format";
import { CopyFrameLink } from "../transcripts/CopyFrameLink";

/** "21 in · 9 out · 30 total" from the server's token counts. */
export function usageText(u: TokenUsage["last"]): string {
  if (!u) return "";
  return formatUsage({
    source: "usage",
    inputTokens: u.inputTokens,
    outputTokens: u.outputTokens,
    thoughtTokens: u.reasoningOutputTokens || undefined,
    cachedReadTokens: u.cachedInputTokens || undefined,
    totalTokens: u.totalTokens,
    raw: u,
  });
}

const STATUS_STYLE: Record<string, string> = {
  completed: "text-emerald-300 ring-emerald-500/30",
  interrupted: "text-amber-300 ring-amber-500/30",
  failed: "text-red-300 ring-red-500/30",
};

export function TurnLine({ turn, index, waiting }: { turn: TurnView; index: number; waiting: boolean }) {
  const running = turn.status === "inProgress";
  const usage = usageText(turn.usage?.last);
  return (
    <div
      data-testid="turn-footer"
      data-status={turn.status}
      data-waiting={waiting}
      className="mb-3 flex flex-wrap items-center gap-x-3 gap-y-1 border-t border-zinc-800/80 pt-1.5 text-[11px] text-zinc-500"
    >
      <span className="text-zinc-600">turn {index + 1}</span>
      <CopyFrameLink seq={turn.seq} what="turn" className="text-zinc-500 hover:text-zinc-300 hover:underline" />
      {running && waiting ? (
        <span data-testid="turn-waiting" className="flex items-center gap-1.5 font-medium text-amber-300">
          <span className="h-1.5 w-1.5 animate-pulse rounded-full bg-amber-400" /> waiting for you
        </span>
      ) : running ? (
        <span className="flex items-center gap-1.5 text-sky-300">
          <span className="h-1.5 w-1.5 animate-pulse rounded-full bg-sky-400" /> running
        </span>
      ) : (
        <span
          data-testid="turn-status"
          className={`rounded px-1.5 py-px text-[10px] ring-1 ring-inset ${STATUS_STYLE[turn.status] ?? "text-zinc-300 ring-zinc-500/40"}`}
        >
          {turn.status}
        </span>
      )}
      {turn.error ? (
        <span data-testid="turn-error" className="text-red-300">
          error: {typeof turn.error.message === "string" ? turn.error.message : JSON.stringify(turn.error)}
        </span>
      ) : null}
      {turn.durationMs !== undefined ? <span>total {formatMs(turn.durationMs)}</span> : null}
      {usage ? (
        <span data-testid="turn-usage" title="thread/tokenUsage/updated: this turn's last model call">
          tokens {usage}
        </span>
      ) : null}
      {turn.interruptSeq !== undefined && running ? <span>interrupt requested</span> : null}
    </div>
  );
}
