import { describe, expect, it } from "vitest";
import type { WireFrame } from "@/lib/frame";
import { FrameInbox, type FlushScheduler } from "./frame-inbox";

const frame = (seq: number): WireFrame => ({ seq, ts: seq, dir: "from-agent", raw: "{}", kind: "notification" });

/** A scheduler the test runs by hand, like one animation frame. */
function manual() {
  const queued: (() => void)[] = [];
  const schedule: FlushScheduler = (fn) => {
    queued.push(fn);
    return () => queued.splice(queued.indexOf(fn) >>> 0, 1);
  };
  return { schedule, queued, tick: () => queued.splice(0).forEach((fn) => fn()) };
}

describe("frame inbox", () => {
  it("delivers the batches of one animation frame together, in order, once", () => {
    const delivered: number[][] = [];
    const clock = manual();
    const inbox = new FrameInbox((frames) => delivered.push(frames.map((f) => f.seq)), clock.schedule);
    inbox.push([frame(1), frame(2)]);
    inbox.push([frame(3)]);
    expect(clock.queued.length).toBe(1);
    expect(delivered).toEqual([]);
    clock.tick();
    expect(delivered).toEqual([[1, 2, 3]]);
    clock.tick();
    inbox.push([frame(4)]);
    clock.tick();
    expect(delivered).toEqual([[1, 2, 3], [4]]);
  });

  it("flush delivers at once and cancels the scheduled delivery; dispose drops what waits", () => {
    const delivered: number[][] = [];
    const clock = manual();
    const inbox = new FrameInbox((frames) => delivered.push(frames.map((f) => f.seq)), clock.schedule);
    inbox.push([frame(1)]);
    inbox.flush();
    expect(delivered).toEqual([[1]]);
    expect(clock.queued.length).toBe(0);
    inbox.flush();
    expect(delivered).toEqual([[1]]);
    inbox.push([frame(2)]);
    inbox.dispose();
    clock.tick();
    expect(delivered).toEqual([[1]]);
  });

  it("without animation frames (a hidden tab, Node) the fallback timer delivers", async () => {
    const inbox = new FrameInbox((frames) => done(frames.map((f) => f.seq)));
    let done!: (seqs: number[]) => void;
    const delivered = new Promise<number[]>((resolve) => (done = resolve));
    inbox.push([frame(7)]);
    expect(await delivered).toEqual([7]);
  });
});
