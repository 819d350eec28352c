/**
 * An OpenAI Responses API (`POST /v1/responses`, server-sent events) on 127.0.0.1 for driving
 * Codex offline (a custom model provider with `wire_api = "responses"`): the offline model
 * (offline-model.ts) and the tests' fake (test/fake-models/openai-responses.ts). A request that
 * offers tools plays the next scripted turn (or the fallback: an echo of the user's last text for
 * tests, the scripted model for the offline model): `response.created`, the text as
 * `response.output_text.delta` events and one `response.output_item.done` message, each tool call as
 * a `function_call` item, then `response.completed` with usage. Other calls get "ok".
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

export const RESPONSES_USAGE = {
  input_tokens: 21,
  input_tokens_details: { cached_tokens: 0 },
  output_tokens: 9,
  output_tokens_details: { reasoning_tokens: 0 },
  total_tokens: 30,
};

interface ResponsesBody {
  model?: string;
  input?: unknown[];
  tools?: unknown[];
}

/** The Responses API's input items as chat-like messages, for the echo (`input_text` parts). */
function inputMessages(input: unknown[] | undefined): unknown[] {
  return (input ?? []).filter(isObject).map((item) => ({
    role: item.role,
    content: Array.isArray(item.content)
      ? item.content.filter(isObject).map((p) => ({ type: "text", text: p.text }))
      : item.content,
  }));
}

let counter = 0;

async function stream(res: ServerResponse, body: ResponsesBody, turn: ModelTurn): Promise<void> {
  startSse(res);
  const id = `resp_fake_${++counter}`;
  const send = async (event: Record<string, unknown>) => {
    sendSse(res, event, String(event.type));
    if (turn.delayMs) await sleep(turn.delayMs);
  };
  await send({ type: "response.created", response: { id, model: body.model ?? "fake", status: "in_progress" } });
  const text = (turn.text ?? []).join("");
  if (text) {
    const itemId = `msg_${counter}`;
    await send({
      type: "response.output_item.added",
      output_index: 0,
      item: { type: "message", id: itemId, role: "assistant", status: "in_progress", content: [] },
    });
    for (const delta of turn.text ?? [])
      await send({ type: "response.output_text.delta", item_id: itemId, output_index: 0, content_index: 0, delta });
    await send({
      type: "response.output_item.done",
      output_index: 0,
      item: {
        type: "message",
        id: itemId,
        role: "assistant",
        status: "completed",
        content: [{ type: "output_text", text, annotations: [] }],
      },
    });
  }
  for (const [index, tool] of (turn.tools ?? []).entries()) {
    await send({
      type: "response.output_item.done",
      output_index: index + 1,
      item: {
        type: "function_call",
        id: `fc_${counter}_${index}`,
        call_id: `call_${counter}_${index}`,
        name: tool.name,
        arguments: JSON.stringify(tool.input),
        status: "completed",
      },
    });
  }
  await send({
    type: "response.completed",
    response: { id, model: body.model ?? "fake", status: "completed", output: [], usage: RESPONSES_USAGE },
  });
  res.end();
}

/** What Codex's exec_command reports: its output after "Output:", and whether the command exited 0. */
function commandResult(output: string): { output?: string; error?: string } {
  const code = /^Process exited with code (\d+)/m.exec(output)?.[1];
  const shown = /\nOutput:\n([\s\S]*)$/.exec(output)?.[1] ?? output;
  // No exit code: the command never ran (declined, or refused by the sandbox).
  return code === "0" ? { output: shown } : { error: code === undefined ? output : shown || `exit code ${code}` };
}

/** The offline model's turn for a Responses body: the result of the call a function_call_output answers, else the prompt. */
export function scriptedResponsesTurn(raw: unknown): ModelTurn {
  const body = (isObject(raw) ? raw : {}) as ResponsesBody;
  const items = (body.input ?? []).filter(isObject);
  const messages = inputMessages(items);
  const context = items.flatMap((i) =>
    Array.isArray(i.content) ? i.content.filter(isObject).map((p) => (typeof p.text === "string" ? p.text : "")) : [],
  );
  const offered = offeredTools(body.tools);
  const last = items.at(-1);
  if (last?.type === "function_call_output") {
    const call = items.find((i) => i.type === "function_call" && i.call_id === last.call_id);
    let input: unknown = {};
    try {
      input = JSON.parse(typeof call?.arguments === "string" ? call.arguments : "{}");
    } catch {
      // Arguments the agent could not have run: the reply names the tool only.
    }
    const output = typeof last.output === "string" ? last.output : JSON.stringify(last.output ?? "");
    return scriptedModelTurn({
      prompt: "",
      result: { name: typeof call?.name === "string" ? call.name : undefined, input, ...commandResult(output) },
      offered,
      context,
    });
  }
  return scriptedModelTurn({ prompt: lastUserText(messages), offered, context });
}

export function startResponsesApi(
  isAgentLoop: AgentLoopTest = offersTools,
  port = 0,
  options: ModelApiOptions = {},
): Promise<FakeModelApi> {
  return serveModelApi(
    async (req, res, url, raw, { log, play }) => {
      const body = (raw ?? {}) as ResponsesBody;
      if (req.method === "POST" && /\/responses$/.test(url.pathname)) {
        const turn = play(isAgentLoop(body as Record<string, unknown>), inputMessages(body.input));
        return stream(res, body, turn);
      }
      log(false);
      if (req.method === "GET" && /\/models$/.test(url.pathname))
        return sendJson(res, 200, { object: "list", data: [{ id: "fake-model", object: "model" }] });
      sendJson(res, 404, { error: { message: `fake Responses API has no ${url.pathname}`, type: "not_found" } });
    },
    port,
    options,
  );
}
