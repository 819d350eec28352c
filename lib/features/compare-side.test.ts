import { describe, expect, it } from "vitest";
import { memoryAgent } from "../protocol/memory-agent";
import { COMPARE_CLIENT_CAPABILITIES, runSide } from "./compare-side";

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
