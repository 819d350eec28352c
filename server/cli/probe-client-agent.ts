/**
 * The scripted agent `acp-playground probe-client` plays (server/cli/probe-client.ts): it writes
 * frames to the client's stdin side, waits for the client's requests and answers, and keeps the
 * checks of the client probe's requirements (lib/features/probe/client-probe.ts).
 */
import type { CheckResult } from "../../lib/contracts/requirements";
import type { ClientRequirementId } from "../../lib/features/probe/client-probe";
import type { Frame } from "../../lib/protocol/frame";
import { FrameSequencer } from "../../lib/protocol/frame-sequencer";
import { isObject } from "../../lib/protocol/json";
import { AGENT_METHODS } from "../../lib/protocol/methods";

export interface Answer {
  frame: Frame;
  result?: unknown;
  error?: { code?: unknown; message?: unknown };
}

export const SHORT_MS = 10_000;

export class ProbeAgent {
  private readonly sequencer = new FrameSequencer();
  readonly frames: Frame[] = [];
  private nextId = 1;
  private readonly waiting = new Map<string, (a: Answer | undefined) => void>();
  private readonly requestWaiters: ((f: Frame) => boolean)[] = [];
  readonly checks: CheckResult[] = [];
  /** Client requests the script has not taken yet. */
  private readonly inbox: Frame[] = [];
  ended = false;
  /** Hears every frame, both ways (the recording: a tapped conversation). */
  observe?: (frame: Frame) => void;
  private endWaiters: (() => void)[] = [];
  onCancel?: (frame: Frame) => void;
  onParseError?: (frame: Frame) => void;
  /** How long an answer no person gives may take. */
  shortMs = SHORT_MS;

  constructor(
    private readonly out: NodeJS.WritableStream,
    private readonly log: (s: string) => void,
  ) {}

  check(requirement: ClientRequirementId, status: CheckResult["status"], detail: string, frames: number[] = []): void {
    this.checks.push({ requirement, status, detail, ...(frames.length ? { frames } : {}) });
  }

  /** One line from the client. */
  receive(text: string, base64?: string): void {
    const frame = this.sequencer.line("to-agent", text, base64);
    this.frames.push(frame);
    this.observe?.(frame);
    if (frame.kind === "response" && frame.id !== undefined) {
      const key = JSON.stringify(frame.id);
      const resolve = this.waiting.get(key);
      if (!resolve) return;
      this.waiting.delete(key);
      const m = frame.message as { result?: unknown; error?: Answer["error"] };
      resolve({ frame, result: m.result, error: isObject(m.error) ? m.error : undefined });
      return;
    }
    if (frame.kind === "response" && frame.id === null) this.onParseError?.(frame);
    if (frame.kind === "notification" && frame.method === AGENT_METHODS.session_cancel) this.onCancel?.(frame);
    if (frame.kind !== "request") return;
    const i = this.requestWaiters.findIndex((w) => w(frame));
    if (i >= 0) this.requestWaiters.splice(i, 1);
    else this.inbox.push(frame);
  }

  end(): void {
    this.ended = true;
    for (const resolve of this.waiting.values()) resolve(undefined);
    this.waiting.clear();
    for (const w of this.endWaiters.splice(0)) w();
  }

  write(line: string): Frame {
    this.out.write(`${line}\n`);
    const frame = this.sequencer.line("from-agent", line);
    this.frames.push(frame);
    this.observe?.(frame);
    return frame;
  }

  send(message: Record<string, unknown>): Frame {
    return this.write(JSON.stringify({ jsonrpc: "2.0", ...message }));
  }

  notify(method: string, params: unknown): Frame {
    return this.send({ method, params });
  }

  /** Sends a request; resolves with the answer, or undefined after `timeoutMs` (or when the client left). */
  request(
    method: string,
    params: unknown,
    timeoutMs = this.shortMs,
  ): { frame: Frame; answer: Promise<Answer | undefined> } {
    const id = `probe-${this.nextId++}`;
    const frame = this.send({ id, method, params });
    const answer = new Promise<Answer | undefined>((resolve) => {
      if (this.ended) return resolve(undefined);
      const timer = setTimeout(() => {
        this.waiting.delete(JSON.stringify(id));
        resolve(undefined);
      }, timeoutMs);
      this.waiting.set(JSON.stringify(id), (a) => {
        clearTimeout(timer);
        resolve(a);
      });
    });
    return { frame, answer };
  }

  /** The next client request that `pred` accepts (earlier ones not taken count too). */
  nextRequest(pred: (f: Frame) => boolean, timeoutMs: number): Promise<Frame | undefined> {
    const i = this.inbox.findIndex(pred);
    if (i >= 0) return Promise.resolve(this.inbox.splice(i, 1)[0]);
    if (this.ended) return Promise.resolve(undefined);
    return new Promise((resolve) => {
      const timer = setTimeout(() => {
        const at = this.requestWaiters.indexOf(waiter);
        if (at >= 0) this.requestWaiters.splice(at, 1);
        resolve(undefined);
      }, timeoutMs);
      const waiter = (f: Frame) => {
        if (!pred(f)) return false;
        clearTimeout(timer);
        resolve(f);
        return true;
      };
      this.requestWaiters.push(waiter);
      this.endWaiters.push(() => {
        clearTimeout(timer);
        resolve(undefined);
      });
    });
  }

  /** Takes (and answers with -32601) client requests the script does not serve. */
  take(method: string): Frame | undefined {
    const i = this.inbox.findIndex((f) => f.method === method);
    return i >= 0 ? this.inbox.splice(i, 1)[0] : undefined;
  }

  respond(request: Frame, result: unknown): void {
    this.send({ id: request.id, result });
  }

  refuse(request: Frame, code: number, message: string): void {
    this.send({ id: request.id, error: { code, message } });
  }

  /** Whether the client still answers: an unknown `_` request gets an answer. */
  async alive(): Promise<Answer | undefined> {
    return this.request("_acp_playground/ping", {}).answer;
  }
}

export const paramsOf = (f: Frame | undefined): Record<string, unknown> =>
  f && isObject(f.message) && isObject(f.message.params) ? f.message.params : {};
