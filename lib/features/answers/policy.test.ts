import { describe, expect, it } from "vitest";
import { autoPermission, defaultPolicies, isUnknownMethod, sliceLines, truncateOutput } from "./policy";
import { ANSWERABLE_METHODS, UNKNOWN_METHODS } from "../../contracts/policies";
import { parsePolicies } from "../../contracts/wire";

describe("policies", () => {
  it("start as ask for every answerable method, and refuse methods outside ACP", () => {
    const p = defaultPolicies();
    expect(p["session/request_permission"]).toBe("ask");
    expect(p["fs/read_text_file"]).toBe("ask");
    expect(p["terminal/create"]).toBe("ask");
    expect(ANSWERABLE_METHODS.every((m) => p[m] === "ask")).toBe(true);
    expect(p[UNKNOWN_METHODS]).toBe("deny");
    expect(parsePolicies({ [UNKNOWN_METHODS]: "ask" })).toEqual({ ok: true, value: { [UNKNOWN_METHODS]: "ask" } });
  });

  it("an unknown method is neither a client method nor an extension", () => {
    expect(isUnknownMethod("craft/drainMidTurnQueue")).toBe(true);
    expect(isUnknownMethod("fs/read_text_file")).toBe(false);
    expect(isUnknownMethod("session/update")).toBe(false);
    expect(isUnknownMethod("_qwen/thing")).toBe(false);
  });

  it("parse only known methods and policies", () => {
    expect(parsePolicies({ "fs/read_text_file": "auto" })).toEqual({
      ok: true,
      value: { "fs/read_text_file": "auto" },
    });
    expect(parsePolicies({ "session/update": "auto" }).ok).toBe(false);
    expect(parsePolicies({ "fs/read_text_file": "yes" }).ok).toBe(false);
    expect(parsePolicies([]).ok).toBe(false);
  });
});

describe("autoPermission", () => {
  it("picks the first allow-once option, else the first allow-always", () => {
    const options = [
      { optionId: "no", name: "No", kind: "reject_once" as const },
      { optionId: "always", name: "Always", kind: "allow_always" as const },
      { optionId: "once", name: "Once", kind: "allow_once" as const },
    ];
    expect(autoPermission({ options })).toEqual({ outcome: { outcome: "selected", optionId: "once" } });
    expect(autoPermission({ options: options.slice(0, 2) })).toEqual({
      outcome: { outcome: "selected", optionId: "always" },
    });
  });

  it("cancels when there is no allow option", () => {
    expect(autoPermission({ options: [{ optionId: "no", name: "No", kind: "reject_once" }] })).toEqual({
      outcome: { outcome: "cancelled" },
    });
    expect(autoPermission(undefined)).toEqual({ outcome: { outcome: "cancelled" } });
  });
});

describe("sliceLines", () => {
  it("honours 1-based line and limit", () => {
    const text = "a\nb\nc\nd";
    expect(sliceLines(text)).toBe(text);
    expect(sliceLines(text, 2)).toBe("b\nc\nd");
    expect(sliceLines(text, 2, 2)).toBe("b\nc");
    expect(sliceLines(text, null, 1)).toBe("a");
    expect(sliceLines(text, 10, 2)).toBe("");
  });
});

describe("truncateOutput", () => {
  it("keeps the tail within the byte limit, on a character boundary", () => {
    expect(truncateOutput("hello", 10)).toEqual({ output: "hello", truncated: false });
    expect(truncateOutput("hello world", 5)).toEqual({ output: "world", truncated: true });
    expect(truncateOutput("ééé", 3)).toEqual({ output: "é", truncated: true });
    expect(truncateOutput("x", null)).toEqual({ output: "x", truncated: false });
  });
});
