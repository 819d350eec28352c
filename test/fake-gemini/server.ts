/**
 * A fake Gemini API on 127.0.0.1 for driving the real Gemini CLI offline
 * (GOOGLE_GEMINI_BASE_URL). Each streamGenerateContent call plays the next
 * scripted turn (a turn scripted for a model waits for a call to that model);
 * with none scripted it echoes the user's last text.
 */
import { createServer, type IncomingMessage, type ServerResponse } from "node:http";
import type { AddressInfo } from "node:net";

export type Part =
  { text: string; thought?: boolean } | { functionCall: { name: string; args: Record<string, unknown> } };

export interface Turn {
  parts: Part[];
  /** Pause between streamed events, in ms. */
  delayMs?: number;
  /** Close the stream without a finish event (a broken upstream). */
  hangUp?: boolean;
  /**
   * Played only for a call to this model: agents sharing the API (a comparison's two sides) start
   * and loop at their own pace, and would otherwise take each other's turns.
   */
  model?: string;
}

export interface RecordedRequest {
  method: string;
  path: string;
  body: unknown;
}

export interface FakeGeminiApi {
  url: string;
  port: number;
  /** Queues turns for the next streamGenerateContent calls. */
  script(...turns: Turn[]): void;
  requests: RecordedRequest[];
  close(): Promise<void>;
}

const usage = { promptTokenCount: 12, candidatesTokenCount: 7, totalTokenCount: 19 };

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

/** The text of the last user message in a generateContent request body. */
export function lastUserText(body: unknown): string {
  const contents = (body as { contents?: Array<{ role?: string; parts?: Array<{ text?: string }> }> })?.contents ?? [];
  for (let i = contents.length - 1; i >= 0; i--) {
    const c = contents[i]!;
    if (c.role !== "user") continue;
    // The CLI prepends its session context as earlier parts: the prompt is last.
    const text = [...(c.parts ?? [])]
      .reverse()
      .find((p) => p.text?.trim())
      ?.text?.trim();
    if (text) return text;
  }
  return "";
}

const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

export async function startFakeGeminiApi(port = 0): Promise<FakeGeminiApi> {
  const queue: Turn[] = [];
  const requests: RecordedRequest[] = [];

  async function stream(res: ServerResponse, turn: Turn): Promise<void> {
    res.writeHead(200, { "content-type": "text/event-stream", "cache-control": "no-cache" });
    const parts = turn.parts.length ? turn.parts : [{ text: "" }];
    for (let i = 0; i < parts.length; i++) {
      const last = i === parts.length - 1;
      if (turn.hangUp && last) break;
      const candidate: Record<string, unknown> = { content: { role: "model", parts: [parts[i]] }, index: 0 };
      if (last) candidate.finishReason = "STOP";
      const event: Record<string, unknown> = { candidates: [candidate] };
      if (last) event.usageMetadata = usage;
      res.write(`data: ${JSON.stringify(event)}\n\n`);
      if (turn.delayMs) await sleep(turn.delayMs);
    }
    res.end();
  }

  async function handle(req: IncomingMessage, res: ServerResponse): Promise<void> {
    const url = new URL(req.url ?? "/", "http://127.0.0.1");
    const body = await readBody(req);
    requests.push({ method: req.method ?? "", path: url.pathname, body });

    if (req.method === "POST" && url.pathname === "/__fake/script") {
      const turns = (body as { turns?: Turn[] })?.turns ?? [];
      queue.push(...turns);
      res.writeHead(204).end();
      return;
    }
    const match = /^\/v1(?:beta|alpha)?\/models\/([^:]+):(\w+)$/.exec(url.pathname);
    const action = match?.[2];
    if (action === "streamGenerateContent") {
      const next = queue.findIndex((t) => t.model === undefined || t.model === match?.[1]);
      const turn = next < 0 ? { parts: [{ text: `Echo: ${lastUserText(body)}` }] } : queue.splice(next, 1)[0]!;
      return stream(res, turn);
    }
    if (action === "generateContent") {
      // The CLI's routing classifier: any parseable choice will do.
      const text = JSON.stringify({ reasoning: "fake api", model_choice: "flash" });
      res.writeHead(200, { "content-type": "application/json" });
      res.end(
        JSON.stringify({
          candidates: [{ content: { role: "model", parts: [{ text }] }, finishReason: "STOP", index: 0 }],
          usageMetadata: usage,
        }),
      );
      return;
    }
    if (action === "countTokens") {
      res.writeHead(200, { "content-type": "application/json" }).end(JSON.stringify({ totalTokens: 10 }));
      return;
    }
    res.writeHead(404, { "content-type": "application/json" });
    res.end(
      JSON.stringify({ error: { code: 404, message: `fake Gemini API has no ${url.pathname}`, status: "NOT_FOUND" } }),
    );
  }

  const server = createServer((req, res) => {
    handle(req, res).catch((err: Error) => {
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
    requests,
    close: () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}
