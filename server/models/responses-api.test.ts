/** The offline model as an OpenAI Responses API, over HTTP as Codex calls it. */
import { afterEach, describe, expect, it } from "vitest";
import type { FakeModelApi } from "./http";
import { scriptedResponsesTurn, startResponsesApi } from "./responses-api";

let api: FakeModelApi | undefined;
afterEach(() => api?.close());

const start = async () => {
  api = await startResponsesApi(undefined, 0, { fallback: scriptedResponsesTurn, controls: false });
  return api;
};

interface Streamed {
  events: string[];
  text: string;
  calls: Array<{ call_id: string; name: string; args: Record<string, unknown> }>;
}

async function complete(input: unknown[]): Promise<Streamed> {
  const res = await fetch(`${api!.url}/v1/responses`, {
    method: "POST",
    body: JSON.stringify({ model: "offline-model", stream: true, tools: TOOLS, input }),
  });
  const events = (await res.text())
    .split("\n\n")
    .filter(Boolean)
    .map((block) => JSON.parse(/^data: (.*)$/m.exec(block)![1]!));
  return {
    events: events.map((e) => e.type),
    text: events
      .filter((e) => e.type === "response.output_text.delta")
      .map((e) => e.delta)
      .join(""),
    calls: events
      .filter((e) => e.type === "response.output_item.done" && e.item.type === "function_call")
      .map((e) => ({ call_id: e.item.call_id, name: e.item.name, args: JSON.parse(e.item.arguments) })),
  };
}

// As Codex 0.169 sends them to a model it has no metadata for: exec_command is its one tool for files and commands.
const TOOLS = ["exec_command", "write_stdin", "request_user_input"].map((name) => ({ type: "function", name }));
const message = (role: string, text: string) => ({
  type: "message",
  role,
  content: [{ type: "input_text", text }],
});
const prompt = (text: string) => [
  message("developer", "You are a coding agent running in the Codex CLI."),
  message("user", "<environment_context>\n  <cwd>/w/project</cwd>\n</environment_context>"),
  message("user", text),
];

describe("the offline model as OpenAI Responses", () => {
  it("writes with an exec_command that asks for more than the sandbox (so Codex asks first), quoted for the shell", async () => {
    await start();
    const turn = await complete(prompt(`write notes.txt saying don't`));
    expect(turn.text).toBe("I will write `notes.txt`.");
    expect(turn.calls).toEqual([
      {
        call_id: expect.any(String),
        name: "exec_command",
        args: {
          cmd: `printf '%s' 'don'\\''t\n' > '/w/project/notes.txt'`,
          sandbox_permissions: "require_escalated",
          justification: "The user asked for /w/project/notes.txt to be written.",
        },
      },
    ]);
    expect(turn.events.at(-1)).toBe("response.completed");
    expect((await complete(prompt("run ls -la"))).calls[0]!.args).toEqual({ cmd: "ls -la" });
    expect((await complete(prompt("read README.md"))).calls[0]!.args).toEqual({ cmd: "cat '/w/project/README.md'" });
  });

  it("after the command ran, answers from its output; a failed or declined one is said not to have happened", async () => {
    await start();
    const first = await complete(prompt("write hello.txt saying hi"));
    const call = first.calls[0]!;
    const after = (output: string) =>
      complete([
        ...prompt("write hello.txt saying hi"),
        { type: "function_call", call_id: call.call_id, name: call.name, arguments: JSON.stringify(call.args) },
        { type: "function_call_output", call_id: call.call_id, output },
      ]);
    const done = await after("Chunk ID: 1\nWall time: 0.01 seconds\nProcess exited with code 0\nOutput:\n");
    expect(done.text).toMatch(/^Wrote `hello\.txt` in the workspace\./);
    expect(done.calls).toEqual([]);
    expect((await after("Process exited with code 1\nOutput:\nPermission denied\n")).text).toMatch(
      /^That did not happen: Permission denied/,
    );
    expect((await after("rejected by user")).text).toMatch(/^That did not happen: rejected by user/);
    const ls = await complete([
      ...prompt("run ls"),
      { type: "function_call", call_id: "c1", name: "exec_command", arguments: JSON.stringify({ cmd: "ls" }) },
      { type: "function_call_output", call_id: "c1", output: "Process exited with code 0\nOutput:\nhello.txt\n" },
    ]);
    expect(ls.text).toBe("`ls` printed:\n\n```\nhello.txt\n```");
  });

  it("has no scripting endpoint nor request log", async () => {
    await start();
    const posted = await fetch(`${api!.url}/__fake/script`, {
      method: "POST",
      body: JSON.stringify({ turns: [{ text: ["injected"] }] }),
    });
    expect(posted.status).toBe(404);
    expect((await complete(prompt("hi"))).text).toContain("offline model");
    expect(api!.requests).toEqual([]);
  });
});
