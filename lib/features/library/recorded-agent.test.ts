import { describe, expect, it } from "vitest";
import type { Frame } from "../../protocol/frame";
import { FrameSequencer } from "../../protocol/frame-sequencer";
import { promptText, RecordedAgent, RecordedClient, REPLAY_NOTE_META, REPLAYED_META } from "./recorded-agent";
import { appServerRecording, AS_THREAD, AS_TURN } from "../../../test/fixtures/codex-captures";

function recording(lines: Array<["to-agent" | "from-agent", object | string]>): Frame[] {
  const s = new FrameSequencer();
  return lines.map(([dir, m]) => s.line(dir, typeof m === "string" ? m : JSON.stringify({ jsonrpc: "2.0", ...m })));
}

const frames = recording([
  ["to-agent", { id: 1, method: "initialize", params: {} }],
  ["from-agent", { id: 1, result: { protocolVersion: 1 } }],
  ["to-agent", { id: 2, method: "session/new", params: {} }],
  ["from-agent", { id: 2, result: { sessionId: "s1" } }],
  ["to-agent", { id: 3, method: "session/prompt", params: { sessionId: "s1" } }],
  [
    "from-agent",
    { method: "session/update", params: { sessionId: "s1", update: { sessionUpdate: "agent_message_chunk" } } },
  ],
  ["from-agent", { id: 0, method: "session/request_permission", params: {} }],
  ["to-agent", { id: 0, result: { outcome: { outcome: "selected", optionId: "proceed_once" } } }],
  ["from-agent", { method: "session/update", params: { update: { sessionUpdate: "tool_call_update" } } }],
  ["from-agent", { id: 3, result: { stopReason: "end_turn" } }],
]);

const lines = (emits: { line: string }[]) => emits.map((e) => JSON.parse(e.line));

describe("RecordedAgent", () => {
  it("answers requests with the recorded responses under the live ids", () => {
    const agent = new RecordedAgent(frames);
    expect(agent.start()).toEqual([]);
    expect(lines(agent.receive({ jsonrpc: "2.0", id: "a", method: "initialize" }))).toEqual([
      { jsonrpc: "2.0", id: "a", result: { protocolVersion: 1 } },
    ]);
    expect(lines(agent.receive({ jsonrpc: "2.0", id: 2, method: "session/new" }))).toEqual([
      { jsonrpc: "2.0", id: 2, result: { sessionId: "s1" } },
    ]);
  });

  it("plays a turn up to the agent's request, waits for the client's answer, then finishes it", () => {
    const agent = new RecordedAgent(frames);
    agent.receive({ jsonrpc: "2.0", id: 1, method: "initialize" });
    agent.receive({ jsonrpc: "2.0", id: 2, method: "session/new" });
    const turn = lines(agent.receive({ jsonrpc: "2.0", id: 30, method: "session/prompt" }));
    expect(turn.map((m) => m.method)).toEqual(["session/update", "session/request_permission"]);
    expect(agent.receive({ jsonrpc: "2.0", id: 99, result: {} })).toEqual([]); // not what the recording waits for
    const rest = lines(
      agent.receive({ jsonrpc: "2.0", id: 0, result: { outcome: { outcome: "selected", optionId: "x" } } }),
    );
    expect(rest).toEqual([
      { jsonrpc: "2.0", method: "session/update", params: { update: { sessionUpdate: "tool_call_update" } } },
      { jsonrpc: "2.0", id: 30, result: { stopReason: "end_turn" } },
    ]);
    expect(agent.done).toBe(true);
  });

  it("answers an unrecorded request with -32601 and ignores unrecorded notifications", () => {
    const agent = new RecordedAgent(frames);
    expect(lines(agent.receive({ jsonrpc: "2.0", id: 5, method: "session/load" }))).toEqual([
      {
        jsonrpc: "2.0",
        id: 5,
        error: { code: -32601, message: 'replay: the transcript has no further "session/load" request' },
      },
    ]);
    expect(agent.receive({ jsonrpc: "2.0", method: "session/cancel" })).toEqual([]);
    expect(agent.receive("garbage")).toEqual([]);
  });

  it("says so before the recorded answer when the typed prompt differs, and names the recorded prompts when none is left", () => {
    const text = (t: string) => ({ sessionId: "s1", prompt: [{ type: "text", text: t }] });
    const agent = new RecordedAgent(
      recording([
        ["to-agent", { id: 1, method: "session/prompt", params: text("Explain ACP") }],
        ["from-agent", { id: 1, result: { stopReason: "end_turn" } }],
      ]),
    );
    const turn = lines(agent.receive({ jsonrpc: "2.0", id: 7, method: "session/prompt", params: text("write a.txt") }));
    expect(turn).toHaveLength(2);
    expect(turn[0]).toMatchObject({
      method: "session/update",
      params: {
        sessionId: "s1",
        update: { sessionUpdate: "agent_message_chunk" },
        _meta: { [REPLAY_NOTE_META]: true },
      },
    });
    expect(turn[0].params.update.content.text).toContain("you typed “write a.txt”");
    expect(turn[0].params.update.content.text).toContain("its own prompt, “Explain ACP”");
    expect(turn[1]).toEqual({ jsonrpc: "2.0", id: 7, result: { stopReason: "end_turn" } });

    const after = lines(agent.receive({ jsonrpc: "2.0", id: 8, method: "session/prompt", params: text("more") }));
    expect(after).toEqual([
      {
        jsonrpc: "2.0",
        id: 8,
        error: {
          code: -32000,
          message: expect.stringContaining("no further prompt to play (its only prompt was “Explain ACP”)"),
          data: { recordedPrompts: ["Explain ACP"], [REPLAY_NOTE_META]: true },
        },
      },
    ]);
  });

  it("plays the recorded prompt's turn without a note when the same prompt is typed (whitespace aside)", () => {
    const agent = new RecordedAgent(
      recording([
        ["to-agent", { id: 1, method: "session/prompt", params: { prompt: [{ type: "text", text: "Explain  ACP" }] } }],
        ["from-agent", { id: 1, result: { stopReason: "end_turn" } }],
      ]),
    );
    const params = { prompt: [{ type: "text", text: " Explain ACP\n" }] };
    expect(lines(agent.receive({ jsonrpc: "2.0", id: 1, method: "session/prompt", params }))).toEqual([
      { jsonrpc: "2.0", id: 1, result: { stopReason: "end_turn" } },
    ]);
  });

  it("gives recorded delays between agent lines", () => {
    const f = recording([
      ["to-agent", { id: 1, method: "m" }],
      ["from-agent", { method: "n" }],
      ["from-agent", { id: 1, result: {} }],
    ]);
    f[1]!.ts = 1000;
    f[2]!.ts = 1250;
    expect(new RecordedAgent(f).receive({ jsonrpc: "2.0", id: 1, method: "m" }).map((e) => e.delayMs)).toEqual([
      0, 250,
    ]);
  });
});

