/**
 * The frame log a tab holds: capped (the oldest frames go, counted as missed),
 * resends skipped, restarted for a new agent, and shown as a prefix of a
 * recording by playback (forward folds only the new frames, back starts over).
 */
import { describe, expect, it } from "vitest";
import { FrameSequencer } from "@/lib/protocol/frame-sequencer";
import type { Frame, FrameDirection, WireFrame } from "@/lib/protocol/frame";
import type { ProtocolName } from "@/lib/protocol/protocols";
import { isAppServerConversation } from "@/lib/features/protocols/codex-app-server/conversation";
import { isSessionView } from "@/lib/folds/session-view";
import { emptyLogState, FrameLogState, type SnapshotHost } from "./frame-log-state";
import { selectPromptSessionId, selectSessionId } from "./session-store";
import type { SessionSnapshot } from "./snapshot";

/** A host over a plain snapshot, as the session store is for its parts. */
function host(agent: object = { state: "not-started" }): SnapshotHost {
  let snap = { ...emptyLogState(0), lifecycle: [], agent } as unknown as SessionSnapshot;
  return { get: () => snap, set: (patch) => (snap = { ...snap, ...patch }) };
}

/** Frames as the relay sends them: numbered and paired by a sequencer, without `message`. */
function relay(protocol?: ProtocolName) {
  const seq = new FrameSequencer(undefined, protocol);
  return (dir: FrameDirection, message: object): WireFrame => {
    const { message: _m, ...lean }: Frame = seq.line(dir, JSON.stringify({ jsonrpc: "2.0", ...message }));
    return lean;
  };
}

const update = (n: number) => ({ method: "session/update", params: { sessionId: "s", update: { n } } });
const seqs = (h: SnapshotHost) => [...h.get().frames].map((f) => f.seq);

describe("a live tab's frame log", () => {
  it("keeps the newest frames up to its cap and counts the dropped ones as missed", () => {
    const h = host();
    const log = new FrameLogState(h, 10);
    const wire = relay();
    const all = Array.from({ length: 25 }, (_, i) => wire("from-agent", update(i)));
    log.append(all.slice(0, 7));
    log.append(all.slice(7));
    expect(seqs(h)).toEqual(Array.from({ length: 10 }, (_, i) => 16 + i));
    expect(h.get()).toMatchObject({ lastSeq: 25, missed: 15 });
    // A reconnect resends from lastSeq: neither a held frame nor a dropped one comes back.
    expect(log.append([all[2]!, all[20]!])).toEqual([]);
    expect(seqs(h)).toHaveLength(10);
    expect(h.get().missed).toBe(15);
  });

  it("an agent request the cap dropped from the log still waits for the user, until answered", () => {
    const h = host();
    const log = new FrameLogState(h, 8);
    const wire = relay();
    const ask = wire("from-agent", {
      id: 0,
      method: "session/request_permission",
      params: { sessionId: "s", toolCall: { toolCallId: "t" }, options: [] },
    });
    log.append([ask]);
    // Far past the cap, and past the share of it after which the index forgets dropped frames.
    for (let i = 0; i < 40; i++) log.append([wire("from-agent", update(i))]);
    expect(h.get().frames.first!.seq).toBeGreaterThan(ask.seq);
    expect(h.get().pending.map((f) => f.seq)).toEqual([ask.seq]);
    log.append([wire("to-agent", { id: 0, result: { outcome: { outcome: "cancelled" } } })]);
    expect(h.get().pending).toEqual([]);
  });

  it("a request id seen going to the agent is never handed out again", () => {
    const h = host();
    const log = new FrameLogState(h);
    const wire = relay();
    log.append([wire("to-agent", { id: 41, method: "session/list", params: {} })]);
    expect(h.get().maxRequestId).toBe(41);
    expect(log.ids.next()).toBe(42);
    // A string id or an answer does not move the counter.
    log.append([wire("to-agent", { id: "x", method: "session/list", params: {} })]);
    log.append([wire("from-agent", { id: 41, result: {} })]);
    expect(log.ids.peek()).toBe(43);
  });

  it("a new agent's log starts over: seqs from 1 again, nothing missed, a new epoch, no session", () => {
    const h = host();
    const log = new FrameLogState(h, 3);
    const wire = relay();
    log.append([
      wire("to-agent", { id: 1, method: "session/new", params: { cwd: "/w", mcpServers: [] } }),
      wire("from-agent", { id: 1, result: { sessionId: "old" } }),
      ...Array.from({ length: 4 }, (_, i) => wire("from-agent", update(i))),
    ]);
    expect(h.get()).toMatchObject({ missed: 3, lastSeq: 6, maxRequestId: 1, epoch: 0 });
    expect(selectSessionId(h.get())).toBe("old");

    log.reset();
    expect(h.get()).toMatchObject({ missed: 0, lastSeq: 0, maxRequestId: 0, epoch: 1, lifecycle: [] });
    expect(h.get().frames.length).toBe(0);
    expect(selectSessionId(h.get())).toBeUndefined();
    expect(log.ids.peek()).toBe(1);

    // The new agent's first frames (seq 1, 2) are new, not resends of the old log's.
    const next = relay();
    log.append([
      next("to-agent", { id: 1, method: "session/new", params: { cwd: "/w", mcpServers: [] } }),
      next("from-agent", { id: 1, result: { sessionId: "new" } }),
    ]);
    expect(seqs(h)).toEqual([1, 2]);
    expect(selectSessionId(h.get())).toBe("new");
  });
});

