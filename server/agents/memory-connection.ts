/**
 * An agent connection over in-memory byte streams, for tests: the host writes
 * lines into one stream and reads the agent's from another, through the same
 * line splitting as a spawned process, so the host and the answerer are tested
 * without spawning anything (as the ACP SDK tests its connections). The agent's
 * end speaks raw bytes (`readable`, `writable`: what `ndJsonStream` takes) or,
 * for scripted agents, whole messages (`next`, `send`).
 */
import { LineSplitter } from "../../lib/protocol/ndjson";
import type { AgentConnection, AgentConnectionEvents, Connector } from "./agent-connection";

/** The agent's end of the pair. */
export interface MemoryAgent {
  /** What the client wrote to the agent, as bytes (the agent's stdin). */
  readonly readable: ReadableStream<Uint8Array>;
  /** What the agent writes to the client, as bytes (the agent's stdout). */
  readonly writable: WritableStream<Uint8Array>;
  /** The next line the client wrote, parsed when it is JSON; undefined once the client has closed. */
  next(): Promise<unknown>;
  /** Writes a message (serialised) or a raw line, with its newline. */
  send(message: unknown): Promise<void>;
  stderr(text: string): void;
  /**
   * The agent goes away with this status: its output ends, then the exit is reported.
   * An agent speaking through `writable` ends its output by closing it.
   */
  exit(code?: number | null, signal?: string | null): Promise<void>;
}

const encoder = new TextEncoder();

class MemoryConnection implements AgentConnection {
  readonly pid = 0;
  readonly remote = false;
  private exited = false;
  private closing = false;
  private readonly done: Promise<void>;
  private readonly reader: ReadableStreamDefaultReader<Uint8Array>;

  constructor(
    private readonly toAgent: WritableStreamDefaultWriter<Uint8Array>,
    fromAgent: ReadableStream<Uint8Array>,
    private readonly events: AgentConnectionEvents,
    maxLineBytes: number,
    private readonly exitStatus: () => { code: number | null; signal: string | null },
  ) {
    const splitter = new LineSplitter(maxLineBytes);
    const reader = (this.reader = fromAgent.getReader());
    this.done = (async () => {
      try {
        for (;;) {
          const { value, done } = await reader.read();
          if (done) break;
          for (const event of splitter.push(value)) events.onLine(event);
        }
      } catch {
        // Cancelled by stop(): the exit follows.
      }
      for (const event of splitter.end()) events.onLine(event);
      this.exited = true;
      const { code, signal } = this.exitStatus();
      events.onExit(code, signal);
    })();
  }

  get running(): boolean {
    return !this.exited;
  }

  write(line: string): boolean {
    if (this.exited || this.closing) return false;
    this.toAgent.write(encoder.encode(`${line}\n`)).catch(() => {});
    return true;
  }

  async stop(): Promise<void> {
    if (!this.exited && !this.closing) {
      this.closing = true;
      // Not awaited: closing waits for the agent to read what is queued, and it may never.
      this.toAgent.close().catch(() => {});
      await this.reader.cancel().catch(() => {});
    }
    await this.done;
  }
}

/** A connector whose every connection reaches `agent` (one connection per pair). */
export function memoryPair(): { connect: Connector; agent: MemoryAgent } {
  const stdin = new TransformStream<Uint8Array, Uint8Array>();
  const stdout = new TransformStream<Uint8Array, Uint8Array>();
  // Taken on first use: `writable` and `send`, `readable` and `next`, are two ways to speak, one at a time.
  let out: WritableStreamDefaultWriter<Uint8Array> | undefined;
  let status: { code: number | null; signal: string | null } = { code: null, signal: "SIGTERM" };
  let events: AgentConnectionEvents | undefined;
  let written: ReadableStreamDefaultReader<Uint8Array> | undefined;
  const splitter = new LineSplitter();
  const lines: string[] = [];

  const agent: MemoryAgent = {
    readable: stdin.readable,
    writable: stdout.writable,
    async next() {
      written ??= stdin.readable.getReader();
      while (lines.length === 0) {
        const { value, done } = await written.read();
        if (done) return undefined;
        for (const event of splitter.push(value)) if (event.type === "line") lines.push(event.text);
      }
      const line = lines.shift()!;
      try {
        return JSON.parse(line) as unknown;
      } catch {
        return line;
      }
    },
    async send(message) {
      const line = typeof message === "string" ? message : JSON.stringify(message);
      out ??= stdout.writable.getWriter();
      await out.write(encoder.encode(`${line}\n`));
    },
    stderr(text) {
      events?.onStderr(text);
    },
    async exit(code = 0, signal = null) {
      status = { code, signal };
      if (!out && stdout.writable.locked) return;
      out ??= stdout.writable.getWriter();
      await out.close().catch(() => {});
    },
  };

  const connect: Connector = (spec, connectionEvents) => {
    if (events) return Promise.reject(new Error("a memory pair connects once"));
    events = connectionEvents;
    return Promise.resolve(
      new MemoryConnection(
        stdin.writable.getWriter(),
        stdout.readable,
        connectionEvents,
        spec.maxLineBytes,
        () => status,
      ),
    );
  };
  return { connect, agent };
}
