import { describe, expect, it } from "vitest";
import type { Frame, FrameDirection } from "../protocol/frame";
import { FrameSequencer } from "../protocol/frame-sequencer";
import { LatencyBuilder, methodLatency, percentile } from "./method-latency";
import { codexCapture } from "../../test/fixtures/codex-captures";

/** Frames made by the real sequencer, at chosen times. */
function script() {
  let now = 0;
  const s = new FrameSequencer({ wall: () => now, mono: () => now });
  const frames: Frame[] = [];
  const at = (ts: number, dir: FrameDirection, m: object) => {
    now = ts;
    const f = s.line(dir, JSON.stringify({ jsonrpc: "2.0", ...m }));
    frames.push(f);
    return f;
  };
  return { frames, at };
}

describe("percentile", () => {
  it("is the nearest rank: always a value that was measured", () => {
    const xs = Array.from({ length: 100 }, (_, i) => i + 1);
    expect(percentile(xs, 50)).toBe(50);
    expect(percentile(xs, 95)).toBe(95);
    expect(percentile(xs, 99)).toBe(99);
    expect(percentile([7], 99)).toBe(7);
    expect(percentile([1, 2, 3], 50)).toBe(2);
    expect(percentile([], 50)).toBeUndefined();
  });
});

describe("methodLatency", () => {
  it("counts requests per method and direction, with errors and pending ones", () => {
    const { frames, at } = script();
    for (let i = 0; i < 20; i++) {
      at(1000 * i, "to-agent", { id: i, method: "session/prompt", params: {} });
      at(
        1000 * i + (i + 1) * 10,
        "from-agent",
        i === 3 ? { id: i, error: { code: -32603, message: "x" } } : { id: i, result: {} },
      );
    }
    at(50_000, "from-agent", { id: "r1", method: "fs/read_text_file", params: {} });
    at(50_040, "to-agent", { id: "r1", result: { content: "" } });
    at(60_000, "to-agent", { id: 99, method: "session/prompt", params: {} });
    const table = methodLatency(frames);
    const prompt = table.find((r) => r.method === "session/prompt")!;
    expect(prompt).toMatchObject({ dir: "to-agent", requests: 21, answered: 20, errors: 1, pending: 1 });
    expect(prompt).toMatchObject({ p50: 100, p95: 190, p99: 200, max: 200 });
    // The slowest request is the one to link to: its seq is the request's.
    expect(frames.find((f) => f.seq === prompt.slowestSeq)).toMatchObject({ kind: "request", id: 19 });
    const read = table.find((r) => r.method === "fs/read_text_file")!;
    expect(read).toMatchObject({ dir: "from-agent", requests: 1, answered: 1, errors: 0, p50: 40, max: 40 });
    // Slowest p95 first.
    expect(table.map((r) => r.method)).toEqual(["session/prompt", "fs/read_text_file"]);
  });

  it("follows requestSeq, not ids: a reused id is still paired right", () => {
    const { frames, at } = script();
    at(0, "to-agent", { id: 1, method: "initialize", params: {} });
    at(5, "from-agent", { id: 1, result: {} });
    at(10, "to-agent", { id: 1, method: "session/new", params: {} });
    at(30, "from-agent", { id: 1, result: {} });
    const table = methodLatency(frames);
    expect(table.find((r) => r.method === "initialize")).toMatchObject({ max: 5, pending: 0 });
    expect(table.find((r) => r.method === "session/new")).toMatchObject({ max: 20, pending: 0 });
  });

  it("is the same fed incrementally or at once", () => {
    const { frames, at } = script();
    at(0, "to-agent", { id: 1, method: "session/new", params: {} });
    at(30, "from-agent", { id: 1, result: {} });
    const b = new LatencyBuilder();
    b.add(frames[0]!);
    expect(b.table()[0]).toMatchObject({ requests: 1, pending: 1, answered: 0, p50: undefined });
    b.add(frames[1]!);
    b.add(frames[1]!); // fed twice: ignored
    expect(b.table()).toEqual(methodLatency(frames));
  });

  it("counts an answer whose request the capped log no longer holds", () => {
    const { frames, at } = script();
    at(0, "to-agent", { id: 1, method: "session/new", params: {} });
    at(30, "from-agent", { id: 1, result: {} });
    const b = new LatencyBuilder();
    b.add(frames[1]!);
    expect(b.table()).toEqual([expect.objectContaining({ method: "session/new", answered: 1, max: 30, pending: 0 })]);
  });
});

describe("methodLatency: Codex app-server frames (the real Codex)", () => {
  it("pairs requests both ways by requestSeq, without the jsonrpc member", () => {
    const frames = codexCapture("turns");
    const rows = methodLatency(frames);
    const row = (method: string) => rows.find((r) => r.method === method)!;
    expect(rows.map((r) => `${r.dir} ${r.method}`).sort()).toEqual([
      "from-agent item/commandExecution/requestApproval",
      "to-agent initialize",
      "to-agent thread/start",
      "to-agent turn/start",
    ]);
    expect(row("turn/start")).toMatchObject({ requests: 3, answered: 3, pending: 0, errors: 0 });
    // The approval waited for the user's answer: from the request to the answer sent.
    const approval = row("item/commandExecution/requestApproval");
    const at = (seq: number) => frames.find((f) => f.seq === seq)!.ts;
    expect(approval).toMatchObject({ requests: 1, answered: 1, slowestSeq: 57 });
    expect(approval.max).toBeCloseTo(at(58) - at(57), 0);
  });
});
