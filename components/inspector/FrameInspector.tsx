"use client";
/**
 * The frame inspector of one tab: every frame (and, on request, stderr and
 * lifecycle events) in one virtualised timeline, filters and search, protocol
 * checks, and the selected frame in detail. The logic is in lib/ (filter,
 * checks, index); this wires it to the tab's store and view state.
 */
import { useFrameSelection } from "../state/frame-selection";
import { useCallback, useEffect, useMemo, useState } from "react";
import { useDebounced } from "../use-debounced";
import type { FrameFilter } from "@/lib/folds/frame-filter";
import type { Frame } from "@/lib/protocol/frame";
import { FrameDetail } from "./FrameDetail";
import { FrameList, type RevealRequest } from "./FrameList";
import type { Highlight } from "../session-view/highlight";
import { InspectorToolbar } from "./InspectorToolbar";
import { useFilteredSeqs, useTimelineEvents, useTimelineRows } from "./use-frame-rows";
import { schemaVerdict, useSchemaChecker } from "./use-schema-checker";
import { useChunkFolds } from "./use-chunk-folds";
import { foldRows } from "@/lib/folds/chunk-folds";
import { selectProtocol } from "../state/session-store";
import type { SessionSnapshot } from "../state/snapshot";
import { useSession, useSessionPerFrame, useTabState } from "../state/use-session";

const SEARCH_DEBOUNCE_MS = 150;

/** Date.now(), re-read every `intervalMs` while that is positive (for ages of unanswered requests). */
function useNow(intervalMs: number): number {
  const [now, setNow] = useState(() => Date.now());
  useEffect(() => {
    if (intervalMs <= 0) return;
    setNow(Date.now());
    const t = setInterval(() => setNow(Date.now()), intervalMs);
    return () => clearInterval(t);
  }, [intervalMs]);
  return now;
}

function sortedIncludes(sorted: readonly number[], x: number): boolean {
  let lo = 0;
  let hi = sorted.length - 1;
  while (lo <= hi) {
    const mid = (lo + hi) >> 1;
    const v = sorted[mid]!;
    if (v === x) return true;
    if (v < x) lo = mid + 1;
    else hi = mid - 1;
  }
  return false;
}

const selectFrames = (s: SessionSnapshot) => s.frames;
const LIST_CATCH_UP_MS = 100;

interface Props {
  /** Frames of the item last clicked in the session view. */
  highlight?: Highlight;
  /** Scroll to this frame on mount (coming from the session view). */
  revealSeq?: number;
  /** Select this frame and scroll to it, unfolding it if folded; a new object per request. */
  goto?: FrameGoto;
}

/** A request to select and show one frame (insights, latency, a link to a frame). */
export interface FrameGoto {
  seq: number;
}

const NO_FOLDS: ReadonlySet<number> = new Set();

/** Chunk folding, on unless last turned off (any tab): where new tabs and reloaded pages start. */
export const FOLD_KEY = "acp-playground.fold-chunks";

function preferredFolding(): boolean {
  try {
    return localStorage.getItem(FOLD_KEY) !== "off";
  } catch {
    return true;
  }
}

