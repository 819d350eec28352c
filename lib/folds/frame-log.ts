/**
 * An append-only, capped frame log whose snapshots are immutable windows.
 *
 * The browser may hold 200,000 frames arriving in batches of thousands; copying
 * the whole array per batch would make ingestion quadratic. Instead every
 * window shares one growing buffer and reads only its own [start, start+length)
 * range: appending never changes what an older window sees. Dropping the oldest
 * frames moves the start; the buffer is compacted into a fresh array (old
 * windows keep the old one) only after a quarter of the cap has been dropped,
 * so each frame is copied O(1) times amortised.
 */
import type { Frame, WireFrame } from "../protocol/frame";

export class FrameWindow implements Iterable<Frame> {
  static readonly EMPTY = new FrameWindow([], 0, 0);

  readonly #buf: readonly Frame[];
  readonly #start: number;
  readonly length: number;

  /** @internal use FrameLog.window() */
  constructor(buf: readonly Frame[], start: number, length: number) {
    this.#buf = buf;
    this.#start = start;
    this.length = length;
  }

  static of(frames: readonly Frame[]): FrameWindow {
    return new FrameWindow(frames, 0, frames.length);
  }

  /** The i-th frame held (negative counts from the end, like Array#at). */
  at(i: number): Frame | undefined {
    const j = i < 0 ? this.length + i : i;
    return j >= 0 && j < this.length ? this.#buf[this.#start + j] : undefined;
  }

  get first(): Frame | undefined {
    return this.at(0);
  }

  get last(): Frame | undefined {
    return this.at(-1);
  }

  /**
   * Position of the frame with this seq, or -1. Seqs grow and rarely skip, so
   * the first guess usually hits; otherwise a binary search.
   */
  indexOfSeq(seq: number): number {
    const first = this.first;
    if (!first) return -1;
    const guess = seq - first.seq;
    if (guess >= 0 && guess < this.length && this.#buf[this.#start + guess]!.seq === seq) return guess;
    let lo = 0;
    let hi = this.length - 1;
    while (lo <= hi) {
      const mid = (lo + hi) >> 1;
      const s = this.#buf[this.#start + mid]!.seq;
      if (s === seq) return mid;
      if (s < seq) lo = mid + 1;
      else hi = mid - 1;
    }
    return -1;
  }

  bySeq(seq: number): Frame | undefined {
    const i = this.indexOfSeq(seq);
    return i < 0 ? undefined : this.#buf[this.#start + i];
  }

  slice(start = 0, end = this.length): Frame[] {
    const s = Math.max(0, start < 0 ? this.length + start : start);
    const e = Math.min(this.length, end < 0 ? this.length + end : end);
    return e > s ? this.#buf.slice(this.#start + s, this.#start + e) : [];
  }

  toArray(): Frame[] {
    return this.slice();
  }

  /** True when `other` holds a prefix-compatible older state of the same log (only appends/drops since). */
  extends(other: FrameWindow): boolean {
    if (other.length === 0) return true;
    const last = other.last!;
    return this.indexOfSeq(last.seq) >= 0 && this.bySeq(last.seq) === last;
  }

  *[Symbol.iterator](): Iterator<Frame> {
    for (let i = 0; i < this.length; i++) yield this.#buf[this.#start + i]!;
  }
}

export class FrameLog {
  #buf: Frame[] = [];
  #start = 0;
  #window: FrameWindow = FrameWindow.EMPTY;
  #dirty = false;

  constructor(readonly cap: number) {
    if (!(cap > 0)) throw new RangeError("cap must be positive");
  }

  get length(): number {
    return this.#buf.length - this.#start;
  }

  /** Appends one frame; call trim() (or window()) once per batch. */
  push(frame: Frame): void {
    this.#buf.push(frame);
    this.#dirty = true;
  }

  /** Drops the oldest frames beyond the cap; returns how many were dropped. */
  trim(): number {
    const over = this.length - this.cap;
    if (over <= 0) return 0;
    this.#start += over;
    this.#dirty = true;
    if (this.#start >= Math.max(1024, this.cap >> 2)) {
      // A new array: windows handed out earlier keep reading the old one.
      this.#buf = this.#buf.slice(this.#start);
      this.#start = 0;
    }
    return over;
  }

  /** An immutable snapshot; the same object until the log changes. */
  window(): FrameWindow {
    if (this.#dirty) {
      this.#window = new FrameWindow(this.#buf, this.#start, this.length);
      this.#dirty = false;
    }
    return this.#window;
  }

  clear(): void {
    this.#buf = [];
    this.#start = 0;
    this.#window = FrameWindow.EMPTY;
    this.#dirty = false;
  }
}

/**
 * Frames arrive from the relay without `message`; parses `raw` back into it,
 * in place (the object becomes a Frame). Lines that do not parse (not JSON, or
 * the preview of an over-long line) get `message: undefined`.
 */
export function withMessage(frame: WireFrame): Frame {
  const f = frame as WireFrame & { message?: unknown };
  if (f.message !== undefined) return f as Frame;
  try {
    f.message = JSON.parse(frame.raw) as unknown;
  } catch {
    // The relay classified it already; there is nothing to restore.
    f.message = undefined;
  }
  return f as Frame;
}
