/**
 * Drives one agent of a BrowserSession from code (CLI, probe): requests with
 * their own ids, waiting on responses and frames as they arrive.
 */
import type { Frame, JsonRpcId, WireFrame } from "../../lib/protocol/frame";
import type { Policies } from "../../lib/features/policy";
import type { BrowserSession } from "../http/browser-session";

/** A request's response (frame undefined on timeout). */
export interface Reply {
  frame?: Frame;
  latencyMs: number;
}

export class AgentDriver {
  private nextId = 1;
  private readonly waiters = new Set<(frame: Frame | undefined) => void>();
  private readonly unsubscribe: Array<() => void>;

  constructor(private readonly session: BrowserSession) {
    this.unsubscribe = [
      session.onFrame((frame) => {
        for (const waiter of [...this.waiters]) waiter(frame);
      }),
      // Nothing more will come once the agent has exited.
      session.onExit(() => {
        for (const waiter of [...this.waiters]) waiter(undefined);
      }),
    ];
  }

  frames(): readonly WireFrame[] {
    return this.session.frames;
  }

  /** The first frame from now on that satisfies `predicate`; undefined on timeout or exit. */
  waitFor(predicate: (frame: Frame) => boolean, timeoutMs: number): Promise<Frame | undefined> {
    return new Promise((resolve) => {
      const waiter = (frame: Frame | undefined) => {
        if (frame && !predicate(frame)) return;
        done(frame);
      };
      const timer = setTimeout(() => done(undefined), timeoutMs);
      const done = (frame: Frame | undefined) => {
        clearTimeout(timer);
        this.waiters.delete(waiter);
        resolve(frame);
      };
      this.waiters.add(waiter);
    });
  }

  async request(method: string, params: unknown, options: { id?: JsonRpcId; timeoutMs?: number } = {}): Promise<Reply> {
    const id = options.id ?? this.nextId++;
    const started = performance.now();
    const answered = this.waitFor(
      (f) => f.dir === "from-agent" && f.kind === "response" && f.id === id,
      options.timeoutMs ?? 30_000,
    );
    const ack = this.session.send(JSON.stringify({ jsonrpc: "2.0", id, method, params }));
    if (!ack.ok) return { latencyMs: 0 };
    const frame = await answered;
    return { frame, latencyMs: frame?.latencyMs ?? performance.now() - started };
  }

  notify(method: string, params?: unknown): void {
    this.session.send(
      JSON.stringify(params === undefined ? { jsonrpc: "2.0", method } : { jsonrpc: "2.0", method, params }),
    );
  }

  answerWith(policies: Policies): void {
    this.session.answerer.setPolicies(policies);
  }

  raw(line: string): void {
    this.session.send(line);
  }

  close(): void {
    for (const stop of this.unsubscribe) stop();
  }
}
