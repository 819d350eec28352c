/**
 * What the model APIs share (the offline model's and the tests' fakes): an HTTP
 * server on 127.0.0.1 (a free port unless one is given) with a script queue, SSE,
 * and for the OpenAI, Anthropic and Responses APIs a scripted turn and the request log.
 * It runs inside the relay's process and any local process can reach the port, so it
 * answers only a loopback Host without an Origin (no web page, no DNS rebinding), reads
 * at most MAX_MODEL_BODY_BYTES of a body, and the offline model's wants a per-run secret
 * as the first part of every path (docs/agents.md "Limits of the offline model's API").
 */
import { isObject } from "../../lib/protocol/json";
import { randomBytes, timingSafeEqual } from "node:crypto";
import { createServer, type IncomingMessage, type ServerResponse } from "node:http";
import type { AddressInfo } from "node:net";

/** The largest request body read: an agent's whole conversation fits many times over; 413 beyond. */
export const MAX_MODEL_BODY_BYTES = 4 * 1024 * 1024;
/** Time to send a request's headers, and the whole request (a response may stream for longer). */
const HEADERS_TIMEOUT_MS = 10_000;
const REQUEST_TIMEOUT_MS = 60_000;
const LOOPBACK_HOSTS = new Set(["127.0.0.1", "localhost", "[::1]"]);

/** One model answer: a thought, streamed text pieces, then tool calls (the agent runs them and calls again). */
export interface ModelTurn {
  /** Streamed first as the model's reasoning (where the API has it). */
  thought?: string;
  text?: string[];
  tools?: Array<{ name: string; input: Record<string, unknown> }>;
  /** Pause between streamed events, in ms. */
  delayMs?: number;
}

export interface RecordedRequest {
  method: string;
  path: string;
  headers: IncomingMessage["headers"];
  body: unknown;
  /** Whether the request played a scripted (or echo) turn, rather than a side call. */
  turn: boolean;
}

/** `script` queues turns for the next agent-loop calls (requests that offer tools). */
export interface FakeModelApi extends FakeServer<ModelTurn> {
  requests: RecordedRequest[];
}

/** Which requests play scripted turns; by default those that offer tools. */
export type AgentLoopTest = (body: Record<string, unknown>) => boolean;

export const offersTools: AgentLoopTest = (body) => Array.isArray(body.tools) && body.tools.length > 0;

/** What a model API's handler gets besides the request: the log, and the turn a request plays. */
export interface TurnContext {
  /** Records the request; `turn` says whether it played a scripted (or echo) turn. */
  log: (turn: boolean) => void;
  /** Records the request and picks its turn: the next scripted one (or an echo) for the agent loop, "ok" for a side call. */
  play: (agentLoop: boolean, messages: unknown) => ModelTurn;
}

export type Handler = (
  req: IncomingMessage,
  res: ServerResponse,
  url: URL,
  body: unknown,
  ctx: TurnContext,
) => Promise<void>;

export const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

const TOO_LARGE = Symbol("too large");

/**
 * A request's body as JSON (or text), undefined when there is none, TOO_LARGE past the cap: then
 * the request is paused, never read further.
 */
function readBody(req: IncomingMessage): Promise<unknown> {
  if (Number(req.headers["content-length"] ?? 0) > MAX_MODEL_BODY_BYTES) return Promise.resolve(TOO_LARGE);
  return new Promise((resolve, reject) => {
    const chunks: Buffer[] = [];
    let size = 0;
    const onData = (chunk: Buffer) => {
      size += chunk.length;
      if (size <= MAX_MODEL_BODY_BYTES) return void chunks.push(chunk);
      req.pause();
      req.off("data", onData);
      chunks.length = 0;
      resolve(TOO_LARGE);
    };
    req.on("data", onData);
    req.once("error", reject);
    req.once("end", () => {
      const text = Buffer.concat(chunks).toString("utf8");
      if (!text) return resolve(undefined);
      try {
        resolve(JSON.parse(text));
      } catch {
        resolve(text);
      }
    });
  });
}