describe("RecordedClient", () => {
  const hostile = recording([
    ["from-agent", { id: 7, method: "terminal/create", params: { command: "touch", args: ["/tmp/x"] } }],
    ["to-agent", { id: 7, result: { terminalId: "t1" } }],
    ["from-agent", { id: 8, method: "fs/write_text_file", params: { path: "/tmp/y", content: "z" } }],
    ["to-agent", { id: 8, error: { code: -32000, message: "denied" } }],
  ]);

  it("answers a replayed request with the recorded response, marked as replayed", () => {
    const client = new RecordedClient(hostile);
    expect(JSON.parse(client.answer(7, "terminal/create"))).toEqual({
      jsonrpc: "2.0",
      id: 7,
      result: { terminalId: "t1", _meta: { [REPLAYED_META]: true } },
    });
    expect(JSON.parse(client.answer(8, "fs/write_text_file"))).toEqual({
      jsonrpc: "2.0",
      id: 8,
      error: { code: -32000, message: "denied", data: { [REPLAYED_META]: true } },
    });
  });

  it("answers with an error where the recording has no answer (other method, other id, used up)", () => {
    const client = new RecordedClient(hostile);
    client.answer(7, "terminal/create");
    for (const [id, method] of [
      [7, "terminal/create"],
      [7, "fs/write_text_file"],
      [9, "terminal/create"],
    ] as const) {
      const m = JSON.parse(client.answer(id, method));
      expect(m.error.message).toMatch(/recording has no answer .*nothing was carried out/);
      expect(m.error.data).toEqual({ [REPLAYED_META]: true });
    }
  });
});

describe("an app-server recording (Codex)", () => {
  const asFrames = appServerRecording();
  const start = (text = "make approved.txt") => ({
    id: 7,
    method: "turn/start",
    params: { threadId: AS_THREAD, input: [{ type: "text", text, text_elements: [] }] },
  });

  it("plays a turn/start's turn: the answer under the live id, then up to the approval, then to turn/completed", () => {
    const agent = new RecordedAgent(asFrames, "codex-app-server");
    agent.receive({ id: 1, method: "initialize", params: {} });
    agent.receive({ method: "initialized" });
    agent.receive({ id: 2, method: "thread/start", params: {} });
    const turn = lines(agent.receive(start()));
    expect(turn[0]).toEqual({ id: 7, result: { turn: { id: AS_TURN, items: [], status: "inProgress", error: null } } });
    expect(turn.map((m) => m.method)).toEqual([
      undefined,
      "turn/started",
      "item/agentMessage/delta",
      "item/commandExecution/requestApproval",
    ]);
    const rest = lines(agent.receive({ id: 0, result: { decision: "accept" } }));
    expect(rest.map((m) => m.method)).toEqual([
      "serverRequest/resolved",
      "item/completed",
      "turn/completed",
      "thread/status/changed",
    ]);
    expect(agent.done).toBe(true);
  });

  it('writes what it makes up without "jsonrpc": the note on another turn/start, the error after the last', () => {
    const agent = new RecordedAgent(asFrames, "codex-app-server");
    agent.receive({ id: 1, method: "initialize", params: {} });
    agent.receive({ id: 2, method: "thread/start", params: {} });
    const [note] = agent.receive(start("something else"));
    expect(JSON.parse(note!.line)).toEqual({
      method: "warning",
      params: { threadId: AS_THREAD, message: expect.stringContaining("you typed “something else”") },
    });
    expect(JSON.parse(note!.line).params.message).toContain("“make approved.txt”");
    agent.receive({ id: 0, result: { decision: "accept" } });
    const [error] = lines(agent.receive(start()));
    expect(error).not.toHaveProperty("jsonrpc");
    expect(error.error.message).toContain("its only prompt was “make approved.txt”");
  });

  it("RecordedClient answers the approval as recorded, in the app-server's form", () => {
    const client = new RecordedClient(asFrames, "codex-app-server");
    const answer = JSON.parse(client.answer(0, "item/commandExecution/requestApproval"));
    expect(answer).toEqual({ id: 0, result: { decision: "accept", _meta: { [REPLAYED_META]: true } } });
    expect(JSON.parse(client.answer(1, "item/fileChange/requestApproval"))).not.toHaveProperty("jsonrpc");
  });

  it("promptText reads turn/start's input", () => {
    expect(promptText(start("  two\n words ").params)).toBe("two words");
  });
});
