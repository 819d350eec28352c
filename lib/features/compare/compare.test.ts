import { describe, expect, it } from "vitest";
import {
  alignTools,
  compareRuns,
  comparisonToJson,
  comparisonToMarkdown,
  toolSimilarity,
  type ToolSummary,
} from "./compare";
import { comparisonInput, sideLabel } from "../../contracts/compare-format";
import { classifyLine, type Frame, type FrameDirection } from "../../protocol/frame";
import { FrameSequencer } from "../../protocol/frame-sequencer";
import { codexCapture } from "../../../test/fixtures/codex-captures";

/** One side's frames: a session in `cwd`, then turns built with the helpers. */
function run(cwd: string) {
  const frames: Frame[] = [];
  let seq = 0;
  let ts = 1000;
  let id = 1;
  /** Open requests by direction and id, so responses carry `requestSeq` as the relay sets it. */
  const open = new Map<string, number>();
  const push = (dir: FrameDirection, message: object, step = 10): void => {
    const raw = JSON.stringify(message);
    ts += step;
    const f: Frame = { seq: ++seq, ts, dir, raw, ...classifyLine(raw), message };
    if (f.kind === "request") open.set(`${dir}:${String(f.id)}`, f.seq);
    if (f.kind === "response")
      f.requestSeq = open.get(`${dir === "to-agent" ? "from-agent" : "to-agent"}:${String(f.id)}`);
    frames.push(f);
  };
  push("to-agent", { jsonrpc: "2.0", id: 0, method: "session/new", params: { cwd, mcpServers: [] } });
  push("from-agent", { jsonrpc: "2.0", id: 0, result: { sessionId: "s" } });
  const update = (u: object, step?: number) =>
    push("from-agent", { jsonrpc: "2.0", method: "session/update", params: { sessionId: "s", update: u } }, step);
  return {
    frames,
    prompt(text: string) {
      push("to-agent", {
        jsonrpc: "2.0",
        id: ++id,
        method: "session/prompt",
        params: { sessionId: "s", prompt: [{ type: "text", text }] },
      });
      return this;
    },
    say(text: string, step?: number) {
      update({ sessionUpdate: "agent_message_chunk", content: { type: "text", text } }, step);
      return this;
    },
    tool(toolCallId: string, kind: string, rawInput: object, content?: object[]) {
      update({ sessionUpdate: "tool_call", toolCallId, title: `${kind} call`, kind, status: "pending", rawInput });
      update({ sessionUpdate: "tool_call_update", toolCallId, status: "completed", ...(content ? { content } : {}) });
      return this;
    },
    write(path: string, content: string) {
      push("from-agent", {
        jsonrpc: "2.0",
        id: 100 + id,
        method: "fs/write_text_file",
        params: { sessionId: "s", path, content },
      });
      push("to-agent", { jsonrpc: "2.0", id: 100 + id, result: null });
      return this;
    },
    fail(message: string) {
      push("from-agent", { jsonrpc: "2.0", id, error: { code: -32603, message } });
      return this;
    },
    end(result: object = { stopReason: "end_turn" }, step?: number) {
      push("from-agent", { jsonrpc: "2.0", id, result }, step);
      return this;
    },
  };
}

const t = (name: string, args: unknown): ToolSummary => ({ toolCallId: name, name, args, seq: 1 });

describe("toolSimilarity", () => {
  it("is 1 for the same name and arguments, whatever the key order", () => {
    expect(toolSimilarity(t("read", { a: 1, b: "x" }), t("read", { b: "x", a: 1 }))).toBe(1);
  });
  it("is 0 for different names, between 0.5 and 1 for the same name with other arguments", () => {
    expect(toolSimilarity(t("read", { a: 1 }), t("edit", { a: 1 }))).toBe(0);
    const s = toolSimilarity(t("read", { a: 1, b: 2 }), t("read", { a: 1, b: 3 }));
    expect(s).toBeGreaterThan(0.5);
    expect(s).toBeLessThan(1);
  });
});

