/**
 * A fake OpenAI-compatible chat-completions API (OPENAI_BASE_URL=<url>/v1) for
 * driving agents such as Qwen Code offline. A request that offers tools plays
 * the next scripted turn (or echoes the user's last text) as SSE deltas,
 * tool calls as `tool_calls` deltas, then `[DONE]`; other calls get a short
 * plain answer.
 */
import type { ServerResponse } from "node:http";
import {
  type ModelTurn,
  sendJson,
  serveModelApi,
  sleep,
  startSse,
  sendSse,
  type FakeModelApi,
  type AgentLoopTest,
  offersTools,
} from "./http";

export type { ModelTurn };

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

/**
 * `isAgentLoop` tells the agent's own turns from its side calls (sub-agents, memory
 * extraction, titles), which must not take the scripted turns; they get "ok".
 */
export function startFakeOpenAiApi(isAgentLoop: AgentLoopTest = offersTools, port = 0): Promise<FakeModelApi> {
  return serveModelApi(async (req, res, url, raw, { log, play }) => {
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
  }, port);
}
