import { describe, expect, it } from "vitest";
import { reduceAllFacts, agentCapabilities, currentSession, negotiatedVersion } from "./agent-facts";
import { FrameSequencer } from "../protocol/frame-sequencer";
import { applySessionChange, foldListPage, MAX_CURSOR, MAX_PAGE_SESSIONS, MAX_TEXT } from "./session-list";

function facts(...messages: ["to-agent" | "from-agent", object][]) {
  const s = new FrameSequencer();
  return reduceAllFacts(messages.map(([dir, m]) => s.line(dir, JSON.stringify({ jsonrpc: "2.0", ...m }))));
}

const page = (ids: string[], nextCursor?: unknown) => ({
  sessions: ids.map((id, i) => ({
    sessionId: id,
    cwd: "/w",
    title: `T ${id}`,
    updatedAt: `2026-01-0${i + 1}T00:00:00Z`,
  })),
  ...(nextCursor !== undefined ? { nextCursor } : {}),
});

describe("session listing", () => {
  it("folds pages by cursor: a page without cursor starts again, later pages append", () => {
    const f = facts(
      ["to-agent", { id: 1, method: "session/list", params: {} }],
      ["from-agent", { id: 1, result: page(["a", "b"], "c1") }],
      ["to-agent", { id: 2, method: "session/list", params: { cursor: "c1" } }],
      ["from-agent", { id: 2, result: page(["c", "b"]) }],
    );
    expect(f.listing?.sessions.map((s) => s.sessionId)).toEqual(["a", "b", "c"]);
    expect(f.listing?.nextCursor).toBeUndefined();
    expect(f.listing?.pages).toBe(2);
    expect(f.listing?.sessions[0]).toEqual({
      sessionId: "a",
      cwd: "/w",
      title: "T a",
      updatedAt: "2026-01-01T00:00:00Z",
    });
    const again = facts(
      ["to-agent", { id: 1, method: "session/list", params: {} }],
      ["from-agent", { id: 1, result: page(["a", "b"], "c1") }],
      ["to-agent", { id: 2, method: "session/list", params: {} }],
      ["from-agent", { id: 2, result: page(["z"]) }],
    );
    expect(again.listing?.sessions.map((s) => s.sessionId)).toEqual(["z"]);
  });

  it("applies accepted renames, deletes and archives; a refused one changes nothing", () => {
    const f = facts(
      ["to-agent", { id: 1, method: "session/list", params: {} }],
      ["from-agent", { id: 1, result: page(["a", "b", "c"]) }],
      ["to-agent", { id: 2, method: "session/set_title", params: { sessionId: "a", title: "Renamed" } }],
      ["from-agent", { id: 2, result: {} }],
      ["to-agent", { id: 3, method: "session/delete", params: { sessionId: "b" } }],
      ["from-agent", { id: 3, result: {} }],
      ["to-agent", { id: 4, method: "session/archive", params: { sessionId: "c" } }],
      ["from-agent", { id: 4, result: {} }],
      ["to-agent", { id: 5, method: "session/set_title", params: { sessionId: "c", title: "No" } }],
      ["from-agent", { id: 5, error: { code: -32603, message: "nope" } }],
    );
    expect(f.listing?.sessions).toEqual([
      { sessionId: "a", cwd: "/w", title: "Renamed", updatedAt: "2026-01-01T00:00:00Z" },
      { sessionId: "c", cwd: "/w", title: "T c", updatedAt: "2026-01-03T00:00:00Z", archived: true },
    ]);
    const back = applySessionChange(f.listing!, "session/unarchive", { sessionId: "c" });
    expect(back.sessions[1]?.archived).toBeUndefined();
  });

  it("bounds what a hostile agent sends: entries, titles, cursors", () => {
    const many = Array.from({ length: MAX_PAGE_SESSIONS + 7 }, (_, i) => ({ sessionId: `s${i}`, cwd: "/w" }));
    const l = foldListPage(undefined, {}, { sessions: [...many, 5, { sessionId: 3, cwd: "/w" }] }, 9);
    expect(l.sessions.length).toBe(MAX_PAGE_SESSIONS);
    expect(l.dropped).toBe(7 + 2);
    const long = foldListPage(
      undefined,
      {},
      { sessions: [{ sessionId: "x", cwd: "/w", title: "t\n".repeat(500) }] },
      1,
    );
    expect(long.sessions[0]!.title!.length).toBe(MAX_TEXT + 1);
    expect(long.sessions[0]!.title).not.toContain("\n");
    expect(foldListPage(undefined, {}, { sessions: [], nextCursor: "c".repeat(MAX_CURSOR + 1) }, 1)).toMatchObject({
      badCursor: expect.stringMatching(/longer/),
    });
    expect(foldListPage(undefined, { cursor: "same" }, { sessions: [], nextCursor: "same" }, 1).badCursor).toMatch(
      /repeats/,
    );
    expect(foldListPage(undefined, {}, { sessions: [], nextCursor: 7 }, 1).badCursor).toMatch(/not a string/);
    expect(foldListPage(undefined, {}, { sessions: "no" }, 1).sessions).toEqual([]);
  });

  it("keeps each session's own cwd for Compose, and reads v2's capabilities", () => {
    const f = facts(
      ["to-agent", { id: 0, method: "initialize", params: { protocolVersion: 2 } }],
      [
        "from-agent",
        {
          id: 0,
          result: {
            protocolVersion: 2,
            capabilities: { session: { prompt: { image: true }, mcp: { http: true }, delete: {} } },
          },
        },
      ],
      ["to-agent", { id: 1, method: "session/new", params: { cwd: "/w/sub", mcpServers: [] } }],
      ["from-agent", { id: 1, result: { sessionId: "s1" } }],
    );
    expect(currentSession(f).cwd).toBe("/w/sub");
    expect(negotiatedVersion(f)).toBe(2);
    expect(agentCapabilities(f)).toMatchObject({
      protocolVersion: 2,
      prompt: { image: true, audio: false },
      mcp: { http: true },
      session: ["delete"],
    });
    const odd = facts(
      ["to-agent", { id: 0, method: "initialize", params: { protocolVersion: 1 } }],
      ["from-agent", { id: 0, result: { protocolVersion: "2" } }],
    );
    expect(negotiatedVersion(odd)).toBeUndefined();
    expect(agentCapabilities(odd)?.protocolVersion).toBe(1);
  });
});
