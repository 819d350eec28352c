/**
 * The frame index of a protocol with JSON-RPC batches (ACP v2): a batch line is one frame whose
 * parts are paired with their answers, and judged by the recording rules part by part. ACP v1
 * has no batches: there the same line stays an invalid frame.
 */
import { describe, expect, it } from "vitest";
import { FrameSequencer } from "../protocol/frame-sequencer";
import type { ProtocolName } from "../protocol/protocols";
import { FrameIndex } from "./frame-index";

function log(protocol: ProtocolName) {
  const s = new FrameSequencer({ wall: () => 0, mono: () => 0 }, protocol);
  const index = new FrameIndex();
  const add = (dir: "to-agent" | "from-agent", m: unknown) => {
    const f = s.line(dir, JSON.stringify(m));
    index.add(f, protocol);
    return f;
  };
  return { index, add };
}

const list = (id: string) => ({ jsonrpc: "2.0", id, method: "session/list", params: {} });
const listed = (id: string) => ({ jsonrpc: "2.0", id, result: { sessions: [] } });

describe("batches in the frame index", () => {
  it("ACP v2: a batch is one frame of parts, each request paired with its reply in a batch or alone", () => {
    const { index, add } = log("acp-v2");
    const ask = add("to-agent", [list("a"), { jsonrpc: "2.0", method: "_x/note", params: {} }, list("b")]);
    const replies = add("from-agent", [listed("b")]);
    const alone = add("from-agent", listed("a"));
    const batch = index.batchOf(ask.seq)!;
    expect(batch.parts.map((p) => [p.kind, p.method ?? null, p.id ?? null])).toEqual([
      ["request", "session/list", "a"],
      ["notification", "_x/note", null],
      ["request", "session/list", "b"],
    ]);
    expect(batch.parts.map((p) => p.pair ?? null)).toEqual([{ seq: alone.seq }, null, { seq: replies.seq, index: 0 }]);
    expect(index.batchOf(replies.seq)!.parts[0]!.pair).toEqual({ seq: ask.seq, index: 2 });
    // The parts are messages: no rule calls the batch line invalid.
    expect(index.ruleFindings(ask.seq).map((r) => r.message)).toEqual([]);
  });

  it("ACP v2: a single request answered inside a batch points there; an empty batch is judged invalid", () => {
    const { index, add } = log("acp-v2");
    const ask = add("to-agent", list("c"));
    const reply = add("from-agent", [listed("c")]);
    expect(index.batchAnswerOf(ask.seq)).toEqual({ seq: reply.seq, index: 0 });
    const empty = add("to-agent", []);
    expect(index.batchOf(empty.seq)!.parts).toEqual([]);
    expect(index.ruleFindings(empty.seq).map((r) => r.message)).toEqual([
      expect.stringContaining("an empty batch ([]) carries no message"),
    ]);
  });

  it("ACP v1: no batches; the line stays an invalid frame", () => {
    const { index, add } = log("acp");
    const ask = add("to-agent", [list("a")]);
    expect(index.batchOf(ask.seq)).toBeUndefined();
    expect(index.ruleFindings(ask.seq).map((r) => r.message)).toEqual([
      expect.stringContaining("JSON-RPC batches are not part of ACP"),
    ]);
  });
});
