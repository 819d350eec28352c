"use client";
/** One row of the inspector's timeline: a frame, or a stderr / lifecycle event. */
import { memo, type CSSProperties } from "react";
import { frameBytes, type Frame, type FrameKind } from "@/lib/protocol/frame";
import { CHECK_LABEL, type FrameCheck } from "@/lib/folds/static-checks";
import type { SchemaVariant } from "@/lib/protocol/schema-check";
import { isErrorResponse, type TimelineEvent } from "@/lib/folds/frame-filter";
import { formatBytes, formatId, formatLatency, formatTime } from "../format";
import { WaitingIcon, WarningIcon } from "./check-icons";

export const KIND_STYLE: Record<FrameKind, string> = {
  request: "text-sky-300 bg-sky-500/10 ring-sky-500/30",
  response: "text-emerald-300 bg-emerald-500/10 ring-emerald-500/30",
  notification: "text-violet-300 bg-violet-500/10 ring-violet-500/30",
  invalid: "text-red-300 bg-red-500/15 ring-red-500/40",
};

/** A batch's badge: a line of messages, neither one kind nor invalid. */
export const BATCH_STYLE = "text-cyan-300 bg-cyan-500/10 ring-cyan-500/30";

/** Column template shared with the header row. */
export const FRAME_GRID =
  "grid grid-cols-[1rem_3.5rem_6rem_6.25rem_minmax(6rem,11rem)_3rem_4.5rem_4rem_7.5rem_minmax(0,1fr)] gap-x-2";

/** Fixed row height: the virtual list positions rows by index. */
export const ROW_HEIGHT = 22;

const sizes = new WeakMap<Frame, number>();
function sizeOf(frame: Frame): number {
  let n = sizes.get(frame);
  if (n === undefined) sizes.set(frame, (n = frameBytes(frame)));
  return n;
}

/** A JSON-RPC error object inside a response, summarised. */
function rpcError(frame: Frame): string | undefined {
  if (!isErrorResponse(frame)) return undefined;
  const e = (frame.message as { error?: { code?: unknown; message?: unknown } }).error;
  return `error ${String(e?.code)}: ${String(e?.message)}`;
}

/** Absolutely positioned at `top` inside the virtual list's sizer. */
export const rowStyle = (top: number): CSSProperties => ({
  position: "absolute",
  top: 0,
  left: 0,
  width: "100%",
  height: ROW_HEIGHT,
  transform: `translateY(${top}px)`,
});

interface FrameRowProps {
  frame: Frame;
  selected: boolean;
  highlighted?: boolean;
  checks: readonly FrameCheck[];
  /** The schema variant that judged the frame, when not stable ("unstable", "v2"). */
  variant?: SchemaVariant;
  /** The inner MCP method of an `mcp/message` frame. */
  inner?: string;
  /** A batch's number of parts, when the frame is a batch its protocol carries (ACP v2). */
  batch?: number;
  onSelect: (seq: number) => void;
  top: number;
  /** The row starts an expanded fold of chunks: offer folding it again. */
  onCollapseFold?: (firstSeq: number) => void;
}

const sameChecks = (a: readonly FrameCheck[], b: readonly FrameCheck[]) =>
  a === b || (a.length === b.length && a.every((c, i) => c.code === b[i]!.code && c.message === b[i]!.message));

/** Which schema variant accepted (or judged) a frame, when it is not the stable one. */
export function SchemaBadge({ variant }: { variant: SchemaVariant }) {
  return (
    <span
      data-testid="schema-variant"
      title={`checked against the ${variant === "v2" ? "v2 draft" : "unstable v1"} schema: no stable schema defines it`}
      className="ml-1 rounded bg-violet-500/15 px-1 py-px text-[10px] text-violet-300"
    >
      {variant}
    </span>
  );
}

