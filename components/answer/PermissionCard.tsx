"use client";
/** session/request_permission: the tool call, one button per option, and Cancel. */
import { permissionAnswer, type PendingView } from "@/lib/agent-answers";
import type { Frame } from "@/lib/frame";
import { button } from "../compose/ui";
import { ToolCallView } from "./ToolCallView";
import { useAnswer } from "./use-answer";

const KIND_STYLE: Record<string, string> = {
  allow_once: "border-emerald-600/60 text-emerald-200 hover:bg-emerald-600/20",
  allow_always: "border-emerald-800 text-emerald-300/80 hover:bg-emerald-800/20",
  reject_once: "border-red-700/60 text-red-200 hover:bg-red-700/20",
  reject_always: "border-red-900 text-red-300/80 hover:bg-red-900/20",
};

export function PermissionCard({ frame, view }: { frame: Frame; view: Extract<PendingView, { kind: "permission" }> }) {
  const answer = useAnswer();
  return (
    <div className="flex flex-col gap-1.5">
      <ToolCallView toolCall={view.toolCall} />
      <div className="flex flex-wrap gap-1">
        {view.options.map((o) => (
          <button
            key={o.optionId}
            type="button"
            data-testid="permission-option"
            data-option-id={o.optionId}
            data-kind={o.kind ?? ""}
            disabled={answer.busy}
            className={`rounded border px-2 py-0.5 text-xs ${KIND_STYLE[o.kind ?? ""] ?? "border-zinc-700 text-zinc-200 hover:bg-zinc-800"}`}
            title={`${o.kind ?? "option"} (${o.optionId})`}
            onClick={() => void answer.reply(permissionAnswer(frame, o.optionId))}
          >
            {o.name}
          </button>
        ))}
        <button
          type="button"
          data-testid="permission-cancel"
          className={button}
          disabled={answer.busy}
          onClick={() => void answer.reply(permissionAnswer(frame, null))}
        >
          Cancel
        </button>
      </div>
      {answer.error ? <p className="text-[11px] text-red-300">{answer.error}</p> : null}
    </div>
  );
}
