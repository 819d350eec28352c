/**
 * A fake Gemini API on 127.0.0.1 for driving the real Gemini CLI offline
 * (GOOGLE_GEMINI_BASE_URL). Each streamGenerateContent call plays the next
 * scripted turn (a turn scripted for a model waits for a call to that model);
 * with none scripted it echoes the user's last text.
 */
import type { ServerResponse } from "node:http";
import { sendJson, sendSse, serveFake, sleep, startSse, type FakeServer } from "../fake-models/http";

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

/** `script` queues turns for the next streamGenerateContent calls. */
export interface FakeGeminiApi extends FakeServer<Turn> {
  requests: RecordedRequest[];
}

const usage = { promptTokenCount: 12, candidatesTokenCount: 7, totalTokenCount: 19 };

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

async function stream(res: ServerResponse, turn: Turn): Promise<void> {
  startSse(res);
  const parts = turn.parts.length ? turn.parts : [{ text: "" }];
  for (let i = 0; i < parts.length; i++) {
    const last = i === parts.length - 1;
    if (turn.hangUp && last) break;
    const candidate: Record<string, unknown> = { content: { role: "model", parts: [parts[i]] }, index: 0 };
    if (last) candidate.finishReason = "STOP";
    const event: Record<string, unknown> = { candidates: [candidate] };
    if (last) event.usageMetadata = usage;
    sendSse(res, event);
    if (turn.delayMs) await sleep(turn.delayMs);
  }
  res.end();
}

export async function startFakeGeminiApi(port = 0): Promise<FakeGeminiApi> {
  const requests: RecordedRequest[] = [];
  const server = await serveFake<Turn>(
    (queue) => async (req, res, url, body) => {
      requests.push({ method: req.method ?? "", path: url.pathname, body });
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
        return sendJson(res, 200, {
          candidates: [{ content: { role: "model", parts: [{ text }] }, finishReason: "STOP", index: 0 }],
          usageMetadata: usage,
        });
      }
      if (action === "countTokens") return sendJson(res, 200, { totalTokens: 10 });
      sendJson(res, 404, {
        error: { code: 404, message: `fake Gemini API has no ${url.pathname}`, status: "NOT_FOUND" },
      });
    },
    port,
  );
  return { ...server, requests };
}