/** Why a request is refused before its body is read (403), or undefined. */
function refusal(req: IncomingMessage, secret: Buffer | undefined, path: string): string | undefined {
  const host = (req.headers.host ?? "").replace(/:\d+$/, "").toLowerCase();
  if (!LOOPBACK_HOSTS.has(host)) return `Host must be 127.0.0.1 or localhost, not ${JSON.stringify(host)}`;
  if (req.headers.origin !== undefined) return "a request with an Origin (a web page's) is not answered";
  if (secret && !startsWithSecret(path, secret)) return "the path does not start with this run's secret";
  return undefined;
}

/** Whether `path` is /SECRET or /SECRET/..., compared in constant time. */
function startsWithSecret(path: string, secret: Buffer): boolean {
  const given = Buffer.from(path.slice(1, 1 + secret.length));
  const next = path[1 + secret.length];
  return given.length === secret.length && timingSafeEqual(given, secret) && (next === undefined || next === "/");
}

/** How long a refused connection's unread body is left to the client before the socket is destroyed. */
const LINGER_MS = 2_000;

/**
 * Answers with `status` and a JSON error, then closes the connection: the rest of the body is never
 * read. Destroyed at once over an unread body, the socket would be reset, and a client still sending
 * would lose the answer (its write fails first): the answer and the end of it are sent, the body is
 * left unread (the client's writes stall), and the socket is destroyed after LINGER_MS.
 */
function refuse(req: IncomingMessage, res: ServerResponse, status: number, message: string): void {
  const socket = req.socket;
  // What Node calls once a `connection: close` answer is written (end, then destroy at once).
  socket.destroySoon = () => {
    socket.end();
    setTimeout(() => socket.destroy(), LINGER_MS).unref();
  };
  res.writeHead(status, { "content-type": "application/json", connection: "close" });
  res.end(JSON.stringify({ error: { code: status, message } }));
}

export function sendJson(res: ServerResponse, status: number, body: unknown): void {
  res.writeHead(status, { "content-type": "application/json" }).end(JSON.stringify(body));
}

export function startSse(res: ServerResponse): void {
  res.writeHead(200, { "content-type": "text/event-stream", "cache-control": "no-cache", connection: "keep-alive" });
}

/** Writes one SSE event: `data` as JSON (or as it is, for a string), named when `event` is given. */
export function sendSse(res: ServerResponse, data: unknown, event?: string): void {
  const payload = typeof data === "string" ? data : JSON.stringify(data);
  res.write(`${event ? `event: ${event}\n` : ""}data: ${payload}\n\n`);
}

/** The text of the last user message, whatever the API's content shape (string or parts). */
export function lastUserText(messages: unknown): string {
  if (!Array.isArray(messages)) return "";
  for (let i = messages.length - 1; i >= 0; i--) {
    const m = messages[i] as { role?: string; content?: unknown };
    if (m?.role !== "user") continue;
    if (typeof m.content === "string") return m.content.trim();
    if (Array.isArray(m.content)) {
      const texts = (m.content as unknown[])
        .filter(
          (p): p is { type: string; text: string } => isObject(p) && p.type === "text" && typeof p.text === "string",
        )
        .map((p) => p.text.trim())
        .filter((t) => t && !t.startsWith("<system-reminder>"));
      if (texts.length) return texts.at(-1)!;
      // A tool result: the turn continues; no text to echo.
      return "";
    }
  }
  return "";
}

export interface FakeServer<T> {
  /** The base URL; with `secret`, its path is the secret (every request must start with it). */
  url: string;
  port: number;
  /** Queues turns for the handler. */
  script(...turns: T[]): void;
  close(): Promise<void>;
  /** Lets the process exit while the server still listens (the offline model in a CLI command). */
  unref(): void;
}

/**
 * Serves `handle` on 127.0.0.1. Another process (an e2e worker) queues turns with
 * POST /__fake/script `{ turns, replace? }` (replace drops turns still queued); the handler takes them
 * from the queue it is made with. GET /__fake/calls lists the latest calls with the turns queued
 * before and after each, for a failed test to print. `controls: false` turns both off (the offline
 * model: a web page could otherwise POST a script to it). `secret: true` makes a random secret the
 * first part of every path (in `url`; handlers see the path after it): only the agents given the
 * URL can call.
 */
