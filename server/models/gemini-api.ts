/**
 * A Gemini API on 127.0.0.1 for driving the real Gemini CLI offline
 * (GOOGLE_GEMINI_BASE_URL): the offline model (offline-model.ts) and the tests'
 * fake. Each streamGenerateContent call plays the next scripted turn (a turn
 * scripted for a model waits for a call to that model); with none scripted it
 * answers with its fallback: an echo of the user's last text for tests, the
 * scripted model for the offline model.
 */
import type { ServerResponse } from "node:http";
import { sendJson, sendSse, serveFake, sleep, startSse, type FakeServer } from "./http";
import { actionOfCall, PIECE_DELAY_MS, toolCall } from "./agent-tools";
import { replyToPrompt, replyToResult, streamPieces, type ScriptedAction, type ScriptedReply } from "./scripted-model";

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

interface Content {
  role?: string;
  parts?: Array<{
    text?: string;
    functionCall?: { name?: string; args?: Record<string, unknown> };
    functionResponse?: { name?: string; response?: { output?: unknown; error?: unknown } };
  }>;
}

/** What the test fake answers when nothing is scripted. */
export const echoTurn = (body: unknown): Turn => ({ parts: [{ text: `Echo: ${lastUserText(body)}` }] });

/** The scripted model's actions as Gemini CLI's tools (agent-tools.ts: the Gemini family's are the default). */
function functionCall(action: ScriptedAction): Part {
  const { name, input } = toolCall(action, []);
  return { functionCall: { name, args: input } };
}

function geminiTurn(reply: ScriptedReply): Turn {
  const parts: Part[] = [
    ...(reply.thought ? [{ text: reply.thought, thought: true }] : []),
    ...streamPieces(reply.text).map((text) => ({ text })),
    ...(reply.action ? [functionCall(reply.action)] : []),
  ];
  return { parts, delayMs: PIECE_DELAY_MS };
}

/**
 * The offline model's answer to a streamGenerateContent body: after a tool ran
 * (the last user content carries its functionResponse), what came of it; else
 * the reply to the user's prompt.
 */
export function scriptedTurn(body: unknown): Turn {
  const contents = (body as { contents?: Content[] } | undefined)?.contents ?? [];
  const last = contents.at(-1);
  const response = last?.role === "user" ? last.parts?.find((p) => p.functionResponse)?.functionResponse : undefined;
  if (response) {
    const call = contents
      .at(-2)
      ?.parts?.find((p) => p.functionCall && p.functionCall.name === response.name)?.functionCall;
    const action = call && actionOfCall(call.name, call.args);
    const str = (v: unknown) => (v === undefined ? undefined : typeof v === "string" ? v : JSON.stringify(v));
    if (action)
      return geminiTurn(
        replyToResult(action, { output: str(response.response?.output), error: str(response.response?.error) }),
      );
    return geminiTurn({ text: `The \`${response.name ?? "tool"}\` call is done.` });
  }
  return geminiTurn(replyToPrompt(lastUserText(body)));
}

/** The JSON schema a generateContent call asks its answer to follow, if any. */
function schemaOf(body: unknown): unknown {
  const config = (body as { generationConfig?: { responseJsonSchema?: unknown; responseSchema?: unknown } } | undefined)
    ?.generationConfig;
  return config?.responseJsonSchema ?? config?.responseSchema;
}

/**
 * A small value of a (Gemini or JSON) schema: each required property, the first enum value,
 * the least number allowed (at least 1: a classifier's score is 1-100). Without a schema, the
 * older classifier's answer (reasoning, model_choice).
 */
export function answerForSchema(schema: unknown, depth = 0): unknown {
  if (typeof schema !== "object" || schema === null || depth > 8)
    return depth === 0 ? { reasoning: "offline model", model_choice: "flash" } : null;
  const s = schema as {
    type?: unknown;
    enum?: unknown[];
    properties?: Record<string, unknown>;
    required?: unknown;
    items?: unknown;
    minimum?: unknown;
  };
  if (Array.isArray(s.enum) && s.enum.length) return s.enum[0];
  const first: unknown = Array.isArray(s.type) ? (s.type as unknown[])[0] : s.type;
  const type = typeof first === "string" ? first.toLowerCase() : undefined;
  switch (type) {
    case "object": {
      const required = Array.isArray(s.required) ? s.required.filter((k): k is string => typeof k === "string") : [];
      return Object.fromEntries(required.map((k) => [k, answerForSchema(s.properties?.[k] ?? {}, depth + 1)]));
    }
    case "array":
      return [];
    case "integer":
    case "number":
      return typeof s.minimum === "number" ? Math.max(1, Math.ceil(s.minimum)) : 1;
    case "boolean":
      return false;
    case "string":
      return "offline model";
    default:
      return null;
  }
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

export interface GeminiApiOptions {
  /** The turn played when none is scripted. */
  fallback?: (body: unknown) => Turn;
  /**
   * A test's controls: the request log and serveFake's /__fake/ endpoints. The offline model has
   * none (a long-lived server would keep every request; a web page could script it).
   */
  controls?: boolean;
  /** A random secret as the first part of every path (the offline model's; serveFake). */
  secret?: boolean;
}

export async function startFakeGeminiApi(
  port = 0,
  { fallback = echoTurn, controls = true, secret = false }: GeminiApiOptions = {},
): Promise<FakeGeminiApi> {
  const requests: RecordedRequest[] = [];
  const server = await serveFake<Turn>(
    (queue) => async (req, res, url, body) => {
      if (controls) requests.push({ method: req.method ?? "", path: url.pathname, body });
      const match = /^\/v1(?:beta|alpha)?\/models\/([^:]+):(\w+)$/.exec(url.pathname);
      const action = match?.[2];
      if (action === "streamGenerateContent") {
        const next = queue.findIndex((t) => t.model === undefined || t.model === match?.[1]);
        const turn = next < 0 ? fallback(body) : queue.splice(next, 1)[0]!;
        return stream(res, turn);
      }
      if (action === "generateContent") {
        // The CLI's JSON calls (its routing classifiers): an answer of the schema asked for, so its zod parse passes.
        const text = JSON.stringify(answerForSchema(schemaOf(body)));
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
    { controls, secret },
  );
  return { ...server, requests };
}
