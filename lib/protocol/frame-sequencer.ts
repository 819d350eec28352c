/**
 * Turns lines into numbered, classified, correlated frames: the one place a
 * frame is made, whether the relay, the CLI or a test sees the line.
 */
import { Correlator } from "./correlate";
import { classifyLine, type Frame, type FrameDirection } from "./frame";
import type { LineEvent } from "./ndjson";
import { DEFAULT_PROTOCOL, type ProtocolName } from "./protocols";

export interface Clock {
  /** Wall clock, ms since the epoch. */
  wall(): number;
  /** Monotonic clock in ms, for latencies. */
  mono(): number;
}

export const systemClock: Clock = { wall: () => Date.now(), mono: () => performance.now() };

/** ACP messages are UTF-8 JSON: a line that is not is refused whole, like one that is not JSON. */
export const NOT_UTF8 = "transport violation: the line is not valid UTF-8 (its exact bytes are kept in rawBase64)";

export class FrameSequencer {
  private lastSeq = 0;
  readonly correlator = new Correlator();

  constructor(
    private readonly clock: Clock = systemClock,
    /** Which protocol's rules make a line valid (lib/protocol/protocols.ts). */
    readonly protocol: ProtocolName = DEFAULT_PROTOCOL,
  ) {}

  get seq(): number {
    return this.lastSeq;
  }

  /** `base64`: the line's bytes when they are not UTF-8 (lib/protocol/ndjson.ts): kept, never parsed. */
  line(dir: FrameDirection, raw: string, base64?: string): Frame {
    if (base64 !== undefined) return { ...this.invalid(dir, raw, NOT_UTF8), rawBase64: base64 };
    const mono = this.clock.mono();
    const seq = ++this.lastSeq;
    const c = classifyLine(raw, this.protocol);
    const frame: Frame = { seq, ts: this.clock.wall(), dir, raw, kind: c.kind, message: c.message };
    if (c.id !== undefined) frame.id = c.id;
    if (c.method !== undefined) frame.method = c.method;
    if (c.error !== undefined) frame.error = c.error;
    if (c.kind === "request" && c.id !== undefined && c.method !== undefined) {
      this.correlator.request(dir, c.id, c.method, mono, seq);
    } else if (c.kind === "response" && c.id !== undefined) {
      const match = this.correlator.response(dir, c.id, mono);
      if (match) {
        frame.method = match.method;
        frame.requestSeq = match.requestSeq;
        frame.latencyMs = Math.round(match.latencyMs * 1000) / 1000;
      } else {
        frame.error = "response to an id with no pending request";
      }
    }
    return frame;
  }

  /** A frame for something on the wire that could not be kept as a line. */
  /** The frame a connection's line event makes: the line, or an over-long one's preview as an invalid frame. */
  lineEvent(dir: FrameDirection, event: LineEvent, maxLineBytes: number): Frame {
    return event.type === "line"
      ? this.line(dir, event.text, event.base64)
      : this.invalid(
          dir,
          event.preview,
          `line of ${event.bytes} bytes exceeds the maximum of ${maxLineBytes} and was dropped`,
        );
  }

  invalid(dir: FrameDirection, raw: string, error: string): Frame {
    return { seq: ++this.lastSeq, ts: this.clock.wall(), dir, raw, kind: "invalid", error, message: undefined };
  }
}