describe("a recording shown as a prefix (playback)", () => {
  /** A recording made before the relay sent `requestSeq`: responses name only their id. */
  function oldRecording(): Frame[] {
    const wire = relay();
    return [
      wire("to-agent", { id: 1, method: "session/new", params: { cwd: "/w", mcpServers: [] } }),
      wire("from-agent", { id: 1, result: { sessionId: "s1" } }),
      wire("from-agent", { id: 0, method: "fs/read_text_file", params: { sessionId: "s1", path: "/a" } }),
      wire("to-agent", { id: 0, result: { content: "" } }),
      wire("to-agent", { id: 7, method: "session/prompt", params: { sessionId: "s1", prompt: [] } }),
    ].map(({ requestSeq: _r, ...f }) => ({ ...f, message: undefined }));
  }

  it("moving forward shows what the prefix says, pairing answers the recording did not pair", () => {
    const h = host();
    const log = new FrameLogState(h);
    const recorded = oldRecording();
    log.showPrefix(recorded, 1);
    expect(selectSessionId(h.get())).toBeUndefined();
    log.showPrefix(recorded, 3);
    expect(selectSessionId(h.get())).toBe("s1");
    expect(h.get().pending.map((f) => f.seq)).toEqual([3]);
    const before = h.get().frames;
    log.showPrefix(recorded, 5);
    expect(h.get().pending).toEqual([]);
    expect(h.get()).toMatchObject({ lastSeq: 5, maxRequestId: 7, epoch: 0 });
    // Views that hold the shorter window can append the rest instead of starting over.
    expect(h.get().frames.extends(before)).toBe(true);
    // Showing the same prefix again changes nothing the views compare.
    const shown = h.get().frames;
    log.showPrefix(recorded, 5);
    expect(h.get().frames).toBe(shown);
  });

  it("moving back starts over: a new epoch, and only what the shorter prefix says", () => {
    const h = host();
    const log = new FrameLogState(h);
    const recorded = oldRecording();
    log.showPrefix(recorded, 5);
    log.showPrefix(recorded, 3);
    expect(h.get()).toMatchObject({ epoch: 1, lastSeq: 3, maxRequestId: 1 });
    expect(seqs(h)).toEqual([1, 2, 3]);
    expect(h.get().pending.map((f) => f.seq)).toEqual([3]);
    log.showPrefix(recorded, 0);
    expect(h.get()).toMatchObject({ epoch: 2, lastSeq: 0, maxRequestId: 0, pending: [] });
    expect(selectSessionId(h.get())).toBeUndefined();
    // And forward again from there: the answer pairs as it did the first time.
    log.showPrefix(recorded, 4);
    expect(h.get()).toMatchObject({ epoch: 2, pending: [] });
    expect(selectSessionId(h.get())).toBe("s1");
  });
});

