/**
 * A fake Anthropic Messages API (ANTHROPIC_BASE_URL=<url>) for driving Claude's
 * ACP adapter offline. A request that offers tools plays the next scripted turn
 * (or echoes the user's last text) as streamed events: message_start,
 * content_block_start/delta/stop (text_delta, tool_use with input_json_delta),
 * message_delta, message_stop. Other calls get a short plain answer.
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

interface MessagesBody {
  model?: string;
  stream?: boolean;
  tools?: unknown[];
  messages?: unknown[];
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

/**
 * `isAgentLoop` tells the agent's own turns from its side calls (sub-agents, memory
 * extraction, titles), which must not take the scripted turns; they get "ok".
 */
export function startFakeAnthropicApi(isAgentLoop: AgentLoopTest = offersTools, port = 0): Promise<FakeModelApi> {
  let n = 0;
  return serveModelApi(async (req, res, url, raw, { log, play }) => {
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
  }, port);
}
