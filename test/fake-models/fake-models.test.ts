/** The fake model APIs speak their wire formats: streamed deltas, tool calls, side calls. */
import { afterEach, describe, expect, it } from "vitest";
import { startFakeAnthropicApi } from "./anthropic";
import type { FakeModelApi } from "./http";
import { startFakeOpenAiApi } from "./openai";

let api: FakeModelApi | undefined;
afterEach(async () => {
  await api?.close();
  api = undefined;
});

const post = (path: string, body: unknown) =>
  fetch(`${api!.url}${path}`, { method: "POST", body: JSON.stringify(body) }).then((r) => r.text());
/** The JSON payloads of an SSE stream, with their event names. */
const events = (text: string) =>
  text
    .split("\n\n")
    .filter(Boolean)
    .map((block) => ({
      event: /^event: (.*)$/m.exec(block)?.[1],
      data: /^data: (.*)$/m.exec(block)![1]!,
    }));
const tools = [{ name: "write_file" }];

describe("fake OpenAI chat completions", () => {
  it("streams text deltas, tool_calls deltas whose arguments join up, usage, then [DONE]", async () => {
    api = await startFakeOpenAiApi();
    expect(api.url).toMatch(/^http:\/\/127\.0\.0\.1:\d+$/);
    api.script({ text: ["Hel", "lo"], tools: [{ name: "write_file", input: { file_path: "/w/a", content: "x" } }] });
    const out = events(
      await post("/v1/chat/completions", {
        stream: true,
        tools,
        stream_options: { include_usage: true },
        messages: [],
      }),
    );
    expect(out.at(-1)!.data).toBe("[DONE]");
    const chunks = out.slice(0, -1).map((e) => JSON.parse(e.data));
    const deltas = chunks.flatMap((c) => c.choices.map((ch: any) => ch.delta));
    expect(deltas.map((d) => d.content ?? "").join("")).toBe("Hello");
    const args = deltas
      .flatMap((d) => d.tool_calls ?? [])
      .map((t: any) => t.function.arguments)
      .join("");
    expect(JSON.parse(args)).toEqual({ file_path: "/w/a", content: "x" });
    expect(deltas.flatMap((d) => d.tool_calls ?? [])[0]).toMatchObject({
      id: "call_0",
      function: { name: "write_file" },
    });
    expect(chunks.flatMap((c) => c.choices.map((ch: any) => ch.finish_reason)).filter(Boolean)).toEqual(["tool_calls"]);
    expect(chunks.at(-1).usage).toMatchObject({ total_tokens: 19 });
  });

  it("echoes without a script; side calls (no tools) never take a scripted turn", async () => {
    api = await startFakeOpenAiApi();
    api.script({ text: ["scripted"] });
    const side = JSON.parse(await post("/v1/chat/completions", { messages: [{ role: "user", content: "hi" }] }));
    expect(side.choices[0].message.content).toBe("ok");
    const turn = events(
      await post("/v1/chat/completions", { stream: true, tools, messages: [{ role: "user", content: "x" }] }),
    );
    expect(turn.some((e) => e.data.includes("scripted"))).toBe(true);
    const echo = events(
      await post("/v1/chat/completions", {
        stream: true,
        tools,
        messages: [{ role: "user", content: [{ type: "text", text: "say this" }] }],
      }),
    );
    expect(echo.some((e) => e.data.includes("Echo: say this"))).toBe(true);
    expect(api.requests.map((r) => r.turn)).toEqual([false, true, true]);
  });
});

describe("fake Anthropic Messages", () => {
  it("streams message_start, text and tool_use blocks with input_json_delta, message_delta, message_stop", async () => {
    api = await startFakeAnthropicApi();
    api.script({ text: ["Hi"], tools: [{ name: "Write", input: { file_path: "/w/a", content: "x" } }] });
    const out = events(await post("/v1/messages", { stream: true, tools: [{ name: "Write" }], messages: [] }));
    expect(out.map((e) => e.event)).toEqual([
      "message_start",
      "content_block_start",
      "content_block_delta",
      "content_block_stop",
      "content_block_start",
      "content_block_delta",
      "content_block_delta",
      "content_block_stop",
      "message_delta",
      "message_stop",
    ]);
    const data = out.map((e) => JSON.parse(e.data));
    expect(data.every((d, i) => d.type === out[i]!.event)).toBe(true);
    expect(data[4].content_block).toMatchObject({ type: "tool_use", name: "Write" });
    expect(JSON.parse(data[5].delta.partial_json + data[6].delta.partial_json)).toEqual({
      file_path: "/w/a",
      content: "x",
    });
    expect(data[8].delta.stop_reason).toBe("tool_use");
  });

  it("answers count_tokens and non-streamed side calls", async () => {
    api = await startFakeAnthropicApi();
    expect(JSON.parse(await post("/v1/messages/count_tokens", {}))).toEqual({ input_tokens: 12 });
    const side = JSON.parse(await post("/v1/messages", { messages: [{ role: "user", content: "title?" }] }));
    expect(side).toMatchObject({ type: "message", content: [{ type: "text", text: "ok" }], stop_reason: "end_turn" });
  });
});
