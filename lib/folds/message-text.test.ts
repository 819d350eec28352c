import { describe, expect, it } from "vitest";
import type { Frame } from "../protocol/frame";
import { MessageText } from "./message-text";

const update = (u: Record<string, unknown>) => ({
  method: "session/update",
  message: { jsonrpc: "2.0", method: "session/update", params: { sessionId: "s", update: u } },
});
const chunk = (text: string, messageId?: string) =>
  update({
    sessionUpdate: "agent_message_chunk",
    content: { type: "text", text },
    ...(messageId ? { messageId } : {}),
  });

const fold = (frames: Pick<Frame, "method" | "message">[]) => {
  const m = new MessageText();
  const printed = frames.map((f) => m.push(f)).join("");
  expect(printed).toBe(m.text);
  return printed;
};

describe("MessageText", () => {
  it("keeps one message's chunks together", () => {
    expect(fold([chunk("Hello "), chunk("world.")])).toBe("Hello world.");
  });

  it("puts a blank line between two messages split by a tool call, and names the call", () => {
    // The offline model's read: two model messages around the agent's tool call.
    const printed = fold([
      chunk("Reading `hello.txt`."),
      update({ sessionUpdate: "tool_call", toolCallId: "t", title: "ReadFile hello.txt", status: "pending" }),
      update({ sessionUpdate: "tool_call_update", toolCallId: "t", status: "completed" }),
      chunk("`hello.txt` says:"),
    ]);
    expect(printed).toBe("Reading `hello.txt`.\n\n[tool] ReadFile hello.txt\n\n`hello.txt` says:");
  });

  it("names a call first seen in a permission request once (Gemini sends no tool_call for it)", () => {
    const ask = {
      method: "session/request_permission",
      message: {
        jsonrpc: "2.0",
        id: 0,
        method: "session/request_permission",
        params: { sessionId: "s", toolCall: { toolCallId: "w", title: "Writing to hello.txt" }, options: [] },
      },
    };
    const printed = fold([
      chunk("I will write `hello.txt`."),
      ask,
      update({
        sessionUpdate: "tool_call_update",
        toolCallId: "w",
        title: "Writing to hello.txt",
        status: "completed",
      }),
      chunk("Wrote `hello.txt`."),
    ]);
    expect(printed).toBe("I will write `hello.txt`.\n\n[tool] Writing to hello.txt\n\nWrote `hello.txt`.");
  });

  it("names a call once, whichever update first gives its title", () => {
    expect(
      fold([
        update({ sessionUpdate: "tool_call", toolCallId: "t", status: "pending" }),
        update({ sessionUpdate: "tool_call_update", toolCallId: "t", title: "Run ls" }),
        update({ sessionUpdate: "tool_call_update", toolCallId: "t", title: "Run ls -la", status: "completed" }),
      ]),
    ).toBe("[tool] Run ls\n");
  });

  it("starts a new message where the message id changes, or a thought came between", () => {
    expect(fold([chunk("One.", "a"), chunk("Two.", "b"), chunk(" Still two.", "b")])).toBe("One.\n\nTwo. Still two.");
    expect(fold([chunk("One.\n"), update({ sessionUpdate: "agent_thought_chunk", content: {} }), chunk("Two.")])).toBe(
      "One.\n\nTwo.",
    );
  });

  it("does not break a message on the echoed prompt or usage figures", () => {
    expect(fold([chunk("A"), update({ sessionUpdate: "usage_update", used: 1 }), chunk("B")])).toBe("AB");
  });

  it("splits the app-server's deltas by item", () => {
    const delta = (delta: string, itemId: string) => ({
      method: "item/agentMessage/delta",
      message: { method: "item/agentMessage/delta", params: { threadId: "t", itemId, delta } },
    });
    expect(fold([delta("One", "i1"), delta(".", "i1"), delta("Two.", "i2")])).toBe("One.\n\nTwo.");
  });

  it("shows a terminal's control sequences instead of sending them", () => {
    expect(fold([chunk("a\u001b]0;pwned\u0007b\n\tc")])).toBe("a\\u001b]0;pwned\\u0007b\n\tc");
  });
});
