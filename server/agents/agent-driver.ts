/**
 * Drives one agent of an AgentHost from code (CLI, compare, warm pool,
 * probe): the request port (lib/protocol/request-port.ts) adapted to the
 * host. Answers are paired by the sequencer's `requestSeq`, never by id.
 */
import type { Frame, WireFrame } from "../../lib/protocol/frame";
import type { RpcOutcome } from "../../lib/protocol/jsonrpc";
import { RequestClient, type RequestFrame, type RequestOptions } from "../../lib/protocol/request-port";
import { fail, ok, type Result } from "../../lib/protocol/result";
import type { Policies } from "../../lib/features/answers/policy";
import type { Driver } from "../../lib/features/probe/probe";
import type { AgentHost } from "./agent-host";

/** How long a request waits for its answer unless told otherwise. */
const DEFAULT_TIMEOUT_MS = 30_000;

/** Also the probe's `Driver`: the port plus a line written as is, the log and its own policies. */
export class AgentDriver implements Driver {
  private nextId = 1;
  /** Everything the agent wrote to stderr since the driver began (the probe reports its size). */
  private stderrText = "";
  private readonly client: RequestClient;
  private readonly unsubscribe: Array<() => void>;

  constructor(
    private readonly session: AgentHost,
    /** Runs just before endInput closes stdin (the probe measures the agent's memory while it still runs). */
    private readonly beforeEndInput?: () => void,
  ) {
    this.client = new RequestClient({
      send: (frame) => {
        const ack = session.send(frame);
        return ack.ok ? ok(ack.seq) : fail(ack.error.message);
      },
      nextId: () => this.nextId++,
    });
    this.unsubscribe = [
      session.onFrame((frame) => this.client.received([frame])),
      session.watch({
        frame: () => {},
        emit: (event, ...args) => {
          if (event === "agent:stderr") this.stderrText += (args[0] as { text: string }).text;
        },
      }),
      // Nothing more will come once the agent has exited.
      session.onExit(() => this.client.close("the agent exited")),
    ];
  }

  request(method: string, params: unknown, options: RequestOptions = {}): Promise<RpcOutcome> {
    return this.client.request(method, params, { timeoutMs: DEFAULT_TIMEOUT_MS, ...options });
  }

  sendRequest(frame: RequestFrame, options: Pick<RequestOptions, "timeoutMs"> = {}): Promise<RpcOutcome> {
    return this.client.sendRequest(frame, { timeoutMs: DEFAULT_TIMEOUT_MS, ...options });
  }

  notify(method: string, params?: unknown): Promise<Result<number>> {
    return this.client.notify(method, params);
  }

  waitForFrame(match: (frame: Frame) => boolean, timeoutMs: number): Promise<Frame | undefined> {
    return this.client.waitForFrame(match, timeoutMs);
  }

  /** The agent's frames so far, without `message`. */
  frames(): readonly WireFrame[] {
    return this.session.frames;
  }

  /** From now on, answer the agent's own requests under these policies. */
  answerWith(policies: Policies): void {
    this.session.answerer.setPolicies(policies);
  }

  /** Writes a line as is. */
  raw(line: string): void {
    this.session.send(line);
  }

  stderr(): string {
    return this.stderrText;
  }

  /** Closes the agent's stdin; resolves whether it exited within `graceMs` (undefined: not a local process). */
  endInput(graceMs: number): Promise<boolean | undefined> {
    if (!this.session.running) return Promise.resolve(true);
    this.beforeEndInput?.();
    let stop = () => {};
    const exited = new Promise<boolean>((resolve) => {
      const timer = setTimeout(() => resolve(false), graceMs);
      stop = this.session.onExit(() => {
        clearTimeout(timer);
        resolve(true);
      });
    });
    if (!this.session.endInput()) {
      stop();
      return Promise.resolve(undefined);
    }
    return exited.finally(stop);
  }

  close(): void {
    for (const stop of this.unsubscribe) stop();
    this.client.close("the driver was closed");
  }
}
