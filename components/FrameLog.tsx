"use client";
/** The live log of every frame, both ways. Renders only the newest rows to stay cheap. */
import { useCallback, useState } from "react";
import { FRAME_GRID, FrameRow } from "./FrameRow";
import { useSession } from "./use-session";
import { useStickToBottom } from "./use-stick-to-bottom";

/** Rows rendered; a virtualised list replaces this limit later. */
const RENDERED_ROWS = 500;

export function FrameLog() {
  const epoch = useSession((s) => s.epoch);
  // A restarted log reuses seqs: remount so no stale row stays expanded.
  return <FrameList key={epoch} />;
}

function FrameList() {
  const frames = useSession((s) => s.frames);
  const missed = useSession((s) => s.missed);
  const [expanded, setExpanded] = useState<ReadonlySet<number>>(() => new Set());
  const { ref, onScroll } = useStickToBottom<HTMLDivElement>(frames);

  const toggle = useCallback((seq: number) => {
    setExpanded((prev) => {
      const next = new Set(prev);
      if (!next.delete(seq)) next.add(seq);
      return next;
    });
  }, []);

  const shown = frames.length > RENDERED_ROWS ? frames.slice(-RENDERED_ROWS) : frames;

  return (
    <section className="flex min-h-0 flex-1 flex-col" aria-label="Frame log">
      <header className="flex items-center gap-3 border-b border-zinc-800 px-3 py-1.5 text-xs">
        <h2 className="font-semibold uppercase tracking-wider text-zinc-400">Frames</h2>
        <span data-testid="frame-count" className="text-zinc-500 tabular-nums">
          {frames.length > RENDERED_ROWS
            ? `showing last ${RENDERED_ROWS} of ${frames.length}`
            : `${frames.length} frame${frames.length === 1 ? "" : "s"}`}
        </span>
        {missed > 0 ? <span className="text-amber-400">{missed} older frames not held</span> : null}
        <span className="ml-auto text-zinc-600">click a row for its JSON</span>
      </header>
      <div
        className={`${FRAME_GRID} border-b border-zinc-800 bg-zinc-900/60 px-3 py-1 font-mono text-[10px] uppercase tracking-wider text-zinc-500`}
      >
        <span />
        <span className="text-right">seq</span>
        <span>time</span>
        <span>kind</span>
        <span>method</span>
        <span>id</span>
        <span className="text-right">latency</span>
        <span>frame</span>
      </div>
      <div ref={ref} onScroll={onScroll} data-testid="frame-log" className="min-h-0 flex-1 overflow-y-auto">
        {shown.length === 0 ? (
          <p className="px-3 py-6 text-center text-sm text-zinc-600">
            No frames yet. Start an agent, then send an <code className="text-zinc-400">initialize</code> request.
          </p>
        ) : (
          shown.map((frame) => (
            <FrameRow key={frame.seq} frame={frame} expanded={expanded.has(frame.seq)} onToggle={toggle} />
          ))
        )}
      </div>
    </section>
  );
}
