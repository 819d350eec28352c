"use client";
/** A folded run of chunk notifications in the frame list (lib/folds/chunk-folds.ts): one row, expandable. */
import { memo } from "react";
import type { ChunkFold } from "@/lib/folds/chunk-folds";
import { formatMs } from "@/lib/folds/waterfall";
import { formatBytes, formatTime } from "../format";
import { FRAME_GRID, KIND_STYLE, rowStyle } from "./FrameRow";

interface Props {
  fold: ChunkFold;
  /** Frames of the fold the filter lists (all of them unless filtering). */
  listed: number;
  /** A frame of the fold is selected. */
  selected: boolean;
  onExpand: (firstSeq: number) => void;
  top: number;
}

export const FoldRow = memo(function FoldRow({ fold, listed, selected, onExpand, top }: Props) {
  const what = fold.of ? ` of ${fold.of}` : "";
  return (
    <div
      data-testid="fold-row"
      data-first-seq={fold.firstSeq}
      data-last-seq={fold.lastSeq}
      data-count={fold.count}
      role="option"
      aria-selected={selected}
      aria-expanded={false}
      title={`${fold.count} ${fold.kind} frames${what} folded into one row: click to see each`}
      onClick={() => onExpand(fold.firstSeq)}
      style={rowStyle(top)}
      className={`${FRAME_GRID} cursor-pointer items-center border-b border-zinc-800/60 px-3 font-mono text-xs ${
        selected ? "bg-sky-900/40" : "bg-violet-500/5 hover:bg-zinc-800/60"
      }`}
    >
      <span className="text-amber-400" aria-hidden="true">
        ▸
      </span>
      <span className="truncate text-right text-zinc-500 tabular-nums">{fold.firstSeq}</span>
      <span className="text-zinc-500 tabular-nums">{formatTime(fold.start)}</span>
      <span>
        <span
          className={`rounded px-1.5 py-px text-[10px] uppercase tracking-wide ring-1 ring-inset ${KIND_STYLE.notification}`}
        >
          chunks
        </span>
      </span>
      <span className="truncate text-zinc-100">session/update</span>
      <span />
      <span data-testid="fold-duration" className="text-right text-emerald-400/90 tabular-nums">
        {formatMs(fold.end - fold.start)}
      </span>
      <span data-testid="fold-bytes" className="text-right text-zinc-500 tabular-nums">
        {formatBytes(fold.bytes)}
      </span>
      <span data-testid="fold-count" className="truncate text-violet-300">
        ×{fold.count}
        {listed < fold.count ? ` (${listed} listed)` : ""}
      </span>
      <span className="truncate text-zinc-400">
        {fold.kind}
        {what} · seq {fold.firstSeq}–{fold.lastSeq} · click to expand
      </span>
    </div>
  );
});
