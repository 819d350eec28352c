/**
 * What the relay keeps of a conversation for pages that (re-)attach: its
 * frames, oldest first and without `message` (clients parse `raw`), and its
 * stderr, each capped (`ReplayLog`). An agent run (server/agents/agent-run.ts) and a
 * tapped conversation (server/tap/tap-session.ts) each keep one, under the same caps.
 */
import type { Frame, WireFrame } from "../../lib/protocol/frame";
import type { Socket } from "socket.io";
import type { ServerToClientEvents, StderrEvent } from "../../lib/contracts/wire";
import type { ServerConfig } from "../config";

/** Past a cap, trim to this share of it, so trimming is amortised O(1) per frame. */
export const TRIM_TO = 0.9;

/** What the log keeps and the socket carries: keeping parsed messages alive would cost memory and GC time. */
export const withoutMessage = ({ message: _message, ...frame }: Frame): WireFrame => frame;

/** Frames under a cap in count and in characters of their lines, oldest dropped first. */
export class CappedFrames {
  frames: WireFrame[] = [];
  /** Characters of `raw` held in `frames` (a frame's size is its line's). */
  chars = 0;

  constructor(
    private readonly maxFrames: number,
    private readonly maxChars = Infinity,
  ) {}

  push(lean: WireFrame): void {
    this.frames.push(lean);
    this.chars += lean.raw.length;
    // Trim in batches so the hot path stays O(1) amortised.
    if (this.frames.length > this.maxFrames * 1.1 || this.chars > this.maxChars) this.trim();
  }

  /** Drops the oldest frames down to below both caps; a re-attaching client is told of the gap (`missed`). */
  private trim(): void {
    const chars = this.maxChars * TRIM_TO;
    let drop = this.frames.length > this.maxFrames * 1.1 ? this.frames.length - this.maxFrames : 0;
    let kept = this.chars;
    for (let i = 0; i < drop; i++) kept -= this.frames[i]!.raw.length;
    while (drop < this.frames.length && kept > chars) kept -= this.frames[drop++]!.raw.length;
    this.frames.splice(0, drop);
    this.chars = kept;
  }
}

/** Frames per `frames` message when a page (re-)attaches: one message per few MB, not one huge one. */
export const RESEND_BATCH = 2_000;

/** ACP_PLAYGROUND_REPLAY_FRAMES, ACP_PLAYGROUND_REPLAY_BYTES and ACP_PLAYGROUND_STDERR_BYTES. */
export type ReplayCaps = Pick<ServerConfig, "replayFrames" | "replayBytes" | "stderrBytes">;

/** A conversation's frames and stderr kept for pages that (re-)attach, each capped in characters. */
export class ReplayLog {
  private readonly capped: CappedFrames;
  stderr: StderrEvent[] = [];
  /** Characters of `text` held in `stderr`. */
  stderrChars = 0;

  constructor(private readonly caps: ReplayCaps) {
    this.capped = new CappedFrames(caps.replayFrames, caps.replayBytes);
  }

  get frames(): WireFrame[] {
    return this.capped.frames;
  }

  /** Characters of `raw` held in `frames`. */
  get frameChars(): number {
    return this.capped.chars;
  }

  pushFrame(lean: WireFrame): void {
    this.capped.push(lean);
  }

  pushStderr(event: StderrEvent): void {
    this.stderr.push(event);
    this.stderrChars += event.text.length;
    if (this.stderrChars > this.caps.stderrBytes) this.trimStderr();
  }

  /** What a page attaching after `lastSeq` is sent: the stderr kept, then the frames after it in batches. */
  resend(socket: Pick<Socket<never, ServerToClientEvents>, "emit">, lastSeq: number): void {
    for (const event of this.stderr) socket.emit("agent:stderr", event);
    const log = this.frames;
    const start = log.findIndex((f) => f.seq > lastSeq);
    if (start === -1) return;
    for (let i = start; i < log.length; i += RESEND_BATCH) socket.emit("frames", log.slice(i, i + RESEND_BATCH));
  }

  private trimStderr(): void {
    const chars = this.caps.stderrBytes * TRIM_TO;
    let drop = 0;
    while (drop < this.stderr.length && this.stderrChars > chars) this.stderrChars -= this.stderr[drop++]!.text.length;
    this.stderr.splice(0, drop);
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
