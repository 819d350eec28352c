/** The offline model as an OpenAI chat-completions API, over HTTP as an agent calls it. */
import { afterEach, describe, expect, it } from "vitest";
import type { FakeModelApi } from "./http";
import { scriptedChatTurn, startOpenAiApi } from "./openai-api";

let api: FakeModelApi | undefined;
afterEach(() => api?.close());

const start = async () => {
  api = await startOpenAiApi(undefined, 0, { fallback: scriptedChatTurn, controls: false });
  return api;
};

const post = (path: string, body: unknown) =>
  fetch(`${api!.url}${path}`, { method: "POST", body: JSON.stringify(body) });

interface Streamed {
  thought: string;
  text: string;
  calls: Array<{ id: string; name: string; args: unknown }>;
  finish: string[];
}

/** A streamed completion put back together, as an agent's client library does. */
async function complete(body: Record<string, unknown>): Promise<Streamed> {
  const res = await post("/v1/chat/completions", { stream: true, ...body });
  expect(res.headers.get("content-type")).toBe("text/event-stream");
  const data = (await res.text())
    .split("\n\n")
    .filter(Boolean)
    .map((block) => /^data: (.*)$/m.exec(block)![1]!);
  expect(data.at(-1)).toBe("[DONE]");
  const deltas = data.slice(0, -1).flatMap((d) => (JSON.parse(d) as { choices: any[] }).choices);
  const calls: Array<{ id: string; name: string; args: string }> = [];
  for (const call of deltas.flatMap((c) => c.delta.tool_calls ?? [])) {
    calls[call.index] ??= { id: call.id, name: call.function.name, args: "" };
    calls[call.index]!.args += call.function.arguments;
  }
  return {
    thought: deltas.map((c) => c.delta.reasoning_content ?? "").join(""),
    text: deltas.map((c) => c.delta.content ?? "").join(""),
    calls: calls.map((c) => ({ ...c, args: JSON.parse(c.args) })),
    finish: deltas.map((c) => c.finish_reason).filter(Boolean),
  };
}

// As Qwen Code sends them: its system prompt, the environment context naming the directory, the prompt.
const QWEN_TOOLS = ["write_file", "read_file", "run_shell_command", "edit"].map((name) => ({
  type: "function",
  function: { name, parameters: {} },
}));
const qwenPrompt = (text: string) => [
  { role: "system", content: "You are Qwen Code, an interactive CLI agent." },
  { role: "user", content: "This is the Qwen Code. I'm currently working in the directory: /w/project" },
  { role: "user", content: text },
];

describe("the offline model as OpenAI chat completions", () => {
  it("streams a prompt's thought, text and a tool call in the agent's own names, its path made absolute", async () => {
    await start();
    const turn = await complete({ tools: QWEN_TOOLS, messages: qwenPrompt("write hello.txt saying hi") });
    expect(turn.thought).toMatch(/^\*\*Planning the write\*\*/);
    expect(turn.text).toBe("I will write `hello.txt`.");
    expect(turn.calls).toEqual([
      { id: "call_0", name: "write_file", args: { file_path: "/w/project/hello.txt", content: "hi\n" } },
    ]);
    expect(turn.finish).toEqual(["tool_calls"]);
    const shell = await complete({ tools: QWEN_TOOLS, messages: qwenPrompt("run ls -la") });
    expect(shell.calls[0]).toMatchObject({ name: "run_shell_command", args: { command: "ls -la" } });
  });

  it("after the tool ran, answers from its result (the `tool` message), with no call: the turn ends", async () => {
    await start();
    const call = {
      id: "call_0",
      type: "function",
      function: { name: "read_file", arguments: JSON.stringify({ file_path: "/w/project/README.md" }) },
    };
    const turn = await complete({
      tools: QWEN_TOOLS,
      messages: [
        ...qwenPrompt("read README.md"),
        { role: "assistant", content: "Reading `README.md`.", tool_calls: [call] },
        { role: "tool", tool_call_id: "call_0", content: "# Hi\n" },
      ],
    });
    expect(turn.text).toBe("`README.md` says:\n\n```\n# Hi\n```");
    expect(turn.calls).toEqual([]);
    expect(turn.finish).toEqual(["stop"]);
    const refused = await complete({
      tools: QWEN_TOOLS,
      messages: [
        ...qwenPrompt("read README.md"),
        { role: "assistant", content: "", tool_calls: [call] },
        { role: "tool", tool_call_id: "call_0", content: "Error: file not found" },
      ],
    });
    expect(refused.text).toMatch(/^That did not happen: Error: file not found/);
  });

  it("names Claude Code's tools when those are the ones offered; answers anything else with help", async () => {
    await start();
    const tools = ["Write", "Read", "Bash"].map((name) => ({ type: "function", function: { name } }));
    const turn = await complete({
      tools,
      messages: [
        { role: "system", content: "Working directory: /srv/x" },
        { role: "user", content: [{ type: "text", text: "run `git status`" }] },
      ],
    });
    expect(turn.calls[0]).toMatchObject({ name: "Bash", args: { command: "git status" } });
    expect((await complete({ tools, messages: qwenPrompt("hello?") })).text).toContain("offline model");
  });

  it("gives a side call (no tools) a plain answer, and has no scripting endpoint nor request log", async () => {
    await start();
    const side = await post("/v1/chat/completions", { messages: qwenPrompt("write a.txt") });
    expect((await side.json()).choices[0].message).toEqual({ role: "assistant", content: "ok" });
    expect((await post("/__fake/script", { turns: [{ text: ["injected"] }] })).status).toBe(404);
    expect((await complete({ tools: QWEN_TOOLS, messages: qwenPrompt("hi") })).text).not.toContain("injected");
    expect(api!.requests).toEqual([]);
  });
});
