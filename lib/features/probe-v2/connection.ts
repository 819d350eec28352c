/**
 * One connection of the v2 probe to an agent, line by line: the probe needs raw lines, since
 * JSON-RPC batches (a v2 addition) are judged by the shape of the line itself. The caller
 * provides the lines (a process's stdio in server/ or scripts/, in-memory streams in tests).
 */
import { isObject } from "../../protocol/json";

type Json = unknown;
export type Msg = Record<string, Json>;

/** A line transport to one agent. */
export interface V2Line {
  send(line: string): void;
  /** The one reader of the agent's lines. */
  onLine(listener: (line: string) => void): void;
  /** Called once the agent is gone (its stdout ended): reads stop waiting. */
  onClose(listener: () => void): void;
  /** Ends the connection (and the agent, where it is a process); resolves once it is gone. */
  close(): Promise<void>;
}

/** Opens a fresh connection (a fresh agent): the probe isolates what may crash an agent. */
export type V2Connect = () => Promise<V2Line>;

export interface Entry {
  dir: "in" | "out";
  /** performance.now() when it was read or written. */
  at: number;
  raw: string;
  /** The parsed line; undefined when it is not JSON. */
  parsed: Json;
}

function parse(raw: string): Json {
  try {
    return JSON.parse(raw) as Json;
  } catch {
    return undefined;
  }
}

/** The JSON-RPC objects on a line: a batch's entries, or the one message. */
export function messagesOf(entry: Entry): Msg[] {
  const p = entry.parsed;
  if (Array.isArray(p)) return p.filter(isObject);
  return isObject(p) ? [p] : [];
}

/** A line the agent started on its own (requests and notifications carry `method`), not a reply. */
export const isAgentInitiated = (entry: Entry): boolean => {
  const ms = messagesOf(entry);
  return (
    ms.length > 0 &&
    ms.length === (Array.isArray(entry.parsed) ? entry.parsed.length : 1) &&
    ms.every((m) => typeof m.method === "string")
  );
};

/** The update of a `session/update` notification and its session. */
export function updateOf(m: Msg): { sessionId: unknown; update: Msg } | undefined {
  if (m.method !== "session/update" || !isObject(m.params) || !isObject(m.params.update)) return undefined;
  return { sessionId: m.params.sessionId, update: m.params.update };
}

export class V2Connection {
  readonly transcript: Entry[] = [];
  private readonly queue: Entry[] = [];
  private wake: (() => void) | undefined;
  private gone = false;
  private ids = 0;

  constructor(private readonly line: V2Line) {
    line.onLine((raw) => {
      const entry: Entry = { dir: "in", at: performance.now(), raw, parsed: parse(raw) };
      this.transcript.push(entry);
      this.queue.push(entry);
      this.wake?.();
    });
    line.onClose(() => {
      this.gone = true;
      this.wake?.();
    });
  }

  get closed(): boolean {
    return this.gone;
  }

  sendRaw(raw: string): void {
    this.transcript.push({ dir: "out", at: performance.now(), raw, parsed: parse(raw) });
    if (!this.gone) this.line.send(raw);
  }

  send(message: Msg): void {
    this.sendRaw(JSON.stringify({ jsonrpc: "2.0", ...message }));
  }

  /** Sends a request; its id. */
  request(method: string, params: Json): string {
    const id = `probe-${++this.ids}`;
    this.send({ id, method, params });
    return id;
  }

  notify(method: string, params: Json): void {
    this.send({ method, params });
  }

  /** The agent's next line, or undefined when none comes within `ms` (or the agent is gone). */
  async next(ms: number): Promise<Entry | undefined> {
    const deadline = performance.now() + ms;
    for (;;) {
      const entry = this.queue.shift();
      if (entry) return entry;
      const left = deadline - performance.now();
      if (this.gone || left <= 0) return undefined;
      await new Promise<void>((resolve) => {
        const timer = setTimeout(() => {
          this.wake = undefined;
          resolve();
        }, left);
        this.wake = () => {
          clearTimeout(timer);
          this.wake = undefined;
          resolve();
        };
      });
    }
  }

  /** Every line the agent writes within `ms`. */
  async drain(ms: number): Promise<Entry[]> {
    const deadline = performance.now() + ms;
    const seen: Entry[] = [];
    for (;;) {
      const left = deadline - performance.now();
      if (left <= 0) return seen;
      const e = await this.next(left);
      if (!e) return seen;
      seen.push(e);
    }
  }

  /**
   * Answers a request the agent sent: session/request_permission with `permission` (default: the
   * first option selected), anything else -32601 (the probe advertises no client capabilities).
   */
  answer(m: Msg, permission?: (params: Msg) => Json): void {
    if (!("id" in m) || typeof m.method !== "string") return;
    if (m.method === "session/request_permission") {
      const params = isObject(m.params) ? m.params : {};
      this.send({ id: m.id, result: permission ? permission(params) : selectFirst(params) });
      return;
    }
    this.send({ id: m.id, error: { code: -32601, message: `Method not found: ${m.method}` } });
  }

  /**
   * A request and its response (undefined: none within `ms`), answering the agent's own requests
   * meanwhile; `before`: the agent's other messages that came first.
   */
  async call(method: string, params: Json, ms: number): Promise<{ response?: Msg; before: Msg[] }> {
    const id = this.request(method, params);
    const deadline = performance.now() + ms;
    const before: Msg[] = [];
    for (;;) {
      const e = await this.next(deadline - performance.now());
      if (!e) return { before };
      for (const m of messagesOf(e)) {
        if (m.id === id && !("method" in m)) return { response: m, before };
        before.push(m);
        this.answer(m);
      }
    }
  }
}

/** The default permission answer: the first option, selected. */
export function selectFirst(params: Msg): Json {
  const first = Array.isArray(params.options) ? params.options.find(isObject) : undefined;
  return first && typeof first.optionId === "string"
    ? { outcome: { outcome: "selected", optionId: first.optionId } }
    : { outcome: { outcome: "cancelled" } };
}

/** Opens a connection, runs `body`, and closes it whatever happens. */
export async function withConnection<T>(connect: V2Connect, body: (c: V2Connection) => Promise<T>): Promise<T> {
  const line = await connect();
  try {
    return await body(new V2Connection(line));
  } finally {
    await line.close();
  }
}
