"use client";
/**
 * The inspector's rows: the filtered frame seqs (lib/folds/frame-filter.ts), with
 * stderr and lifecycle events merged in by time when asked. While the filter
 * stays the same and the log only grows, only the new frames are filtered.
 */
import { useMemo, useRef } from "react";
import {
  filterFrames,
  mergeEvents,
  type SchemaFlag,
  mergeTimeline,
  type FrameFilter,
  type TimelineEvent,
  type TimelineRow,
} from "@/lib/folds/frame-filter";
import type { FrameIndex } from "@/lib/folds/frame-index";
import type { FrameWindow } from "@/lib/folds/frame-log";
import type { StderrEvent } from "@/lib/contracts/wire";

interface Cache {
  frames: FrameWindow;
  index: FrameIndex;
  schema: SchemaFlag | undefined;
  key: string;
  indexVersion: number;
  seqs: number[];
}

/**
 * Seqs of the frames passing `filter`, oldest first. `schema` flags the frames whose rows show a
 * schema warning, so the protocol-issues filter shows them too (it changes once the schemas load).
 */
export function useFilteredSeqs(
  frames: FrameWindow,
  filter: FrameFilter,
  index: FrameIndex,
  schema?: SchemaFlag,
): readonly number[] {
  const cache = useRef<Cache | null>(null);
  const key = JSON.stringify(filter);
  // Unanswered-ness changes as answers arrive: the checks filter follows the index.
  const indexVersion = filter.checksOnly ? index.version : 0;
  const flag = filter.checksOnly ? schema : undefined;
  return useMemo(() => {
    const c = cache.current;
    let seqs: number[];
    if (
      c &&
      c.key === key &&
      c.index === index &&
      c.indexVersion === indexVersion &&
      c.schema === flag &&
      frames.extends(c.frames)
    ) {
      const from = c.frames.length ? frames.indexOfSeq(c.frames.last!.seq) + 1 : 0;
      const first = frames.first?.seq ?? 0;
      // Drop what the log no longer holds, then filter only what is new.
      let drop = 0;
      while (drop < c.seqs.length && c.seqs[drop]! < first) drop++;
      seqs = filterFrames(frames, filter, index, from, drop ? c.seqs.slice(drop) : c.seqs.slice(), flag);
    } else {
      seqs = filterFrames(frames, filter, index, 0, [], flag);
    }
    cache.current = { frames, index, key, indexVersion, schema: flag, seqs };
    return seqs;
    // eslint-disable-next-line react-hooks/exhaustive-deps -- `filter` is represented by `key`.
  }, [frames, index, key, indexVersion, flag]);
}

/** stderr and lifecycle on one time-ordered list. */
export function useTimelineEvents(
  show: boolean,
  stderr: readonly StderrEvent[],
  lifecycle: readonly TimelineEvent[],
): readonly TimelineEvent[] {
  return useMemo(
    () =>
      show
        ? mergeEvents(
            lifecycle,
            stderr.map((e) => ({ ts: e.ts, type: "stderr" as const, text: e.text })),
          )
        : [],
    [show, stderr, lifecycle],
  );
}

export function useTimelineRows(
  seqs: readonly number[],
  frames: FrameWindow,
  events: readonly TimelineEvent[],
  search: string | undefined,
): readonly TimelineRow[] {
  return useMemo(
    () => (events.length ? mergeTimeline(seqs, (seq) => frames.bySeq(seq)?.ts ?? 0, events, search) : seqs),
    [seqs, frames, events, search],
  );
}
