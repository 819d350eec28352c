"use client";
/** Plans, session-state events and unknown updates: compact rows in the conversation. */
import type { EventItem, PlanItem, UnknownItem } from "@/lib/folds/session-view";
import { eventSummary } from "@/lib/folds/session-view-format";

const PRIORITY_STYLE: Record<string, string> = {
  high: "text-red-300 ring-red-500/30",
  medium: "text-amber-300 ring-amber-500/30",
  low: "text-zinc-400 ring-zinc-500/30",
};
const STATUS_MARK: Record<string, string> = { pending: "○", in_progress: "◐", completed: "●" };

export function PlanView({ item }: { item: PlanItem }) {
  const done = item.entries.filter((e) => e.status === "completed").length;
  return (
    <div data-testid="plan" className="rounded-md border border-zinc-800 bg-zinc-900/40 px-2.5 py-2">
      <div className="mb-1 flex items-center gap-2 text-[10px] font-semibold uppercase tracking-wider text-zinc-400">
        Plan{" "}
        <span className="font-normal normal-case tracking-normal text-zinc-600">
          {done}/{item.entries.length} done
        </span>
      </div>
      <ol className="flex flex-col gap-0.5 text-xs">
        {item.entries.map((e, i) => (
          <li
            key={i}
            data-testid="plan-entry"
            data-status={e.status}
            data-priority={e.priority}
            className="flex items-start gap-2"
          >
            <span
              className={
                e.status === "completed"
                  ? "text-emerald-400"
                  : e.status === "in_progress"
                    ? "text-sky-300"
                    : "text-zinc-500"
              }
              title={e.status}
            >
              {STATUS_MARK[e.status] ?? "?"}
            </span>
            <span
              className={`min-w-0 flex-1 ${e.status === "completed" ? "text-zinc-500 line-through" : "text-zinc-200"}`}
            >
              {e.content}
            </span>
            <span
              className={`shrink-0 rounded px-1 text-[10px] ring-1 ring-inset ${PRIORITY_STYLE[e.priority] ?? PRIORITY_STYLE.low}`}
            >
              {e.priority}
            </span>
          </li>
        ))}
      </ol>
    </div>
  );
}

export function EventLine({ item }: { item: EventItem }) {
  const { label, text } = eventSummary(item.update);
  const u = item.update;
  const head = (
    <>
      <span className="text-zinc-600">●</span>
      <span className="shrink-0 text-zinc-400">{label}</span>
      <span className="min-w-0 truncate text-zinc-500">{text}</span>
    </>
  );
  if (u.sessionUpdate === "available_commands_update" && u.availableCommands.length > 0) {
    return (
      <details data-testid="sv-event" data-variant={u.sessionUpdate} className="text-[11px]">
        <summary className="flex cursor-pointer select-none items-center gap-2" onClick={(e) => e.stopPropagation()}>
          {head}
        </summary>
        <ul className="mt-1 grid grid-cols-[auto_1fr] gap-x-3 pl-4 font-mono text-[11px]">
          {u.availableCommands.map((c) => (
            <li key={c.name} className="contents">
              <span className="text-zinc-300">/{c.name}</span>
              <span className="truncate font-sans text-zinc-500">{c.description}</span>
            </li>
          ))}
        </ul>
      </details>
    );
  }
  return (
    <div data-testid="sv-event" data-variant={u.sessionUpdate} className="flex items-center gap-2 text-[11px]">
      {head}
    </div>
  );
}

const RAW_SHOWN = 4000;

export function UnknownView({ item }: { item: UnknownItem }) {
  const raw = JSON.stringify(item.update, null, 2) ?? String(item.update);
  return (
    <div
      data-testid="sv-unknown"
      data-variant={item.variant}
      className="rounded-md border border-amber-700/40 bg-amber-950/20 px-2.5 py-1.5 text-[11px]"
    >
      <div className="text-amber-300">
        unknown update: <span className="font-mono">{item.variant}</span>{" "}
        <span className="text-zinc-500">· {item.reason}</span>
      </div>
      <pre className="mt-1 max-h-40 overflow-auto whitespace-pre-wrap break-all font-mono text-zinc-400">
        {raw.length > RAW_SHOWN ? `${raw.slice(0, RAW_SHOWN)}\n… (${raw.length - RAW_SHOWN} more characters)` : raw}
      </pre>
    </div>
  );
}
