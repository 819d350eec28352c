import { describe, expect, it } from "vitest";
import { memoryAgent, type MemoryHandler } from "../../protocol/memory-agent";
import { classifyLine, type Frame } from "../../protocol/frame";
import { COMPARE_CLIENT_CAPABILITIES, runSide } from "./side";

const INIT = { result: { protocolVersion: 1 } };

describe("one side of a comparison", () => {
  it("runs the handshake in the side's workspace without fs, then one prompt turn", async () => {
    const agent = memoryAgent({
      initialize: () => INIT,
      "session/new": () => ({ result: { sessionId: "s" } }),
      "session/prompt": () => ({ result: { stopReason: "end_turn" } }),
    });
    expect(await runSide(agent.port, { cwd: "/ws/a", prompt: "hi" })).toEqual({ ok: true, stopReason: "end_turn" });
    expect(agent.sent()).toEqual([
      ["initialize", expect.objectContaining({ clientCapabilities: COMPARE_CLIENT_CAPABILITIES })],
      ["session/new", { cwd: "/ws/a", mcpServers: [] }],
      ["session/prompt", { sessionId: "s", prompt: [{ type: "text", text: "hi" }] }],
    ]);
  });

  it("says which step failed and why", async () => {
    const noSession = memoryAgent({ initialize: () => INIT, "session/new": () => ({ result: {} }) });
    expect(await runSide(noSession.port, { cwd: "/w", prompt: "hi" })).toEqual({
      ok: false,
      message: "session/new answered without a sessionId",
    });
    const refused = memoryAgent({
      initialize: () => INIT,
      "session/new": () => ({ result: { sessionId: "s" } }),
      "session/prompt": () => ({ error: { code: -32603, message: "model not found" } }),
    });
    expect(await runSide(refused.port, { cwd: "/w", prompt: "hi" })).toEqual({
      ok: false,
      message: "session/prompt failed: model not found (-32603)",
    });
    const slow = memoryAgent({
      initialize: () => INIT,
      "session/new": () => ({ result: { sessionId: "s" } }),
      "session/prompt": () => "silent",
    });
    expect(await runSide(slow.port, { cwd: "/w", prompt: "hi", promptTimeoutMs: 20 })).toEqual({
      ok: false,
      message: "session/prompt failed: no answer within 0 s",
    });
  });
});

/**
 * An app-server in memory: the handlers answer (with "jsonrpc", which the port does not mind), and
 * a `turn/completed` with `status` follows an accepted turn/start.
 */
function appServer(handlers: Record<string, MemoryHandler>, status = "completed") {
  const agent = memoryAgent({
    ...handlers,
    "turn/start": (params, request) => {
      const answer = handlers["turn/start"]!(params, request);
      if (answer !== "silent" && "result" in answer) {
        const raw = JSON.stringify({
          method: "turn/completed",
          params: { threadId: "th", turn: { id: "t1", status } },
        });
        const frame: Frame = {
          seq: 1000,
          ts: 0,
          dir: "from-agent",
          raw,
          ...classifyLine(raw, "codex-app-server"),
          message: JSON.parse(raw),
        };
        setTimeout(() => agent.port.received([frame]), 0);
      }
      return answer;
    },
  });
  return agent;
}

describe("one side of a comparison on Codex's app-server", () => {
  it("runs initialize, initialized, thread/start in the workspace, then one turn: its status is the stop reason", async () => {
    const agent = appServer({
      initialize: () => ({ result: { userAgent: "codex" } }),
      "thread/start": () => ({ result: { thread: { id: "th" } } }),
      "turn/start": () => ({ result: { turn: { id: "t1", status: "inProgress" } } }),
    });
    const end = await runSide(agent.port, { cwd: "/ws/a", prompt: "hi", protocol: "codex-app-server" });
    expect(end).toEqual({ ok: true, stopReason: "completed" });
    expect(agent.sent()).toEqual([
      ["initialize", expect.objectContaining({ clientInfo: expect.anything() })],
      ["initialized", undefined],
      ["thread/start", { cwd: "/ws/a" }],
      ["turn/start", { threadId: "th", input: [{ type: "text", text: "hi", text_elements: [] }] }],
    ]);
  });

  it("says which step failed", async () => {
    const noThread = appServer({ initialize: () => ({ result: {} }), "thread/start": () => ({ result: {} }) });
    expect(await runSide(noThread.port, { cwd: "/w", prompt: "hi", protocol: "codex-app-server" })).toEqual({
      ok: false,
      message: "thread/start answered without a thread id",
    });
    const refused = appServer({
      initialize: () => ({ result: {} }),
      "thread/start": () => ({ result: { thread: { id: "th" } } }),
      "turn/start": () => ({ error: { code: -32001, message: "overloaded" } }),
    });
    expect(await runSide(refused.port, { cwd: "/w", prompt: "hi", protocol: "codex-app-server" })).toEqual({
      ok: false,
      message: "turn/start failed: overloaded (-32001)",
    });
  });
});
