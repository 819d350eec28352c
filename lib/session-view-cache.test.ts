import { describe, expect, it } from "vitest";
import { RequestSeqFiller } from "./correlate";
import { classifyLine, type Frame } from "./frame";
import { FrameLog, FrameWindow } from "./frame-log";
import { advanceView, emptyViewCache } from "./session-view-cache";
import { reduceFrames, type MessageItem } from "./session-view";

function frames(n: number, from = 1): Frame[] {
  const out: Frame[] = [];
  const pairs = new RequestSeqFiller();
  const push = (message: object) => {
    const raw = JSON.stringify(message);
    const seq = from + out.length;
    const dir = seq === 1 ? "to-agent" : "from-agent";
    out.push(pairs.fill({ seq, ts: 1000 + seq, dir, raw, message: undefined, ...classifyLine(raw) }));
  };
  if (from === 1)
    push({
      jsonrpc: "2.0",
      id: 1,
      method: "session/prompt",
      params: { sessionId: "s", prompt: [{ type: "text", text: "hi" }] },
    });
  while (out.length < n) {
    push({
      jsonrpc: "2.0",
      method: "session/update",
      params: {
        sessionId: "s",
        update: { sessionUpdate: "agent_message_chunk", content: { type: "text", text: `${from + out.length} ` } },
      },
    });
  }
  return out;
}

const message = (c: { state: { sessions: Record<string, { turns: Array<{ items: unknown[] }> }> } }) =>
  c.state.sessions.s!.turns[0]!.items[1] as MessageItem;

describe("advanceView", () => {
  it("folds only new frames, and ends where a full reduce does", () => {
    const log = new FrameLog(1000);
    const all = frames(50);
    let cache = advanceView(undefined, log.window(), 0);
    expect(cache.lastSeq).toBe(0);
    for (let i = 0; i < all.length; i += 7) {
      for (const f of all.slice(i, i + 7)) log.push(f);
      cache = advanceView(cache, log.window(), 0);
    }
    expect(cache.lastSeq).toBe(50);
    expect(JSON.stringify(cache.state)).toBe(JSON.stringify(reduceFrames(all)));
  });

  it("returns the same cache when nothing is new, and never touches the one passed in", () => {
    const w = FrameWindow.of(frames(5));
    const a = advanceView(undefined, w, 0);
    expect(advanceView(a, w, 0)).toBe(a);
    const before = JSON.stringify(a.state);
    const b = advanceView(a, FrameWindow.of([...frames(5), ...frames(3, 6)]), 0);
    expect(b).not.toBe(a);
    expect(JSON.stringify(a.state)).toBe(before);
    expect(b.lastSeq).toBe(8);
  });

  it("does not fold a frame twice, even when the window's head was dropped", () => {
    const log = new FrameLog(4);
    const all = frames(10);
    let cache = emptyViewCache(0);
    for (const f of all) {
      log.push(f);
      log.trim();
      cache = advanceView(cache, log.window(), 0);
    }
    expect(message(cache).seqs.toArray()).toEqual([2, 3, 4, 5, 6, 7, 8, 9, 10]);
  });

  it("starts over on a new epoch", () => {
    const a = advanceView(undefined, FrameWindow.of(frames(5)), 0);
    const b = advanceView(a, FrameWindow.of(frames(3)), 1);
    expect(b.epoch).toBe(1);
    expect(message(b).seqs.toArray()).toEqual([2, 3]);
  });
});
