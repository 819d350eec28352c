/**
 * Incremental session view over a growing frame log: keeps the reduced state
 * with the last seq folded in, and folds only the frames after it. A restarted
 * log (new epoch) starts over. Pure: the cache passed in is never changed, and
 * it is returned as is when there is nothing new.
 */
import type { FrameWindow } from "./frame-log";
import { emptyView, reduceFrames, type SessionViewState } from "./session-view";

export interface ViewCache {
  /** The log's epoch (bumped whenever seqs restart). */
  epoch: number;
  /** Highest seq folded into `state`; 0 before any. */
  lastSeq: number;
  state: SessionViewState;
}

export function emptyViewCache(epoch: number): ViewCache {
  return { epoch, lastSeq: 0, state: emptyView() };
}

/** Position in `frames` of the first frame after `seq`. */
function startAfter(frames: FrameWindow, seq: number): number {
  const first = frames.first;
  if (!first || seq < first.seq) return 0;
  const at = frames.indexOfSeq(seq);
  if (at >= 0) return at + 1;
  // seq is past the end (the window is older than the cache) or fell into a gap: search.
  let lo = 0;
  let hi = frames.length;
  while (lo < hi) {
    const mid = (lo + hi) >> 1;
    if (frames.at(mid)!.seq <= seq) lo = mid + 1;
    else hi = mid;
  }
  return lo;
}

function* range(frames: FrameWindow, from: number) {
  for (let i = from; i < frames.length; i++) yield frames.at(i)!;
}

export function advanceView(cache: ViewCache | undefined, frames: FrameWindow, epoch: number): ViewCache {
  const base = cache && cache.epoch === epoch ? cache : emptyViewCache(epoch);
  const from = startAfter(frames, base.lastSeq);
  if (from >= frames.length) return base;
  const state = reduceFrames(range(frames, from), base.state);
  return { epoch, lastSeq: frames.last!.seq, state };
}
