/**
 * Request/response correlation by id, in each direction: a request sent to the
 * agent is answered by a response from it, and the other way round.
 */
import type { FrameDirection, JsonRpcId, WireFrame } from "./frame";

interface Awaiting {
  method: string;
  at: number;
  seq: number;
}

export interface Correlation {
  method: string;
  latencyMs: number;
  requestSeq: number;
}

const key = (id: JsonRpcId): string => (typeof id === "string" ? `s:${id}` : `n:${String(id)}`);

export class Correlator {
  private readonly pending: Record<FrameDirection, Map<string, Awaiting>> = {
    "to-agent": new Map(),
    "from-agent": new Map(),
  };

  request(dir: FrameDirection, id: JsonRpcId, method: string, at: number, seq: number): void {
    this.pending[dir].set(key(id), { method, at, seq });
  }

  /** Matches a response travelling in `dir` to the request that went the other way. */
  response(dir: FrameDirection, id: JsonRpcId, at: number): Correlation | undefined {
    const requests = this.pending[dir === "to-agent" ? "from-agent" : "to-agent"];
    const k = key(id);
    const request = requests.get(k);
    if (!request) return undefined;
    requests.delete(k);
    return { method: request.method, latencyMs: at - request.at, requestSeq: request.seq };
  }

  /** Requests still waiting for an answer, oldest first. */
  unanswered(dir: FrameDirection): Array<{ id: string; method: string; at: number; seq: number }> {
    return [...this.pending[dir].entries()].map(([id, r]) => ({ id: id.slice(2), ...r }));
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
    this.pending["to-agent"].clear();
    this.pending["from-agent"].clear();
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
