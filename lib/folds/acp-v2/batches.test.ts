import { describe, expect, it } from "vitest";
import { FrameSequencer } from "../../protocol/frame-sequencer";
import { BatchFold, batchParts } from "./batches";

const frames = (lines: Array<["to-agent" | "from-agent", unknown]>) => {
  const s = new FrameSequencer({ wall: () => 0, mono: () => 0 });
  return lines.map(([dir, m]) => s.line(dir, JSON.stringify(m)));
};

describe("v2 batches", () => {
  it("shows a batch as one frame, its requests paired with the replies of a batch reply, by id not position", () => {
    const fold = new BatchFold();
    const [ask, reply] = frames([
      [
        "to-agent",
        [
          { jsonrpc: "2.0", id: "a", method: "session/list", params: {} },
          { jsonrpc: "2.0", method: "_x/note" },
          { jsonrpc: "2.0", id: "b", method: "session/list", params: {} },
        ],
      ],
      [
        "from-agent",
        [
          { jsonrpc: "2.0", id: "b", result: { sessions: [] } },
          { jsonrpc: "2.0", id: "a", result: { sessions: [] } },
        ],
      ],
    ]);
    const batch = fold.add(ask!)!;
    expect(batch.parts.map((p) => [p.kind, p.method, p.id])).toEqual([
      ["request", "session/list", "a"],
      ["notification", "_x/note", undefined],
      ["request", "session/list", "b"],
    ]);
    const answers = fold.add(reply!)!;
    expect(answers.parts.map((p) => p.pair)).toEqual([
      { seq: 1, index: 2 },
      { seq: 1, index: 0 },
    ]);
    expect(fold.get(1)!.parts.map((p) => p.pair)).toEqual([{ seq: 2, index: 1 }, undefined, { seq: 2, index: 0 }]);
  });

  it("pairs a batched request answered on a line of its own, and marks entries that are no message", () => {
    const fold = new BatchFold();
    const [ask, alone, bad] = frames([
      ["to-agent", [{ jsonrpc: "2.0", id: 7, method: "session/list" }]],
      ["from-agent", { jsonrpc: "2.0", id: 7, result: { sessions: [] } }],
      ["to-agent", [17, true]],
    ]);
    fold.add(ask!);
    expect(fold.add(alone!)).toBeUndefined();
    expect(fold.get(1)!.parts[0]!.pair).toEqual({ seq: 2 });
    expect(fold.add(bad!)!.parts.map((p) => [p.kind, p.error])).toEqual([
      ["invalid", "not a JSON-RPC object"],
      ["invalid", "not a JSON-RPC object"],
    ]);
  });

  it("points a single request at its answer inside a batch reply", () => {
    const fold = new BatchFold();
    const [ask, reply] = frames([
      ["to-agent", { jsonrpc: "2.0", id: 1, method: "session/list", params: {} }],
      ["from-agent", [{ jsonrpc: "2.0", id: 1, result: { sessions: [] } }]],
    ]);
    fold.add(ask!);
    expect(fold.add(reply!)!.parts[0]!.pair).toEqual({ seq: 1 });
    expect(fold.answerOf(1)).toEqual({ seq: 2, index: 0 });
  });

  it("splits a batch into its messages for the rules and schemas, and keeps [] one invalid frame", () => {
    const [batch, empty, single] = frames([
      ["to-agent", [{ jsonrpc: "2.0", id: 1, method: "session/list" }, { jsonrpc: "2.0", method: "_x" }, 5]],
      ["from-agent", []],
      ["to-agent", { jsonrpc: "2.0", method: "_y" }],
    ]);
    expect(batchParts(batch!).map((f) => [f.seq, f.kind, f.method, f.id, f.error])).toEqual([
      [1, "request", "session/list", 1, undefined],
      [1, "notification", "_x", undefined, undefined],
      [1, "invalid", undefined, undefined, "not a JSON-RPC object"],
    ]);
    expect(batchParts(empty!).map((f) => [f.kind, f.error])).toEqual([
      ["invalid", "an empty batch ([]) carries no message"],
    ]);
    expect(batchParts(single!)).toEqual([single]);
  });
});
