/** The offline model as an Anthropic Messages API, over HTTP as Claude Code calls it. */
import { afterEach, describe, expect, it } from "vitest";
import { scriptedMessagesTurn, startAnthropicApi } from "./anthropic-api";
import type { FakeModelApi } from "./http";

let api: FakeModelApi | undefined;
afterEach(() => api?.close());

const start = async () => {
  api = await startAnthropicApi(undefined, 0, { fallback: scriptedMessagesTurn, controls: false });
  return api;
};

const post = (path: string, body: unknown) =>
  fetch(`${api!.url}${path}`, { method: "POST", body: JSON.stringify(body) });

interface Streamed {
  events: string[];
  thinking: string;
  text: string;
  uses: Array<{ id: string; name: string; input: unknown }>;
  stop: string;
}

/** A streamed message put back together from its content blocks, as the Anthropic SDK does. */
async function complete(body: Record<string, unknown>): Promise<Streamed> {
  const res = await post("/v1/messages", { stream: true, model: "claude-sonnet", ...body });
  const events = (await res.text())
    .split("\n\n")
    .filter(Boolean)
    .map((block) => ({ event: /^event: (.*)$/m.exec(block)![1]!, data: JSON.parse(/^data: (.*)$/m.exec(block)![1]!) }));
  const blocks: Array<{ type: string; id?: string; name?: string; text: string }> = [];
  for (const { data } of events) {
    if (data.type === "content_block_start") blocks[data.index] = { ...data.content_block, text: "" };
    if (data.type !== "content_block_delta") continue;
    const d = data.delta;
    blocks[data.index]!.text += d.text ?? d.thinking ?? d.partial_json ?? "";
  }
  return {
    events: events.map((e) => e.event),
    thinking: blocks
      .filter((b) => b.type === "thinking")
      .map((b) => b.text)
      .join(""),
    text: blocks
      .filter((b) => b.type === "text")
      .map((b) => b.text)
      .join(""),
    uses: blocks
      .filter((b) => b.type === "tool_use")
      .map((b) => ({ id: b.id!, name: b.name!, input: JSON.parse(b.text) })),
    stop: events.find((e) => e.event === "message_delta")!.data.delta.stop_reason,
  };
}

// As Claude Code sends them: its system prompt in blocks naming the directory, reminders before the prompt.
const TOOLS = ["Bash", "Read", "Write", "Edit", "Task"].map((name) => ({ name, input_schema: {} }));
const SYSTEM = [{ type: "text", text: "You are Claude Code.\n<env>\nWorking directory: /w/project\n</env>" }];
const prompt = (text: string) => ({
  role: "user",
  content: [
    { type: "text", text: "<system-reminder>context</system-reminder>" },
    { type: "text", text },
  ],
});

describe("the offline model as Anthropic Messages", () => {
  it("streams text and a tool_use in Claude Code's own names, its path made absolute, and stops for the tool", async () => {
    await start();
    const turn = await complete({ system: SYSTEM, tools: TOOLS, messages: [prompt("write hello.txt saying hi")] });
    expect(turn.text).toBe("I will write `hello.txt`.");
    expect(turn.uses).toEqual([
      { id: expect.any(String), name: "Write", input: { file_path: "/w/project/hello.txt", content: "hi\n" } },
    ]);
    expect(turn.stop).toBe("tool_use");
    expect(turn.events[0]).toBe("message_start");
    expect(turn.events.at(-1)).toBe("message_stop");
    // As the real API: no thinking unless asked for.
    expect(turn.thinking).toBe("");
    const thinking = await complete({
      system: SYSTEM,
      tools: TOOLS,
      thinking: { type: "enabled", budget_tokens: 1024 },
      messages: [prompt("run ls")],
    });
    expect(thinking.thinking).toMatch(/^\*\*Planning the command\*\*/);
    expect(thinking.uses[0]).toMatchObject({ name: "Bash", input: { command: "ls" } });
  });

  it("after the tool ran, answers from its tool_result; an is_error result is said to have failed", async () => {
    await start();
    const use = { type: "tool_use", id: "toolu_1", name: "Write", input: { file_path: "/w/project/a.txt" } };
    const after = (result: Record<string, unknown>) =>
      complete({
        system: SYSTEM,
        tools: TOOLS,
        messages: [
          prompt("write a.txt"),
          { role: "assistant", content: [{ type: "text", text: "I will write `a.txt`." }, use] },
          { role: "user", content: [{ type: "tool_result", tool_use_id: "toolu_1", ...result }] },
        ],
      });
    const done = await after({ content: "File created successfully" });
    expect(done.text).toMatch(/^Wrote `a\.txt` in the workspace\./);
    expect(done.uses).toEqual([]);
    expect(done.stop).toBe("end_turn");
    const refused = await after({
      content: [{ type: "text", text: "The user doesn't want to proceed" }],
      is_error: true,
    });
    expect(refused.text).toMatch(/^That did not happen: The user doesn't want to proceed/);
  });

  it("gives side calls a plain answer, and has no scripting endpoint nor request log", async () => {
    await start();
    const side = await post("/v1/messages", { messages: [prompt("write a.txt")] });
    expect(await side.json()).toMatchObject({ content: [{ type: "text", text: "ok" }] });
    expect(await (await post("/v1/messages/count_tokens", {})).json()).toEqual({ input_tokens: 12 });
    expect((await post("/__fake/script", { turns: [{ text: ["injected"] }] })).status).toBe(404);
    expect((await complete({ tools: TOOLS, messages: [prompt("hi")] })).text).toContain("offline model");
    expect(api!.requests).toEqual([]);
  });
});
