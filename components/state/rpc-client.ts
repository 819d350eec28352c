/**
 * This tab's request port to the agent (lib/protocol/request-port.ts adapted
 * to the relay socket): requests are answered by the response whose
 * `requestSeq` names them; ids come from the log's counter. Waiters live as
 * long as the agent: a new agent or an exit fails them.
 */
import type { Frame } from "@/lib/protocol/frame";
import type { RpcOutcome } from "@/lib/protocol/jsonrpc";
import { RequestClient, type RequestFrame, type RequestOptions, type RequestPort } from "@/lib/protocol/request-port";
import { fail, ok, type Result } from "@/lib/protocol/result";
import type { SendResult } from "./snapshot";
import type { FrameLogState, SnapshotHost } from "./frame-log-state";

export class RpcClient implements RequestPort {
  private readonly client: RequestClient;

  constructor(
    private readonly host: SnapshotHost,
    private readonly log: FrameLogState,
    send: (frame: string | object) => Promise<SendResult>,
  ) {
    this.client = new RequestClient({
      send: async (frame) => {
        const res = await send(frame);
        return res.ok && res.seq !== undefined ? ok(res.seq) : fail(res.error?.message ?? "not sent");
      },
      nextId: () => this.nextRequestId(),
    });
  }

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

  request(method: string, params: unknown, options?: RequestOptions): Promise<RpcOutcome> {
    return this.client.request(method, params, options);
  }

  sendRequest(frame: RequestFrame, options?: Pick<RequestOptions, "timeoutMs">): Promise<RpcOutcome> {
    return this.client.sendRequest(frame, options);
  }

  notify(method: string, params?: unknown): Promise<Result<number>> {
    return this.client.notify(method, params);
  }

  waitForFrame(match: (frame: Frame) => boolean, timeoutMs: number): Promise<Frame | undefined> {
    return this.client.waitForFrame(match, timeoutMs);
  }

  /** New frames, after the snapshot holds them: whoever waited reads facts that include the answer. */
  received(fresh: readonly Frame[]): void {
    this.client.received(fresh);
  }

  /** The agent is gone: nobody will answer. */
  fail(message: string): void {
    this.client.close(message);
  }
}
