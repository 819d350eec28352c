import { afterEach, describe, expect, it } from "vitest";
import { answerForSchema, scriptedTurn, startFakeGeminiApi, type FakeGeminiApi } from "./gemini-api";

let api: FakeGeminiApi | undefined;
afterEach(() => api?.close());

/** The text a streamGenerateContent call to `model` streams back. */
async function turnText(model: string): Promise<string> {
  const res = await fetch(`${api!.url}/v1beta/models/${model}:streamGenerateContent?alt=sse`, {
    method: "POST",
    body: JSON.stringify({ contents: [{ role: "user", parts: [{ text: "hi" }] }] }),
  });
  const events = (await res.text()).split("\n\n").filter((e) => e.startsWith("data: "));
  return events
    .map((e) => JSON.parse(e.slice(6)) as { candidates: [{ content: { parts: [{ text?: string }] } }] })
    .map((e) => e.candidates[0].content.parts[0].text ?? "")
    .join("");
}

describe("fake Gemini API", () => {
  it("plays turns in order; a turn scripted for a model waits for a call to that model", async () => {
    api = await startFakeGeminiApi();
    // Two agents sharing the API: the flash side loops twice before the pro side's first call.
    api.script(
      { model: "gemini-2.5-pro", parts: [{ text: "pro 1" }] },
      { model: "gemini-2.5-flash", parts: [{ text: "flash 1" }] },
      { parts: [{ text: "anyone" }] },
      { model: "gemini-2.5-flash", parts: [{ text: "flash 2" }] },
    );
    expect(await turnText("gemini-2.5-flash")).toBe("flash 1");
    expect(await turnText("gemini-2.5-flash")).toBe("anyone");
    expect(await turnText("gemini-2.5-flash")).toBe("flash 2");
    expect(await turnText("gemini-2.5-pro")).toBe("pro 1");
    expect(await turnText("gemini-2.5-pro")).toBe("Echo: hi");
  });

  it("a script posted with replace drops the turns still queued (a failed test's leftovers)", async () => {
    api = await startFakeGeminiApi();
    const post = (body: object) => fetch(`${api!.url}/__fake/script`, { method: "POST", body: JSON.stringify(body) });
    await post({ turns: [{ parts: [{ text: "left over" }] }] });
    expect((await post({ turns: [{ parts: [{ text: "mine" }] }], replace: true })).status).toBe(204);
    expect(await turnText("gemini-2.5-flash")).toBe("mine");
    expect(await turnText("gemini-2.5-flash")).toBe("Echo: hi");
  });
});

describe("the offline model as a Gemini API", () => {
  const prompt = (text: string) => ({
    contents: [{ role: "user", parts: [{ text: "<session_context>...</session_context>" }, { text }] }],
  });

  it("answers a prompt it knows with a thought, streamed text and Gemini CLI's tool call", () => {
    const turn = scriptedTurn(prompt("write hello.txt saying hi"));
    expect(turn.parts[0]).toMatchObject({ thought: true });
    expect(turn.parts.at(-1)).toEqual({
      functionCall: { name: "write_file", args: { file_path: "hello.txt", content: "hi\n" } },
    });
    expect(turn.parts.filter((p) => "text" in p && !p.thought).length).toBeGreaterThan(0);
    expect(scriptedTurn(prompt("run ls")).parts.at(-1)).toMatchObject({
      functionCall: { name: "run_shell_command", args: { command: "ls" } },
    });
  });

  it("after the tool ran, replies from its functionResponse (not the prompt again, which would loop)", () => {
    const body = prompt("read README.md");
    body.contents.push(
      { role: "model", parts: [{ functionCall: { name: "read_file", args: { file_path: "README.md" } } } as never] },
      { role: "user", parts: [{ functionResponse: { name: "read_file", response: { output: "# Hi\n" } } } as never] },
    );
    const turn = scriptedTurn(body);
    expect(turn.parts.some((p) => "functionCall" in p)).toBe(false);
    expect(turn.parts.map((p) => ("text" in p ? p.text : "")).join("")).toBe("`README.md` says:\n\n```\n# Hi\n```");
  });

  it("without controls, nobody can script it over HTTP", async () => {
    api = await startFakeGeminiApi(0, { fallback: scriptedTurn, controls: false });
    const posted = await fetch(`${api.url}/__fake/script`, {
      method: "POST",
      body: JSON.stringify({ turns: [{ parts: [{ text: "injected" }] }] }),
    });
    expect(posted.status).toBe(404);
    expect(await turnText("gemini-2.5-flash")).toContain("offline model");
    expect(api.requests).toEqual([]);
  });
});

describe("answerForSchema", () => {
  it("answers Gemini CLI's numerical router in its schema (a score of 1-100, a reason)", () => {
    const schema = {
      type: "OBJECT",
      properties: { complexity_reasoning: { type: "STRING" }, complexity_score: { type: "INTEGER" } },
      required: ["complexity_reasoning", "complexity_score"],
    };
    expect(answerForSchema(schema)).toEqual({ complexity_reasoning: "offline model", complexity_score: 1 });
  });

  it("takes an enum's first value, a minimum, nested objects; without a schema, the older router's answer", () => {
    const schema = {
      type: "object",
      properties: {
        reasoning: { type: "string" },
        model_choice: { type: "string", enum: ["flash", "pro"] },
        n: { type: "number", minimum: 5 },
        o: { type: "object", properties: { b: { type: "boolean" }, l: { type: "array" } }, required: ["b", "l"] },
      },
      required: ["reasoning", "model_choice", "n", "o"],
    };
    expect(answerForSchema(schema)).toEqual({
      reasoning: "offline model",
      model_choice: "flash",
      n: 5,
      o: { b: false, l: [] },
    });
    expect(answerForSchema(undefined)).toEqual({ reasoning: "offline model", model_choice: "flash" });
  });
});
