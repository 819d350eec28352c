import { describe, expect, it } from "vitest";
import { classifyLine, type Frame, type FrameDirection, type JsonRpcId } from "../protocol/frame";
import { buildWaterfall, layoutTurn, MAX_TOOL_LANES, summarizeTurn, waitsForUser, WaterfallBuilder } from "./waterfall";
import { codexCapture } from "../../test/fixtures/codex-captures";

/** Frames as the relay records them, each at the given ts. */
function script() {
  const frames: Frame[] = [];
  let seq = 0;
  const push = (dir: FrameDirection, message: object, ts: number): Frame => {
    const raw = JSON.stringify(message);
    const f: Frame = { seq: ++seq, ts, dir, raw, ...classifyLine(raw), message };
    frames.push(f);
    return f;
  };
  const update = (ts: number, update: object, sessionId = "s1") =>
    push("from-agent", { jsonrpc: "2.0", method: "session/update", params: { sessionId, update } }, ts);
  return {
    frames,
    prompt: (ts: number, id: JsonRpcId = 10, sessionId = "s1") =>
      push(
        "to-agent",
        { jsonrpc: "2.0", id, method: "session/prompt", params: { sessionId, prompt: [{ type: "text", text: "hi" }] } },
        ts,
      ),
    update,
    chunk: (ts: number, kind: "agent_message_chunk" | "agent_thought_chunk" = "agent_message_chunk") =>
      update(ts, { sessionUpdate: kind, content: { type: "text", text: "x" } }),
    ask: (ts: number, id: JsonRpcId, method: string, params: object) =>
      push("from-agent", { jsonrpc: "2.0", id, method, params: { sessionId: "s1", ...params } }, ts),
    answer: (ts: number, id: JsonRpcId, result: unknown) => push("to-agent", { jsonrpc: "2.0", id, result }, ts),
    answerError: (ts: number, id: JsonRpcId) =>
      push("to-agent", { jsonrpc: "2.0", id, error: { code: -32000, message: "no" } }, ts),
    end: (ts: number, result: object, id: JsonRpcId = 10) => push("from-agent", { jsonrpc: "2.0", id, result }, ts),
  };
}

/** A turn with a thought, a message, a tool call behind a permission, an fs read and the end. */
function fullTurn() {
  const s = script();
  s.prompt(1000);
  s.chunk(1200, "agent_thought_chunk");
  s.chunk(1250, "agent_thought_chunk");
  s.chunk(1300);
  s.chunk(1400);
  s.update(1500, { sessionUpdate: "tool_call", toolCallId: "t1", title: "write a.txt", status: "pending" });
  s.ask(1510, 0, "session/request_permission", {
    toolCall: { toolCallId: "t1" },
    options: [{ optionId: "allow", name: "Allow", kind: "allow_once" }],
  });
  s.answer(3510, 0, { outcome: { outcome: "selected", optionId: "allow" } });
  s.ask(3520, 1, "fs/read_text_file", { path: "/w/a.txt" });
  s.answer(3620, 1, { content: "" });
  s.update(3700, { sessionUpdate: "tool_call_update", toolCallId: "t1", status: "completed" });
  s.chunk(3800);
  s.end(4000, { stopReason: "end_turn", usage: { inputTokens: 5, outputTokens: 7, totalTokens: 12 } });
  return s;
}

