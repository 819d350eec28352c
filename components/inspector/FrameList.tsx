"use client";
/**
 * The virtualised timeline: only the rows in view (plus some) are in the DOM,
 * so 100,000 frames scroll like 100. Follows the newest frame until the user
 * scrolls up, then offers "jump to newest"; arrow keys move the selection.
 */
import { useVirtualizer } from "@tanstack/react-virtual";
import { useCallback, useEffect, useRef, useState, type KeyboardEvent } from "react";
import { useStickToBottom } from "../use-stick-to-bottom";
import type { FrameCheck } from "@/lib/folds/static-checks";
import { frameChecks } from "@/lib/folds/frame-checks";
import { isEventRow, rowEventIndex, type TimelineEvent, type TimelineRow } from "@/lib/folds/frame-filter";
import type { FrameIndex } from "@/lib/folds/frame-index";
import type { FrameWindow } from "@/lib/folds/frame-log";
import type { SeqList } from "@/lib/folds/session-view";
import { EventRow, FRAME_GRID, FrameRow, ROW_HEIGHT } from "./FrameRow";
import { schemaVerdict, type FrameJudge } from "./use-schema-checker";
import { mcpLabel } from "@/lib/folds/mcp-pairs";
import type { ChunkFold, FoldedRows } from "@/lib/folds/chunk-folds";
import { FoldRow } from "./FoldRow";

export interface RevealRequest {
  seq: number;
  /** A new object per request, so asking twice for the same seq scrolls twice. */
}

interface Props {
  rows: readonly TimelineRow[];
  frames: FrameWindow;
  index: FrameIndex;
  events: readonly TimelineEvent[];
  selectedSeq: number | undefined;
  /** Frames shown highlighted (the source of a session-view item). */
  highlighted?: SeqList;
  onSelect: (seq: number) => void;
  reveal: RevealRequest | undefined;
  now: number;
  checker: FrameJudge | undefined;
  empty: React.ReactNode;
  /** Rows that stand for a folded run of chunks (lib/folds/chunk-folds.ts). */
  folded?: FoldedRows["folded"];
  onExpandFold?: (firstSeq: number) => void;
  /** The expanded fold a frame opens, to offer folding it again on its first row. */
  openFoldAt?: (seq: number) => ChunkFold | undefined;
  onCollapseFold?: (firstSeq: number) => void;
}

function checksFor(
  frameChecksList: readonly FrameCheck[],
  schema: readonly { path: string; message: string }[],
): readonly FrameCheck[] {
  if (schema.length === 0) return frameChecksList;
  const message = schema.map((i) => `${i.path || "value"}: ${i.message}`).join("; ");
  return [...frameChecksList, { code: "schema", message: `schema: ${message}` }];
}

