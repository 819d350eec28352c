"use client";
/** A unified diff, line by line, additions green and removals red (as text, never markup). */
import { useMemo } from "react";
import { parsePatch, type DiffLineKind } from "@/lib/folds/unified-diff";

const STYLE: Record<DiffLineKind, string> = {
  meta: "text-zinc-400",
  file: "text-zinc-400",
  hunk: "text-sky-400/80 bg-sky-500/5",
  add: "text-emerald-300 bg-emerald-500/10",
  del: "text-red-300 bg-red-500/10",
  context: "text-zinc-400",
};

export function DiffView({ patch }: { patch: string }) {
  const lines = useMemo(() => parsePatch(patch), [patch]);
  return (
    <pre
      data-testid="rerun-diff"
      className="overflow-x-auto rounded border border-zinc-800 bg-zinc-950 py-1 font-mono text-[11px] leading-snug"
    >
      {lines.map((l, i) => (
        <div key={i} data-kind={l.kind} className={`whitespace-pre px-2 ${STYLE[l.kind]}`}>
          {l.text || " "}
        </div>
      ))}
    </pre>
  );
}
