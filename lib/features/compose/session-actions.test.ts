import { describe, expect, it } from "vitest";
import { agentCapabilities, reduceAllFacts } from "../../folds/agent-facts";
import { FrameSequencer } from "../../protocol/frame-sequencer";
import { actionRequest, canList, formatUpdated, MAX_TITLE, sessionActions } from "./session-actions";

function capsOf(result: object) {
  const s = new FrameSequencer();
  const facts = reduceAllFacts([
    s.line("to-agent", JSON.stringify({ jsonrpc: "2.0", id: 1, method: "initialize", params: {} })),
    s.line("from-agent", JSON.stringify({ jsonrpc: "2.0", id: 1, result })),
  ]);
  return agentCapabilities(facts);
}

const S = { sessionId: "s1", cwd: "/w/a" };

describe("session actions", () => {
  it("shows each action only when advertised", () => {
    const all = capsOf({
      protocolVersion: 1,
      agentCapabilities: {
        loadSession: true,
        sessionCapabilities: { list: {}, resume: {}, fork: {}, title: {}, close: {}, archive: {}, delete: {} },
      },
    });
    expect(canList(all)).toBe(true);
    expect(sessionActions(all, S)).toEqual(["resume", "load", "fork", "rename", "close", "archive", "delete"]);
    expect(sessionActions(all, { ...S, archived: true })).toContain("unarchive");
    const listOnly = capsOf({
      protocolVersion: 1,
      agentCapabilities: { sessionCapabilities: { list: {}, resume: null } },
    });
    expect(sessionActions(listOnly, S)).toEqual([]);
    expect(canList(capsOf({ protocolVersion: 1, agentCapabilities: {} }))).toBe(false);
    expect(canList(undefined)).toBe(false);
    // v2: no session/load.
    const v2 = capsOf({ protocolVersion: 2, capabilities: { loadSession: true, session: { delete: {} } } });
    expect(sessionActions(v2, S)).toEqual(["delete"]);
  });

  it("reopens in the session's own cwd; refuses an empty or over-long title", () => {
    expect(actionRequest("resume", S)).toEqual({
      method: "session/resume",
      params: { sessionId: "s1", cwd: "/w/a", mcpServers: [] },
    });
    expect(actionRequest("load", S)).toMatchObject({ method: "session/load", params: { cwd: "/w/a" } });
    expect(actionRequest("rename", S, "  New  ")).toEqual({
      method: "session/set_title",
      params: { sessionId: "s1", title: "New" },
    });
    expect(actionRequest("rename", S, " ")).toEqual({ error: "a title cannot be empty" });
    expect(actionRequest("rename", S, "x".repeat(MAX_TITLE + 1))).toMatchObject({ error: expect.any(String) });
    expect(actionRequest("delete", S)).toEqual({ method: "session/delete", params: { sessionId: "s1" } });
  });

  it("formats updatedAt, keeping text that is not a date as sent", () => {
    const now = Date.parse("2026-01-02T00:00:00Z");
    expect(formatUpdated("2026-01-01T23:00:00Z", now)).toBe("2026-01-01 23:00 UTC · 1 h ago");
    expect(formatUpdated("yesterday-ish", now)).toBe("yesterday-ish");
    expect(formatUpdated(undefined, now)).toBeUndefined();
  });
});
