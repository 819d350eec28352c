/**
 * Chunk folding for the frame list: consecutive `session/update` chunk
 * notifications of one message (same session, same kind, same message id or
 * tool call, or terminal) are one fold with their count, bytes and duration.
 * A fold is a run of consecutive seqs, so it is found by binary search and the
 * builder keeps one small record per fold, not one per frame.
 *
 * `foldRows` applies the folds to a (filtered) timeline: a fold's frames that
 * are listed become one row (its first listed seq) unless the fold is
 * expanded. Filters still run on every frame; a search shows its hits
 * unfolded, so a hit is never hidden inside a fold.
 */
import type { Frame } from "../protocol/frame";
import { isEventRow, type TimelineRow } from "./frame-filter";
import { chunkKeyOf } from "./chunk-key";

export { chunkKeyOf };

export interface ChunkFold {
  /** The fold's first seq: its identity. */
  firstSeq: number;
  lastSeq: number;
  sessionId: string;
  /** The update kind: agent_message_chunk, agent_thought_chunk, tool_call_content_chunk... */
  kind: string;
  /** The message id, tool call id or terminal id the chunks belong to, when they say. */
  of?: string;
  /** Frames in the fold (lastSeq - firstSeq + 1). */
  count: number;
  /** UTF-8 bytes of the frames' lines. */
  bytes: number;
  start: number;
  end: number;
}

/** UTF-8 length without encoding (a string per frame would double the work). */
export function utf8Length(s: string): number {
  let n = 0;
  for (let i = 0; i < s.length; i++) {
    const c = s.charCodeAt(i);
    if (c < 0x80) n += 1;
    else if (c < 0x800) n += 2;
    else if (c >= 0xd800 && c < 0xdc00 && i + 1 < s.length) {
      n += 4;
      i++;
    } else n += 3;
  }
  return n;
}

export class ChunkFolder {
  /** Folds of two frames or more, in seq order. */
  readonly #folds: ChunkFold[] = [];
  /** The run being extended, even of one frame (a fold only once a second chunk joins). */
  #run?: ChunkFold;
  lastSeq = 0;
  /** Bumped when a fold is made or grows, so views know to fold again. */
  version = 0;

  get folds(): readonly ChunkFold[] {
    return this.#folds;
  }

  add(f: Frame): void {
    if (f.seq <= this.lastSeq) return;
    const contiguous = f.seq === this.lastSeq + 1;
    this.lastSeq = f.seq;
    const key = chunkKeyOf(f);
    const run = this.#run;
    if (!key) {
      this.#run = undefined;
      return;
    }
    if (
      run &&
      contiguous &&
      run.sessionId === key.sessionId &&
      run.kind === key.kind &&
      // A run without an id takes the first id it sees; two different ids never share a fold.
      (run.of === undefined || key.of === undefined || run.of === key.of)
    ) {
      run.of ??= key.of;
      run.lastSeq = f.seq;
      run.count++;
      run.bytes += utf8Length(f.raw);
      run.end = f.ts;
      if (run.count === 2) this.#folds.push(run);
      this.version++;
      return;
    }
    this.#run = { firstSeq: f.seq, lastSeq: f.seq, ...key, count: 1, bytes: utf8Length(f.raw), start: f.ts, end: f.ts };
  }

  /** The fold holding `seq`, if any. */
  foldOf(seq: number): ChunkFold | undefined {
    const folds = this.#folds;
    let lo = 0;
    let hi = folds.length - 1;
    while (lo <= hi) {
      const mid = (lo + hi) >> 1;
      const f = folds[mid]!;
      if (seq < f.firstSeq) hi = mid - 1;
      else if (seq > f.lastSeq) lo = mid + 1;
      else return f;
    }
    return undefined;
  }
}

export function foldChunks(frames: Iterable<Frame>): ChunkFolder {
  const b = new ChunkFolder();
  for (const f of frames) b.add(f);
  return b;
}

export interface FoldedRows {
  rows: TimelineRow[];
  /** Rows that stand for a folded run: row seq -> the fold and how many of its frames it hides. */
  folded: Map<number, { fold: ChunkFold; listed: number }>;
}

/**
 * Folds a timeline's frame rows. `expanded` holds the first seqs of folds the
 * user opened; with `search` set nothing is folded (every hit shows). Linear:
 * rows and folds are both in seq order.
 */
export function foldRows(
  rows: readonly TimelineRow[],
  folds: readonly ChunkFold[],
  expanded: ReadonlySet<number>,
  search?: string,
): FoldedRows {
  const folded: FoldedRows["folded"] = new Map();
  if (search || folds.length === 0) return { rows: rows as TimelineRow[], folded };
  const out: TimelineRow[] = [];
  let k = 0;
  let head: { fold: ChunkFold; listed: number } | undefined;
  for (const row of rows) {
    if (isEventRow(row)) {
      out.push(row);
      continue;
    }
    while (k < folds.length && folds[k]!.lastSeq < row) k++;
    const fold = folds[k];
    if (!fold || row < fold.firstSeq || expanded.has(fold.firstSeq)) {
      head = undefined;
      out.push(row);
      continue;
    }
    if (head?.fold === fold) {
      head.listed++;
      continue;
    }
    head = { fold, listed: 1 };
    folded.set(row, head);
    out.push(row);
  }
  // A fold with only one frame listed hides nothing: show it as the frame it is.
  for (const [row, h] of folded) if (h.listed < 2) folded.delete(row);
  return { rows: out, folded };
}
