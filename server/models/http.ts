/**
 * What the model APIs share (the offline model's and the tests' fakes): an HTTP
 * server on 127.0.0.1 (a free port unless one is given) with a script queue, SSE,
 * and for the OpenAI, Anthropic and Responses APIs a scripted turn and the request log.
 */
import { isObject } from "../../lib/protocol/json";
import { createServer, type IncomingMessage, type ServerResponse } from "node:http";
import type { AddressInfo } from "node:net";

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

async function readBody(req: IncomingMessage): Promise<unknown> {
  const chunks: Buffer[] = [];
  for await (const chunk of req) chunks.push(chunk as Buffer);
  const text = Buffer.concat(chunks).toString("utf8");
  if (!text) return undefined;
  try {
    return JSON.parse(text);
  } catch {
    return text;
  }
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
 * model: a web page could otherwise POST a script to it).
 */
export async function serveFake<T>(
  handler: (queue: T[]) => (req: IncomingMessage, res: ServerResponse, url: URL, body: unknown) => Promise<void>,
  port = 0,
  { controls = true }: { controls?: boolean } = {},
): Promise<FakeServer<T>> {
  const queue: T[] = [];
  const handle = handler(queue);
  const calls: { at: string; method: string; path: string; queued: number; left?: number }[] = [];
  const server = createServer((req, res) => {
    void (async () => {
      const url = new URL(req.url ?? "/", "http://127.0.0.1");
      const body = await readBody(req);
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
  await new Promise<void>((resolve) => server.listen(port, "127.0.0.1", resolve));
  const actual = (server.address() as AddressInfo).port;
  return {
    url: `http://127.0.0.1:${actual}`,
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

export interface ModelApiOptions {
  /** The agent-loop turn played when none is scripted: an echo of the user's last text unless given (the offline model's). */
  fallback?: (body: unknown) => ModelTurn;
  /**
   * A test's controls: the request log and serveFake's /__fake/ endpoints. The offline model has
   * none (a long-lived server would keep every request; a web page could script it).
   */
  controls?: boolean;
}

export async function serveModelApi(
  handle: Handler,
  port = 0,
  { fallback, controls = true }: ModelApiOptions = {},
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
    { controls },
  );
  return { ...server, requests };
}
