/** Qwen Code's usage-only chunk in the session view (kept apart from session-view.test.ts, which is being restructured). */
import { describe, expect, it } from "vitest";
import { classifyLine, type Frame, type FrameDirection } from "./frame";
import { reduceFrames } from "./session-view";

const line = (seq: number, dir: FrameDirection, message: object): Frame => {
  const full = { jsonrpc: "2.0", ...message };
  const raw = JSON.stringify(full);
  return { seq, ts: 1000 + seq, dir, raw, ...classifyLine(raw), message: full };
};
const update = (seq: number, u: object) =>
  line(seq, "from-agent", { method: "session/update", params: { sessionId: "s1", update: u } });

describe("session view: usage-only chunks", () => {
  it("does not turn an empty chunk carrying _meta.usage into an empty AGENT message", () => {
    const frames = [
      line(1, "to-agent", {
        id: 1,
        method: "session/prompt",
        params: { sessionId: "s1", prompt: [{ type: "text", text: "hi" }] },
      }),
      update(2, { sessionUpdate: "agent_message_chunk", content: { type: "text", text: "OK" } }),
      update(3, {
        sessionUpdate: "agent_message_chunk",
        content: { type: "text", text: "" },
        _meta: { usage: { promptTokens: 12, completionTokens: 1 } },
      }),
      line(4, "from-agent", { id: 1, result: { stopReason: "end_turn" } }),
      line(5, "to-agent", {
        id: 2,
        method: "session/prompt",
        params: { sessionId: "s1", prompt: [{ type: "text", text: "again" }] },
      }),
      update(6, {
        sessionUpdate: "agent_message_chunk",
        content: { type: "text", text: "" },
        _meta: { usage: { promptTokens: 20, completionTokens: 0 } },
      }),
      line(7, "from-agent", { id: 2, result: { stopReason: "end_turn" } }),
    ];
    const turns = reduceFrames(frames).sessions.s1!.turns;
    expect(turns[0]!.items.map((i) => i.type)).toEqual(["user_message", "agent_message"]);
    expect(turns[1]!.items.map((i) => i.type)).toEqual(["user_message"]);
  });
});
