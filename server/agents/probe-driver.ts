/**
 * The probe's link to one agent of a BrowserSession: the one request port
 * (lib/protocol/request-port.ts's RequestClient, fed every frame in seq order)
 * plus what only the probe needs: a line written as is, the log, and its own
 * answering policies.
 */
import type { Frame, WireFrame } from "../../lib/protocol/frame";
import type { Policies } from "../../lib/features/policy";
import type { Driver } from "../../lib/features/probe";
import { RequestClient, type RequestFrame, type RequestOptions } from "../../lib/protocol/request-port";
import type { RpcOutcome } from "../../lib/protocol/jsonrpc";
import type { Result } from "../../lib/protocol/result";
import type { BrowserSession } from "../http/browser-session";

export class ProbeDriver implements Driver {
  private nextId = 1;
  private readonly client: RequestClient;
  private readonly unsubscribe: Array<() => void>;

  constructor(private readonly session: BrowserSession) {
    this.client = new RequestClient({
      send: (frame) => this.write(typeof frame === "string" ? frame : JSON.stringify(frame)),
      nextId: () => this.nextId++,
    });
    this.unsubscribe = [
      session.onFrame((frame: Frame) => this.client.received([frame])),
      // Nothing more will come once the agent has exited.
      session.onExit(() => this.client.close("the agent exited")),
    ];
  }

  private write(line: string): Result<number> {
    const ack = this.session.send(line);
    return ack.ok ? { ok: true, value: ack.seq } : { ok: false, error: ack.error.message };
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

  raw(line: string): void {
    this.write(line);
  }

  frames(): readonly WireFrame[] {
    return this.session.frames;
  }

  answerWith(policies: Policies): void {
    this.session.answerer.setPolicies(policies);
  }

  close(): void {
    for (const stop of this.unsubscribe) stop();
    this.client.close("the probe ended");
  }
}
