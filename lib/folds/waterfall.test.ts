import { describe, expect, it } from "vitest";
import { classifyLine, type Frame, type FrameDirection, type JsonRpcId } from "../protocol/frame";
import { buildWaterfall, layoutTurn, MAX_TOOL_LANES, summarizeTurn, WaterfallBuilder } from "./waterfall";

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
  it("folds a turn into streams, tool calls, requests and the end", () => {
    const [t] = buildWaterfall(fullTurn().frames).turns;
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
    const [t] = buildWaterfall(fullTurn().frames).turns;
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
    const b = new WaterfallBuilder();
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
    const turns = buildWaterfall(s.frames).turns;
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
    const [t] = buildWaterfall(s.frames).turns;
    expect(t!.requests[0]).toMatchObject({ method: "terminal/create", error: true, end: 8 });
    expect(t!.end).toMatchObject({ ts: 9, error: "boom" });
  });
});

describe("layoutTurn", () => {
  it("places bars on lanes and shows the permission wait apart from the tool's own time", () => {
    const [t] = buildWaterfall(fullTurn().frames).turns;
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
    const [t] = buildWaterfall(s.frames).turns;
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
    const mid = buildWaterfall(s.frames).turns[0]!;
    expect(mid.end).toBeUndefined();
    s.update(200, { sessionUpdate: "state_update", state: "idle", stopReason: "end_turn" });
    const t = buildWaterfall(s.frames).turns[0]!;
    expect(t.end).toMatchObject({ ts: 200, stopReason: "end_turn" });
    expect(t.streams.map((b) => b.kind)).toEqual(["message"]);
    expect(t.tools.map((x) => x.toolCallId)).toEqual(["t"]);
  });

  it("still ends a v1 turn on the prompt response", () => {
    const s = script();
    s.prompt(100);
    s.end(110, { stopReason: "end_turn" });
    expect(buildWaterfall(s.frames).turns[0]!.end).toMatchObject({ ts: 110 });
  });
});
