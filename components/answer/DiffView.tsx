"use client";
/** A diff a tool call carried ({path, oldText, newText}) as a simple line diff. */
import { useMemo } from "react";
import { lineDiff } from "@/lib/features/agent-answers";

const STYLE = {
  add: "bg-emerald-500/10 text-emerald-200",
  del: "bg-red-500/10 text-red-200",
  same: "text-zinc-400",
} as const;
const MARK = { add: "+", del: "-", same: " " } as const;

export function DiffView({ path, oldText, newText }: { path: string; oldText?: string | null; newText: string }) {
  const lines = useMemo(() => lineDiff(oldText, newText), [oldText, newText]);
  return (
    <div
      data-testid="diff-view"
      data-path={path}
      className="flex flex-col overflow-hidden rounded border border-zinc-800"
    >
      <div className="truncate bg-zinc-900 px-2 py-0.5 font-mono text-[11px] text-zinc-400" title={path}>
        {oldText === null || oldText === undefined ? "new file " : ""}
        {path}
      </div>
      {lines ? (
        <pre className="max-h-64 overflow-auto font-mono text-[11px] leading-snug">
          {lines.map((l, i) => (
            <div key={i} data-type={l.type} className={`whitespace-pre-wrap break-all px-1 ${STYLE[l.type]}`}>
              {MARK[l.type]} {l.text}
            </div>
          ))}
        </pre>
      ) : (
        <p className="px-2 py-1 text-[11px] text-zinc-500">too large to diff here</p>
      )}
    </div>
  );
}
