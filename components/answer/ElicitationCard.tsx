"use client";
/** elicitation/create: a form built from its requestedSchema (or its URL), and accept / decline / cancel. */
import { useMemo, useState } from "react";
import { elicitationAnswer, type PendingView } from "@/lib/features/agent-answers";
import type { Frame } from "@/lib/protocol/frame";
import { buildFormFromSchema, initialValue, validateAgainst } from "@/lib/features/schema-form";
import { SchemaForm } from "../compose/form/SchemaForm";
import { button } from "../compose/ui";
import { JsonRpcErrorView } from "../JsonRpcErrorView";
import { useAnswer } from "./use-answer";

export function ElicitationCard({
  frame,
  view,
}: {
  frame: Frame;
  view: Extract<PendingView, { kind: "elicitation" }>;
}) {
  const answer = useAnswer();
  const schema = view.requestedSchema;
  const node = useMemo(() => (schema ? buildFormFromSchema(schema) : undefined), [schema]);
  const [content, setContent] = useState<unknown>(() => (node ? initialValue(node) : undefined));
  const issues = useMemo(() => (schema ? validateAgainst(schema, content) : []), [schema, content]);
  const accept = () => void answer.reply(elicitationAnswer(frame, "accept", schema ? content : undefined));
  return (
    <div className="flex flex-col gap-1.5" data-testid="elicitation-card">
      {view.message ? <p className="text-xs text-zinc-200">{view.message}</p> : null}
      {view.mode === "url" && view.url ? (
        <p className="break-all font-mono text-[11px] text-sky-300" title="Open it yourself if you trust it">
          {view.url}
        </p>
      ) : null}
      {node ? (
        <div className="rounded border border-zinc-800 p-1.5">
          <SchemaForm node={node} value={content} set={setContent} env={{ root: "", issues, warnings: [] }} />
        </div>
      ) : null}
      <div className="flex flex-wrap gap-1">
        <button
          type="button"
          data-testid="elicitation-accept"
          disabled={answer.busy || issues.length > 0}
          className="rounded border border-emerald-600/60 px-2 py-0.5 text-xs text-emerald-200 hover:bg-emerald-600/20 disabled:opacity-40"
          onClick={accept}
        >
          Accept
        </button>
        {issues.length ? (
          <button
            type="button"
            className={button}
            disabled={answer.busy}
            onClick={accept}
            title="Send the content although it does not match the requested schema"
          >
            Accept anyway
          </button>
        ) : null}
        <button
          type="button"
          data-testid="elicitation-decline"
          className={button}
          disabled={answer.busy}
          onClick={() => void answer.reply(elicitationAnswer(frame, "decline"))}
        >
          Decline
        </button>
        <button
          type="button"
          data-testid="elicitation-cancel"
          className={button}
          disabled={answer.busy}
          onClick={() => void answer.reply(elicitationAnswer(frame, "cancel"))}
        >
          Cancel
        </button>
      </div>
      {answer.error ? (
        <div className="text-[11px]">
          <JsonRpcErrorView error={answer.error} />
        </div>
      ) : null}
    </div>
  );
}
