"use client";
/** Why a card's answer was not sent (useAnswer's error), under the card's buttons. */
import { JsonRpcErrorView } from "../JsonRpcErrorView";
import type { AnswerError } from "./use-answer";

export function AnswerFailure({ error }: { error: AnswerError | undefined }) {
  return error ? (
    <div className="text-[11px]">
      <JsonRpcErrorView error={error} />
    </div>
  ) : null;
}
