/**
 * An agent reached over ACP's Streamable HTTP or WebSocket transport (the
 * SDK's own clients), behind the same surface as a spawned AgentProcess:
 * lines in, lines out, an exit. The SDK streams carry parsed messages, so each
 * message the agent sends is serialised once (JSON.stringify) into the raw
 * line the sequencer logs; lines the relay sends are parsed once to hand over.
 * The transport's own events (HTTP status, SSE streams, WebSocket open and
 * close, 409s) are reported as text for the timeline.
 */
import { display } from "../../lib/protocol/json";
import type { AnyMessage } from "@agentclientprotocol/sdk";
import { createHttpStream } from "@agentclientprotocol/sdk/experimental/http-client";
import { createWebSocketStream, type WebSocketConstructor } from "@agentclientprotocol/sdk/experimental/ws-client";
import WebSocket from "ws";
import { AgentProcess, SpawnError } from "./agent-process";
import type { AgentConnection, AgentConnectionEvents, Connector, SpawnSpec } from "./agent-connection";
import { expandHeaders, RemoteProfileError, type RemoteProfile } from "../remote-profile";

const CONNECTION_HEADER = "acp-connection-id";
const SESSION_HEADER = "acp-session-id";
const REATTACH = /"method"\s*:\s*"session\/(load|resume)"/;
const PREVIEW_CHARS = 200;
/**
 * Most of an HTTP error body kept (for the SDK's error, hence the transport
 * event and the transcript): it is diagnostic text, and an agent may send
 * megabytes. Only this much is read; the rest is never downloaded.
 */
export const ERROR_BODY_PREVIEW_BYTES = 4 * 1024;
/** A Location header is the agent's to write: shown, but not at any length. */
const TARGET_CHARS = 300;

/** Picks how to reach the agent: a URL profile connects, any other spawns. */
export const startAgent: Connector = (spec, events) =>
  spec.remote ? RemoteAgent.connect(spec.remote, events, spec) : AgentProcess.spawn(spec, events);

/** What a POST body was, for an error report: "session/prompt (id 3)" or "response to id 0". */
function describeBody(body: unknown): string {
  try {
    const m = JSON.parse(String(body)) as { method?: unknown; id?: unknown };
    if (typeof m.method === "string") return m.id === undefined ? m.method : `${m.method} (id ${display(m.id)})`;
    return `response to id ${display(m.id)}`;
  } catch {
    return "message";
  }
}

/** Where a 3xx points, resolved against the request URL, for the error naming it. */
function redirectTarget(location: string | null | undefined, base: string): string {
  if (!location) return "(no Location header)";
  let target: string;
  try {
    target = new URL(location, base).href;
  } catch {
    target = location;
  }
  return target.length > TARGET_CHARS ? `${target.slice(0, TARGET_CHARS)}…` : target;
}

/** Redirects are never followed: one would re-send the body and the profile's headers (tokens) elsewhere. */
const redirectRefused = (status: string, target: string) =>
  new Error(`${status} to ${target}: not followed; the relay does not follow a remote agent's redirects`);

/**
 * The same error response with at most ERROR_BODY_PREVIEW_BYTES of its body:
 * reads no further, then cancels the rest.
 */
async function cappedErrorBody(res: Response): Promise<Response> {
  const chunks: Uint8Array[] = [];
  let kept = 0;
  let cut = false;
  if (res.body) {
    const reader: ReadableStreamDefaultReader<Uint8Array> = res.body.getReader();
    try {
      // Until the end, or a byte past the cap (so a body of exactly the cap is not called cut).
      while (!cut) {
        const { value, done } = await reader.read();
        if (done) break;
        const room = ERROR_BODY_PREVIEW_BYTES - kept;
        cut = value.byteLength > room;
        chunks.push(cut ? value.subarray(0, room) : value);
        kept += Math.min(value.byteLength, room);
      }
    } catch {
      // A body cut off mid-way: what arrived is the preview.
    }
    void reader.cancel().catch(() => {});
  }
  // stream: a multi-byte character split by the cut is dropped, not garbled.
  const text = new TextDecoder().decode(Buffer.concat(chunks), { stream: cut });
  const headers = new Headers(res.headers);
  headers.delete("content-length");
  headers.delete("content-encoding");
  return new Response(cut ? `${text}… [cut at ${ERROR_BODY_PREVIEW_BYTES} bytes]` : text, {
    status: res.status,
    statusText: res.statusText,
    headers,
  });
}

const errorText = (err: unknown): string => {
  const e = err as { message?: string; cause?: { message?: string; code?: string } };
  const cause = e.cause?.code ?? e.cause?.message;
  return `${e.message ?? String(err)}${cause ? ` (${cause})` : ""}`;
};

