"use client";
/**
 * One item of an app-server turn: the user's text, the agent's Markdown, reasoning, a command
 * with its output and exit code, file changes as diffs, notices, and any other item as sent;
 * its approval card while the turn waits on it (an inline request: the session view's answer keys work on it). Clicking it selects its frames; "#seq" shows them.
 */
import { memo } from "react";
import { approvalOutcome } from "@/lib/folds/codex-app-server/items";
import type { AsItem, CommandItem, NoticeItem, PermissionsItem } from "@/lib/folds/codex-app-server/view";
import { formatMs } from "@/lib/folds/session-view-format";
import { str } from "@/lib/protocol/json";
import { StreamingMarkdown } from "../session-view/Markdown";
import { RawDisclosure } from "../session-view/RawDisclosure";
import { ItemRow } from "../session-view/ItemView";
import { INLINE_REQUEST } from "../answer/shortcuts";
import { ApprovalCard } from "./ApprovalCard";
import { FileChangeView } from "./UnifiedDiff";

const label = "mb-1 text-[10px] font-semibold uppercase tracking-wider";
const card = "flex flex-col gap-1 rounded-md border border-zinc-800 bg-zinc-900/30 px-2.5 py-1.5";

const STATUS_STYLE: Record<string, string> = {
  completed: "text-emerald-300",
  failed: "text-red-300",
  declined: "text-red-300",
  inProgress: "text-sky-300",
};

function Status({ status }: { status: string | undefined }) {
  if (!status) return null;
  return (
    <span data-testid="as-status" className={`text-[10px] ${STATUS_STYLE[status] ?? "text-zinc-400"}`}>
      {status}
    </span>
  );
}

function CommandView({ item }: { item: CommandItem }) {
  return (
    <div data-testid="as-command" className={card}>
      <div className="flex items-center gap-2 text-[11px]">
        <span className="text-zinc-500">$</span>
        <code className="min-w-0 flex-1 truncate font-mono text-zinc-200" title={item.command}>
          {item.command ?? "(command)"}
        </code>
        <Status status={item.status} />
        {item.exitCode !== undefined ? (
          <span data-testid="as-exit-code" className={item.exitCode === 0 ? "text-zinc-400" : "text-red-300"}>
            exit {item.exitCode}
          </span>
        ) : null}
        {item.durationMs !== undefined ? <span className="text-zinc-500">{formatMs(item.durationMs)}</span> : null}
      </div>
      {item.cwd ? <div className="truncate font-mono text-[10px] text-zinc-600">in {item.cwd}</div> : null}
      {item.output ? (
        <pre
          data-testid="as-output"
          className="max-h-60 overflow-auto whitespace-pre-wrap break-all rounded bg-zinc-950 p-1.5 font-mono text-[11px] text-zinc-300"
        >
          {item.output}
        </pre>
      ) : null}
    </div>
  );
}

/** What the model asked for beyond the sandbox (request_permissions): network access, paths to read or write. */
function PermissionsView({ item }: { item: PermissionsItem }) {
  const rows: Array<[string, string[]]> = [
    ["read", item.read],
    ["write", item.write],
  ];
  return (
    <div data-testid="as-permissions" className={card}>
      <div className="flex items-center gap-2 text-[11px]">
        <span className="text-zinc-300">Permissions asked</span>
        {item.network ? (
          <span data-testid="as-permissions-network" className="rounded bg-zinc-800 px-1.5 text-[10px] text-zinc-200">
            network
          </span>
        ) : null}
        {item.cwd ? <span className="min-w-0 truncate font-mono text-[10px] text-zinc-600">in {item.cwd}</span> : null}
      </div>
      {rows.map(([access, paths]) =>
        paths.length ? (
          <div key={access} data-testid={`as-permissions-${access}`} className="flex gap-2 text-[11px]">
            <span className="w-10 shrink-0 text-zinc-500">{access}</span>
            <span className="min-w-0 break-all font-mono text-zinc-300">{paths.join(", ")}</span>
          </div>
        ) : null,
      )}
    </div>
  );
}

function NoticeView({ item }: { item: NoticeItem }) {
  return (
    <div
      data-testid="as-notice"
      data-level={item.level}
      className={`rounded border px-2 py-1 text-[11px] ${
        item.level === "error" ? "border-red-800/60 text-red-200" : "border-amber-800/50 text-amber-200/90"
      }`}
    >
      <span className="font-mono text-[10px] opacity-70">{item.method}</span> {item.message}
      {item.willRetry ? <span className="text-zinc-400"> (retrying)</span> : null}
      {item.details ? <div className="mt-0.5 text-zinc-400">{item.details}</div> : null}
    </div>
  );
}

