/**
 * Requests this tab sends to the agent and waits on: each waiter is keyed by
 * the seq the relay gave the request, and resolved by the response whose
 * `requestSeq` names it. Also one-off frame watchers (waitForFrame). Waiters
 * live as long as the agent: a new agent or an exit fails them.
 */
import type { Frame, JsonRpcId } from "@/lib/protocol/frame";
import { notificationFrame, outcomeOf, requestFrame, type RpcOutcome } from "@/lib/protocol/jsonrpc";
import type { SendResult } from "./session-store";
import type { FrameLogState, SnapshotHost } from "./frame-log-state";

export class RpcClient {
  /** Requests waiting for their response, by the request's seq. */
  private readonly waiters = new Map<number, (outcome: RpcOutcome) => void>();
  /** One-off frame watchers (waitForFrame); return true once satisfied. */
  private readonly watchers = new Set<(frame: Frame) => boolean>();

  constructor(
    private readonly host: SnapshotHost,
    private readonly log: FrameLogState,
    private readonly send: (frame: string | object) => Promise<SendResult>,
  ) {}

  /** Takes a fresh request id for this agent: unique, above any id seen. */
  nextRequestId(): number {
    const ids = this.log.ids;
    ids.observe(this.host.get().maxRequestId);
    const id = ids.next();
    this.host.set({ maxRequestId: ids.max });
    return id;
  }

  /** The id the next composed request will get (for previews). */
  peekRequestId(): number {
    return Math.max(this.log.ids.peek(), this.host.get().maxRequestId + 1);
  }

  /** Sends a request with a fresh id and resolves with its answer (or why there is none). */
  request(method: string, params: unknown): Promise<RpcOutcome> {
    return this.sendRequest(requestFrame(this.nextRequestId(), method, params));
  }

  /** Sends a request frame as given (its id must be unused) and resolves with its answer. */
  async sendRequest(frame: { id: JsonRpcId; method: string; [key: string]: unknown }): Promise<RpcOutcome> {
    const res = await this.send(frame);
    if (!res.ok || res.seq === undefined) return { kind: "failed", message: res.error?.message ?? "not sent" };
    const seq = res.seq;
    // The ack comes before the echoed frames, so the answer is normally still to come.
    const { index, frames } = this.host.get();
    const answered = index.partnerOf(seq);
    if (answered !== undefined) {
      const response = frames.bySeq(answered);
      if (response) return outcomeOf(response);
    }
    return new Promise<RpcOutcome>((resolve) => this.waiters.set(seq, resolve));
  }

  notify(method: string, params: unknown): Promise<SendResult> {
    return this.send(notificationFrame(method, params));
  }

  /** Resolves with the first frame (held or arriving) that matches, or undefined after the timeout. */
  waitForFrame(match: (frame: Frame) => boolean, timeoutMs: number): Promise<Frame | undefined> {
    for (const frame of this.host.get().frames) if (match(frame)) return Promise.resolve(frame);
    return new Promise((resolve) => {
      const watcher = (frame: Frame) => {
        if (!match(frame)) return false;
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

  /** New frames, after the snapshot holds them: whoever waited reads facts that include the answer. */
  received(fresh: readonly Frame[]): void {
    for (const frame of fresh) {
      if (frame.dir !== "from-agent" || frame.kind !== "response" || frame.requestSeq === undefined) continue;
      const resolve = this.waiters.get(frame.requestSeq);
      if (resolve) {
        this.waiters.delete(frame.requestSeq);
        resolve(outcomeOf(frame));
      }
    }
    if (this.watchers.size) {
      for (const frame of fresh) for (const w of [...this.watchers]) if (w(frame)) this.watchers.delete(w);
    }
  }

  /** The agent is gone: nobody will answer. */
  fail(message: string): void {
    const waiting = [...this.waiters.values()];
    this.waiters.clear();
    for (const resolve of waiting) resolve({ kind: "failed", message });
  }
}