describe("WaterfallBuilder", () => {
  it("releases an ended turn it was told to forget; the next turn's index goes on", () => {
    const s = script();
    s.prompt(1000, 10);
    s.end(1100, { stopReason: "end_turn" }, 10);
    s.prompt(2000, 11);
    const b = new WaterfallBuilder("acp");
    for (const f of s.frames) b.add(f);
    const [first, second] = b.turns;
    b.release(second!); // still running: kept
    b.release(first!);
    expect(b.turns).toEqual([second]);
    s.end(2100, { stopReason: "end_turn" }, 11);
    s.prompt(3000, 12);
    for (const f of s.frames.slice(3)) b.add(f);
    expect(b.turns.map((t) => [t.index, t.end?.ts])).toEqual([
      [1, 2100],
      [2, undefined],
    ]);
  });

  it("folds a turn into streams, tool calls, requests and the end", () => {
    const [t] = buildWaterfall(fullTurn().frames, "acp").turns;
    expect(t).toBeDefined();
    expect(t!.start).toBe(1000);
    expect(t!.firstOutput).toEqual({ ts: 1200, seq: 2 });
    expect(t!.streams.map((b) => [b.kind, b.start, b.end, b.chunks])).toEqual([
      ["thought", 1200, 1250, 2],
      ["message", 1300, 1400, 2],
      ["message", 3800, 3800, 1],
    ]);
    expect(t!.tools).toHaveLength(1);
    const tool = t!.tools[0]!;
    expect([tool.title, tool.status, tool.start, tool.end]).toEqual(["write a.txt", "completed", 1500, 3700]);
    expect(tool.permissions.map((p) => [p.start, p.end, p.outcome])).toEqual([[1510, 3510, "allow"]]);
    expect(t!.requests.map((r) => [r.method, r.start, r.end])).toEqual([
      ["session/request_permission", 1510, 3510],
      ["fs/read_text_file", 3520, 3620],
    ]);
    expect(t!.end).toEqual({ ts: 4000, seq: 13, stopReason: "end_turn" });
    expect(t!.usage?.totalTokens).toBe(12);
    expect([...t!.requests[1]!.seqs]).toEqual([9, 10]);
  });

  it("summarises agent time apart from the user's and the client's", () => {
    const [t] = buildWaterfall(fullTurn().frames, "acp").turns;
    const sum = summarizeTurn(t!, 0);
    expect(sum).toMatchObject({
      totalMs: 3000,
      timeToFirstChunkMs: 200,
      userWaitMs: 2000,
      clientMs: 100,
      agentMs: 900,
      requests: 2,
      toolCalls: 1,
      running: false,
    });
    expect(sum.usage?.outputTokens).toBe(7);
  });

  it("grows live: a running turn ends at now, and folding on changes nothing already folded", () => {
    const s = fullTurn();
    const b = new WaterfallBuilder("acp");
    for (const f of s.frames.slice(0, 7)) b.add(f); // up to the permission request
    const t = b.turns[0]!;
    const sum = summarizeTurn(t, 2510);
    expect(sum).toMatchObject({ running: true, totalMs: 1510, userWaitMs: 1000 });
    expect(t.tools[0]!.end).toBeUndefined();
    // A resend of an old frame is ignored.
    b.add(s.frames[3]!);
    expect(t.streams).toHaveLength(2);
    for (const f of s.frames.slice(7)) b.add(f);
    expect(summarizeTurn(b.turns[0]!, 0).totalMs).toBe(3000);
  });

  it("keeps concurrent sessions' turns apart and survives hostile ids", () => {
    const s = script();
    s.prompt(0, "__proto__", "a");
    s.prompt(10, 11, "b");
    s.update(20, { sessionUpdate: "agent_message_chunk", content: { type: "text", text: "x" } }, "b");
    s.update(30, { sessionUpdate: "tool_call", toolCallId: {} }, "a"); // malformed: ignored
    s.end(40, { stopReason: "cancelled" }, "__proto__");
    const turns = buildWaterfall(s.frames, "acp").turns;
    expect(turns.map((t) => [t.sessionId, t.streams.length, t.end?.stopReason])).toEqual([
      ["a", 0, "cancelled"],
      ["b", 1, undefined],
    ]);
  });

  it("records an error response and failed client answers", () => {
    const s = script();
    s.prompt(0);
    s.ask(5, 1, "terminal/create", { command: "ls" });
    s.answerError(8, 1);
    s.frames.push({
      ...s.frames[0]!,
      seq: 4,
      ts: 9,
      dir: "from-agent",
      ...classifyLine('{"jsonrpc":"2.0","id":10,"error":{"code":-32603,"message":"boom"}}'),
    });
    const [t] = buildWaterfall(s.frames, "acp").turns;
    expect(t!.requests[0]).toMatchObject({ method: "terminal/create", error: true, end: 8 });
    expect(t!.end).toMatchObject({ ts: 9, error: "boom" });
  });
});

describe("layoutTurn", () => {
  it("places bars on lanes and shows the permission wait apart from the tool's own time", () => {
    const [t] = buildWaterfall(fullTurn().frames, "acp").turns;
    const l = layoutTurn(t!, 300, 0); // 3000 ms over 300 px: 10 ms a pixel
    expect(l.lanes.map((x) => x.label)).toEqual(["turn", "thinking", "message", "write a.txt", "fs requests"]);
    const tool = l.bars.filter((b) => b.lane === 3).map((b) => [b.kind, b.x, b.width]);
    expect(tool).toEqual([
      ["tool", 50, 1],
      ["permission", 51, 200],
      ["tool", 251, 19],
    ]);
    expect(l.bars.find((b) => b.kind === "ttfc")).toMatchObject({ x: 0, width: 20 });
    expect(l.markers.map((m) => [m.kind, m.x, m.label])).toEqual([
      ["prompt", 0, "prompt"],
      ["end", 300, "stop reason: end_turn"],
    ]);
  });

  it("merges sub-pixel items so 10,000 updates stay near the width in bars, frames kept", () => {
    const s = script();
    s.prompt(0);
    for (let i = 0; i < 10_000; i++) {
      const kind = i % 2 === 0 ? "agent_message_chunk" : "agent_thought_chunk";
      s.chunk(1 + i, kind);
      s.update(1 + i, { sessionUpdate: "tool_call", toolCallId: `t${i}`, status: "completed" });
    }
    s.end(10_001, { stopReason: "end_turn" });
    const [t] = buildWaterfall(s.frames, "acp").turns;
    expect(t!.streams).toHaveLength(10_000);
    expect(t!.tools).toHaveLength(10_000);
    const width = 500;
    const l = layoutTurn(t!, width, 0);
    expect(l.lanes.length).toBe(3 + MAX_TOOL_LANES + 1);
    expect(l.bars.length).toBeLessThan(width * 4);
    const merged = l.bars.filter((b) => b.lane === 1).reduce((n, b) => n + b.count, 0);
    expect(merged).toBe(5_000); // every thought band is in some bar
    const seqs = l.bars.filter((b) => b.lane === 1).reduce((n, b) => n + b.seqs.length, 0);
    expect(seqs).toBe(5_000);
  });
});

