import { describe, expect, it } from "vitest";
import { isGeminiProfile, optionArg, optionControls, optionsPayload } from "./agent-options";

const gemini = { name: "gemini", options: ["model", "approvalMode", "skipTrust"] };

describe("start options", () => {
  it("presents Gemini's options, replay speed, and unknown names as text", () => {
    expect(optionControls(gemini).map((c) => c.kind)).toEqual(["text", "select", "checkbox"]);
    expect(optionControls(gemini)[1]).toMatchObject({ values: ["default", "auto_edit", "yolo", "plan"] });
    expect(optionControls({ options: ["speed"] })[0]).toMatchObject({ kind: "select", values: ["1", "10", "instant"] });
    expect(optionControls({ options: ["flavour"] })).toEqual([{ name: "flavour", kind: "text", label: "flavour" }]);
    expect(optionControls(undefined)).toEqual([]);
    expect(isGeminiProfile(gemini)).toBe(true);
    expect(isGeminiProfile({ name: "replay:x", options: ["speed"] })).toBe(false);
  });

  it("sends only what was set, so a plain start stays poolable", () => {
    const controls = optionControls(gemini);
    expect(optionsPayload(controls, {})).toBeUndefined();
    expect(optionsPayload(controls, { model: "  ", approvalMode: "", skipTrust: false })).toBeUndefined();
    expect(
      optionsPayload(controls, { model: " gemini-2.5-pro ", approvalMode: "yolo", skipTrust: true, sandbox: true }),
    ).toEqual({
      model: "gemini-2.5-pro",
      approvalMode: "yolo",
      skipTrust: true,
    });
  });
});

describe("option arguments", () => {
  it("never lets a value become a flag", () => {
    expect(optionArg("model", "gemini-2.5-pro")).toEqual({ ok: true, arg: "--model=gemini-2.5-pro" });
    expect(optionArg("model", "--version")).toEqual({
      ok: false,
      message: 'option "model" must not start with "-": --version',
    });
    expect(optionArg("model", "-v")).toMatchObject({ ok: false });
  });
});
