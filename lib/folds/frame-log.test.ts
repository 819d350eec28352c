import { describe, expect, it } from "vitest";
import type { Frame, WireFrame } from "../protocol/frame";
import { FrameLog, FrameWindow, withMessage } from "./frame-log";

const frame = (seq: number): Frame => ({
  seq,
  ts: seq,
  dir: "to-agent",
  raw: `{"n":${seq}}`,
  kind: "invalid",
  message: undefined,
});
const seqs = (w: FrameWindow) => [...w].map((f) => f.seq);

describe("FrameLog", () => {
  it("hands out immutable windows: later appends and drops do not change them", () => {
    const log = new FrameLog(5);
    for (let s = 1; s <= 3; s++) log.push(frame(s));
    log.trim();
    const a = log.window();
    expect(log.window()).toBe(a);
    for (let s = 4; s <= 8; s++) log.push(frame(s));
    expect(log.trim()).toBe(3);
    const b = log.window();
    expect(seqs(a)).toEqual([1, 2, 3]);
    expect(seqs(b)).toEqual([4, 5, 6, 7, 8]);
    expect(b.length).toBe(5);
    expect(b.first?.seq).toBe(4);
    expect(b.last?.seq).toBe(8);
    expect(b.at(-2)?.seq).toBe(7);
    expect(b.at(5)).toBeUndefined();
    expect(b.slice(-2).map((f) => f.seq)).toEqual([7, 8]);
    expect(b.extends(a)).toBe(false);
    log.clear();
    expect(log.window().length).toBe(0);
    expect(seqs(b)).toEqual([4, 5, 6, 7, 8]);
  });

  it("finds frames by seq, also across gaps", () => {
    const w = FrameWindow.of([1, 2, 5, 9, 10].map(frame));
    expect(w.indexOfSeq(1)).toBe(0);
    expect(w.indexOfSeq(5)).toBe(2);
    expect(w.indexOfSeq(9)).toBe(3);
    expect(w.indexOfSeq(3)).toBe(-1);
    expect(w.bySeq(10)?.seq).toBe(10);
    expect(FrameWindow.EMPTY.indexOfSeq(1)).toBe(-1);
  });

  it("keeps old windows intact across compaction, and extends() tells appends from restarts", () => {
    const log = new FrameLog(2000);
    const windows: FrameWindow[] = [];
    let seq = 0;
    for (let batch = 0; batch < 100; batch++) {
      for (let i = 0; i < 100; i++) log.push(frame(++seq));
      log.trim();
      windows.push(log.window());
    }
    const last = windows.at(-1)!;
    expect(last.length).toBe(2000);
    expect(last.first?.seq).toBe(8001);
    // An early window still sees exactly what it saw.
    expect(seqs(windows[4]!)).toEqual(Array.from({ length: 500 }, (_, i) => i + 1));
    expect(windows[40]!.first?.seq).toBe(2101);
    expect(last.extends(windows[95]!)).toBe(true);
    expect(last.extends(windows[10]!)).toBe(false);
  });

  it("appends 100,000 frames in batches of 100 in linear time, 200,000 cap", () => {
    const log = new FrameLog(200_000);
    let seq = 0;
    const t0 = performance.now();
    for (let batch = 0; batch < 1000; batch++) {
      for (let i = 0; i < 100; i++) log.push(frame(++seq));
      log.trim();
      log.window();
    }
    const ms = performance.now() - t0;
    expect(log.window().length).toBe(100_000);
    // Reported, not asserted: CI machines vary.
    console.log(`FrameLog: 100,000 frames in batches of 100: ${ms.toFixed(1)} ms`);
  });
});

describe("withMessage", () => {
  it("restores the message of a lean frame from its raw line, once", () => {
    const lean: WireFrame = {
      seq: 1,
      ts: 1,
      dir: "from-agent",
      raw: '{"jsonrpc":"2.0","id":1,"result":{"a":[1]}}',
      kind: "response",
      id: 1,
    };
    expect(withMessage(lean).message).toEqual({ jsonrpc: "2.0", id: 1, result: { a: [1] } });
    const kept = { a: 1 };
    const parsed: Frame = { ...lean, message: kept };
    expect(withMessage(parsed).message).toBe(kept);
    const bad: WireFrame = { seq: 2, ts: 2, dir: "to-agent", raw: "{not json", kind: "invalid", error: "not JSON" };
    expect(withMessage(bad).message).toBeUndefined();
    // An invalid but parseable line gets its message back too, as in full frames.
    expect(withMessage({ ...bad, raw: "[1,2]" }).message).toEqual([1, 2]);
  });
});
