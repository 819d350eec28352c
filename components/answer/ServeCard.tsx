"use client";
/**
 * fs/* and terminal/* in ask mode: what the agent wants done, then "do it"
 * (agent:serve: the relay carries it out, confined to the workspace) or Deny
 * (the same error the deny policy sends).
 */
import { commandLine, denyAnswer, type PendingView } from "@/lib/features/answers/agent-answers";
import type { Frame } from "@/lib/protocol/frame";
import { button } from "../compose/ui";
import { READS_AUTO } from "@/lib/features/answers/policy-presets";
import { useSession, useSessionStore } from "../state/use-session";
import { DiffView } from "../session-view/DiffView";
import { loadPolicies, savePolicies } from "./policy-storage";
import { Kbd } from "./shortcuts";
import { useAnswer } from "./use-answer";
import { AnswerFailure } from "./AnswerFailure";

type ServeView = Extract<PendingView, { kind: "fs-read" | "fs-write" | "terminal-create" | "terminal" }>;

const LONG = 2_000;

function Body({ view }: { view: ServeView }) {
  // The relay does not send the old text of a write: show the diff the tool call carried, if any.
  const diff = useSession((s) => (view.kind === "fs-write" && view.path ? s.facts.diffs[view.path] : undefined));
  switch (view.kind) {
    case "fs-read":
      return (
        <p className="break-all font-mono text-[11px] text-zinc-300">
          read {view.path ?? "?"}
          {view.line !== undefined || view.limit !== undefined
            ? ` (from line ${view.line ?? 1}${view.limit !== undefined ? `, ${view.limit} lines` : ""})`
            : ""}
        </p>
      );
    case "fs-write":
      return (
        <div className="flex flex-col gap-1">
          <p className="break-all font-mono text-[11px] text-zinc-300">write {view.path ?? "?"}</p>
          {diff ? <DiffView path={view.path!} oldText={diff.oldText} newText={diff.newText} /> : null}
          <details open={!diff} className="text-[11px] text-zinc-500">
            <summary className="cursor-pointer">new content ({(view.content ?? "").length} chars)</summary>
            <pre
              data-testid="write-content"
              className="max-h-48 overflow-auto whitespace-pre-wrap break-all rounded bg-zinc-950 p-1 text-zinc-300"
            >
              {(view.content ?? "").length > LONG ? `${view.content!.slice(0, LONG)}…` : view.content}
            </pre>
          </details>
        </div>
      );
    case "terminal-create":
      return (
        <div className="flex flex-col gap-0.5 font-mono text-[11px]">
          <code data-testid="terminal-command" className="break-all rounded bg-zinc-950 px-1 py-0.5 text-zinc-100">
            $ {commandLine(view)}
          </code>
          <span className="text-zinc-500">cwd {view.cwd ?? "(the session's)"}</span>
          {view.env.length ? (
            <span className="break-all text-zinc-500">env {view.env.map((e) => `${e.name}=${e.value}`).join(" ")}</span>
          ) : null}
          {view.outputByteLimit !== undefined ? (
            <span className="text-zinc-500">output limit {view.outputByteLimit} bytes</span>
          ) : null}
        </div>
      );
    case "terminal":
      return <p className="font-mono text-[11px] text-zinc-300">terminal {view.terminalId ?? "?"}</p>;
  }
}

export function ServeCard({ frame, view, shortcuts = false }: { frame: Frame; view: ServeView; shortcuts?: boolean }) {
  const answer = useAnswer();
  const store = useSessionStore();
  const doIt = view.kind === "terminal-create" ? "Run" : "Allow";
  const id = frame.id;
  const answerable = id !== undefined && id !== null;
  // One click for the usual case: a turn reads several files before it edits one.
  const allowAllReads = async () => {
    const err = await store.setPolicies(READS_AUTO);
    // Only this choice is kept: the tab's other policies may be a page's own (compare grants permissions).
    if (!err) savePolicies({ ...loadPolicies(), ...READS_AUTO });
    if (answerable) void answer.serve(id);
  };
  return (
    <div className="flex flex-col gap-1.5">
      <Body view={view} />
      <div className="flex gap-1">
        <button
          type="button"
          data-testid="serve-allow"
          data-shortcut={shortcuts ? "a" : undefined}
          data-primary={shortcuts ? "true" : undefined}
          disabled={answer.busy || !answerable}
          className={`rounded border border-emerald-600/60 px-2 py-0.5 text-xs text-emerald-200 hover:bg-emerald-600/20 ${
            shortcuts ? "font-medium ring-1 ring-emerald-500/40" : ""
          }`}
          onClick={() => answerable && void answer.serve(id)}
          title="The relay carries it out (inside the workspace) and answers"
        >
          {doIt}
          {shortcuts ? (
            <>
              <Kbd k="a" />
              <Kbd k="Enter" />
            </>
          ) : null}
        </button>
        {view.kind === "fs-read" ? (
          <button
            type="button"
            data-testid="allow-all-reads"
            className={button}
            disabled={answer.busy || !answerable}
            onClick={() => void allowAllReads()}
            title="Set fs/read_text_file to auto: the relay serves every read inside the workspace without asking (kept in this browser)"
          >
            Allow all reads in the workspace
          </button>
        ) : null}
        <button
          type="button"
          data-testid="answer-deny"
          data-shortcut={shortcuts ? "r" : undefined}
          className={button}
          disabled={answer.busy}
          onClick={() => void answer.reply(denyAnswer(frame))}
        >
          Deny
          {shortcuts ? <Kbd k="r" /> : null}
        </button>
      </div>
      <AnswerFailure error={answer.error} />
    </div>
  );
}
