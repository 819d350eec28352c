/**
 * An OpenAI-compatible chat-completions API (OPENAI_BASE_URL=<url>/v1) on
 * 127.0.0.1, for driving agents such as Qwen Code offline: the offline model
 * (offline-model.ts) and the tests' fake (test/fake-models/openai.ts). A
 * request that offers tools plays the next scripted turn (or the fallback: an
 * echo of the user's last text for tests, the scripted model for the offline
 * model) as SSE deltas (a thought as `reasoning_content`, tool calls as
 * `tool_calls` deltas), then `[DONE]`; other calls get a short plain answer.
 */
import type { ServerResponse } from "node:http";
import { isObject } from "../../lib/protocol/json";
import { offeredTools, scriptedModelTurn } from "./agent-tools";
import {
  type AgentLoopTest,
  type FakeModelApi,
  lastUserText,
  type ModelApiOptions,
  type ModelTurn,
  offersTools,
  sendJson,
  sendSse,
  serveModelApi,
  sleep,
  startSse,
} from "./http";

const usage = { prompt_tokens: 12, completion_tokens: 7, total_tokens: 19 };

interface ChatBody {
  model?: string;
  stream?: boolean;
  tools?: unknown[];
  messages?: unknown[];
  stream_options?: { include_usage?: boolean };
}

async function stream(res: ServerResponse, body: ChatBody, turn: ModelTurn): Promise<void> {
  startSse(res);
  const base = { id: "chatcmpl-fake", object: "chat.completion.chunk", created: 1, model: body.model ?? "fake" };
  const send = async (delta: Record<string, unknown>, finish: string | null = null) => {
    sendSse(res, { ...base, choices: [{ index: 0, delta, finish_reason: finish }] });
    if (turn.delayMs) await sleep(turn.delayMs);
  };
  await send({ role: "assistant", content: "" });
  if (turn.thought) await send({ reasoning_content: turn.thought });
  for (const text of turn.text ?? []) await send({ content: text });
  const tools = turn.tools ?? [];
  for (const [index, tool] of tools.entries()) {
    const args = JSON.stringify(tool.input);
    const half = Math.ceil(args.length / 2);
    // Split the arguments across deltas, as real APIs do.
    await send({
      tool_calls: [
        { index, id: `call_${index}`, type: "function", function: { name: tool.name, arguments: args.slice(0, half) } },
      ],
    });
    await send({ tool_calls: [{ index, function: { arguments: args.slice(half) } }] });
  }
  await send({}, tools.length ? "tool_calls" : "stop");
  if (body.stream_options?.include_usage) sendSse(res, { ...base, choices: [], usage });
  sendSse(res, "[DONE]");
  res.end();
}

/** A message's text: a string, or its text parts joined. */
function textOf(content: unknown): string {
  if (typeof content === "string") return content;
  if (!Array.isArray(content)) return "";
  return content
    .filter(isObject)
    .map((p) => (typeof p.text === "string" ? p.text : ""))
    .join("");
}

interface ChatMessage {
  role?: string;
  content?: unknown;
  tool_call_id?: string;
  tool_calls?: Array<{ id?: string; function?: { name?: string; arguments?: string } }>;
}

/** The offline model's turn for a chat-completions body: the result of the call a `tool` message answers, else the prompt. */
export function scriptedChatTurn(raw: unknown): ModelTurn {
  const body = (isObject(raw) ? raw : {}) as ChatBody;
  const messages = (body.messages ?? []).filter(isObject) as ChatMessage[];
  const last = messages.at(-1);
  const context = messages.filter((m) => m.role === "system" || m.role === "user").map((m) => textOf(m.content));
  const offered = offeredTools(body.tools);
  if (last?.role === "tool") {
    const call = messages
      .flatMap((m) => (m.role === "assistant" ? (m.tool_calls ?? []) : []))
      .find((c) => c.id === last.tool_call_id);
    let input: unknown = {};
    try {
      input = JSON.parse(call?.function?.arguments ?? "{}");
    } catch {
      // Arguments the agent could not have run: the reply names the tool only.
    }
    const output = textOf(last.content);
    // Chat completions carry no error flag: the agents start a failed call's result so.
    const failed = /^(error|tool execution (failed|denied)|user (rejected|denied|cancelled))/i.test(output.trim());
    return scriptedModelTurn({
      prompt: "",
      result: { name: call?.function?.name, input, ...(failed ? { error: output } : { output }) },
      offered,
      context,
    });
  }
  return scriptedModelTurn({ prompt: lastUserText(messages), offered, context });
}

/**
 * `isAgentLoop` tells the agent's own turns from its side calls (sub-agents, memory
 * extraction, titles), which must not take the scripted turns; they get "ok".
 */
export function startOpenAiApi(
  isAgentLoop: AgentLoopTest = offersTools,
  port = 0,
  options: ModelApiOptions = {},
): Promise<FakeModelApi> {
  return serveModelApi(
    async (req, res, url, raw, { log, play }) => {
      const body = (raw ?? {}) as ChatBody;
      if (req.method === "POST" && /\/chat\/completions$/.test(url.pathname)) {
        const turn = play(isAgentLoop(body as Record<string, unknown>), body.messages);
        if (body.stream) return stream(res, body, turn);
        const text = (turn.text ?? []).join("");
        return sendJson(res, 200, {
          id: "chatcmpl-fake",
          object: "chat.completion",
          created: 1,
          model: body.model ?? "fake",
          choices: [{ index: 0, message: { role: "assistant", content: text }, finish_reason: "stop" }],
          usage,
        });
      }
      log(false);
      if (req.method === "GET" && /\/models$/.test(url.pathname))
        return sendJson(res, 200, { object: "list", data: [{ id: "fake-model", object: "model" }] });
      sendJson(res, 404, { error: { message: `fake OpenAI API has no ${url.pathname}`, type: "not_found" } });
    },
    port,
    options,
  );
}