export function FrameInspector({ highlight, revealSeq, goto }: Props = {}) {
  // Under a flood of batches the list renders the newest log at most once per animation frame
  // and every LIST_CATCH_UP_MS, instead of after every batch (urgently, then deferred): at
  // thousands of frames a second each render replaces every row in view.
  const frames = useSessionPerFrame(selectFrames, LIST_CATCH_UP_MS);
  const index = useSession((s) => s.index);
  const epoch = useSession((s) => s.epoch);
  const missed = useSession((s) => s.missed);
  const stderr = useSession((s) => s.stderr);
  const lifecycle = useSession((s) => s.lifecycle);

  const [filter, setFilter] = useTabState<FrameFilter>("inspector.filter", {});
  const [searchText, setSearchText] = useTabState("inspector.search", "");
  const [showEvents, setShowEvents] = useTabState("inspector.events", false);
  const [selectedSeq, chooseFrame] = useFrameSelection(epoch);
  const [reveal, setReveal] = useState<RevealRequest | undefined>(() =>
    revealSeq !== undefined ? { seq: revealSeq } : undefined,
  );
  const v2 = useSession((s) => s.index.v2);
  const protocol = useSession(selectProtocol);
  const checker = useSchemaChecker(v2, protocol);

  const search = useDebounced(searchText, SEARCH_DEBOUNCE_MS).trim();
  const effective = useMemo<FrameFilter>(() => (search ? { ...filter, search } : filter), [filter, search]);
  const schemaFlag = useMemo(
    () => (checker ? (f: Frame) => schemaVerdict(checker, f).issues.length > 0 : undefined),
    [checker],
  );
  const seqs = useFilteredSeqs(frames, effective, index, schemaFlag);
  const events = useTimelineEvents(showEvents, stderr, lifecycle);
  const timeline = useTimelineRows(seqs, frames, events, search || undefined);
  const [folding, setFoldingState] = useTabState("inspector.folding", preferredFolding);
  const setFolding = useCallback(
    (on: boolean) => {
      setFoldingState(on);
      try {
        localStorage.setItem(FOLD_KEY, on ? "on" : "off");
      } catch {
        // Storage may be off: the choice then lasts for this tab only.
      }
    },
    [setFoldingState],
  );
  const [expanded, setExpanded] = useTabState<ReadonlySet<number>>("inspector.expanded", NO_FOLDS);
  const selected = selectedSeq !== undefined ? frames.bySeq(selectedSeq) : undefined;
  // The highlight follows the selection: selecting a frame outside the item drops it.
  const highlighted =
    highlight?.epoch === epoch && (selectedSeq === undefined || highlight.seqs.includes(selectedSeq))
      ? highlight.seqs
      : undefined;
  const { folder, version: foldVersion } = useChunkFolds(frames, folding);
  // Folding never hides the selected frame nor the highlighted ones: their folds show open.
  const open = useMemo(() => {
    const shown = new Set(expanded);
    for (const seq of [...(selectedSeq !== undefined ? [selectedSeq] : []), ...(highlighted ?? [])]) {
      const fold = folder.foldOf(seq);
      if (fold) shown.add(fold.firstSeq);
    }
    return shown.size === expanded.size ? expanded : shown;
    // eslint-disable-next-line react-hooks/exhaustive-deps -- The folder grows in place: its version says when.
  }, [expanded, selectedSeq, highlighted, folder, foldVersion]);
  const { rows, folded } = useMemo(
    () => foldRows(timeline, folding ? folder.folds : [], open, search || undefined),
    // eslint-disable-next-line react-hooks/exhaustive-deps -- The folder grows in place: its version says when.
    [timeline, folder, foldVersion, folding, open, search],
  );
  const expandFold = useCallback(
    (firstSeq: number) => setExpanded((prev) => new Set(prev).add(firstSeq)),
    [setExpanded],
  );
  const collapseFold = useCallback(
    (firstSeq: number) => {
      setExpanded((prev) => {
        const next = new Set(prev);
        next.delete(firstSeq);
        return next;
      });
      // A selection inside would hold the fold open.
      const fold = folder.foldOf(firstSeq);
      if (fold && selectedSeq !== undefined && selectedSeq >= fold.firstSeq && selectedSeq <= fold.lastSeq)
        chooseFrame(undefined);
    },
    [setExpanded, folder, selectedSeq, chooseFrame],
  );
  const openFoldAt = useCallback(
    (seq: number) => {
      const f = folding && expanded.size ? folder.foldOf(seq) : undefined;
      return f && f.firstSeq === seq && expanded.has(seq) ? f : undefined;
    },
    // eslint-disable-next-line react-hooks/exhaustive-deps -- The folder grows in place: its version says when.
    [folder, foldVersion, folding, expanded],
  );
  const now = useNow(index.unansweredCount > 0 ? 1000 : 0);

  const onSelect = useCallback((seq: number) => chooseFrame(seq), [chooseFrame]);
  const jump = useCallback(
    (seq: number) => {
      // Selected, a frame inside a fold opens it (above).
      chooseFrame(seq);
      setReveal({ seq });
    },
    [chooseFrame],
  );
  // Coming from the session view into a closed fold: open it and scroll again once it is open.
  useEffect(() => {
    const fold = revealSeq !== undefined ? folder.foldOf(revealSeq) : undefined;
    if (fold && !open.has(fold.firstSeq)) {
      setExpanded((prev) => new Set(prev).add(fold.firstSeq));
      setReveal({ seq: revealSeq! });
    }
    // eslint-disable-next-line react-hooks/exhaustive-deps -- On mount only, as the reveal itself.
  }, []);
  useEffect(() => {
    if (goto) jump(goto.seq);
    // eslint-disable-next-line react-hooks/exhaustive-deps -- Only a new request jumps.
  }, [goto]);

  const empty = (
    <p className="px-3 py-6 text-center text-sm text-zinc-400">
      {frames.length === 0 ? (
        <>
          No frames yet. Start an agent, then send an <code className="text-zinc-400">initialize</code> request.
        </>
      ) : (
        "No frame matches the filter."
      )}
    </p>
  );

  return (
    <div className="flex min-h-0 flex-1 flex-col" data-testid="frame-inspector" aria-label="Frame inspector">
      <InspectorToolbar
        filter={filter}
        onFilter={setFilter}
        search={searchText}
        onSearch={setSearchText}
        methods={index.methods}
        variants={index.updateVariants}
        showEvents={showEvents}
        onShowEvents={setShowEvents}
        folding={folding}
        onFolding={setFolding}
        shown={seqs.length}
        total={frames.length}
        missed={missed}
        unanswered={index.unansweredCount}
      />
      <FrameList
        rows={rows}
        frames={frames}
        index={index}
        events={events}
        selectedSeq={selectedSeq}
        highlighted={highlighted}
        onSelect={onSelect}
        reveal={reveal}
        now={now}
        checker={checker}
        empty={empty}
        folded={folded}
        onExpandFold={expandFold}
        openFoldAt={openFoldAt}
        onCollapseFold={collapseFold}
      />
      {selected ? (
        <FrameDetail
          frame={selected}
          frames={frames}
          index={index}
          checker={checker}
          now={now}
          listed={sortedIncludes(seqs, selected.seq)}
          onJump={jump}
          onClose={() => chooseFrame(undefined)}
        />
      ) : null}
    </div>
  );
}
