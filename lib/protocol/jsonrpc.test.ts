import { describe, expect, it } from "vitest";
import { FrameSequencer } from "./frame-sequencer";
import {
  describeError,
  errorFrame,
  isAuthRequired,
  notificationFrame,
  outcomeOf,
  requestFrame,
  resultFrame,
} from "./jsonrpc";

const response = (message: object) =>
  new FrameSequencer().line("from-agent", JSON.stringify({ jsonrpc: "2.0", id: 1, ...message }));

describe("jsonrpc", () => {
  it("builds the four kinds of frame", () => {
    expect(requestFrame(1, "m", { a: 1 })).toEqual({ jsonrpc: "2.0", id: 1, method: "m", params: { a: 1 } });
    expect(notificationFrame("n", {})).toEqual({ jsonrpc: "2.0", method: "n", params: {} });
    expect(resultFrame("x", null)).toEqual({ jsonrpc: "2.0", id: "x", result: null });
    expect(errorFrame(2, { code: -1, message: "no" })).toEqual({
      jsonrpc: "2.0",
      id: 2,
      error: { code: -1, message: "no" },
    });
  });

  it("reads a response's outcome; a malformed error still reads as an error", () => {
    expect(outcomeOf(response({ result: { ok: true } }))).toMatchObject({
      kind: "result",
      result: { ok: true },
      frame: { seq: 1 },
    });
    expect(outcomeOf(response({ error: { code: -32000, message: "auth" } }))).toMatchObject({
      kind: "error",
      error: { code: -32000, message: "auth" },
      frame: { seq: 1 },
    });
    expect(outcomeOf(response({ error: "boom" }))).toMatchObject({
      kind: "error",
      error: { code: -32603, message: '"boom"' },
      frame: { seq: 1 },
    });
  });

  it("names auth-required errors and describes errors in one line", () => {
    expect(isAuthRequired({ code: -32000, message: "x" })).toBe(true);
    expect(isAuthRequired({ code: -32603, message: "x" })).toBe(false);
    expect(describeError({ code: -32601, message: "Method not found" })).toBe("Method not found (-32601)");
  });
});
