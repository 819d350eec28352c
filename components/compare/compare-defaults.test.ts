import { describe, expect, it } from "vitest";
import { defaultSides } from "./compare-defaults";

const p = (name: string, more: object = {}) => ({ name, available: true, ...more });

describe("defaultSides", () => {
  it("never starts both sides on a profile without credentials when another can answer", () => {
    const profiles = [
      p("gemini", { credentialsMissing: "no GEMINI_API_KEY and no login" }),
      p("gemini-offline"),
      p("missing", { available: false }),
      p("replay:demo-gemini", { demo: true, replayOf: { id: "demo-gemini", title: "demo" } }),
      p("claude"),
    ];
    expect(defaultSides(profiles)).toEqual({ a: "gemini-offline", b: "claude" });
  });

  it("takes the one that can answer twice, and falls back to what there is", () => {
    expect(defaultSides([p("gemini", { credentialsMissing: "x" }), p("gemini-offline")])).toEqual({
      a: "gemini-offline",
      b: "gemini-offline",
    });
    expect(defaultSides([p("gemini", { credentialsMissing: "x" })])).toEqual({ a: "gemini", b: "gemini" });
    expect(defaultSides([])).toEqual({ a: "", b: "" });
  });
});
