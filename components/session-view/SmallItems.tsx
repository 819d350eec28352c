"use client";
/** Plans, session-state events and unknown updates: compact rows in the conversation. */
import { NOT_DECODED, type EventItem, type PlanItem, type UnknownItem } from "@/lib/folds/session-view";
import { eventSummary } from "@/lib/folds/session-view-format";
import { StreamingMarkdown } from "./Markdown";
import { RawDisclosure } from "./RawDisclosure";

const PRIORITY_STYLE: Record<string, string> = {
  high: "text-red-300 ring-red-500/30",
  medium: "text-amber-300 ring-amber-500/30",
  low: "text-zinc-400 ring-zinc-500/30",
};
const STATUS_MARK: Record<string, string> = { pending: "○", in_progress: "◐", completed: "●" };

export function PlanView({ item }: { item: PlanItem }) {
  const done = item.entries.filter((e) => e.status === "completed").length;
  const form = item.form ?? "items";
  return (
    <div
      data-testid="plan"
      data-plan-id={item.planId}
      data-form={form}
      data-removed={item.removed ? "true" : undefined}
      className={`rounded-md border border-zinc-800 bg-zinc-900/40 px-2.5 py-2 ${item.removed ? "opacity-60" : ""}`}
    >
      <div className="mb-1 flex items-center gap-2 text-[10px] font-semibold uppercase tracking-wider text-zinc-400">
        Plan{" "}
        {item.planId !== undefined ? (
          <span className="truncate font-mono font-normal normal-case tracking-normal text-zinc-500">
            {item.planId.slice(0, 80)}
          </span>
        ) : null}
        {form === "items" ? (
          <span className="font-normal normal-case tracking-normal text-zinc-600">
            {done}/{item.entries.length} done
          </span>
        ) : null}
        {item.removed ? (
          <span data-testid="plan-removed" className="font-normal normal-case tracking-normal text-red-300/80">
            removed
          </span>
        ) : null}
      </div>
      {form === "markdown" && item.markdown !== undefined ? (
        <div data-testid="plan-markdown" className={item.removed ? "line-through" : ""}>
          <StreamingMarkdown text={item.markdown} />
        </div>
      ) : null}
      {form === "file" && item.uri !== undefined ? (
        <p data-testid="plan-file" className="break-all font-mono text-xs text-zinc-300">
          in file {item.uri}
        </p>
      ) : null}
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

const SEVERITY_STYLE: Record<string, { dot: string; text: string }> = {
  info: { dot: "text-sky-400", text: "text-sky-200" },
  warning: { dot: "text-amber-400", text: "text-amber-200" },
  error: { dot: "text-red-400", text: "text-red-200" },
};

export function EventLine({ item }: { item: EventItem }) {
  const { label, text } = eventSummary(item.update);
  const u = item.update;
  if (u.sessionUpdate === "notice") {
    const sev = SEVERITY_STYLE[u.severity] ?? SEVERITY_STYLE.info!;
    return (
      <div
        data-testid="sv-event"
        data-variant="notice"
        data-severity={u.severity}
        className="flex items-start gap-2 rounded bg-zinc-900/40 px-1.5 py-0.5 text-[11px]"
      >
        <span className={sev.dot}>●</span>
        <span className={`shrink-0 font-medium ${sev.text}`}>{u.title.slice(0, 300)}</span>
        {u.description ? (
          <span className="min-w-0 break-words text-zinc-400">{u.description.slice(0, 2000)}</span>
        ) : null}
        <span className="ml-auto shrink-0 text-[10px] uppercase text-zinc-600">{u.severity.slice(0, 20)}</span>
      </div>
    );
  }
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

/**
 * An update the view does not render: one line saying whether its kind is valid in some schema
 * (and so only not rendered, or malformed) or in none, the raw update behind a disclosure.
 */
export function UnknownView({ item }: { item: UnknownItem }) {
  const variant = item.variant.slice(0, 80);
  const known = item.validIn !== undefined;
  const notRendered = known && item.reason === NOT_DECODED;
  return (
    <div
      data-testid="sv-unknown"
      data-variant={variant}
      data-valid-in={item.validIn}
      className="flex flex-wrap items-baseline gap-x-2 text-[11px]"
    >
      <span className={known ? "text-zinc-500" : "text-amber-300"}>
        {notRendered
          ? `valid ${item.validIn} update, not rendered:`
          : known
            ? `malformed ${item.validIn} update:`
            : "unknown update kind:"}
      </span>
      <span className="font-mono text-zinc-300">{variant}</span>
      {notRendered ? null : <span className="min-w-0 truncate text-zinc-600">· {item.reason.slice(0, 200)}</span>}
      <RawDisclosure label="raw" value={item.update} />
    </div>
  );
}
