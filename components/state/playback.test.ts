/**
 * Offline playback (the transcript viewer, the share page): a session whose
 * log, stderr, timeline and agent status are what the recording says up to
 * the player's position, forward and back, while the transcript streams in.
 */
import { describe, expect, it } from "vitest";
import type { AgentInfo } from "@/lib/contracts/wire";
import { FrameSequencer } from "@/lib/protocol/frame-sequencer";
import type { ProtocolName } from "@/lib/protocol/protocols";
import { isAppServerConversation } from "@/lib/features/protocols/codex-app-server/conversation";
import type { OfflineRecording } from "./playback";
import { selectSessionId, SessionStore } from "./session-store";

/** Writes a recording as the relay would have: each line at the time `at` says. */
function recorder(protocol?: ProtocolName) {
  let now = 0;
  const seq = new FrameSequencer({ wall: () => now, mono: () => now }, protocol);
  return (at: number, dir: "to-agent" | "from-agent", message: object | string) => {
    now = at;
    const raw =
      typeof message === "string" ? message : JSON.stringify(protocol ? message : { jsonrpc: "2.0", ...message });
    return seq.line(dir, raw);
  };
}

const agent: AgentInfo = { profile: "echo", pid: 7, command: "echo-agent", args: [], cwd: "/w" };

/** An agent that opens a session at 1 s, prints to stderr at 1.5 s and 3.5 s, and exits at 4.5 s. */
function recording(): OfflineRecording {
  const line = recorder();
  return {
    agent,
    frames: [
      line(1_000, "to-agent", { id: 1, method: "session/new", params: { cwd: "/w", mcpServers: [] } }),
      line(2_000, "from-agent", { id: 1, result: { sessionId: "s1" } }),
      line(3_000, "to-agent", { id: 2, method: "session/prompt", params: { sessionId: "s1", prompt: [] } }),
      line(4_000, "from-agent", { id: 2, result: { stopReason: "end_turn" } }),
    ],
    stderr: [
      { ts: 1_500, text: "loading" },
      { ts: 3_500, text: "thinking" },
    ],
    lifecycle: [{ ts: 900, type: "started", text: "agent started" }],
    exit: { ts: 4_500, code: 3, signal: null },
  };
}

describe("playback of a recording", () => {
  it("shows the frames, stderr and timeline up to the position; the agent runs until its exit is reached", () => {
    const store = SessionStore.offline(recording());
    expect(store.isOffline).toBe(true);
    store.showUpTo(2, 2_000);
    let s = store.getSnapshot();
    expect([s.frames.length, s.stderr.map((e) => e.text), s.lifecycle.length]).toEqual([2, ["loading"], 1]);
    expect(s.agent).toEqual({ state: "running", agent });
    expect(selectSessionId(s)).toBe("s1");

    store.showUpTo(4, 4_500);
    s = store.getSnapshot();
    expect(s.stderr.map((e) => e.text)).toEqual(["loading", "thinking"]);
    expect(s.agent).toEqual({ state: "exited", agent, code: 3, signal: null });
    expect(s.pending).toEqual([]);

    // Back to the start: the agent is running again, nothing said yet, and views start over.
    store.showUpTo(0, 950);
    s = store.getSnapshot();
    expect([s.frames.length, s.stderr.length, s.lifecycle.length, s.epoch]).toEqual([0, 0, 1, 1]);
    expect(s.agent.state).toBe("running");
    expect(selectSessionId(s)).toBeUndefined();
  });

  it("a position beyond either end shows the whole recording or none of it", () => {
    const store = SessionStore.offline(recording());
    store.showUpTo(99, Number.MAX_SAFE_INTEGER);
    expect(store.getSnapshot()).toMatchObject({ lastSeq: 4, agent: { state: "exited" } });
    expect(store.getSnapshot().frames.length).toBe(4);
    store.showUpTo(-3, 0);
    expect(store.getSnapshot().frames.length).toBe(0);
    expect(store.getSnapshot().lastSeq).toBe(0);
  });

  it("a recording that names no agent shows none started", () => {
    const store = SessionStore.offline({ ...recording(), agent: undefined, exit: undefined });
    store.showUpTo(4, Number.MAX_SAFE_INTEGER);
    expect(store.getSnapshot().agent).toEqual({ state: "not-started" });
    expect(store.getSnapshot().frames.length).toBe(4);
  });

  it("a transcript still streaming in: what arrived since shows once the position reaches it", () => {
    const rec = recording();
    const later = { frames: rec.frames.splice(2), stderr: rec.stderr.splice(1) };
    const store = SessionStore.offline(rec);
    store.showUpTo(2, 2_000);
    const stderr = store.getSnapshot().stderr;
    rec.frames.push(...later.frames);
    rec.stderr.push(...later.stderr);
    // The same position shows the same lists (views compare them by identity).
    store.showUpTo(2, 2_000);
    expect(store.getSnapshot().stderr).toBe(stderr);
    store.showUpTo(4, 4_000);
    const s = store.getSnapshot();
    expect([s.frames.length, s.stderr.length, s.epoch]).toEqual([4, 2, 0]);
  });

  it("a Codex app-server recording is judged by its own protocol from its first frame", () => {
    const line = recorder("codex-app-server");
    const frames = [
      line(1_000, "to-agent", { id: 1, method: "thread/start", params: {} }),
      line(2_000, "from-agent", { id: 1, result: { thread: { id: "t1" } } }),
      line(2_500, "from-agent", "{oops"),
    ];
    const store = SessionStore.offline({
      frames,
      stderr: [],
      lifecycle: [],
      agent: { ...agent, profile: "codex", protocol: "codex-app-server" },
    });
    store.showUpTo(3, Number.MAX_SAFE_INTEGER);
    const { index, conversation } = store.getSnapshot();
    expect(isAppServerConversation(conversation.state) && conversation.state.current.threadIds).toEqual(["t1"]);
    // The one broken line is named for the protocol the agent speaks.
    expect(frames.flatMap((f) => index.ruleFindings(f.seq).map((r) => `${f.seq}: ${r.message}`))).toEqual([
      expect.stringMatching(/^3: not a valid Codex app-server message: not JSON/),
    ]);
  });
});
