import { describe, expect, it } from "vitest";
import type { WireFrame } from "../../lib/protocol/frame";
import { AttachableLog, CappedFrames, RESEND_BATCH, TRANSPORT_KEPT, withoutMessage } from "./attachable-log";

const frame = (seq: number, raw = "x".repeat(10)): WireFrame => ({
  seq,
  ts: seq,
  dir: "from-agent",
  raw,
  kind: "invalid",
});
const fill = (log: CappedFrames, n: number, raw?: string) => {
  for (let seq = 1; seq <= n; seq++) log.push(frame(seq, raw));
};

describe("CappedFrames", () => {
  it("trims past 110% of its frame cap back to the cap, oldest first, in one batch", () => {
    const log = new CappedFrames(100);
    fill(log, 110);
    expect(log.frames).toHaveLength(110);
    log.push(frame(111));
    expect(log.frames.map((f) => f.seq)).toEqual(Array.from({ length: 100 }, (_, i) => i + 12));
    expect(log.chars).toBe(100 * 10);
  });

  it("trims past its byte cap to 90% of it", () => {
    const log = new CappedFrames(1_000, 100);
    fill(log, 10);
    expect(log.frames).toHaveLength(10);
    log.push(frame(11));
    expect(log.chars).toBe(90);
    expect(log.frames.map((f) => f.seq)).toEqual([3, 4, 5, 6, 7, 8, 9, 10, 11]);
  });

  it("keeps the lean frame: no parsed message", () => {
    expect(withoutMessage({ ...frame(1), message: { jsonrpc: "2.0" } })).toEqual(frame(1));
  });
});

describe("AttachableLog (an agent run's and a tapped conversation's)", () => {
  const caps = { replayFrames: 100_000, replayBytes: 1_000, stderrBytes: 100 };

  it("caps frames and stderr in characters, oldest dropped first", () => {
    const log = new AttachableLog(caps);
    for (let seq = 1; seq <= 200; seq++) log.pushFrame(frame(seq));
    for (let i = 0; i < 50; i++) log.pushStderr({ ts: i, text: `line ${String(i).padStart(3, "0")}\n` });
    expect(log.frameChars).toBeLessThanOrEqual(1_000);
    expect(log.frames.at(-1)?.seq).toBe(200);
    expect(log.stderrChars).toBeLessThanOrEqual(100);
    expect(log.stderrChars).toBe(log.stderr.reduce((n, e) => n + e.text.length, 0));
    expect(log.stderr.at(-1)?.text).toBe("line 049\n");
    // One event beyond the cap on its own is not kept.
    log.pushStderr({ ts: 99, text: "e".repeat(500) });
    expect(log.stderrChars).toBeLessThanOrEqual(100);
  });

  it("resends the stderr kept, then the frames after lastSeq, RESEND_BATCH at a time", () => {
    const log = new AttachableLog({ ...caps, replayBytes: Infinity });
    const n = RESEND_BATCH * 2 + 5;
    for (let seq = 1; seq <= n; seq++) log.pushFrame(frame(seq));
    log.pushStderr({ ts: 1, text: "err\n" });
    const sent: [string, unknown][] = [];
    log.resend({ emit: (event: string, payload: unknown) => sent.push([event, payload]) } as never, 3);
    expect(sent[0]).toEqual(["agent:stderr", { ts: 1, text: "err\n" }]);
    const batches = sent.slice(1).map(([, frames]) => (frames as WireFrame[]).map((f) => f.seq));
    expect(batches.map((b) => b.length)).toEqual([RESEND_BATCH, RESEND_BATCH, 2]);
    expect(batches.flat()).toEqual(Array.from({ length: n - 3 }, (_, i) => i + 4));
  });

  it("tells an attaching client where the log starts and what it will never get", () => {
    const log = new AttachableLog({ ...caps, replayBytes: 100 });
    expect(log.position(0)).toEqual({ lastSeq: 0, firstSeq: 1, missed: 0 });
    for (let seq = 1; seq <= 20; seq++) log.pushFrame(frame(seq));
    const first = log.frames[0]!.seq;
    expect(first).toBeGreaterThan(1);
    expect(log.position(0)).toEqual({ lastSeq: 20, firstSeq: first, missed: first - 1 });
    expect(log.position(first + 2)).toEqual({ lastSeq: 20, firstSeq: first, missed: 0 });
  });

  it("keeps the last TRANSPORT_KEPT transport events", () => {
    const log = new AttachableLog(caps);
    for (let i = 0; i < TRANSPORT_KEPT + 5; i++) log.pushTransport({ ts: i, text: `event ${i}` });
    expect(log.transport).toHaveLength(TRANSPORT_KEPT);
    expect(log.transport[0]!.ts).toBe(5);
  });
});
