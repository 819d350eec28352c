/**
 * What the relay keeps of a conversation for pages that (re-)attach: its
 * frames, oldest first and without `message` (clients parse `raw`), its stderr
 * and its transport events, each capped (`AttachableLog`). An agent run
 * (server/agents/agent-run.ts) and a tapped conversation (server/tap/tap-session.ts)
 * each keep one, under the same caps; server/wire/attachment.ts sends it to sockets.
 */
import type { Frame, WireFrame } from "../../lib/protocol/frame";
import type { Socket } from "socket.io";
import type { ServerToClientEvents, StderrEvent, TransportEvent } from "../../lib/contracts/wire";
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

/** A remote agent's transport events kept (reconnect loops are bounded by it). */
export const TRANSPORT_KEPT = 200;

/** ACP_PLAYGROUND_REPLAY_FRAMES, ACP_PLAYGROUND_REPLAY_BYTES and ACP_PLAYGROUND_STDERR_BYTES. */
export type LogCaps = Pick<ServerConfig, "replayFrames" | "replayBytes" | "stderrBytes">;

/** Where a client attaching after its `lastSeq` stands (the fields of `agent:attached` the log knows). */
export interface LogPosition {
  /** The seq of the newest frame the log was given (kept or since dropped). */
  lastSeq: number;
  /** The first seq still held (lastSeq + 1 when none is). */
  firstSeq: number;
  /** Frames after the client's lastSeq no longer held. */
  missed: number;
}

/** A conversation's frames, stderr and transport events kept for pages that (re-)attach, capped. */
export class AttachableLog {
  private readonly capped: CappedFrames;
  stderr: StderrEvent[] = [];
  /** Characters of `text` held in `stderr`. */
  stderrChars = 0;
  /** A remote agent's transport events, newest last (the last TRANSPORT_KEPT). */
  transport: TransportEvent[] = [];
  private newest = 0;

  constructor(private readonly caps: LogCaps) {
    this.capped = new CappedFrames(caps.replayFrames, caps.replayBytes);
  }

  get frames(): WireFrame[] {
    return this.capped.frames;
  }

  /** Characters of `raw` held in `frames`. */
  get frameChars(): number {
    return this.capped.chars;
  }

  /** Frames come in seq order (they are made by one sequencer). */
  pushFrame(lean: WireFrame): void {
    this.newest = lean.seq;
    this.capped.push(lean);
  }

  pushStderr(event: StderrEvent): void {
    this.stderr.push(event);
    this.stderrChars += event.text.length;
    if (this.stderrChars > this.caps.stderrBytes) this.trimStderr();
  }

  pushTransport(event: TransportEvent): void {
    this.transport.push(event);
    if (this.transport.length > TRANSPORT_KEPT) this.transport.shift();
  }

  position(lastSeq: number): LogPosition {
    const firstSeq = this.frames[0]?.seq ?? this.newest + 1;
    return { lastSeq: this.newest, firstSeq, missed: Math.max(0, firstSeq - 1 - lastSeq) };
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
