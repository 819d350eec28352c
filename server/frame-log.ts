/**
 * The frames the relay keeps for pages that (re-)attach, oldest first and
 * without `message` (clients parse `raw`), capped in frames and in characters
 * of `raw`. An agent run (server/agent-run.ts) and a tapped conversation
 * (server/tap-session.ts) each keep one.
 */
import type { Frame, WireFrame } from "../lib/frame";

/** Past a cap, trim to this share of it, so trimming is amortised O(1) per frame. */
export const TRIM_TO = 0.9;

/** What the log keeps and the socket carries: keeping parsed messages alive would cost memory and GC time. */
export const withoutMessage = ({ message: _message, ...frame }: Frame): WireFrame => frame;

export class FrameLog {
  frames: WireFrame[] = [];
  /** Characters of `raw` held in `frames` (a frame's size is its line's). */
  bytes = 0;

  constructor(
    private readonly maxFrames: number,
    private readonly maxBytes = Infinity,
  ) {}

  push(lean: WireFrame): void {
    this.frames.push(lean);
    this.bytes += lean.raw.length;
    // Trim in batches so the hot path stays O(1) amortised.
    if (this.frames.length > this.maxFrames * 1.1 || this.bytes > this.maxBytes) this.trim();
  }

  /** Drops the oldest frames down to below both caps; a re-attaching client is told of the gap (`missed`). */
  private trim(): void {
    const bytes = this.maxBytes * TRIM_TO;
    let drop = this.frames.length > this.maxFrames * 1.1 ? this.frames.length - this.maxFrames : 0;
    let kept = this.bytes;
    for (let i = 0; i < drop; i++) kept -= this.frames[i]!.raw.length;
    while (drop < this.frames.length && kept > bytes) kept -= this.frames[drop++]!.raw.length;
    this.frames.splice(0, drop);
    this.bytes = kept;
  }
}

/**
 * Frames sent once per event-loop turn: one Socket.IO message per burst, not one per frame.
 * Holds the log's own frame objects only until the next turn.
 */
export class FrameOutbox {
  private frames: WireFrame[] = [];
  private scheduled = false;

  constructor(private readonly send: (frames: WireFrame[]) => void) {}

  push(lean: WireFrame): void {
    this.frames.push(lean);
    if (this.scheduled) return;
    this.scheduled = true;
    setImmediate(() => this.flush());
  }

  /** Sends what waits now, before an event that must follow the frames (an exit), or before the socket changes. */
  flush(): void {
    this.scheduled = false;
    if (this.frames.length === 0) return;
    const frames = this.frames;
    this.frames = [];
    this.send(frames);
  }
}
