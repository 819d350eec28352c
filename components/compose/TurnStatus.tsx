"use client";
/** Under the prompt box: the last turn's usage, and the flags worth a notice (empty response, error). */
import type { LastTurn } from "@/lib/folds/agent-facts";
import { describeError } from "@/lib/protocol/jsonrpc";
import { formatAge, useNow } from "./use-now";
import { warn, alert } from "./ui";

function Running({ since }: { since: number }) {
  const now = useNow(1000);
  return <span className="text-zinc-400">turn running · {formatAge(now - since)}</span>;
}

export function TurnStatus({ turn }: { turn: LastTurn | undefined }) {
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
    <div data-testid="turn-status" data-state="ended" className="flex flex-col gap-1 text-[11px]">
      <p className="flex flex-wrap gap-x-3 text-zinc-400">
        <span>
          stopReason <code className="text-zinc-300">{turn.error ? "—" : JSON.stringify(turn.stopReason ?? null)}</code>
        </span>
        {u ? (
          <span data-testid="prompt-usage" title={`from result.${u.source}`}>
            tokens: in {u.inputTokens ?? "?"} · out {u.outputTokens ?? "?"}
            {u.totalTokens !== undefined ? ` · total ${u.totalTokens}` : ""}
            {u.thoughtTokens !== undefined ? ` · thoughts ${u.thoughtTokens}` : ""}
          </span>
        ) : (
          <span className="text-zinc-600">no usage reported</span>
        )}
      </p>
      {turn.emptyResponse ? (
        <p data-testid="empty-response-notice" className={warn}>
          Empty response: the turn ended with no agent message and no stopReason. This is how an invalid model shows up;
          check the model option.
        </p>
      ) : null}
      {turn.error ? (
        <p data-testid="turn-error" className={alert}>
          session/prompt failed: {describeError(turn.error)}
        </p>
      ) : null}
    </div>
  );
}