describe("alignTools", () => {
  it("pairs calls by name and arguments in order, leaving the extra ones alone", () => {
    const a = [t("read", { p: "a" }), t("edit", { p: "a" }), t("shell", { c: "ls", dir: "." })];
    const b = [t("search", { q: "x" }), t("read", { p: "a" }), t("shell", { c: "ls -l", dir: "." })];
    const pairs = alignTools(a, b);
    expect(pairs.map((p) => [p.a?.name, p.b?.name])).toEqual([
      [undefined, "search"],
      ["read", "read"],
      ["edit", undefined],
      ["shell", "shell"],
    ]);
    expect(pairs[1]!.similarity).toBe(1);
    expect(pairs[3]!.similarity).toBeGreaterThan(0.5);
    expect(pairs[3]!.similarity).toBeLessThan(1);
  });
  it("prefers the better-matching call of the same name", () => {
    const pairs = alignTools([t("read", { p: "b" })], [t("read", { p: "a" }), t("read", { p: "b" })]);
    expect(pairs).toHaveLength(2);
    expect(pairs[1]!.a?.args).toEqual({ p: "b" });
    expect(pairs[1]!.similarity).toBe(1);
  });
});

describe("compareRuns", () => {
  it("aligns turns, answers, tool calls (paths made relative) and files changed on each side", () => {
    const a = run("/ws/a")
      .prompt("write hello")
      .say("Writing ")
      .say("it.")
      .tool("t1", "read", { path: "/ws/a/notes.txt" })
      .tool("t2", "edit", { path: "/ws/a/hello.txt" }, [
        { type: "diff", path: "/ws/a/hello.txt", oldText: "old\n", newText: "hello\n" },
      ])
      .end({ stopReason: "end_turn", _meta: { quota: { token_count: { input_tokens: 10, output_tokens: 5 } } } });
    const b = run("/ws/b")
      .prompt("write hello")
      .say("Writing it.", 500)
      .tool("x1", "read", { path: "/ws/b/notes.txt" })
      .write("/ws/b/hello.txt", "hello\n")
      .write("/ws/b/extra.txt", "more\n")
      .end();
    const c = compareRuns({ label: "A", frames: a.frames }, { label: "B", frames: b.frames });
    expect(c.turns).toHaveLength(1);
    const [turn] = c.turns;
    expect(turn!.prompt).toBe("write hello");
    expect(turn!.a!.answer).toBe("Writing it.");
    expect(turn!.answersEqual).toBe(true);
    expect(turn!.tools.map((p) => [p.a?.name, p.b?.name, p.similarity])).toEqual([
      ["read", "read", 1],
      ["edit", undefined, 0],
    ]);
    expect(turn!.a!.tools[0]!.args).toEqual({ path: "notes.txt" });
    expect(turn!.files.map((f) => [f.path, !!f.a, !!f.b, f.same])).toEqual([
      ["extra.txt", false, true, false],
      ["hello.txt", true, true, true],
    ]);
    const hello = turn!.files[1]!;
    expect(hello.a!.source).toBe("diff");
    expect(hello.a!.patch).toContain("-old");
    expect(hello.a!.patch).toContain("+hello");
    expect(hello.b!.source).toBe("fs/write_text_file");
    expect([hello.a!.added, hello.a!.removed]).toEqual([1, 1]);
    expect(turn!.a!.usage?.totalTokens).toBe(15);
    expect(turn!.b!.timing!.timeToFirstChunkMs).toBe(500);
    expect(turn!.a!.stopReason).toBe("end_turn");
    // The edit only A made and the file only B wrote.
    expect(c.differences).toBe(2);
  });

  it("keeps a turn only one side had, and counts differing answers", () => {
    const a = run("/a").prompt("one").say("yes").end().prompt("two").say("again").end();
    const b = run("/b").prompt("one").say("no").end();
    const c = compareRuns({ label: "A", frames: a.frames }, { label: "B", frames: b.frames });
    expect(c.turns).toHaveLength(2);
    expect(c.turns[0]!.answersEqual).toBe(false);
    expect(c.turns[1]!.b).toBeUndefined();
    expect(c.turns[1]!.prompt).toBe("two");
    expect(c.differences).toBe(2);
  });

  it("reports an error answer to the prompt", () => {
    const a = run("/a").prompt("one").fail("quota");
    const c = compareRuns({ label: "A", frames: a.frames }, { label: "B", frames: [] });
    expect(c.turns[0]!.a!.error).toBe("quota");
    expect(c.turns[0]!.b).toBeUndefined();
  });
});

