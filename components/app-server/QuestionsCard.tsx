"use client";
/**
 * `item/tool/requestUserInput`: the model's questions, each answered by picking one of its
 * options or typing (when it has none, or allows another answer), then Submit.
 */
import { useState } from "react";
import { userInputQuestions, userInputResult } from "@/lib/features/protocols/codex-app-server/policy";
import type { JsonRpcId } from "@/lib/protocol/frame";
import { button, input, primary } from "../compose/ui";
import { useAnswer } from "../answer/use-answer";
import { AnswerFailure } from "../answer/AnswerFailure";

export function QuestionsCard({ id, params }: { id: JsonRpcId; params: unknown }) {
  const answer = useAnswer();
  const questions = userInputQuestions(params);
  const [given, setGiven] = useState<Record<string, string>>({});
  const set = (qid: string, value: string) => setGiven((g) => ({ ...g, [qid]: value }));
  const submit = () =>
    void answer.reply({
      jsonrpc: "2.0",
      id,
      result: userInputResult(questions.map((q) => [q.id, given[q.id] ? [given[q.id]!] : []])),
    });
  return (
    <div className="flex flex-col gap-2" data-testid="questions-card">
      {questions.map((q) => (
        <fieldset key={q.id} className="flex flex-col gap-1">
          <legend className="text-[11px] text-zinc-300">
            {q.header ? <span className="font-medium">{q.header}: </span> : null}
            {q.question}
          </legend>
          <div className="flex flex-wrap gap-1">
            {q.options.map((o) => (
              <button
                key={o}
                type="button"
                data-testid="question-option"
                aria-pressed={given[q.id] === o}
                className={`rounded border px-2 py-0.5 text-xs ${
                  given[q.id] === o ? "border-sky-500/70 bg-sky-500/10 text-sky-100" : "border-zinc-700 text-zinc-200"
                }`}
                onClick={() => set(q.id, o)}
              >
                {o}
              </button>
            ))}
          </div>
          {q.options.length === 0 || q.other ? (
            <input
              aria-label={q.question}
              type={q.secret ? "password" : "text"}
              className={`${input} text-xs`}
              value={q.options.includes(given[q.id] ?? "") ? "" : (given[q.id] ?? "")}
              onChange={(e) => set(q.id, e.target.value)}
            />
          ) : null}
        </fieldset>
      ))}
      <div className="flex gap-1">
        <button
          type="button"
          data-testid="questions-submit"
          className={primary}
          disabled={answer.busy}
          onClick={submit}
        >
          Submit
        </button>
        <button
          type="button"
          className={button}
          disabled={answer.busy}
          onClick={() => void answer.reply({ jsonrpc: "2.0", id, result: userInputResult([]) })}
        >
          Skip
        </button>
      </div>
      <AnswerFailure error={answer.error} />
    </div>
  );
}
