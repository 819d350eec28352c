/**
 * Request/response correlation by id, in each direction: a request sent to the
 * agent is answered by a response from it, and the other way round.
 */
import type { FrameDirection, JsonRpcId, WireFrame } from "./frame";
import { PendingRequests } from "./pending-requests";

interface Awaiting {
  seq: number;
  dir: FrameDirection;
  id: JsonRpcId;
  method: string;
  at: number;
}

export interface Correlation {
  method: string;
  latencyMs: number;
  requestSeq: number;
}

const other = (dir: FrameDirection): FrameDirection => (dir === "to-agent" ? "from-agent" : "to-agent");

export class Correlator {
  private readonly pending = new PendingRequests<Awaiting>();

  request(dir: FrameDirection, id: JsonRpcId, method: string, at: number, seq: number): void {
    // A response pairs with the newest request of its id: one whose id was reused in flight can never be answered.
    const shadowed = this.pending.open({ seq, dir, id, method, at });
    if (shadowed) this.pending.close(shadowed.seq);
  }

  /** Matches a response travelling in `dir` to the request that went the other way. */
  response(dir: FrameDirection, id: JsonRpcId, at: number): Correlation | undefined {
    const request = this.pending.newestById(other(dir), id);
    if (!request) return undefined;
    this.pending.close(request.seq);
    return { method: request.method, latencyMs: at - request.at, requestSeq: request.seq };
  }

  /** Requests still waiting for an answer, oldest first. */
  unanswered(dir: FrameDirection): Array<{ id: string; method: string; at: number; seq: number }> {
    return this.pending.list(dir).map((r) => ({ id: String(r.id), method: r.method, at: r.at, seq: r.seq }));
  }

  /** Requests sent in `dir` that have waited longer than `timeoutMs` at time `now`. */
  overdue(
    dir: FrameDirection,
    now: number,
    timeoutMs: number,
  ): Array<{ id: string; method: string; at: number; seq: number }> {
    return this.unanswered(dir).filter((r) => now - r.at > timeoutMs);
  }

  clear(): void {
    this.pending.clear();
  }
}

/**
 * Gives `requestSeq` to responses that came without it (transcripts recorded
 * before the relay sent it), pairing them as the relay does. Fed each frame
 * once, in seq order; a frame that has it already is left alone.
 */
export class RequestSeqFiller {
  private readonly correlator = new Correlator();

  fill<F extends WireFrame>(frame: F): F {
    if (frame.kind === "request" && frame.id !== undefined && frame.method !== undefined) {
      this.correlator.request(frame.dir, frame.id, frame.method, frame.ts, frame.seq);
    } else if (frame.kind === "response" && frame.id !== undefined) {
      const match = this.correlator.response(frame.dir, frame.id, frame.ts);
      if (match && frame.requestSeq === undefined) frame.requestSeq = match.requestSeq;
    }
    return frame;
  }
}
