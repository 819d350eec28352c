import { describe, expect, it } from "vitest";
import { agentCapabilities, currentSession, EMPTY_FACTS, foldFacts, reduceAllFacts, turnUsageOf } from "./agent-facts";
import type { Frame, FrameDirection, JsonRpcId } from "../protocol/frame";
import { FrameSequencer } from "../protocol/frame-sequencer";

function wire() {
  const s = new FrameSequencer();
  const frames: Frame[] = [];
  const push = (dir: FrameDirection, message: object) => {
    const f = s.line(dir, JSON.stringify({ jsonrpc: "2.0", ...message }));
    frames.push(f);
    return f;
  };
  return {
    frames,
    request: (id: JsonRpcId, method: string, params: object) => push("to-agent", { id, method, params }),
    result: (id: JsonRpcId, result: unknown) => push("from-agent", { id, result }),
    error: (id: JsonRpcId, code: number, message: string) => push("from-agent", { id, error: { code, message } }),
    update: (sessionId: string, update: object) =>
      push("from-agent", { method: "session/update", params: { sessionId, update } }),
    agentRequest: (id: JsonRpcId, method: string, params: object) => push("from-agent", { id, method, params }),
  };
}

const INIT_RESULT = {
  protocolVersion: 1,
  authMethods: [
    { id: "oauth-personal", name: "Log in with Google" },
    { id: "gateway", name: "AI API Gateway", _meta: { gateway: { protocol: "google" } } },
  ],
  agentCapabilities: {
    loadSession: true,
    promptCapabilities: { image: true, audio: false },
    mcpCapabilities: { http: true },
    sessionCapabilities: { list: {}, resume: null },
  },
};

