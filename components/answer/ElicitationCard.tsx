"use client";
/**
 * elicitation/create: a form built from its requestedSchema (form mode) or its
 * link (URL mode: http(s) only, never opened for the user, `rel=noopener`), and
 * accept / decline / cancel. The schema and URL are the agent's: one too large or
 * deep, or a URL of another scheme, is not rendered and says why.
 */
import { useMemo, useState } from "react";
import { elicitationAnswer, type PendingView } from "@/lib/features/answers/agent-answers";
import type { Frame } from "@/lib/protocol/frame";
import { buildFormFromSchema, initialValue, validateAgainst } from "@/lib/features/compose/schema-form";
import { SchemaForm } from "../compose/form/SchemaForm";
import { button } from "../compose/ui";
import { useAnswer } from "./use-answer";
import { AnswerFailure } from "./AnswerFailure";

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
  const known = view.mode === "form" || view.mode === "url";
  // Nothing to accept: a form whose schema was refused, a URL that is not shown, a mode this page does not know.
  const cannotAccept =
    !known || (view.mode === "form" && !schema) || (view.mode === "url" && !view.url) || !!view.schemaProblem;
  return (
    <div className="flex flex-col gap-1.5" data-testid="elicitation-card" data-mode={view.mode ?? ""}>
      {view.message ? <p className="whitespace-pre-wrap text-xs text-zinc-200">{view.message}</p> : null}
      {view.mode === "url" && view.url ? (
        <p className="text-[11px]">
          <a
            data-testid="elicitation-url"
            href={view.url}
            target="_blank"
            rel="noopener noreferrer"
            className="break-all font-mono text-sky-300 underline"
            title="Opens in a new tab only when you click it; check the address first"
          >
            {view.url}
          </a>
          {view.elicitationId ? (
            <span className="block text-zinc-500">
              elicitation id <code>{view.elicitationId}</code>: the agent sends elicitation/complete when it is done
            </span>
          ) : null}
        </p>
      ) : null}
      {view.urlProblem ? (
        <p data-testid="elicitation-problem" className="text-[11px] text-red-300">
          Not shown as a link: {view.urlProblem}.
        </p>
      ) : null}
      {view.schemaProblem ? (
        <p data-testid="elicitation-problem" className="text-[11px] text-red-300">
          No form: {view.schemaProblem}. Decline or cancel, or answer by hand.
        </p>
      ) : null}
      {!known ? (
        <p data-testid="elicitation-problem" className="text-[11px] text-amber-300">
          Mode {JSON.stringify(view.mode ?? null)} is not one this page knows (form, url): decline or cancel.
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
          disabled={answer.busy || issues.length > 0 || cannotAccept}
          className="rounded border border-emerald-600/60 px-2 py-0.5 text-xs text-emerald-200 hover:bg-emerald-600/20 disabled:opacity-40"
          onClick={accept}
        >
          Accept
        </button>
        {issues.length && !cannotAccept ? (
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
      <AnswerFailure error={answer.error} />
    </div>
  );
}
