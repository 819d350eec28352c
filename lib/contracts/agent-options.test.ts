import { describe, expect, it } from "vitest";
import {
  isGeminiProfile,
  optionArgs,
  optionControls,
  optionsPayload,
  optionValueProblem,
  type OptionSpec,
} from "./agent-options";

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

describe("declared options", () => {
  const specs: Record<string, OptionSpec> = {
    model: { flag: "--model", type: "string", pattern: /^[\w.:/-]{1,100}$/ },
    approvalMode: { flag: "--approval-mode", type: "enum", values: ["default", "yolo"] },
    trust: { flag: "--skip-trust", type: "boolean" },
  };

  it("refuses values that start with - and values outside the rule", () => {
    expect(optionValueProblem("model", specs.model!, "--yolo")).toBe('option "model" may not start with "-"');
    expect(optionValueProblem("model", specs.model!, "-x")).toMatch(/may not start with "-"/);
    expect(optionValueProblem("model", specs.model!, "a b")).toBe('option "model" has a bad value');
    expect(optionValueProblem("approvalMode", specs.approvalMode!, "plan")).toBe(
      'option "approvalMode" has a bad value',
    );
    expect(optionValueProblem("trust", specs.trust!, "yes")).toMatch(/true or false/);
    expect(optionValueProblem("model", specs.model!, "gemini-2.5-flash")).toBeUndefined();
  });

  it("passes values as --flag=VALUE and a switch as its bare flag", () => {
    expect(optionArgs(specs, { model: "m-1", approvalMode: "yolo", trust: true, unknown: "x" })).toEqual([
      "--model=m-1",
      "--approval-mode=yolo",
      "--skip-trust",
    ]);
    expect(optionArgs(specs, { trust: false })).toEqual([]);
  });
});