export class RemoteAgent implements AgentConnection {
  /** No local process: 0 in AgentInfo and the transcript's "spawned" entry. */
  readonly pid = 0;
  readonly remote = true;
  private exited = false;
  private stopping = false;
  /** A WebSocket that never opened: the start fails, so there is no exit to report. */
  private abandoned = false;
  private done!: Promise<void>;
  private writer!: WritableStreamDefaultWriter<AnyMessage>;
  private reader!: ReadableStreamDefaultReader<AnyMessage>;

  private constructor(
    private readonly events: AgentConnectionEvents,
    private readonly spec: Pick<SpawnSpec, "maxLineBytes" | "killGraceMs">,
  ) {}

  static async connect(
    profile: RemoteProfile,
    events: AgentConnectionEvents,
    spec: Pick<SpawnSpec, "maxLineBytes" | "killGraceMs">,
    env: Record<string, string | undefined> = process.env,
  ): Promise<RemoteAgent> {
    let headers: Record<string, string>;
    try {
      headers = expandHeaders(profile.headers, env);
    } catch (err) {
      if (!(err instanceof RemoteProfileError)) throw err;
      throw new SpawnError({ code: "spawn_failed", message: `Failed to connect to the ACP agent: ${err.message}` });
    }
    const agent = new RemoteAgent(events, spec);
    const report = (text: string) => {
      if (!agent.exited) events.onTransport(text);
    };
    if (profile.transport === "http") {
      agent.run(createHttpStream(profile.url, { headers, fetch: agent.observedFetch(report) }));
      report(`HTTP transport to ${profile.url}: the connection opens with the initialize POST`);
      return agent;
    }
    let opened!: () => void;
    let failed!: (err: Error) => void;
    const open = new Promise<void>((resolve, reject) => {
      opened = resolve;
      failed = reject;
    });
    const stream = createWebSocketStream(profile.url, {
      headers,
      WebSocket: observedWebSocket(report, opened, failed),
    });
    agent.run(stream);
    try {
      await open;
    } catch (err) {
      agent.abandoned = true;
      await agent.stop();
      throw new SpawnError({
        code: "spawn_failed",
        message: `Failed to connect to the ACP agent at ${profile.url}: ${errorText(err)}`,
      });
    }
    return agent;
  }

  private run(stream: { readable: ReadableStream<AnyMessage>; writable: WritableStream<AnyMessage> }): void {
    this.writer = stream.writable.getWriter();
    const reader = (this.reader = stream.readable.getReader());
    this.done = (async () => {
      try {
        for (;;) {
          const { value, done } = await reader.read();
          if (done) break;
          this.deliver(value);
        }
        if (!this.stopping) this.events.onTransport("connection closed by the agent");
      } catch (err) {
        this.events.onTransport(
          this.stopping ? `connection closed: ${errorText(err)}` : `connection lost: ${errorText(err)}`,
        );
      } finally {
        this.exited = true;
        if (!this.abandoned) this.events.onExit(null, null);
      }
    })();
  }

  private deliver(message: AnyMessage): void {
    const text = JSON.stringify(message);
    const bytes = Buffer.byteLength(text);
    this.events.onLine(
      bytes > this.spec.maxLineBytes
        ? { type: "oversize", bytes, preview: text.slice(0, PREVIEW_CHARS) }
        : { type: "line", text },
    );
  }

  /** fetch as the SDK's HTTP stream calls it, reporting statuses and SSE streams opening and closing. */
  private observedFetch(report: (text: string) => void): typeof fetch {
    const conflicted = new Set<string>();
    return async (input, init) => {
      const method = init?.method ?? "GET";
      const headers = new Headers(init?.headers);
      const session = headers.get(SESSION_HEADER);
      const scope = session ? `session ${session}` : "connection";
      if (
        method === "POST" &&
        session &&
        conflicted.has(session) &&
        REATTACH.test(typeof init?.body === "string" ? init.body : "")
      ) {
        conflicted.delete(session);
        report(`re-attaching ${scope} with ${describeBody(init?.body)}`);
      }
      const what = `${method} ${method === "POST" ? describeBody(init?.body) : scope}`;
      let res: Response;
      try {
        res = await fetch(input, { ...init, redirect: "manual" });
      } catch (err) {
        if (!this.stopping && !init?.signal?.aborted) report(`${what}: ${errorText(err)}`);
        throw err;
      }
      const status = `HTTP ${res.status}${res.statusText ? ` ${res.statusText}` : ""}`;
      if (res.status >= 300 && res.status < 400) {
        void res.body?.cancel().catch(() => {});
        const url = input instanceof Request ? input.url : String(input);
        const err = redirectRefused(status, redirectTarget(res.headers.get("location"), url));
        if (!this.stopping) report(`${what}: ${err.message}`);
        throw err;
      }
      if (!res.ok) res = await cappedErrorBody(res);
      if (method === "GET") {
        if (!res.ok || !res.body) {
          if (res.status === 409 && session) conflicted.add(session);
          const hint =
            res.status === 409 ? ": the session must be re-attached with session/load or session/resume" : "";
          report(`SSE stream (${scope}) refused: ${status}${hint}`);
          return res;
        }
        report(`SSE stream opened (${scope})`);
        return this.reportEnd(res, (how) => report(`SSE stream closed (${scope})${how}`));
      }
      if (method === "POST" && !headers.has(CONNECTION_HEADER)) {
        const id = res.headers.get(CONNECTION_HEADER);
        report(`POST ${describeBody(init?.body)}: ${status}${id ? `, connection ${id}` : ""}`);
      } else if (!res.ok) {
        if (res.status === 409 && session) conflicted.add(session);
        report(`${what}: ${status}`);
      }
      return res;
    };
  }

