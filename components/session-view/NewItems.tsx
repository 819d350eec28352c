"use client";
/**
 * Items of the newer update kinds: compaction markers, inter-session messages, subagents (a
 * nested, collapsible conversation), agent-owned terminals and v2 activity states.
 */
import { createContext, useContext, useState } from "react";
import type {
  CompactionItem,
  SessionMessageItem,
  SessionViewState,
  StateItem,
  SubagentItem,
  TerminalItem,
  ViewItem,
} from "@/lib/folds/session-view";
import { subagentShownElsewhere } from "@/lib/folds/session-view";
import { ItemView } from "./ItemView";
import { Blocks } from "./MessageViews";
import { TerminalBlock } from "./ToolCallCard";

const COMPACTION_STYLE: Record<string, string> = {
  in_progress: "text-sky-300",
  completed: "text-emerald-300",
  failed: "text-red-300",
  cancelled: "text-zinc-400",
};

/** A context compaction: a rule across the conversation, its summary behind a disclosure. */
export function CompactionMarker({ item }: { item: CompactionItem }) {
  const status = item.status.slice(0, 40);
  return (
    <details data-testid="sv-compaction" data-status={status} className="group text-[11px]">
      <summary
        className="flex cursor-pointer select-none items-center gap-2 text-zinc-400"
        onClick={(e) => e.stopPropagation()}
      >
        <span className="h-px flex-1 bg-zinc-700" />
        <span className="font-medium">context compacted</span>
        <span data-testid="compaction-status" className={COMPACTION_STYLE[status] ?? "text-amber-300"}>
          {status.replace("_", " ")}
        </span>
        {item.summary.length ? <span className="text-zinc-600 group-open:hidden">▸ summary</span> : null}
        <span className="h-px flex-1 bg-zinc-700" />
      </summary>
      <div data-testid="compaction-summary" className="mx-6 mt-1 border-l-2 border-zinc-800 pl-2.5 text-zinc-300">
        {item.error ? <p className="text-red-300">{item.error.slice(0, 2000)}</p> : null}
        {item.summary.length ? <Blocks blocks={item.summary} markdown /> : <p className="text-zinc-600">no summary</p>}
      </div>
    </details>
  );
}

export function SessionMessageView({ item }: { item: SessionMessageItem }) {
  return (
    <div
      data-testid="sv-session-message"
      className="rounded-md border border-violet-900/50 bg-violet-950/20 px-2.5 py-1.5"
    >
      <div className="mb-1 flex flex-wrap gap-x-2 text-[10px] font-semibold uppercase tracking-wider text-violet-300/80">
        Session message
        <span className="font-mono font-normal normal-case tracking-normal text-zinc-500">
          {item.senderSessionId ?? "?"} → {item.recipientSessionId ?? "?"}
        </span>
      </div>
      <Blocks blocks={item.blocks} markdown={false} />
    </div>
  );
}

/**
 * The view's sessions, for subagent cards that show their child's conversation; how deep we are;
 * and the sessions whose items are being shown, outermost first (the last one holds this card).
 */
export const SessionsContext = createContext<{
  sessions: SessionViewState["sessions"];
  depth: number;
  within: readonly string[];
}>({ sessions: {}, depth: 0, within: [] });

/** Nested subagents deeper than this show their card only. */
const MAX_DEPTH = 4;

function childItems(sessions: SessionViewState["sessions"], id: string): ViewItem[] {
  const s = Object.hasOwn(sessions, id) ? sessions[id] : undefined;
  if (!s) return [];
  return [...s.history, ...s.preamble, ...s.turns.flatMap((t) => t.items)];
}

const noop = () => {};

export function SubagentCard({ item }: { item: SubagentItem }) {
  const { sessions, depth, within } = useContext(SessionsContext);
  // Only the outermost cards start open: nested ones cost nothing until asked for.
  const [open, setOpen] = useState(depth === 0);
  const elsewhere = subagentShownElsewhere(sessions, item.sessionId, within);
  const items = elsewhere ? [] : childItems(sessions, item.sessionId);
  return (
    <details
      data-testid="sv-subagent"
      data-session-id={item.sessionId}
      open={open}
      onToggle={(e) => setOpen(e.currentTarget.open)}
      className="ml-4 rounded-md border-l-2 border-violet-700/60 bg-zinc-900/30 py-1 pl-2.5 pr-1"
    >
      <summary
        data-testid="subagent-toggle"
        className="flex cursor-pointer select-none items-center gap-2 text-[11px]"
        onClick={(e) => e.stopPropagation()}
      >
        <span className="text-violet-300">subagent</span>
        <span className="min-w-0 truncate font-medium text-zinc-200">{item.title ?? item.sessionId}</span>
        {item.state ? (
          <span
            data-testid="subagent-state"
            className="rounded px-1 text-[10px] text-zinc-400 ring-1 ring-inset ring-zinc-700"
          >
            {item.state.slice(0, 40)}
            {item.stopReason ? ` · ${item.stopReason.slice(0, 40)}` : ""}
          </span>
        ) : null}
        {item.toolCallId ? (
          <span className="truncate font-mono text-[10px] text-zinc-600">from tool call {item.toolCallId}</span>
        ) : null}
        <span className="ml-auto shrink-0 text-[10px] text-zinc-600">{items.length} items</span>
      </summary>
      {open ? (
        elsewhere ? (
          <p data-testid="subagent-elsewhere" className="text-[11px] text-zinc-600">
            its conversation is {elsewhere.slice(0, 200)}
          </p>
        ) : depth >= MAX_DEPTH ? (
          <p className="text-[11px] text-zinc-600">nested too deep to show</p>
        ) : items.length ? (
          <SessionsContext.Provider value={{ sessions, depth: depth + 1, within: [...within, item.sessionId] }}>
            <div data-testid="subagent-items" className="mt-1 flex flex-col gap-1">
              {items.map((it) => (
                <ItemView key={it.seqs.first} item={it} highlighted={false} onSelect={noop} onShowFrames={noop} />
              ))}
            </div>
          </SessionsContext.Provider>
        ) : (
          <p className="text-[11px] text-zinc-600">no updates from this subagent yet</p>
        )
      ) : null}
    </details>
  );
}

export function AgentTerminalView({ item }: { item: TerminalItem }) {
  return (
    <div data-testid="sv-terminal" className="rounded-md border border-zinc-800 bg-zinc-900/60 px-2.5 py-2">
      <TerminalBlock terminalId={item.terminalId} />
    </div>
  );
}

const STATE_STYLE: Record<string, string> = {
  running: "text-sky-300",
  requires_action: "text-amber-300",
  idle: "text-zinc-400",
};

export function StateLine({ item }: { item: StateItem }) {
  const state = item.state.slice(0, 40);
  return (
    <div data-testid="sv-state" data-state={state} className="flex items-center gap-2 text-[11px]">
      <span className="text-zinc-600">●</span>
      <span className="text-zinc-400">state</span>
      <span className={STATE_STYLE[state] ?? "text-amber-300"}>{state.replace("_", " ")}</span>
      {item.stopReason ? <span className="text-zinc-500">· {item.stopReason.slice(0, 60)}</span> : null}
    </div>
  );
}