describe("waterfall: v2 turns", () => {
  it("ends a v2 turn on state_update idle, not on the prompt response", () => {
    const s = script();
    s.end(0, { protocolVersion: 2, agentCapabilities: {} }, 1);
    s.prompt(100);
    s.end(110, {});
    s.update(150, { sessionUpdate: "agent_message", messageId: "m", content: [{ type: "text", text: "x" }] });
    s.update(160, { sessionUpdate: "tool_call_content_chunk", toolCallId: "t", content: { type: "content" } });
    const mid = buildWaterfall(s.frames, "acp").turns[0]!;
    expect(mid.end).toBeUndefined();
    s.update(200, { sessionUpdate: "state_update", state: "idle", stopReason: "end_turn" });
    const t = buildWaterfall(s.frames, "acp").turns[0]!;
    expect(t.end).toMatchObject({ ts: 200, stopReason: "end_turn" });
    expect(t.streams.map((b) => b.kind)).toEqual(["message"]);
    expect(t.tools.map((x) => x.toolCallId)).toEqual(["t"]);
  });

  it("still ends a v1 turn on the prompt response", () => {
    const s = script();
    s.prompt(100);
    s.end(110, { stopReason: "end_turn" });
    expect(buildWaterfall(s.frames, "acp").turns[0]!.end).toMatchObject({ ts: 110 });
  });
});