  /** The same response, with a report when its body ends (by the agent, or cut off). */
  private reportEnd(res: Response, closed: (how: string) => void): Response {
    const reader: ReadableStreamDefaultReader<Uint8Array> = res.body!.getReader();
    const body = new ReadableStream<Uint8Array>({
      pull: async (controller) => {
        try {
          const { value, done } = await reader.read();
          if (!done) return controller.enqueue(value);
          closed(" by the agent");
          controller.close();
        } catch (err) {
          if (!this.stopping) closed(`: ${errorText(err)}`);
          controller.error(err);
        }
      },
      cancel: (reason) => reader.cancel(reason),
    });
    return new Response(body, { status: res.status, statusText: res.statusText, headers: res.headers });
  }

  get running(): boolean {
    return !this.exited;
  }

  /** Sends one line; false once the connection is gone. A line that is not a JSON object cannot travel. */
  write(line: string): boolean {
    if (this.exited || this.stopping) return false;
    let message: unknown;
    try {
      message = JSON.parse(line);
    } catch {
      message = undefined;
    }
    if (typeof message !== "object" || message === null || Array.isArray(message)) {
      this.events.onTransport("not sent: the HTTP and WebSocket transports carry single JSON objects only");
      return true;
    }
    this.writer.write(message as AnyMessage).catch((err: unknown) => {
      if (!this.stopping && !this.exited) this.events.onTransport(`send failed: ${errorText(err)}`);
    });
    return true;
  }

  /**
   * Closes the connection (HTTP: DELETE); resolves once the exit has been
   * reported. An agent that does not answer the DELETE within the kill grace
   * is left behind rather than holding the stop up.
   */
  async stop(): Promise<void> {
    if (!this.exited && !this.stopping) {
      this.stopping = true;
      // abort, not close: a write still in flight must not hold the stop up.
      const closed = this.writer.abort().then(
        () => true,
        () => true,
      );
      let timer: NodeJS.Timeout | undefined;
      const late = new Promise<boolean>((resolve) => {
        timer = setTimeout(() => resolve(false), this.spec.killGraceMs);
      });
      const inTime = await Promise.race([closed, late]);
      clearTimeout(timer);
      if (!inTime) {
        this.events.onTransport(`no answer to closing the connection within ${this.spec.killGraceMs} ms; left behind`);
        await this.reader.cancel().catch(() => {});
      }
    }
    await this.done;
  }
}

/** The `ws` WebSocket, reporting the upgrade's status and the socket's close and errors. */
function observedWebSocket(
  report: (text: string) => void,
  opened: () => void,
  failed: (err: Error) => void,
): WebSocketConstructor {
  return class ObservedWebSocket extends WebSocket {
    constructor(url: string, protocols?: string | string[], options?: { headers?: Record<string, string> }) {
      // followRedirects stays off whatever the SDK passes: the headers would go to the new target.
      super(url, protocols ?? [], { ...options, followRedirects: false });
      /** Why the upgrade was refused, told in place of ws's "closed before the connection was established". */
      let refused: Error | undefined;
      this.once("unexpected-response", (_req, res) => {
        const status = `HTTP ${res.statusCode}${res.statusMessage ? ` ${res.statusMessage}` : ""}`;
        const code = res.statusCode ?? 0;
        refused =
          code >= 300 && code < 400
            ? redirectRefused(status, redirectTarget(res.headers.location, url))
            : new Error(`Unexpected server response: ${code}`);
        res.resume();
        this.terminate();
      });
      this.once("upgrade", (res) => {
        const id = res.headers[CONNECTION_HEADER];
        report(`WebSocket open: HTTP ${res.statusCode}${typeof id === "string" ? `, connection ${id}` : ""}`);
      });
      this.once("open", opened);
      this.on("error", (err) => {
        report(`WebSocket error: ${errorText(refused ?? err)}`);
        failed(refused ?? err);
      });
      this.once("close", (code, reason) => {
        report(`WebSocket closed: code ${code}${reason.length ? `, ${reason.toString()}` : ""}`);
        failed(new Error(`closed with code ${code}`));
      });
    }
  };
}