describe("folding by the log's protocol", () => {
  it("folds each frame once, with its own protocol's fold: an ACP log holds ACP's conversation", () => {
    const h = host();
    const empty = h.get();
    const wire = relay();
    new FrameLogState(h).append([
      wire("to-agent", { id: 1, method: "session/prompt", params: { sessionId: "s", prompt: [] } }),
      wire("from-agent", {
        method: "session/update",
        params: {
          sessionId: "s",
          update: { sessionUpdate: "agent_message_chunk", content: { type: "text", text: "hi" } },
        },
      }),
    ]);
    const { conversation } = h.get();
    expect(conversation.protocol).toBe("acp");
    expect(conversation).not.toBe(empty.conversation);
    expect(isSessionView(conversation.state) && conversation.state.order).toEqual(["s"]);
    expect(isAppServerConversation(conversation.state)).toBe(false);
  });

  it("an app-server log holds the app-server's conversation: its thread, turn and thread view", () => {
    const h = host({ state: "running", agent: { protocol: "codex-app-server" } });
    const wire = relay("codex-app-server");
    new FrameLogState(h).append([
      wire("to-agent", { id: 0, method: "thread/start", params: { cwd: "/w" } }),
      wire("from-agent", { id: 0, result: { thread: { id: "t" } } }),
      wire("to-agent", { id: 1, method: "turn/start", params: { threadId: "t", input: [] } }),
      wire("from-agent", {
        method: "session/update",
        params: {
          sessionId: "t",
          update: { sessionUpdate: "agent_message_chunk", content: { type: "text", text: "hi" } },
        },
      }),
    ]);
    const { conversation } = h.get();
    expect(conversation.protocol).toBe("codex-app-server");
    if (!isAppServerConversation(conversation.state)) throw new Error("not the app-server's conversation");
    expect(conversation.state.current.turn).toMatchObject({ threadId: "t", ended: false });
    expect(conversation.state.view.order).toEqual(["t"]);
    // Where Connect lands: the thread, read by the app-server's prompt client from the conversation.
    expect(selectPromptSessionId(h.get())).toBe("t");
    // ACP's fold never saw the ACP-shaped update: no session view anywhere.
    expect(isSessionView(conversation.state)).toBe(false);
    // Only the fold's parts are patched: the log's own fields are the new ones.
    expect(h.get().lastSeq).toBe(4);
  });

  it("a batch that changes nothing keeps the conversation (the same object), and a new protocol's log starts from its own empty one", () => {
    const h = host();
    const wire = relay();
    const log = new FrameLogState(h);
    log.append([wire("to-agent", { id: 1, method: "session/new", params: { cwd: "/w", mcpServers: [] } })]);
    const before = h.get().conversation;
    log.append([wire("from-agent", { method: "_unknown/thing", params: {} })]);
    expect(h.get().conversation).toBe(before);
    // The agent is replaced by an app-server one: the ACP conversation is not read as the app-server's.
    h.set({ agent: { state: "running", agent: { protocol: "codex-app-server" } } as never });
    log.reset();
    log.append([relay("codex-app-server")("to-agent", { id: 1, method: "thread/start", params: {} })]);
    expect(h.get().conversation.protocol).toBe("codex-app-server");
    expect(isAppServerConversation(h.get().conversation.state)).toBe(true);
  });
});
