"use client";
/** One tool call (every update and any permission request for its id merged): a card. */
import { createContext, useContext } from "react";
import type { ToolCallContent, ToolCallStatus } from "@agentclientprotocol/sdk";
import { commandLine } from "@/lib/features/answers/agent-answers";
import { terminalOf, type SessionViewState, type ToolCallItem } from "@/lib/folds/session-view";
import { ContentBlockView } from "./ContentBlockView";
import { DiffView } from "./DiffView";
import { KindIcon } from "./icons";
import { PermissionInfo } from "./PermissionInfo";
import { RawDisclosure } from "./RawDisclosure";

const STATUS_STYLE: Record<ToolCallStatus, string> = {
  pending: "bg-zinc-500/15 text-zinc-300 ring-zinc-500/30",
  in_progress: "bg-sky-500/15 text-sky-300 ring-sky-500/30",
  completed: "bg-emerald-500/15 text-emerald-300 ring-emerald-500/30",
  failed: "bg-red-500/15 text-red-300 ring-red-500/40",
};

function StatusBadge({ status }: { status: string }) {
  const style = STATUS_STYLE[status as ToolCallStatus] ?? "bg-amber-500/15 text-amber-300 ring-amber-500/30";
  return (
    <span
      data-testid="tool-status"
      className={`shrink-0 rounded px-1.5 py-px text-[10px] uppercase tracking-wide ring-1 ring-inset ${style}`}
    >
      {status === "in_progress" ? "in progress" : status}
    </span>
  );
}

/** The view's client terminals, for the tool calls that embed one. */
export const TerminalsContext = createContext<SessionViewState["terminals"]>({});

function exitText(t: NonNullable<ReturnType<typeof terminalOf>>): string {
  if (t.exitStatus?.signal) return `killed by ${t.exitStatus.signal}`;
  if (t.exitStatus?.exitCode != null) return `exit ${t.exitStatus.exitCode}`;
  return t.released ? "released" : "running";
}

/** What the agent last read of a client terminal; the command line as the agent asked for it. */
export function TerminalBlock({ terminalId }: { terminalId: string }) {
  const t = terminalOf({ terminals: useContext(TerminalsContext) }, terminalId);
  return (
    <div data-testid="tool-terminal" className="flex flex-col gap-1 font-mono text-[11px]">
      <div className="flex items-center gap-2 text-zinc-400">
        <span className="min-w-0 flex-1 truncate" title={terminalId}>
          {t?.command !== undefined ? (
            <span data-testid="terminal-command" className="text-zinc-200">
              $ {commandLine({ command: t.command, args: t.args ?? [] })}
            </span>
          ) : (
            <>
              terminal <code className="text-zinc-200">{terminalId}</code>
            </>
          )}
        </span>
        {t && (
          <span data-testid="terminal-status" className="shrink-0 text-zinc-500">
            {t.agentOwned ? "agent terminal · " : ""}
            {exitText(t)}
          </span>
        )}
      </div>
      {t?.output === undefined ? (
        <p className="text-zinc-600">no output read yet</p>
      ) : t.output === "" ? (
        <p data-testid="terminal-output" className="text-zinc-600">
          (no output)
        </p>
      ) : (
        <pre
          data-testid="terminal-output"
          className="max-h-60 overflow-auto whitespace-pre-wrap break-all rounded bg-zinc-950 px-2 py-1 text-zinc-300"
        >
          {t.truncated ? "… (earlier output truncated)\n" : ""}
          {t.output}
        </pre>
      )}
    </div>
  );
}

function ToolContent({ content }: { content: ToolCallContent }) {
  switch (content.type) {
    case "diff":
      // Content from the agent: only a diff with string texts and path is drawn.
      if (
        typeof content.path !== "string" ||
        typeof content.newText !== "string" ||
        (content.oldText != null && typeof content.oldText !== "string")
      )
        return <pre className="font-mono text-[11px] text-zinc-400">malformed diff</pre>;
      return <DiffView path={content.path} oldText={content.oldText} newText={content.newText} meta={content._meta} />;
    case "terminal":
      return <TerminalBlock terminalId={String(content.terminalId)} />;
    case "content":
      // Content from the agent: a chunk may carry anything under `content`.
      if (typeof content.content !== "object" || content.content === null)
        return <pre className="font-mono text-[11px] text-zinc-400">malformed tool content</pre>;
      return content.content.type === "text" ? (
        <pre className="max-h-60 overflow-auto whitespace-pre-wrap break-all rounded bg-zinc-950 px-2 py-1 font-mono text-[11px] text-zinc-300">
          {content.content.text}
        </pre>
      ) : (
        <ContentBlockView block={content.content} />
      );
    default: {
      const other: { type?: unknown } = content;
      return <pre className="font-mono text-[11px] text-zinc-400">unknown tool content: {String(other.type)}</pre>;
    }
  }
}

/** What the agent sent for this call, without the view's bookkeeping. */
function rawFields({ seqs: _seqs, permission: _permission, outOfTurn: _o, type: _t, ...rest }: ToolCallItem): object {
  return rest;
}

export function ToolCallCard({ item }: { item: ToolCallItem }) {
  const status = item.status ?? "pending";
  return (
    <div
      data-testid="tool-call"
      data-status={status}
      data-tool-call-id={item.toolCallId}
      className="flex flex-col gap-1.5 rounded-md border border-zinc-800 bg-zinc-900/60 px-2.5 py-2"
    >
      <div className="flex items-center gap-2">
        <KindIcon kind={item.kind} />
        <span
          data-testid="tool-title"
          className="min-w-0 flex-1 truncate text-xs font-medium text-zinc-100"
          title={item.title}
        >
          {item.title ?? item.name ?? item.toolCallId}
        </span>
        <StatusBadge status={status} />
      </div>
      {item.locations?.length ? (
        <ul className="flex flex-wrap gap-x-3 font-mono text-[11px] text-zinc-500">
          {item.locations.map((l, i) => (
            <li key={i} data-testid="tool-location">
              {l.path}
              {l.line != null ? `:${l.line}` : ""}
            </li>
          ))}
        </ul>
      ) : null}
      {item.content?.map((c, i) => (
        <ToolContent key={i} content={c} />
      ))}
      {item.permission ? <PermissionInfo permission={item.permission} /> : null}
      {item.rawInput !== undefined || item.rawOutput !== undefined ? (
        <RawDisclosure label="raw input/output" value={{ rawInput: item.rawInput, rawOutput: item.rawOutput }} />
      ) : (
        <RawDisclosure label="raw tool call" value={rawFields(item)} />
      )}
    </div>
  );
}
