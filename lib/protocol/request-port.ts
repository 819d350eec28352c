/**
 * The one way code talks to an agent as its client: send a request and wait
 * for its answer, send a notification, wait for a frame. The relay's driver
 * (server/agents/agent-driver.ts) and the browser's RPC client
 * (components/state/rpc-client.ts) both adapt `RequestClient` to their link;
 * the handshake, Connect, compare and the probe are written against
 * `RequestPort` only.
 *
 * Answers are paired by `requestSeq` alone: the frame sequencer pairs
 * responses with requests once (lib/protocol/correlate.ts), so nothing here
 * looks at ids.
 */
import type { Frame, JsonRpcId } from "./frame";
import { notificationFrame, outcomeOf, requestFrame, type RpcOutcome } from "./jsonrpc";
import type { Result } from "./result";

export interface RequestOptions {
  /** The request's id; a fresh one when absent (the caller must not reuse an id in flight). */
  id?: JsonRpcId;
  /** Resolve as failed ("timeout") when no answer came within this long; no limit when absent. */
  timeoutMs?: number;
}

/** A request frame as sent: any id, any extra fields (a frame composed by hand). */
export type RequestFrame = { id: JsonRpcId; method: string; [key: string]: unknown };

export interface RequestPort {
  /** Sends a request and resolves with how it ended; never rejects. */
  request(method: string, params: unknown, options?: RequestOptions): Promise<RpcOutcome>;
  /** Sends a request frame as given (its id must be unused) and resolves with how it ended. */
  sendRequest(frame: RequestFrame, options?: Pick<RequestOptions, "timeoutMs">): Promise<RpcOutcome>;
  /** Sends a notification; resolves with the seq the relay gave it, or why it was not sent. */
  notify(method: string, params?: unknown): Promise<Result<number>>;
  /** The first frame arriving from now on that matches; undefined on timeout or once the agent is gone. */
  waitForFrame(match: (frame: Frame) => boolean, timeoutMs: number): Promise<Frame | undefined>;
}

/** What a side provides to carry frames: sending, and fresh ids. Frames come back through `received`. */
export interface FrameLink {
  /** Writes one frame (an object, or a line as is); the seq the relay gave it, or why it was not sent. */
  send(frame: string | object): Promise<Result<number>> | Result<number>;
  /** A fresh request id for this agent. */
  nextId(): JsonRpcId;
}

/** A duration as timeouts are told: tenths of a second. */
export const seconds = (ms: number) => `${Math.round(ms / 100) / 10} s`;

/**
 * A `RequestPort` over a `FrameLink`. The owner feeds it every frame once, in
 * seq order, after its own state holds them (`received`), and says when the
 * agent is gone (`close`): whoever waits is then answered "failed".
 */
export class RequestClient implements RequestPort {
  /** Requests waiting for their response, by the request's seq. */
  private readonly waiting = new Map<number, (outcome: RpcOutcome) => void>();
  /** Frame watchers (waitForFrame); each returns true once satisfied. */
  private readonly watchers = new Set<(frame: Frame | undefined) => boolean>();
  /**
   * Responses that arrived while a send was still unacknowledged: its answer may
   * come before the seq is known (a link that echoes frames before the ack).
   * Kept only while a send is in flight.
   */
  private readonly early = new Map<number, Frame>();
  private sending = 0;

  constructor(private readonly link: FrameLink) {}

  request(method: string, params: unknown, options: RequestOptions = {}): Promise<RpcOutcome> {
    return this.sendRequest(requestFrame(options.id ?? this.link.nextId(), method, params), options);
  }

  async sendRequest(frame: RequestFrame, options: Pick<RequestOptions, "timeoutMs"> = {}): Promise<RpcOutcome> {
    this.sending++;
    let sent: Result<number>;
    try {
      sent = await this.link.send(frame);
    } finally {
      this.sending--;
    }
    const early = sent.ok ? this.early.get(sent.value) : undefined;
    if (this.sending === 0) this.early.clear();
    if (!sent.ok) return { kind: "failed", reason: "unsent", message: sent.error };
    if (early) return outcomeOf(early);
    const seq = sent.value;
    return new Promise<RpcOutcome>((resolve) => {
      const timer =
        options.timeoutMs === undefined
          ? undefined
          : setTimeout(() => {
              this.waiting.delete(seq);
              resolve({
                kind: "failed",
                reason: "timeout",
                message: `no answer within ${seconds(options.timeoutMs!)}`,
              });
            }, options.timeoutMs);
      this.waiting.set(seq, (outcome) => {
        clearTimeout(timer);
        resolve(outcome);
      });
    });
  }

  async notify(method: string, params?: unknown): Promise<Result<number>> {
    return this.link.send(notificationFrame(method, params));
  }

  waitForFrame(match: (frame: Frame) => boolean, timeoutMs: number): Promise<Frame | undefined> {
    return new Promise((resolve) => {
      const watcher = (frame: Frame | undefined) => {
        if (frame && !match(frame)) return false;
        clearTimeout(timer);
        resolve(frame);
        return true;
      };
      const timer = setTimeout(() => {
        this.watchers.delete(watcher);
        resolve(undefined);
      }, timeoutMs);
      this.watchers.add(watcher);
    });
  }

  /** New frames, in seq order, once the owner's state holds them: whoever waited reads state that includes them. */
  received(frames: readonly Frame[]): void {
    for (const frame of frames) {
      if (frame.dir !== "from-agent" || frame.kind !== "response" || frame.requestSeq === undefined) continue;
      const resolve = this.waiting.get(frame.requestSeq);
      if (resolve) {
        this.waiting.delete(frame.requestSeq);
        resolve(outcomeOf(frame));
      } else if (this.sending > 0) this.early.set(frame.requestSeq, frame);
    }
    if (this.watchers.size)
      for (const frame of frames) for (const w of [...this.watchers]) if (w(frame)) this.watchers.delete(w);
  }

  /** The agent is gone (exited, replaced): nobody will answer. */
  close(message: string): void {
    const waiting = [...this.waiting.values()];
    this.waiting.clear();
    this.early.clear();
    for (const resolve of waiting) resolve({ kind: "failed", reason: "gone", message });
    const watchers = [...this.watchers];
    this.watchers.clear();
    for (const w of watchers) w(undefined);
  }

  /** Requests still waiting for an answer. */
  get pending(): number {
    return this.waiting.size;
  }
}