describe("compareRuns: a Codex app-server side (frames of the real Codex)", () => {
  const codex = { label: "codex", frames: codexCapture("turns"), protocol: "codex-app-server" as const };

  it("reads a side by its own protocol only: Codex's frames on an ACP side make no turns", () => {
    expect(compareRuns({ ...codex, protocol: "acp" }, { label: "b", frames: [] }).turns).toEqual([]);
    expect(compareRuns(codex, { label: "b", frames: [] }).turns.length).toBeGreaterThan(0);
  });

  it("reads its turns: prompt, answer from the agent messages, status, commands as tool calls, usage, timing", () => {
    const c = compareRuns(codex, codex);
    expect(c.turns.map((t) => t.prompt)).toEqual(["say hello", "run ls", "make approved.txt"]);
    expect(c.differences).toBe(0);
    const [hello, ls, approved] = c.turns.map((t) => t.a!);
    expect(hello).toMatchObject({ answer: "Hello from the fake model", stopReason: "completed", tools: [], files: [] });
    expect(hello!.usage).toMatchObject({ inputTokens: 21, outputTokens: 9, totalTokens: 30 });
    expect(hello!.timing!.totalMs).toBeGreaterThan(0);
    // Two agent messages around the command: one paragraph each.
    expect(ls!.answer).toBe("Listing.\n\nListed.");
    expect(ls!.tools).toEqual([
      {
        toolCallId: "call_2_0",
        name: "commandExecution",
        title: "/bin/bash -lc 'echo hi > plain.txt && ls'",
        status: "completed",
        args: { command: "/bin/bash -lc 'echo hi > plain.txt && ls'" },
        seq: 34,
      },
    ]);
    expect(approved).toMatchObject({ answer: "Running it.\n\nDone.", stopReason: "completed" });
    expect(approved!.timing!.userWaitMs).toBeGreaterThan(0);
  });

  it("compares with an ACP side on the same prompt", () => {
    const gemini = run("/ws/b").prompt("say hello").say("Hello from the fake model").end();
    const c = compareRuns(codex, { label: "gemini", frames: gemini.frames });
    expect(c.turns[0]).toMatchObject({
      prompt: "say hello",
      answersEqual: true,
      a: { answer: "Hello from the fake model", stopReason: "completed" },
      b: { answer: "Hello from the fake model", stopReason: "end_turn" },
    });
    // The Codex side's other two turns have no counterpart.
    expect(c.turns.map((t) => !!t.b)).toEqual([true, false, false]);
    expect(comparisonToMarkdown(c)).toContain("| stop reason | completed | end_turn |");
  });

  it("reads file changes: an added file's content, an update's unified diff, paths made relative", () => {
    // Made by the sequencer, as the relay makes them: responses paired with their requests.
    const sequencer = new FrameSequencer({ wall: () => 0, mono: () => 0 }, "codex-app-server");
    const frames: Frame[] = [];
    const push = (dir: FrameDirection, message: object) => frames.push(sequencer.line(dir, JSON.stringify(message)));
    const threadId = "th";
    push("to-agent", { id: 1, method: "thread/start", params: { cwd: "/ws/a" } });
    push("from-agent", { id: 1, result: { thread: { id: threadId }, cwd: "/ws/a" } });
    push("to-agent", { id: 2, method: "turn/start", params: { threadId, input: [{ type: "text", text: "edit" }] } });
    push("from-agent", { id: 2, result: { turn: { id: "t1", status: "inProgress" } } });
    const item = {
      type: "fileChange",
      id: "p1",
      status: "completed",
      changes: [
        { path: "/ws/a/new.txt", kind: { type: "add" }, diff: "hello\n" },
        { path: "/ws/a/old.txt", kind: { type: "update", move_path: null }, diff: "@@ -1 +1 @@\n-a\n+b\n" },
      ],
    };
    push("from-agent", { method: "item/completed", params: { threadId, turnId: "t1", item } });
    push("from-agent", { method: "turn/completed", params: { threadId, turn: { id: "t1", status: "completed" } } });
    const side = compareRuns({ label: "a", frames, protocol: "codex-app-server" }, { label: "b", frames: [] }).turns[0]!
      .a!;
    expect(side.tools).toMatchObject([
      {
        name: "fileChange",
        args: [
          { path: "new.txt", kind: "add" },
          { path: "old.txt", kind: "update" },
        ],
      },
    ]);
    expect(side.files.map((f) => [f.path, f.source, f.added, f.removed])).toEqual([
      ["new.txt", "fileChange", 1, 0],
      ["old.txt", "fileChange", 1, 1],
    ]);
    expect(side.files[0]!.newText).toBe("hello\n");
  });
});