export const FrameRow = memo(
  function FrameRow({
    frame,
    selected,
    highlighted = false,
    checks,
    variant,
    inner,
    batch,
    onSelect,
    top,
    onCollapseFold,
  }: FrameRowProps) {
    const toAgent = frame.dir === "to-agent";
    // A batch is the wire's `invalid` kind (ACP v1 has none) but its protocol's message: no error.
    const problem = batch === undefined ? (frame.error ?? rpcError(frame)) : undefined;
    const first = checks[0];
    return (
      <div
        data-testid="frame-row"
        data-seq={frame.seq}
        data-kind={frame.kind}
        data-batch={batch}
        data-dir={frame.dir}
        data-method={frame.method ?? ""}
        data-selected={selected}
        data-highlighted={highlighted}
        data-checks={checks.map((c) => c.code).join(" ")}
        data-schema={variant ?? ""}
        data-injected={frame.injected ? "true" : undefined}
        role="option"
        aria-selected={selected}
        onClick={() => onSelect(frame.seq)}
        style={rowStyle(top)}
        className={`${FRAME_GRID} cursor-default items-center border-b border-zinc-800/60 px-3 font-mono text-xs ${
          selected
            ? "bg-sky-900/40 group-focus-visible/log:shadow-[inset_0_0_0_1px_rgba(56,189,248,0.9)]"
            : highlighted
              ? "bg-amber-400/10 hover:bg-amber-400/15"
              : "hover:bg-zinc-800/60"
        } ${highlighted ? "shadow-[inset_2px_0_0_0_rgba(251,191,36,0.7)]" : ""}`}
      >
        {onCollapseFold ? (
          // Not a button: an option holds no control. The toolbar toggle folds every run; arrowing onto a fold opens it.
          <span
            data-testid="fold-collapse"
            aria-hidden="true"
            title="Fold these chunks into one row again"
            className="cursor-pointer text-amber-400 hover:text-amber-200"
            onClick={(e) => {
              e.stopPropagation();
              onCollapseFold(frame.seq);
            }}
          >
            ▾
          </span>
        ) : (
          <span
            className={frame.injected ? "text-violet-400" : toAgent ? "text-sky-400" : "text-amber-400"}
            title={
              frame.injected
                ? "injected by the playground into a tapped conversation"
                : toAgent
                  ? "to agent (client → agent)"
                  : "from agent (agent → client)"
            }
          >
            {toAgent ? "→" : "←"}
          </span>
        )}
        <span className="text-right text-zinc-500 tabular-nums">{frame.seq}</span>
        <span className="text-zinc-500 tabular-nums">{formatTime(frame.ts)}</span>
        <span>
          <span
            className={`rounded px-1.5 py-px text-[10px] uppercase tracking-wide ring-1 ring-inset ${batch === undefined ? KIND_STYLE[frame.kind] : BATCH_STYLE}`}
          >
            {batch === undefined ? frame.kind : "batch"}
          </span>
        </span>
        <span className="truncate text-zinc-100" title={inner ? `${frame.method} · MCP ${inner}` : frame.method}>
          {batch === undefined ? (frame.method ?? "") : `batch of ${batch}`}
          {inner ? (
            <span data-testid="mcp-inner" className="ml-1 text-violet-300">
              · {inner}
            </span>
          ) : null}
          {variant && variant !== "stable" ? <SchemaBadge variant={variant} /> : null}
        </span>
        <span className="truncate text-zinc-400 tabular-nums">{formatId(frame.id)}</span>
        <span data-testid="frame-latency" className="text-right text-emerald-400/90 tabular-nums">
          {formatLatency(frame.latencyMs)}
        </span>
        <span className="text-right text-zinc-500 tabular-nums">{formatBytes(sizeOf(frame))}</span>
        <span className="truncate" title={checks.map((c) => c.message).join("\n")}>
          {first ? (
            <span
              data-testid="frame-check"
              className={`rounded px-1 py-px text-[10px] ${
                first.code === "unanswered" ? "bg-amber-500/15 text-amber-300" : "bg-red-500/15 text-red-300"
              }`}
            >
              {first.code === "unanswered" ? <WaitingIcon /> : <WarningIcon />}
              {first.code === "unanswered" ? first.message.replace("no response after ", "") : CHECK_LABEL[first.code]}
              {checks.length > 1 ? ` +${checks.length - 1}` : ""}
            </span>
          ) : null}
        </span>
        <span className="truncate">
          {problem ? <span className="mr-2 text-red-400">{problem}</span> : null}
          <span className="text-zinc-500">{frame.raw.slice(0, 300)}</span>
        </span>
      </div>
    );
  },
  (a, b) =>
    a.frame === b.frame &&
    a.selected === b.selected &&
    a.highlighted === b.highlighted &&
    a.top === b.top &&
    a.onSelect === b.onSelect &&
    a.variant === b.variant &&
    a.inner === b.inner &&
    a.batch === b.batch &&
    a.onCollapseFold === b.onCollapseFold &&
    sameChecks(a.checks, b.checks),
);

const EVENT_STYLE: Record<TimelineEvent["type"], string> = {
  stderr: "text-zinc-400 bg-zinc-500/10 ring-zinc-500/30",
  started: "text-emerald-300 bg-emerald-500/10 ring-emerald-500/30",
  attached: "text-sky-300 bg-sky-500/10 ring-sky-500/30",
  exited: "text-amber-300 bg-amber-500/10 ring-amber-500/30",
  error: "text-red-300 bg-red-500/15 ring-red-500/40",
  transport: "text-violet-300 bg-violet-500/10 ring-violet-500/30",
};

export const EventRow = memo(function EventRow({ event, top }: { event: TimelineEvent; top: number }) {
  return (
    <div
      data-testid="event-row"
      data-type={event.type}
      role="option"
      aria-selected={false}
      aria-disabled="true"
      style={rowStyle(top)}
      title={event.text}
      className={`${FRAME_GRID} items-center border-b border-zinc-800/60 bg-zinc-900/40 px-3 font-mono text-xs`}
    >
      <span className="text-zinc-500">{event.type === "stderr" ? "!" : "●"}</span>
      <span />
      <span className="text-zinc-500 tabular-nums">{formatTime(event.ts)}</span>
      <span>
        <span
          className={`rounded px-1.5 py-px text-[10px] uppercase tracking-wide ring-1 ring-inset ${EVENT_STYLE[event.type]}`}
        >
          {event.type}
        </span>
      </span>
      <span className="col-span-6 truncate text-zinc-400">{event.text.trimEnd().replace(/\r?\n/g, " ⏎ ")}</span>
    </div>
  );
});
