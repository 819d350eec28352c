import { describe, expect, it } from "vitest";
import type { WireFrame } from "../lib/frame";
import { FrameLog, FrameOutbox, withoutMessage } from "./frame-log";

const frame = (seq: number, raw = "x".repeat(10)): WireFrame => ({
  seq,
  ts: seq,
  dir: "from-agent",
  raw,
  kind: "invalid",
});
const fill = (log: FrameLog, n: number, raw?: string) => {
  for (let seq = 1; seq <= n; seq++) log.push(frame(seq, raw));
};

describe("FrameLog", () => {
  it("trims past 110% of its frame cap back to the cap, oldest first, in one batch", () => {
    const log = new FrameLog(100);
    fill(log, 110);
    expect(log.frames).toHaveLength(110);
    log.push(frame(111));
    expect(log.frames.map((f) => f.seq)).toEqual(Array.from({ length: 100 }, (_, i) => i + 12));
    expect(log.bytes).toBe(100 * 10);
  });

  it("trims past its byte cap to 90% of it", () => {
    const log = new FrameLog(1_000, 100);
    fill(log, 10);
    expect(log.frames).toHaveLength(10);
    log.push(frame(11));
    expect(log.bytes).toBe(90);
    expect(log.frames.map((f) => f.seq)).toEqual([3, 4, 5, 6, 7, 8, 9, 10, 11]);
  });

  it("keeps the lean frame: no parsed message", () => {
    expect(withoutMessage({ ...frame(1), message: { jsonrpc: "2.0" } })).toEqual(frame(1));
  });
});

describe("FrameOutbox", () => {
  const nextTurn = () => new Promise((resolve) => setImmediate(resolve));

  it("sends the frames of one event-loop turn as one batch, in order", async () => {
    const sent: number[][] = [];
    const outbox = new FrameOutbox((frames) => sent.push(frames.map((f) => f.seq)));
    for (let seq = 1; seq <= 3; seq++) outbox.push(frame(seq));
    expect(sent).toEqual([]);
    await nextTurn();
    outbox.push(frame(4));
    await nextTurn();
    expect(sent).toEqual([[1, 2, 3], [4]]);
  });

  it("flush sends what waits at once, and nothing when nothing waits", async () => {
    const sent: number[][] = [];
    const outbox = new FrameOutbox((frames) => sent.push(frames.map((f) => f.seq)));
    outbox.push(frame(1));
    outbox.flush();
    expect(sent).toEqual([[1]]);
    await nextTurn();
    outbox.flush();
    expect(sent).toEqual([[1]]);
  });
});
