/**
 * An Anthropic Messages API (ANTHROPIC_BASE_URL=<url>) on 127.0.0.1, for
 * driving Claude's ACP adapter offline: the offline model (offline-model.ts)
 * and the tests' fake (test/fake-models/anthropic.ts). A request that offers
 * tools plays the next scripted turn (or the fallback: an echo of the user's
 * last text for tests, the scripted model for the offline model) as streamed
 * events: message_start, content_block_start/delta/stop (thinking_delta when
 * the request asks for thinking, text_delta, tool_use with input_json_delta),
 * message_delta, message_stop. Other calls get a short plain answer.
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

interface MessagesBody {
  model?: string;
  stream?: boolean;
  tools?: unknown[];
  messages?: unknown[];
  system?: unknown;
  thinking?: { type?: string };
}

const usage = { input_tokens: 12, output_tokens: 7, cache_creation_input_tokens: 0, cache_read_input_tokens: 0 };

async function stream(res: ServerResponse, body: MessagesBody, turn: ModelTurn, n: number): Promise<void> {
  startSse(res);
  const send = async (event: string, data: Record<string, unknown>) => {
    sendSse(res, { type: event, ...data }, event);
    if (turn.delayMs) await sleep(turn.delayMs);
  };
  await send("message_start", {
    message: {
      id: `msg_fake_${n}`,
      type: "message",
      role: "assistant",
      model: body.model ?? "fake",
      content: [],
      stop_reason: null,
      stop_sequence: null,
      usage: { ...usage, output_tokens: 1 },
    },
  });
  let index = 0;
  // As the real API: thinking only when the request turns it on.
  const thinks = body.thinking?.type !== undefined && body.thinking.type !== "disabled";
  if (turn.thought && thinks) {
    await send("content_block_start", { index, content_block: { type: "thinking", thinking: "", signature: "" } });
    await send("content_block_delta", { index, delta: { type: "thinking_delta", thinking: turn.thought } });
    await send("content_block_delta", { index, delta: { type: "signature_delta", signature: "offline-model" } });
    await send("content_block_stop", { index });
    index++;
  }
  const text = turn.text ?? [];
  if (text.length) {
    await send("content_block_start", { index, content_block: { type: "text", text: "" } });
    for (const t of text) await send("content_block_delta", { index, delta: { type: "text_delta", text: t } });
    await send("content_block_stop", { index });
    index++;
  }
  const tools = turn.tools ?? [];
  for (const [i, tool] of tools.entries()) {
    await send("content_block_start", {
      index,
      content_block: { type: "tool_use", id: `toolu_fake_${n}_${i}`, name: tool.name, input: {} },
    });
    const json = JSON.stringify(tool.input);
    const half = Math.ceil(json.length / 2);
    for (const part of [json.slice(0, half), json.slice(half)])
      await send("content_block_delta", { index, delta: { type: "input_json_delta", partial_json: part } });
    await send("content_block_stop", { index });
    index++;
  }
  await send("message_delta", {
    delta: { stop_reason: tools.length ? "tool_use" : "end_turn", stop_sequence: null },
    usage: { output_tokens: usage.output_tokens },
  });
  await send("message_stop", {});
  res.end();
}

/** A content's text: a string, or its text blocks joined. */
function textOf(content: unknown): string {
  if (typeof content === "string") return content;
  if (!Array.isArray(content)) return "";
  return content
    .filter(isObject)
    .map((b) => (b.type === "text" && typeof b.text === "string" ? b.text : ""))
    .join("\n");
}

type Block = Record<string, unknown>;
const blocksOf = (m: unknown): Block[] => (isObject(m) && Array.isArray(m.content) ? m.content.filter(isObject) : []);

/** The offline model's turn for a Messages body: the result of the tool_use a tool_result answers, else the prompt. */
export function scriptedMessagesTurn(raw: unknown): ModelTurn {
  const body = (isObject(raw) ? raw : {}) as MessagesBody;
  const messages = (body.messages ?? []).filter(isObject);
  const context = [textOf(body.system), ...messages.filter((m) => m.role === "user").map((m) => textOf(m.content))];
  const offered = offeredTools(body.tools);
  const last = messages.at(-1);
  const result = last?.role === "user" ? blocksOf(last).find((b) => b.type === "tool_result") : undefined;
  if (result) {
    const use = messages
      .flatMap((m) => (m.role === "assistant" ? blocksOf(m) : []))
      .find((b) => b.type === "tool_use" && b.id === result.tool_use_id);
    const output = textOf(result.content);
    return scriptedModelTurn({
      prompt: "",
      result: {
        name: typeof use?.name === "string" ? use.name : undefined,
        input: use?.input,
        ...(result.is_error === true ? { error: output } : { output }),
      },
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
export function startAnthropicApi(
  isAgentLoop: AgentLoopTest = offersTools,
  port = 0,
  options: ModelApiOptions = {},
): Promise<FakeModelApi> {
  let n = 0;
  return serveModelApi(
    async (req, res, url, raw, { log, play }) => {
      const body = (raw ?? {}) as MessagesBody;
      if (req.method === "POST" && url.pathname === "/v1/messages/count_tokens") {
        log(false);
        return sendJson(res, 200, { input_tokens: 12 });
      }
      if (req.method === "POST" && url.pathname === "/v1/messages") {
        const turn = play(isAgentLoop(body as Record<string, unknown>), body.messages);
        n++;
        if (body.stream) return stream(res, body, turn, n);
        return sendJson(res, 200, {
          id: `msg_fake_${n}`,
          type: "message",
          role: "assistant",
          model: body.model ?? "fake",
          content: [{ type: "text", text: (turn.text ?? []).join("") }],
          stop_reason: "end_turn",
          stop_sequence: null,
          usage,
        });
      }
      log(false);
      sendJson(res, 404, {
        type: "error",
        error: { type: "not_found_error", message: `fake Anthropic API has no ${url.pathname}` },
      });
    },
    port,
    options,
  );
}
