"use client";
/**
 * session/request_permission: what it is about (v1's tool call; v2's own title and
 * description, and its subject: a tool call, a command, or another type shown as
 * sent), one button per option, and Cancel. Inline in the conversation the
 * buttons carry keyboard shortcuts.
 * Options an agent is known to refuse (Gemini's "allow always" in an
 * untrusted folder) go last, with the reason.
 */
import { permissionAnswer, type PendingView, type PermissionSubjectView } from "@/lib/features/answers/agent-answers";
import type { Frame } from "@/lib/protocol/frame";
import { button } from "../compose/ui";
import type { AgentStatus } from "../state/snapshot";
import { useSession } from "../state/use-session";
import { Kbd } from "./shortcuts";
import { ToolCallView } from "./ToolCallView";
import { useAnswer } from "./use-answer";
import { AnswerFailure } from "./AnswerFailure";

const KIND_STYLE: Record<string, string> = {
  allow_once: "border-emerald-600/60 text-emerald-200 hover:bg-emerald-600/20",
  allow_always: "border-emerald-800 text-emerald-300/80 hover:bg-emerald-800/20",
  reject_once: "border-red-700/60 text-red-200 hover:bg-red-700/20",
  reject_always: "border-red-900 text-red-300/80 hover:bg-red-900/20",
};

const SHORTCUT: Record<string, string> = { allow_once: "a", reject_once: "r" };

export const UNTRUSTED_NOTE =
  "Gemini refuses this in an untrusted folder (“Cannot enable privileged approval modes”): start the agent with “trust the workspace” to use it.";

/** Gemini without --skip-trust fails "allow always" (see docs/gemini facts). */
export function refusesAllowAlways(agent: AgentStatus): boolean {
  if (agent.state !== "running") return false;
  const { profile, command, args } = agent.agent;
  const gemini = profile === "gemini" || /(^|[\\/])gemini(\.js)?$/.test(command) || args.some((a) => /gemini/.test(a));
  return gemini && !args.includes("--skip-trust");
}

type PermissionView = Extract<PendingView, { kind: "permission" }>;

/** A v2 subject: the tool call as v1's card shows one, the command with where it runs, or another type as sent. */
function Subject({ subject }: { subject: PermissionSubjectView }) {
  const body =
    "toolCall" in subject ? (
      <ToolCallView toolCall={subject.toolCall} />
    ) : "raw" in subject ? (
      <>
        <p className="text-[11px] text-zinc-400">
          Subject <code className="font-mono">{subject.type}</code>, a kind the playground does not know: as sent
        </p>
        <pre className="max-h-40 overflow-auto whitespace-pre-wrap break-all font-mono text-[11px] text-zinc-400">
          {JSON.stringify(subject.raw, null, 2)}
        </pre>
      </>
    ) : (
      <>
        <p className="text-[11px] text-zinc-400">Run a command</p>
        <pre className="overflow-auto whitespace-pre-wrap break-all rounded bg-zinc-950 p-1 font-mono text-[11px] text-zinc-200">
          $ {subject.command ?? "(no command given)"}
        </pre>
        <p className="text-[11px] text-zinc-500">
          in <span className="font-mono">{subject.cwd ?? "(no cwd given)"}</span>
          {subject.toolCallId ? ` · tool call ${subject.toolCallId}` : ""}
          {subject.terminalId ? ` · terminal ${subject.terminalId}` : ""}
        </p>
      </>
    );
  return (
    <div className="flex flex-col gap-1" data-testid="permission-subject" data-subject-type={subject.type}>
      {body}
    </div>
  );
}

/** What the request is about: v2's title and description and its subject; v1's tool call. */
function About({ view }: { view: PermissionView }) {
  return (
    <>
      {view.title ? (
        <p className="text-xs font-medium text-zinc-100" data-testid="permission-title">
          {view.title}
        </p>
      ) : null}
      {view.description ? <p className="text-[11px] text-zinc-300">{view.description}</p> : null}
      {view.subject ? (
        <Subject subject={view.subject} />
      ) : view.title === undefined ? (
        <ToolCallView toolCall={view.toolCall} />
      ) : null}
    </>
  );
}

export function PermissionCard({
  frame,
  view,
  shortcuts = false,
}: {
  frame: Frame;
  view: PermissionView;
  shortcuts?: boolean;
}) {
  const answer = useAnswer();
  const untrusted = useSession((s) => refusesAllowAlways(s.agent));
  const refused = (kind: string | undefined) => untrusted && kind === "allow_always";
  // What works first: a refused option keeps its place in the list, at the end.
  const options = [...view.options].sort((a, b) => Number(refused(a.kind)) - Number(refused(b.kind)));
  const primary = options.find((o) => o.kind === "allow_once") ?? options.find((o) => !refused(o.kind));
  return (
    <div className="flex flex-col gap-1.5">
      <About view={view} />
      <div className="flex flex-wrap gap-1">
        {options.map((o) => {
          const key = SHORTCUT[o.kind ?? ""];
          const isPrimary = o === primary;
          return (
            <button
              key={o.optionId}
              type="button"
              data-testid="permission-option"
              data-option-id={o.optionId}
              data-kind={o.kind ?? ""}
              data-refused={refused(o.kind) || undefined}
              data-shortcut={shortcuts ? key : undefined}
              data-primary={shortcuts && isPrimary ? "true" : undefined}
              disabled={answer.busy}
              // A refused option steps back by colour, not opacity: dimmed text fell below 4.5:1 (axe).
              className={`rounded border px-2 py-0.5 text-xs ${
                refused(o.kind)
                  ? "border-dashed border-zinc-700 text-zinc-400 hover:bg-zinc-800"
                  : (KIND_STYLE[o.kind ?? ""] ?? "border-zinc-700 text-zinc-200 hover:bg-zinc-800")
              } ${shortcuts && isPrimary ? "font-medium ring-1 ring-emerald-500/40" : ""}`}
              title={refused(o.kind) ? UNTRUSTED_NOTE : `${o.kind ?? "option"} (${o.optionId})`}
              onClick={() => void answer.reply(permissionAnswer(frame, o.optionId))}
            >
              {o.name}
              {shortcuts && key ? <Kbd k={key} /> : null}
              {shortcuts && isPrimary && key !== undefined ? <Kbd k="Enter" /> : null}
            </button>
          );
        })}
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
      {untrusted && options.some((o) => o.kind === "allow_always") ? (
        <p data-testid="untrusted-note" className="text-[11px] text-amber-300/90">
          {UNTRUSTED_NOTE}
        </p>
      ) : null}
      <AnswerFailure error={answer.error} />
    </div>
  );
}
