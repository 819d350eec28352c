"use client";
/**
 * An app-server approval waiting for the user: one button per decision the server offers
 * (Accept, Accept for session, Decline, Cancel...), answered with a response frame as ACP
 * permission cards are (use-answer.ts). Shown in the thread where the turn waits and in the
 * left column's pending requests. The model's questions get their own card.
 */
import { approvalChoices, type ApprovalChoice } from "@/lib/features/protocols/codex-app-server/policy";
import { APP_SERVER_REQUESTS } from "@/lib/protocol/app-server-methods";
import type { JsonRpcId } from "@/lib/protocol/frame";
import { Kbd } from "../answer/shortcuts";
import { useAnswer } from "../answer/use-answer";
import { QuestionsCard } from "./QuestionsCard";
import { AnswerFailure } from "../answer/AnswerFailure";

const TONE: Record<ApprovalChoice["tone"], string> = {
  accept: "border-emerald-600/60 text-emerald-200 hover:bg-emerald-600/20",
  decline: "border-red-700/60 text-red-200 hover:bg-red-700/20",
  neutral: "border-zinc-700 text-zinc-200 hover:bg-zinc-800",
};

/** `a` accepts, `r` declines, Enter accepts (components/answer/shortcuts.tsx), where the thread shows the card. */
const SHORTCUT: Record<ApprovalChoice["tone"], string | undefined> = { accept: "a", decline: "r", neutral: undefined };

export function ApprovalCard({
  id,
  method,
  params,
  shortcuts = false,
}: {
  id: JsonRpcId;
  method: string;
  params: unknown;
  shortcuts?: boolean;
}) {
  const answer = useAnswer();
  if (method === APP_SERVER_REQUESTS.tool_user_input) return <QuestionsCard id={id} params={params} />;
  const choices = approvalChoices(method, params);
  if (choices.length === 0)
    return <p className="text-[11px] text-zinc-500">No card for this request: answer it by hand.</p>;
  return (
    <div className="flex flex-col gap-1.5" data-testid="approval-card" data-method={method}>
      <div className="flex flex-wrap gap-1">
        {choices.map((c) => {
          // The first choice of each tone gets its key: the first accept is also the primary answer.
          const key = choices.find((o) => o.tone === c.tone) === c ? SHORTCUT[c.tone] : undefined;
          const primary = shortcuts && key === "a";
          return (
            <button
              key={c.label}
              type="button"
              data-testid="approval-choice"
              data-decision={typeof c.result.decision === "string" ? c.result.decision : c.label}
              data-shortcut={shortcuts ? key : undefined}
              data-primary={primary ? "true" : undefined}
              disabled={answer.busy}
              className={`rounded border px-2 py-0.5 text-xs ${TONE[c.tone]} ${primary ? "font-medium ring-1 ring-emerald-500/40" : ""}`}
              onClick={() => void answer.reply({ jsonrpc: "2.0", id, result: c.result })}
            >
              {c.label}
              {shortcuts && key ? <Kbd k={key} /> : null}
              {primary ? <Kbd k="Enter" /> : null}
            </button>
          );
        })}
      </div>
      <AnswerFailure error={answer.error} />
    </div>
  );
}
