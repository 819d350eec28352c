import { describe, expect, it } from "vitest";
import type { Frame } from "../protocol/frame";
import { FrameIndex } from "./frame-index";
import { FrameSequencer } from "../protocol/frame-sequencer";

function feed(lines: Array<[Frame["dir"], object]>) {
  const s = new FrameSequencer();
  const index = new FrameIndex();
  const changes = lines.map(([dir, m]) => index.add(s.line(dir, JSON.stringify({ jsonrpc: "2.0", ...m }))));
  return { index, changes };
}

describe("FrameIndex: cancelled and completed requests", () => {
  it("an agent's $/cancel_request dismisses the card of the agent request it names, and says why", () => {
    const { index, changes } = feed([
      ["from-agent", { id: 1, method: "fs/read_text_file", params: { sessionId: "s", path: "/a" } }],
      ["from-agent", { id: 2, method: "elicitation/create", params: { mode: "form" } }],
      ["from-agent", { method: "$/cancel_request", params: { requestId: 1 } }],
    ]);
    expect(changes[2]!.dismissed?.seq).toBe(1);
    expect(index.pending().map((f) => f.seq)).toEqual([2]);
    // Still unanswered as JSON-RPC goes: the inspector keeps flagging it until a response comes.
    expect(index.isUnanswered(1)).toBe(true);
    expect(index.dismissals).toEqual([expect.objectContaining({ reason: "cancelled", bySeq: 3 })]);
  });

  it("ignores a cancel naming no open request, or a request of the other direction", () => {
    const { index } = feed([
      ["to-agent", { id: 1, method: "session/prompt", params: {} }],
      ["from-agent", { id: 1, method: "fs/read_text_file", params: {} }],
      ["from-agent", { method: "$/cancel_request", params: { requestId: 99 } }],
      ["from-agent", { method: "$/cancel_request", params: { requestId: { x: 1 } } }],
      ["from-agent", { method: "$/cancel_request", params: { requestId: "1" } }],
    ]);
    expect(index.pending().map((f) => f.seq)).toEqual([2]);
    expect(index.withdrawnBy(1)).toBeUndefined();
    expect(index.dismissals).toEqual([]);
  });

  it("a client's $/cancel_request marks its own request as withdrawn, still open until the agent answers", () => {
    const { index } = feed([
      ["to-agent", { id: 5, method: "session/list", params: {} }],
      ["to-agent", { method: "$/cancel_request", params: { requestId: 5 } }],
    ]);
    expect(index.withdrawnBy(1)).toBe(2);
    expect(index.isUnanswered(1)).toBe(true);
  });

  it("elicitation/complete closes the waiting URL elicitation with that id", () => {
    const { index, changes } = feed([
      [
        "from-agent",
        { id: 1, method: "elicitation/create", params: { mode: "url", elicitationId: "e1", url: "https://x" } },
      ],
      [
        "from-agent",
        { id: 2, method: "elicitation/create", params: { mode: "url", elicitationId: "e2", url: "https://y" } },
      ],
      ["from-agent", { method: "elicitation/complete", params: { elicitationId: "e2" } }],
      ["from-agent", { method: "elicitation/complete", params: { elicitationId: "gone" } }],
    ]);
    expect(changes[2]!.dismissed?.seq).toBe(2);
    expect(index.pending().map((f) => f.seq)).toEqual([1]);
    expect(index.dismissals.map((d) => [d.reason, d.request?.seq, d.elicitationId])).toEqual([
      ["completed", 2, "e2"],
      ["completed", undefined, "gone"],
    ]);
  });

  it("remembers the negotiated protocol version and pairs mcp/message frames", () => {
    const { index } = feed([
      ["to-agent", { id: 1, method: "initialize", params: { protocolVersion: 2 } }],
      ["from-agent", { id: 1, result: { protocolVersion: 2 } }],
      ["from-agent", { id: 7, method: "mcp/message", params: { serverId: "s", requestId: 1, method: "tools/list" } }],
      ["to-agent", { id: 7, result: { result: { tools: [] } } }],
    ]);
    expect(index.v2).toBe(true);
    expect(index.mcp.innerOf(4)).toMatchObject({ role: "response", method: "tools/list", requestSeq: 3 });
  });
});
