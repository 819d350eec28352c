"use client";
/** One frame in the log: a dense summary line that expands to the full JSON. */
import { memo } from "react";
import type { Frame, FrameKind } from "@/lib/frame";
import { formatId, formatLatency, formatTime, prettyFrame } from "./format";

export const KIND_STYLE: Record<FrameKind, string> = {
  request: "text-sky-300 bg-sky-500/10 ring-sky-500/30",
  response: "text-emerald-300 bg-emerald-500/10 ring-emerald-500/30",
  notification: "text-violet-300 bg-violet-500/10 ring-violet-500/30",
  invalid: "text-red-300 bg-red-500/15 ring-red-500/40",
};

/** Column template shared with the header row in FrameLog. */
export const FRAME_GRID = "grid grid-cols-[1.25rem_3.5rem_6.25rem_6.5rem_minmax(7rem,13rem)_3.5rem_5.5rem_minmax(0,1fr)] gap-x-3";

/** A JSON-RPC error object inside a response, summarised. */
function rpcError(frame: Frame): string | undefined {
  const m = frame.message as { error?: { code?: unknown; message?: unknown } } | undefined;
  if (frame.kind !== "response" || typeof m !== "object" || m === null || !m.error) return undefined;
  return `error ${String(m.error.code)}: ${String(m.error.message)}`;
}

interface Props {
  frame: Frame;
  expanded: boolean;
  onToggle: (seq: number) => void;
}

export const FrameRow = memo(function FrameRow({ frame, expanded, onToggle }: Props) {
  const toAgent = frame.dir === "to-agent";
  const problem = frame.error ?? rpcError(frame);
  return (
    <div
      data-testid="frame-row"
      data-seq={frame.seq}
      data-kind={frame.kind}
      data-dir={frame.dir}
      data-method={frame.method ?? ""}
      className={`border-b border-zinc-800/70 ${expanded ? "bg-zinc-900" : ""}`}
    >
      <button
        type="button"
        onClick={() => onToggle(frame.seq)}
        aria-expanded={expanded}
        className={`${FRAME_GRID} w-full items-center px-3 py-[3px] text-left font-mono text-xs hover:bg-zinc-800/60 focus:outline-none focus-visible:bg-zinc-800`}
      >
        <span
          className={toAgent ? "text-sky-400" : "text-amber-400"}
          title={toAgent ? "to agent (client → agent)" : "from agent (agent → client)"}
        >
          {toAgent ? "→" : "←"}
        </span>
        <span className="text-right text-zinc-500 tabular-nums">{frame.seq}</span>
        <span className="text-zinc-500 tabular-nums">{formatTime(frame.ts)}</span>
        <span>
          <span className={`rounded px-1.5 py-px text-[10px] uppercase tracking-wide ring-1 ring-inset ${KIND_STYLE[frame.kind]}`}>
            {frame.kind}
          </span>
        </span>
        <span className="truncate text-zinc-100" title={frame.method}>
          {frame.method ?? ""}
        </span>
        <span className="truncate text-zinc-400 tabular-nums">{formatId(frame.id)}</span>
        <span data-testid="frame-latency" className="text-right text-emerald-400/90 tabular-nums">
          {formatLatency(frame.latencyMs)}
        </span>
        <span className="truncate">
          {problem ? <span className="mr-2 text-red-400">{problem}</span> : null}
          <span className="text-zinc-500">{frame.raw.slice(0, 300)}</span>
        </span>
      </button>
      {expanded ? (
        <pre className="max-h-96 overflow-auto whitespace-pre-wrap break-all border-t border-zinc-800 bg-zinc-950 px-4 py-2 font-mono text-xs text-zinc-200">
          {prettyFrame(frame)}
        </pre>
      ) : null}
    </div>
  );
});
