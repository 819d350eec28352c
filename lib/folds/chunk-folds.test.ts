import { describe, expect, it } from "vitest";
import type { Frame } from "../protocol/frame";
import { FrameSequencer } from "../protocol/frame-sequencer";
import { eventRow, filterFrames } from "./frame-filter";
import { ChunkFolder, foldChunks, foldRows, utf8Length } from "./chunk-folds";

function script() {
  let now = 0;
  const s = new FrameSequencer({ wall: () => now, mono: () => now });
  const frames: Frame[] = [];
  const chunk = (kind: string, text: string, o: { session?: string; messageId?: string; toolCallId?: string } = {}) => {
    now += 10;
    const update: Record<string, unknown> = { sessionUpdate: kind, content: { type: "text", text } };
    if (o.messageId) update.messageId = o.messageId;
    if (o.toolCallId) update.toolCallId = o.toolCallId;
    frames.push(
      s.line(
        "from-agent",
        JSON.stringify({ jsonrpc: "2.0", method: "session/update", params: { sessionId: o.session ?? "s", update } }),
      ),
    );
  };
  const request = (id: number) => {
    now += 10;
    frames.push(s.line("to-agent", JSON.stringify({ jsonrpc: "2.0", id, method: "session/prompt", params: {} })));
  };
  return { frames, chunk, request };
}

describe("ChunkFolder", () => {
  it("folds consecutive chunks of one message, with count, bytes and duration", () => {
    const { frames, chunk, request } = script();
    request(1); // 1
    chunk("agent_thought_chunk", "a"); // 2
    chunk("agent_thought_chunk", "b"); // 3
    chunk("agent_message_chunk", "Hé"); // 4
    chunk("agent_message_chunk", "llo"); // 5
    chunk("agent_message_chunk", "!"); // 6
    chunk("agent_message_chunk", "x", { session: "other" }); // 7: another session
    chunk("agent_message_chunk", "y"); // 8: alone
    request(2); // 9
    chunk("agent_message_chunk", "z"); // 10
    const { folds } = foldChunks(frames);
    expect(folds.map((f) => [f.firstSeq, f.lastSeq, f.kind, f.count])).toEqual([
      [2, 3, "agent_thought_chunk", 2],
      [4, 6, "agent_message_chunk", 3],
    ]);
    const message = folds[1]!;
    expect(message.bytes).toBe(frames.slice(3, 6).reduce((n, f) => n + new TextEncoder().encode(f.raw).length, 0));
    expect(message.end - message.start).toBe(20);
  });

  it("never folds two messages or two tool calls together", () => {
    const { frames, chunk } = script();
    chunk("agent_message_chunk", "a", { messageId: "m1" });
    chunk("agent_message_chunk", "b", { messageId: "m1" });
    chunk("agent_message_chunk", "c", { messageId: "m2" });
    chunk("agent_message_chunk", "d", { messageId: "m2" });
    chunk("tool_call_content_chunk", "e", { toolCallId: "t1" });
    chunk("tool_call_content_chunk", "f", { toolCallId: "t2" });
    const b = foldChunks(frames);
    expect(b.folds.map((f) => [f.firstSeq, f.lastSeq, f.of])).toEqual([
      [1, 2, "m1"],
      [3, 4, "m2"],
    ]);
    expect(b.foldOf(2)?.firstSeq).toBe(1);
    expect(b.foldOf(4)?.of).toBe("m2");
    expect(b.foldOf(5)).toBeUndefined();
  });

  it("grows a fold as a live log grows, and a gap in seqs ends it", () => {
    const { frames, chunk } = script();
    for (const t of ["a", "b", "c", "d"]) chunk("agent_message_chunk", t);
    const b = new ChunkFolder();
    b.add(frames[0]!);
    expect(b.folds).toEqual([]);
    b.add(frames[1]!);
    const v = b.version;
    expect(b.folds[0]!.count).toBe(2);
    b.add(frames[3]!); // seq 3 never seen: a new run
    expect(b.folds[0]!.count).toBe(2);
    expect(b.version).toBe(v);
  });

  it("counts UTF-8 bytes like an encoder", () => {
    for (const s of ["abc", "é", "€", "😀", "a😀é€", "\ud800"])
      expect(utf8Length(s)).toBe(new TextEncoder().encode(s).length);
  });
});

describe("foldRows", () => {
  const { frames, chunk, request } = script();
  request(1); // 1
  for (const t of ["one", "two", "three"]) chunk("agent_message_chunk", t); // 2-4
  request(2); // 5
  const { folds } = foldChunks(frames);
  const source = { length: frames.length, at: (i: number) => frames[i] };

  it("shows a fold as one row, and its frames when expanded", () => {
    const rows = filterFrames(source, {});
    const folded = foldRows(rows, folds, new Set());
    expect(folded.rows).toEqual([1, 2, 5]);
    expect(folded.folded.get(2)).toMatchObject({ listed: 3, fold: { firstSeq: 2, count: 3 } });
    expect(foldRows(rows, folds, new Set([2])).rows).toEqual([1, 2, 3, 4, 5]);
  });

  it("lets a search find a frame inside a fold: the hit shows unfolded", () => {
    const rows = filterFrames(source, { search: "three" });
    expect(foldRows(rows, folds, new Set(), "three")).toEqual({ rows: [4], folded: new Map() });
  });

  it("folds what a filter lists, keeps events, and leaves a lone listed frame alone", () => {
    const rows = filterFrames(source, { dir: "from-agent" });
    const folded = foldRows([eventRow(0), ...rows], folds, new Set());
    expect(folded.rows).toEqual([eventRow(0), 2]);
    expect(foldRows([1, 3, 5], folds, new Set()).folded.size).toBe(0);
    expect(foldRows([1, 3, 5], folds, new Set()).rows).toEqual([1, 3, 5]);
  });
});
