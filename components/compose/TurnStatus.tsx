"use client";
/**
 * Under the prompt box: the last turn's end and usage, and the flags worth a notice (empty response, error).
 * The end and usage are left out while the Session view shows: its turn footer has them.
 */
import type { PromptTurn } from "@/lib/features/connect/flow-prompt";
import { formatAge, useNow } from "./use-now";
import { warn, alert } from "./ui";
import { SHOWN_VIEW, useTabSignal } from "../state/tab-signal";

function Running({ since }: { since: number }) {
  const now = useNow(1000);
  return <span className="text-zinc-400">turn running · {formatAge(now - since)}</span>;
}

export function TurnStatus({ turn }: { turn: PromptTurn | undefined }) {
  const footerShown = useTabSignal(SHOWN_VIEW) === "session";
  if (!turn) return null;
  if (!turn.ended) {
    return (
      <p data-testid="turn-status" data-state="running" className="text-[11px]">
        <Running since={turn.ts} />
      </p>
    );
  }
  const u = turn.usage;
  return (
    <div data-testid="turn-status" data-state="ended" className="flex flex-col gap-1 text-[11px] empty:hidden">
      {footerShown ? null : (
        <p className="flex flex-wrap gap-x-3 text-zinc-400">
          {turn.end ? (
            <span data-testid="turn-end" data-label={turn.end.label}>
              {turn.end.label} <code className="text-zinc-300">{turn.end.value}</code>
            </span>
          ) : null}
          {u ? (
            <span data-testid="prompt-usage" title={`from ${u.from}`}>
              tokens: in {u.inputTokens ?? "?"} · out {u.outputTokens ?? "?"}
              {u.totalTokens !== undefined ? ` · total ${u.totalTokens}` : ""}
              {u.thoughtTokens !== undefined ? ` · thoughts ${u.thoughtTokens}` : ""}
            </span>
          ) : (
            <span className="text-zinc-600">no usage reported</span>
          )}
        </p>
      )}
      {turn.emptyResponse ? (
        <p data-testid="empty-response-notice" className={warn}>
          Empty response: the turn ended with no agent message and no stopReason. This is how an invalid model shows up;
          check the model option.
        </p>
      ) : null}
      {turn.failure ? (
        <p data-testid="turn-error" className={alert}>
          {turn.failure}
        </p>
      ) : null}
    </div>
  );
}
