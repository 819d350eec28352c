import { describe, expect, it } from "vitest";
import { promptTitle } from "./recording-title";

describe("promptTitle", () => {
  it("is the first prompt's text on one line, for ACP and Codex alike", () => {
    const acp = { method: "session/prompt", params: { prompt: [{ type: "text", text: "Read\n hello.txt " }] } };
    expect(promptTitle(acp)).toBe("Read hello.txt");
    const codex = { method: "turn/start", params: { input: [{ type: "text", text: "fix the tests" }] } };
    expect(promptTitle(codex)).toBe("fix the tests");
  });

  it("joins text blocks, skips the rest, cuts a long one, and gives nothing for no text", () => {
    const mixed = {
      params: {
        prompt: [
          { type: "image", data: "x" },
          { type: "text", text: "a" },
          { type: "text", text: "b" },
        ],
      },
    };
    expect(promptTitle(mixed)).toBe("a b");
    const long = promptTitle({ params: { prompt: [{ type: "text", text: "word ".repeat(40) }] } })!;
    expect(long.length).toBeLessThanOrEqual(80);
    expect(long.endsWith("…")).toBe(true);
    expect(promptTitle({ params: { prompt: [{ type: "image" }] } })).toBeUndefined();
    expect(promptTitle({ params: {} })).toBeUndefined();
    expect(promptTitle("junk")).toBeUndefined();
  });
});