describe("agent facts", () => {
  it("reads initialize, the session, its modes and commands; unchanged frames keep the object", () => {
    const w = wire();
    w.request("pool-initialize", "initialize", { protocolVersion: 1 });
    w.result("pool-initialize", INIT_RESULT);
    w.request(1, "session/new", { cwd: "/w", mcpServers: [] });
    w.result(1, {
      sessionId: "s1",
      modes: {
        currentModeId: "default",
        availableModes: [
          { id: "default", name: "Default" },
          { id: "plan", name: "Plan" },
        ],
      },
    });
    w.update("s1", {
      sessionUpdate: "available_commands_update",
      availableCommands: [{ name: "memory", description: "Manage memory." }],
    });
    const st = foldFacts(w.frames);
    const f = st.facts;
    expect(f.initialize).toMatchObject({ requestSeq: 1, params: { protocolVersion: 1 }, result: INIT_RESULT });
    expect(f.sessionId).toBe("s1");
    expect(currentSession(f)).toMatchObject({ currentModeId: "default", commands: [{ name: "memory" }] });
    expect(currentSession(f).availableModes?.map((m) => m.id)).toEqual(["default", "plan"]);
    expect(f.open).toEqual({});

    expect(agentCapabilities(f)).toMatchObject({
      loadSession: true,
      prompt: { image: true, audio: false, embeddedContext: false },
      mcp: { http: true, sse: false },
      session: ["list"],
      logout: false,
    });
    expect(f.initialize?.result?.authMethods).toHaveLength(2);

    // A frame that changes nothing returns the very same object.
    const thought = w.update("s1", { sessionUpdate: "agent_thought_chunk", content: { type: "text", text: "hm" } });
    expect(foldFacts([thought], st).facts).toBe(f);
  });

  it("session/load takes the session id from its request; set_mode and mode updates follow", () => {
    const w = wire();
    w.request(1, "session/load", { sessionId: "old", cwd: "/w", mcpServers: [] });
    w.result(1, { modes: { currentModeId: "default", availableModes: [] } });
    w.request(2, "session/set_mode", { sessionId: "old", modeId: "plan" });
    w.result(2, {});
    const st = foldFacts(w.frames);
    expect(st.facts.sessionId).toBe("old");
    expect(currentSession(st.facts).currentModeId).toBe("plan");
    const f = foldFacts([w.update("old", { sessionUpdate: "current_mode_update", currentModeId: "yolo" })], st).facts;
    expect(currentSession(f).currentModeId).toBe("yolo");
  });

  it("marks methods answered -32601 as unsupported, and forgets it when one succeeds later", () => {
    const w = wire();
    w.request(1, "session/list", {});
    w.error(1, -32601, "Method not found: session/list");
    w.request(2, "session/close", { sessionId: "s" });
    w.error(2, -32603, "Internal error");
    const st = foldFacts(w.frames);
    expect(st.facts.unsupported).toEqual({ "session/list": 2 });
    w.request(3, "session/list", {});
    w.result(3, { sessions: [] });
    expect(foldFacts(w.frames.slice(4), st).facts.unsupported).toEqual({});
  });

  it("the last turn: chunks, stopReason, Gemini's usage, and the empty response flag", () => {
    const w = wire();
    w.request(1, "session/new", { cwd: "/w", mcpServers: [] });
    w.result(1, { sessionId: "s" });
    w.request(2, "session/prompt", { sessionId: "s", prompt: [{ type: "text", text: "hi" }] });
    w.update("s", { sessionUpdate: "agent_message_chunk", content: { type: "text", text: "Hel" } });
    w.update("s", { sessionUpdate: "agent_message_chunk", content: { type: "text", text: "lo" } });
    let st = foldFacts(w.frames);
    let f = st.facts;
    expect(f.lastTurn).toMatchObject({ sessionId: "s", requestId: 2, ended: false, chunks: 2 });
    // A thought changes the turn's items, not its summary.
    const thought = w.update("s", { sessionUpdate: "agent_thought_chunk", content: { type: "text", text: "hm" } });
    st = foldFacts([thought], st);
    expect(st.facts.lastTurn).toBe(f.lastTurn);
    w.result(2, { stopReason: "end_turn", _meta: { quota: { token_count: { input_tokens: 12, output_tokens: 7 } } } });
    st = foldFacts([w.frames.at(-1)!], st);
    f = st.facts;
    expect(f.lastTurn).toMatchObject({ ended: true, stopReason: "end_turn", emptyResponse: false });
    expect(f.lastTurn?.usage).toEqual({ source: "_meta.quota", inputTokens: 12, outputTokens: 7, totalTokens: 19 });

    // An invalid model: no chunk, no stopReason.
    w.request(3, "session/prompt", { sessionId: "s", prompt: [{ type: "text", text: "hi" }] });
    w.result(3, { stopReason: null });
    st = foldFacts(w.frames.slice(-2), st);
    f = st.facts;
    expect(f.lastTurn).toMatchObject({ requestId: 3, ended: true, stopReason: null, emptyResponse: true });

    // An error is not an empty response.
    w.request(4, "session/prompt", { sessionId: "s", prompt: [] });
    w.error(4, -32603, "boom");
    f = foldFacts(w.frames.slice(-2), st).facts;
    expect(f.lastTurn).toMatchObject({ requestId: 4, ended: true, emptyResponse: false, error: { code: -32603 } });
  });

  it("keeps the newest diff per path from tool calls and permission requests", () => {
    const w = wire();
    w.update("s", {
      sessionUpdate: "tool_call",
      toolCallId: "t1",
      title: "Write",
      content: [{ type: "diff", path: "/w/a.txt", oldText: "a", newText: "b" }],
    });
    w.agentRequest(0, "session/request_permission", {
      sessionId: "s",
      toolCall: { toolCallId: "t2", content: [{ type: "diff", path: "/w/a.txt", oldText: "b", newText: "c" }] },
      options: [],
    });
    const f = reduceAllFacts(w.frames);
    expect(f.diffs["/w/a.txt"]).toEqual({ oldText: "b", newText: "c", seq: 2 });
  });

  it("usage from ACP's `usage` field too", () => {
    expect(turnUsageOf({ stopReason: "end_turn", usage: { inputTokens: 1, outputTokens: 2, totalTokens: 3 } })).toEqual(
      {
        source: "usage",
        inputTokens: 1,
        outputTokens: 2,
        totalTokens: 3,
      },
    );
    expect(turnUsageOf({ stopReason: "end_turn" })).toBeUndefined();
    expect(EMPTY_FACTS.sessionIds).toEqual([]);
  });
});
