"use client";
/** An ACP `diff` ({ path, oldText, newText }) as a line diff: in tool call cards and in the cards that answer the agent. */
import { useMemo } from "react";
import { diffRows, diffStats } from "@/lib/folds/session-view-format";

const ROW_STYLE = {
  add: "bg-emerald-500/10 text-emerald-200",
  del: "bg-red-500/10 text-red-200",
  same: "text-zinc-400",
} as const;
const SIGN = { add: "+", del: "-", same: " " } as const;

interface Props {
  path: string;
  oldText?: string | null;
  newText: string;
  /** Gemini marks a new file with `_meta.kind: "add"` and an empty oldText. */
  meta?: { [key: string]: unknown } | null;
}

export function DiffView({ path, oldText, newText, meta }: Props) {
  const rows = useMemo(() => diffRows(oldText, newText), [oldText, newText]);
  const { added, removed } = diffStats(rows ?? []);
  return (
    <div data-testid="tool-diff" data-path={path} className="overflow-hidden rounded border border-zinc-800">
      <div className="flex items-center gap-2 border-b border-zinc-800 bg-zinc-900 px-2 py-1 font-mono text-[11px]">
        <span className="truncate text-zinc-300" title={path}>
          {path}
        </span>
        {oldText == null || meta?.kind === "add" ? <span className="text-sky-300">new file</span> : null}
        {rows ? (
          <>
            <span className="ml-auto text-emerald-400">+{added}</span>
            <span className="text-red-400">-{removed}</span>
          </>
        ) : null}
      </div>
      <div className="max-h-72 overflow-auto bg-zinc-950 py-0.5 font-mono text-[11px] leading-snug">
        {rows === undefined ? (
          <p data-testid="diff-too-large" className="px-2 py-1 text-zinc-500">
            too large to diff here
          </p>
        ) : null}
        {rows?.map((r, i) =>
          r.type === "skip" ? (
            <div key={i} className="px-2 text-zinc-600">
              ⋯ {r.count} unchanged line{r.count === 1 ? "" : "s"}
            </div>
          ) : (
            <div key={i} data-diff={r.type} className={`grid grid-cols-[2.5rem_2.5rem_1rem_1fr] ${ROW_STYLE[r.type]}`}>
              <span className="pr-1 text-right text-zinc-600">{r.oldNo ?? ""}</span>
              <span className="pr-1 text-right text-zinc-600">{r.newNo ?? ""}</span>
              <span className="select-none text-center">{SIGN[r.type]}</span>
              <span className="whitespace-pre-wrap break-all pr-2">{r.text}</span>
            </div>
          ),
        )}
      </div>
    </div>
  );
}