export async function serveFake<T>(
  handler: (queue: T[]) => (req: IncomingMessage, res: ServerResponse, url: URL, body: unknown) => Promise<void>,
  port = 0,
  { controls = true, secret: withSecret = false }: ServeOptions = {},
): Promise<FakeServer<T>> {
  const queue: T[] = [];
  const handle = handler(queue);
  const calls: { at: string; method: string; path: string; queued: number; left?: number }[] = [];
  const secret = withSecret ? randomBytes(16).toString("hex") : undefined;
  const secretBytes = secret === undefined ? undefined : Buffer.from(secret);
  const server = createServer((req, res) => {
    void (async () => {
      const url = new URL(req.url ?? "/", "http://127.0.0.1");
      const refused = refusal(req, secretBytes, url.pathname);
      if (refused) return refuse(req, res, 403, refused);
      if (secret !== undefined) url.pathname = url.pathname.slice(1 + secret.length) || "/";
      const body = await readBody(req);
      if (body === TOO_LARGE)
        return refuse(
          req,
          res,
          413,
          `request body over ${MAX_MODEL_BODY_BYTES / 1024 / 1024} MiB, the model API's limit`,
        );
      if (!controls) return handle(req, res, url, body);
      if (req.method === "POST" && url.pathname === "/__fake/script") {
        const script = body as { turns?: T[]; replace?: boolean } | undefined;
        if (script?.replace) queue.length = 0;
        queue.push(...(script?.turns ?? []));
        res.writeHead(204).end();
        return;
      }
      if (req.method === "GET" && url.pathname === "/__fake/calls") {
        res.writeHead(200, { "content-type": "application/json" }).end(JSON.stringify(calls));
        return;
      }
      const call: (typeof calls)[number] = {
        at: new Date().toISOString(),
        method: req.method ?? "",
        path: url.pathname,
        queued: queue.length,
      };
      calls.push(call);
      if (calls.length > 50) calls.shift();
      await handle(req, res, url, body);
      call.left = queue.length;
    })().catch((err: Error) => {
      if (!res.headersSent) res.writeHead(500);
      res.end(String(err));
    });
  });
  server.headersTimeout = HEADERS_TIMEOUT_MS;
  server.requestTimeout = REQUEST_TIMEOUT_MS;
  await new Promise<void>((resolve) => server.listen(port, "127.0.0.1", resolve));
  const actual = (server.address() as AddressInfo).port;
  return {
    url: `http://127.0.0.1:${actual}${secret === undefined ? "" : `/${secret}`}`,
    port: actual,
    script: (...turns) => queue.push(...turns),
    unref: () => server.unref(),
    close: () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}

export interface ServeOptions {
  /** A test's controls: serveFake's /__fake/ endpoints (and serveModelApi's request log). */
  controls?: boolean;
  /** A random secret as the first part of every path (the offline model's). */
  secret?: boolean;
}

export interface ModelApiOptions extends ServeOptions {
  /** The agent-loop turn played when none is scripted: an echo of the user's last text unless given (the offline model's). */
  fallback?: (body: unknown) => ModelTurn;
}

/**
 * A model API. The offline model's has no controls (a long-lived server would keep every request;
 * a web page could script it) and a secret.
 */
export async function serveModelApi(
  handle: Handler,
  port = 0,
  { fallback, controls = true, secret = false }: ModelApiOptions = {},
): Promise<FakeModelApi> {
  const requests: RecordedRequest[] = [];
  const server = await serveFake<ModelTurn>(
    (queue) => (req, res, url, body) => {
      const log = (turn: boolean) => {
        if (controls) requests.push({ method: req.method ?? "", path: url.pathname, headers: req.headers, body, turn });
      };
      const play = (agentLoop: boolean, messages: unknown): ModelTurn => {
        log(agentLoop);
        if (!agentLoop) return { text: ["ok"] };
        return queue.shift() ?? fallback?.(body) ?? { text: [`Echo: ${lastUserText(messages)}`] };
      };
      return handle(req, res, url, body, { log, play });
    },
    port,
    { controls, secret },
  );
  return { ...server, requests };
}