export function FrameList({
  rows,
  frames,
  index,
  events,
  selectedSeq,
  highlighted,
  onSelect,
  reveal,
  now,
  checker,
  empty,
  folded,
  onExpandFold,
  openFoldAt,
  onCollapseFold,
}: Props) {
  const { ref, onScroll, atBottom } = useStickToBottom<HTMLDivElement>([rows.length]);
  // atBottom is a ref (read on every scroll); this mirrors it for the "jump to newest" button.
  const [following, setFollowing] = useState(true);
  const stopFollowing = () => {
    atBottom.current = false;
    setFollowing(false);
  };
  const onListScroll = () => {
    onScroll();
    setFollowing(atBottom.current);
  };
  const jumpToNewest = () => {
    atBottom.current = true;
    setFollowing(true);
    if (rows.length) virtualizer.scrollToIndex(rows.length - 1, { align: "end" });
  };

  const virtualizer = useVirtualizer({
    count: rows.length,
    getScrollElement: () => ref.current,
    estimateSize: () => ROW_HEIGHT,
    overscan: 8,
    // Scroll updates render normally; flushSync from a scroll handler only adds warnings.
    useFlushSync: false,
  });

  // Following the tail through the virtualizer: scrollHeight alone is stale until it has measured
  // the scroll element, which left a freshly opened list at the top.
  useEffect(() => {
    if (atBottom.current && rows.length) virtualizer.scrollToIndex(rows.length - 1, { align: "end" });
    // eslint-disable-next-line react-hooks/exhaustive-deps -- only growth scrolls; the virtualizer is one instance
  }, [rows.length]);

  // A pane made smaller (window, resized panel, the detail pane opening under it) keeps the newest
  // frame in view while following, else the selected row.
  const rowCount = useRef(rows.length);
  rowCount.current = rows.length;
  const selectedIndex = useRef(-1);
  selectedIndex.current = selectedSeq === undefined ? -1 : rows.indexOf(selectedSeq);
  useEffect(() => {
    const el = ref.current;
    if (!el) return;
    const observer = new ResizeObserver(() => {
      if (atBottom.current && rowCount.current) virtualizer.scrollToIndex(rowCount.current - 1, { align: "end" });
      else if (selectedIndex.current >= 0) virtualizer.scrollToIndex(selectedIndex.current, { align: "auto" });
    });
    observer.observe(el);
    return () => observer.disconnect();
    // eslint-disable-next-line react-hooks/exhaustive-deps -- once: the observer reads refs, never stale state
  }, []);

  useEffect(() => {
    if (!reveal) return;
    const i = rows.indexOf(reveal.seq);
    if (i >= 0) {
      stopFollowing();
      virtualizer.scrollToIndex(i, { align: "center" });
    }
    // eslint-disable-next-line react-hooks/exhaustive-deps -- Only a new reveal request scrolls; rows changing afterwards must not.
  }, [reveal]);

  // A clicked row stays where it is: following would scroll it away as frames arrive or the detail opens.
  const select = useCallback(
    (seq: number) => {
      atBottom.current = false;
      setFollowing(false);
      onSelect(seq);
    },
    [atBottom, onSelect],
  );

  const move = (delta: number) => {
    let i = selectedSeq === undefined ? (delta > 0 ? -1 : rows.length) : rows.indexOf(selectedSeq);
    if (i < 0 && selectedSeq !== undefined) i = delta > 0 ? -1 : rows.length;
    for (i += delta; i >= 0 && i < rows.length; i += delta) {
      const row = rows[i]!;
      if (!isEventRow(row)) {
        onSelect(row);
        stopFollowing();
        virtualizer.scrollToIndex(i, { align: "auto" });
        return;
      }
    }
  };

  const onKeyDown = (e: KeyboardEvent<HTMLDivElement>) => {
    if (e.key === "ArrowDown" || e.key === "ArrowUp") {
      e.preventDefault();
      move(e.key === "ArrowDown" ? 1 : -1);
    } else if (e.key === "End") {
      e.preventDefault();
      jumpToNewest();
    }
  };

  return (
    <div className="relative flex min-h-0 flex-1 flex-col">
      <div
        className={`${FRAME_GRID} border-b border-zinc-800 bg-zinc-900/60 px-3 py-1 font-mono text-[10px] uppercase tracking-wider text-zinc-500`}
        aria-hidden="true"
      >
        <span />
        <span className="text-right">seq</span>
        <span>time</span>
        <span>kind</span>
        <span>method</span>
        <span>id</span>
        <span className="text-right">latency</span>
        <span className="text-right">size</span>
        <span>checks</span>
        <span>frame</span>
      </div>
      <div
        ref={ref}
        onScroll={onListScroll}
        onKeyDown={onKeyDown}
        tabIndex={0}
        // A listbox holds only options: the empty state is plain text in a plain container.
        role={rows.length ? "listbox" : undefined}
        aria-label={rows.length ? "Frames" : undefined}
        data-testid="frame-log"
        data-following={following}
        className="group/log min-h-0 flex-1 overflow-y-auto outline-none focus-visible:ring-2 focus-visible:ring-inset focus-visible:ring-sky-500"
      >
        {rows.length === 0 ? (
          empty
        ) : (
          <div style={{ height: virtualizer.getTotalSize(), position: "relative", width: "100%" }}>
            {virtualizer.getVirtualItems().map((item) => {
              const row = rows[item.index]!;
              if (isEventRow(row)) {
                const event = events[rowEventIndex(row)];
                return event ? <EventRow key={`e${row}`} event={event} top={item.start} /> : null;
              }
              const fold = folded?.get(row);
              if (fold && onExpandFold) {
                const { firstSeq, lastSeq } = fold.fold;
                return (
                  <FoldRow
                    key={`f${row}`}
                    fold={fold.fold}
                    listed={fold.listed}
                    selected={selectedSeq !== undefined && selectedSeq >= firstSeq && selectedSeq <= lastSeq}
                    onExpand={onExpandFold}
                    top={item.start}
                  />
                );
              }
              const frame = frames.bySeq(row);
              if (!frame) return null;
              const open = openFoldAt?.(row);
              const verdict = schemaVerdict(checker, frame);
              const inner = index.mcp.innerOf(frame.seq);
              return (
                <FrameRow
                  key={row}
                  frame={frame}
                  selected={row === selectedSeq}
                  highlighted={highlighted?.includes(row) ?? false}
                  checks={checksFor(frameChecks(frame, index, now), verdict.issues)}
                  variant={verdict.variant}
                  inner={inner ? mcpLabel(inner) : undefined}
                  batch={index.batchOf(frame.seq)?.parts.length}
                  onSelect={select}
                  top={item.start}
                  onCollapseFold={open ? onCollapseFold : undefined}
                />
              );
            })}
          </div>
        )}
      </div>
      {!following && rows.length ? (
        <button
          type="button"
          data-testid="jump-to-newest"
          onClick={jumpToNewest}
          className="absolute bottom-3 right-5 rounded-full border border-sky-700 bg-zinc-900/95 px-3 py-1 text-xs text-sky-200 shadow-lg hover:bg-sky-900/60"
          title="Follow the newest frame again (End)"
        >
          ↓ Jump to newest
        </button>
      ) : null}
    </div>
  );
}