describe("waterfall: Codex app-server turns (frames of the real Codex)", () => {
  const frames = codexCapture("turns");
  const turns = buildWaterfall(frames, "codex-app-server").turns;
  const at = (seq: number) => frames.find((f) => f.seq === seq)!.ts;

  it("spans turn/start to turn/completed, its status as the stop reason, the model calls' usage summed", () => {
    expect(turns.map((t) => [t.promptSeq, t.end?.seq, t.end?.stopReason])).toEqual([
      [8, 23, "completed"],
      [24, 44, "completed"],
      [45, 70, "completed"],
    ]);
    const [first, second] = turns;
    expect(first!.sessionId).toBe("01a217d2-afda-7842-980f-adfa10fa3218");
    expect(first!.turnId).toBe("01a217d2-afe9-75e0-8229-1c2c71080467");
    // The agent message's item/started is the first output; the user's echoed message is not.
    expect(first!.firstOutput).toEqual({ ts: at(16), seq: 16 });
    expect(first!.usage).toEqual({
      source: "thread/tokenUsage/updated",
      inputTokens: 21,
      outputTokens: 9,
      totalTokens: 30,
    });
    // Two model calls (the command, then the answer): their `last` figures, not the thread's total.
    expect(second!.usage?.totalTokens).toBe(60);
  });

  it("draws agent messages as streams (item/started to item/completed) and commands as tool calls", () => {
    const [first, second] = turns;
    expect(first!.streams.map((b) => [b.kind, b.chunks, [...b.seqs]])).toEqual([["message", 2, [16, 17, 18, 19]]]);
    expect(second!.streams.map((b) => [...b.seqs])).toEqual([
      [31, 32, 33],
      [38, 39, 40],
    ]);
    expect(second!.tools.map((t) => [t.toolCallId, t.title, t.status, [...t.seqs]])).toEqual([
      ["call_2_0", "/bin/bash -lc 'echo hi > plain.txt && ls'", "completed", [34, 35]],
    ]);
    expect(summarizeTurn(second!, 0)).toMatchObject({ toolCalls: 1, requests: 0, userWaitMs: 0 });
  });

  it("draws an approval in its command's lane as time waiting for the user, with the decision", () => {
    const third = turns[2]!;
    const tool = third.tools[0]!;
    expect(tool.permissions.map((p) => [p.method, [...p.seqs], p.outcome])).toEqual([
      ["item/commandExecution/requestApproval", [57, 58], "accept"],
    ]);
    expect([tool.start, tool.end]).toEqual([at(56), at(61)]);
    const summary = summarizeTurn(third, 0);
    expect(summary.userWaitMs).toBe(at(58) - at(57));
    expect(summary.agentMs).toBe(at(70) - at(45) - summary.userWaitMs);
    // Codex asks as the item starts: the wait opens the lane, the command runs once accepted.
    const layout = layoutTurn(third, 1000, 0);
    const lane = layout.lanes.findIndex((l) => l.id === "tool:0");
    expect(layout.bars.filter((b) => b.lane === lane).map((b) => b.kind)).toEqual(["permission", "tool"]);
    expect(layout.bars.find((b) => b.kind === "permission")!.label).toBe(
      "waiting for the user: item/commandExecution/requestApproval (answer: accept)",
    );
    expect(layout.markers.at(-1)!.label).toBe("stop reason: completed");
  });

  it("labels a permissions request's wait with what was granted", () => {
    const frame = (seq: number, dir: "to-agent" | "from-agent", message: object): Frame => {
      const raw = JSON.stringify(message);
      return { seq, ts: seq * 10, dir, raw, ...classifyLine(raw, "codex-app-server"), message };
    };
    const ids = { threadId: "th", turnId: "t1", itemId: "call_1" };
    const permissions = { network: { enabled: true } };
    const turn = buildWaterfall(
      [
        frame(1, "to-agent", { id: 1, method: "turn/start", params: { threadId: "th", input: [] } }),
        frame(2, "from-agent", { id: 1, result: { turn: { id: "t1", status: "inProgress" } } }),
        frame(3, "from-agent", { id: 0, method: "item/permissions/requestApproval", params: { ...ids, permissions } }),
        frame(4, "to-agent", { id: 0, result: { permissions, scope: "session" } }),
      ],
      "codex-app-server",
    ).turns[0]!;
    expect(turn.tools[0]!.permissions.map((p) => [p.method, [...p.seqs], p.outcome])).toEqual([
      ["item/permissions/requestApproval", [3, 4], "granted for the session: network"],
    ]);
  });

  it("ends a refused turn/start with its error, and a failed turn with the turn's error", () => {
    const threadId = "th";
    const frame = (seq: number, dir: "to-agent" | "from-agent", message: object): Frame => {
      const raw = JSON.stringify(message);
      return { seq, ts: seq * 10, dir, raw, ...classifyLine(raw, "codex-app-server"), message };
    };
    const refused = buildWaterfall(
      [
        frame(1, "to-agent", { id: 1, method: "turn/start", params: { threadId, input: [] } }),
        frame(2, "from-agent", { id: 1, error: { code: -32600, message: "no such thread" } }),
      ],
      "codex-app-server",
    ).turns[0]!;
    expect(refused.end).toEqual({ ts: 20, seq: 2, error: "no such thread" });
    const failed = buildWaterfall(
      [
        frame(1, "to-agent", { id: 1, method: "turn/start", params: { threadId, input: [] } }),
        frame(2, "from-agent", { id: 1, result: { turn: { id: "t1", status: "inProgress" } } }),
        frame(3, "from-agent", {
          method: "turn/completed",
          params: { threadId, turn: { id: "t1", status: "failed", error: { message: "model unreachable" } } },
        }),
      ],
      "codex-app-server",
    ).turns[0]!;
    expect(failed.turnId).toBe("t1");
    expect(failed.end).toEqual({ ts: 30, seq: 3, error: "model unreachable" });
  });
});

describe("waterfall: each protocol reads its own turns", () => {
  const acpLog = fullTurn().frames;
  const codexLog = codexCapture("turns");

  it("reads turns by the descriptor's turn reader", () => {
    expect(buildWaterfall(acpLog, "acp").turns.length).toBeGreaterThan(0);
    expect(buildWaterfall(codexLog, "codex-app-server").turns.length).toBeGreaterThan(0);
  });

  it("finds no turn in another protocol's log (its methods are strangers, not turns)", () => {
    expect(buildWaterfall(codexLog, "acp").turns).toEqual([]);
    expect(buildWaterfall(acpLog, "codex-app-server").turns).toEqual([]);
  });

  it("does not wait for the user on another protocol's approval", () => {
    // An ACP agent sending a Codex approval: an ordinary client request in ACP's reading.
    const s = script();
    s.prompt(1000);
    s.ask(1100, 99, "item/commandExecution/requestApproval", { itemId: "c1" });
    const [t] = buildWaterfall(s.frames, "acp").turns;
    expect(t!.requests.map((r) => [r.method, waitsForUser(r)])).toEqual([
      ["item/commandExecution/requestApproval", false],
    ]);
    expect(t!.tools).toEqual([]);
  });
});
