import { describe, expect, it } from "vitest";
import { FrameSequencer } from "../protocol/frame-sequencer";
import { mcpLabel, McpPairs } from "./mcp-pairs";

const setup = () => {
  const s = new FrameSequencer();
  const pairs = new McpPairs();
  const send = (dir: "to-agent" | "from-agent", message: object) => {
    const frame = s.line(dir, JSON.stringify({ jsonrpc: "2.0", ...message }));
    return { frame, inner: pairs.add(frame) };
  };
  return { pairs, send };
};

describe("MCP over ACP pairing", () => {
  it("shows the inner method on the request and pairs the response with it", () => {
    const { pairs, send } = setup();
    const req = send("from-agent", {
      id: 1,
      method: "mcp/message",
      params: { serverId: "srv", requestId: 7, method: "tools/call", params: { name: "x" } },
    });
    expect(req.inner).toEqual({ role: "request", serverId: "srv", requestId: 7, method: "tools/call", requestSeq: 1 });
    const res = send("to-agent", { id: 1, result: { result: { content: [] } } });
    expect(res.inner).toMatchObject({ role: "response", method: "tools/call", requestSeq: 1, outcome: "result" });
    expect(mcpLabel(pairs.innerOf(res.frame.seq)!)).toBe("tools/call → result");
  });

  it("tells an inner MCP error from an outer ACP error", () => {
    const { send } = setup();
    send("from-agent", { id: 1, method: "mcp/message", params: { serverId: "a", requestId: "r", method: "ping" } });
    send("from-agent", { id: 2, method: "mcp/message", params: { serverId: "a", requestId: "q", method: "ping" } });
    expect(send("to-agent", { id: 1, result: { error: { code: -1, message: "no" } } }).inner?.outcome).toBe("error");
    expect(send("to-agent", { id: 2, error: { code: -32603, message: "down" } }).inner?.outcome).toBe("acp error");
  });

  it("links a notification to the active inner request by server and inner id", () => {
    const { send } = setup();
    send("from-agent", { id: 1, method: "mcp/message", params: { serverId: "a", requestId: 5, method: "tools/call" } });
    const note = send("to-agent", {
      method: "mcp/message",
      params: { serverId: "a", requestId: 5, method: "notifications/progress" },
    });
    expect(note.inner).toMatchObject({ role: "notification", requestSeq: 1, method: "notifications/progress" });
    // Same inner id on another server, or "5" as a string: not the same request.
    const other = send("to-agent", { method: "mcp/message", params: { serverId: "b", requestId: 5, method: "x" } });
    expect(other.inner?.requestSeq).toBeUndefined();
    const str = send("to-agent", { method: "mcp/message", params: { serverId: "a", requestId: "5", method: "x" } });
    expect(str.inner?.requestSeq).toBeUndefined();
  });

  it("ignores malformed carriers and other methods", () => {
    const { send } = setup();
    expect(send("from-agent", { id: 1, method: "mcp/message", params: { serverId: 3, method: "x" } }).inner).toBe(
      undefined,
    );
    expect(send("to-agent", { id: 1, result: {} }).inner).toBeUndefined();
    expect(send("from-agent", { id: 2, method: "fs/read_text_file", params: {} }).inner).toBeUndefined();
  });

  it("bounds a hostile method name", () => {
    const { send } = setup();
    const r = send("from-agent", {
      id: 1,
      method: "mcp/message",
      params: { serverId: "a", requestId: 1, method: "m".repeat(10_000) },
    });
    expect(r.inner?.method.length).toBe(200);
  });
});