describe("reports", () => {
  const hostile = "```\n| x | y |\n# not a heading";
  const a = run("/a").prompt("p").say(hostile).tool("t", "edit", { p: 1 }).end();
  const b = run("/b").prompt("p").say("fine").end();
  const c = compareRuns({ label: "gemini | x", frames: a.frames }, { label: "B", frames: b.frames });

  it("writes Markdown where agent text cannot break the tables or fences", () => {
    const md = comparisonToMarkdown(c);
    expect(md).toContain("# Comparison: gemini \\| x vs B");
    expect(md).toContain("````\n```\n| x | y |\n# not a heading\n````");
    expect(md).toContain('| edit {"p":1} | — | only one side |');
    expect(md).toMatch(/\| tokens \| – \| – \|/);
  });

  it("writes what both sides share once: the same answer, the same change to a file", () => {
    const side = (dir: string) =>
      run(dir)
        .prompt("p")
        .say("I will write it.")
        .tool("t1", "edit", { path: `${dir}/f.txt` })
        .write(`${dir}/f.txt`, "hi\n")
        .say("Wrote it.")
        .end();
    const same = compareRuns({ label: "A", frames: side("/a").frames }, { label: "B", frames: side("/b").frames });
    const md = comparisonToMarkdown(same);
    expect(md.split("I will write it.")).toHaveLength(2);
    expect(md).toContain("Answers are the same:\n\n```\nI will write it.\n\nWrote it.\n```");
    expect(md.split("+hi")).toHaveLength(2);
    expect(md).toContain("A and B: `f.txt`");
    // Different answers are each written, under their side's name.
    expect(comparisonToMarkdown(c)).toContain("Answers differ.\n\n**gemini \\| x**");
  });

  it("writes JSON with the format, the extra fields and patches but not the full texts", () => {
    const w = run("/a").prompt("p").write("/a/f.txt", "x".repeat(50)).end();
    const json = JSON.parse(
      comparisonToJson(compareRuns({ label: "A", frames: w.frames }, { label: "B", frames: b.frames }), {
        prompt: "p",
      }),
    );
    expect(json.format).toBe("acp-playground-comparison-report");
    expect(json.prompt).toBe("p");
    expect(json.turns[0].files[0].a.patch).toContain("+xxxx");
    expect(json.turns[0].files[0].a.newText).toBeUndefined();
    expect(json.turns[0].a.answer).toBe("");
  });
});

describe("comparison records", () => {
  const side = { label: "A", profile: "gemini", transcriptId: "20261122-172000-1a2b3c4d" };
  it("accepts two sides linking transcripts, and nothing else", () => {
    expect(comparisonInput.safeParse({ prompt: "p", sides: [side, side] }).success).toBe(true);
    for (const bad of [
      { prompt: "p", sides: [side] },
      { prompt: "p", sides: [side, { ...side, transcriptId: "../../etc/passwd" }] },
      { prompt: "p", sides: [side, side], extra: 1 },
      { prompt: "p", sides: [side, { ...side, options: { model: { nested: true } } }] },
    ])
      expect(comparisonInput.safeParse(bad).success).toBe(false);
  });
  it("labels a side by its profile and the options set", () => {
    expect(sideLabel("gemini", { model: "x", skipTrust: true, approvalMode: "" })).toBe("gemini model=x skipTrust");
    expect(sideLabel("claude")).toBe("claude");
  });
});