function ItemBody({ item }: { item: AsItem }) {
  switch (item.type) {
    case "userMessage":
      return (
        <div
          data-testid="user-message"
          className="ml-auto max-w-[85%] rounded-lg border border-sky-900/60 bg-sky-950/40 px-3 py-2 text-zinc-100"
        >
          <div className={`${label} text-sky-400/80`}>You</div>
          <p className="whitespace-pre-wrap break-words text-[13px] leading-relaxed">{item.text}</p>
        </div>
      );
    case "agentMessage":
    case "plan":
      return (
        <div data-testid="agent-message" data-completed={item.completed} className="px-1">
          <div className={`${label} text-amber-400/80`}>{item.type === "plan" ? "Plan" : "Agent"}</div>
          <StreamingMarkdown text={item.text} />
        </div>
      );
    case "reasoning":
      return (
        <details
          data-testid="thought"
          className="group rounded-md border border-zinc-800/80 bg-zinc-900/30 px-2.5 py-1.5"
        >
          <summary
            className="flex cursor-pointer select-none items-center gap-2 text-[11px] text-zinc-400 hover:text-zinc-200"
            onClick={(e) => e.stopPropagation()}
          >
            <span className="transition-transform group-open:rotate-90">▸</span>
            <span className="font-medium italic">Reasoning</span>
            <span className="truncate text-zinc-600">{item.summary.at(-1)?.split("\n")[0]}</span>
          </summary>
          <div className="mt-1.5 border-l-2 border-zinc-800 pl-2.5 opacity-80">
            {[...item.summary, ...item.content].map((text, i) => (
              <StreamingMarkdown key={i} text={text} />
            ))}
          </div>
        </details>
      );
    case "commandExecution":
      return <CommandView item={item} />;
    case "fileChange":
      return (
        <div data-testid="as-file-change" className={card}>
          <div className="flex items-center gap-2 text-[11px] text-zinc-400">
            <span>
              {item.changes.length} file change{item.changes.length === 1 ? "" : "s"}
            </span>
            <Status status={item.status} />
          </div>
          {item.changes.map((c, i) => (
            <FileChangeView key={i} change={c} />
          ))}
        </div>
      );
    case "permissions":
      return <PermissionsView item={item} />;
    case "notice":
      return <NoticeView item={item} />;
    case "other":
      return (
        <div data-testid="as-other" data-item-type={item.itemType} className={card}>
          <div className="flex items-center gap-2 text-[11px]">
            <span className="font-mono text-zinc-300">{item.itemType}</span>
            <span className="min-w-0 truncate font-mono text-zinc-500">{otherSummary(item.item)}</span>
            <Status status={item.status} />
          </div>
          <RawDisclosure label="item" value={item.item} />
        </div>
      );
  }
}

/** What names another item at a glance: an MCP tool call's server and tool, a search's query, an image's path. */
function otherSummary(item: Record<string, unknown>): string {
  const tool = str(item.tool);
  const server = str(item.server);
  if (tool !== undefined) return server !== undefined ? `${server} · ${tool}` : tool;
  return str(item.query) ?? str(item.path) ?? "";
}

interface Props {
  item: AsItem;
  highlighted: boolean;
  /** The approval still waits and this page can answer it. */
  answerable: boolean;
  onSelect: (item: AsItem) => void;
  onShowFrames: (item: AsItem) => void;
}

export const AsItemView = memo(function AsItemView({ item, highlighted, answerable, onSelect, onShowFrames }: Props) {
  const a = item.approval;
  return (
    <ItemRow testId="as-item" item={item} highlighted={highlighted} onSelect={onSelect} onShowFrames={onShowFrames}>
      <div className="flex min-w-0 flex-col gap-1">
        <ItemBody item={item} />
        {a && answerable ? (
          <section
            id={`request-${a.requestSeq}`}
            data-testid={INLINE_REQUEST}
            data-method={a.method}
            aria-label={`The agent asks: ${a.method}`}
            onClick={(e) => e.stopPropagation()}
            className="flex flex-col gap-1.5 rounded-md border border-amber-500/50 bg-amber-500/5 p-2"
          >
            <header className="flex items-center gap-2 text-[11px]">
              <span className="font-medium text-amber-200">The agent asks</span>
              <span className="font-mono text-amber-300/90">{a.method}</span>
            </header>
            {typeof a.params.reason === "string" ? (
              <p className="text-[11px] text-zinc-300">{a.params.reason}</p>
            ) : null}
            <ApprovalCard id={a.requestId} method={a.method} params={a.params} shortcuts />
          </section>
        ) : a ? (
          <div data-testid="as-approval-outcome" className="text-[10px] text-zinc-500">
            approval ({a.method}): <span className="text-zinc-300">{approvalOutcome(a)}</span>
          </div>
        ) : null}
      </div>
    </ItemRow>
  );
});
