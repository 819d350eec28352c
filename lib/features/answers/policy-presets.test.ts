import { describe, expect, it } from "vitest";
import { defaultPolicies } from "./policy";
import { UNKNOWN_METHODS } from "../../contracts/policies";
import { parsePolicies } from "../../contracts/wire";
import { matchingPreset, parseStoredPolicies, POLICY_PRESETS, policyChanges } from "./policy-presets";

describe("policy presets", () => {
  it("each preset is a valid policy:set payload", () => {
    for (const preset of POLICY_PRESETS)
      expect(parsePolicies(preset.policies)).toEqual({ ok: true, value: preset.policies });
  });

  it("ask for writes only serves reads and still asks for writes and permissions", () => {
    const writes = POLICY_PRESETS.find((p) => p.id === "writes")!.policies;
    expect(writes["fs/read_text_file"]).toBe("auto");
    expect(writes["fs/write_text_file"]).toBe("ask");
    expect(writes["session/request_permission"]).toBe("ask");
    expect(writes["terminal/create"]).toBe("ask");
  });

  it("recognises the preset current policies match", () => {
    const writes = POLICY_PRESETS.find((p) => p.id === "writes")!;
    expect(matchingPreset({ ...writes.policies })?.id).toBe("writes");
    expect(matchingPreset({ ...writes.policies, "fs/write_text_file": "deny" })).toBeUndefined();
    expect(matchingPreset(undefined)).toBeUndefined();
    expect(matchingPreset({})).toBeUndefined();
  });

  it("recognises presets with the relay's policy for methods outside ACP, which every preset refuses", () => {
    // The relay's own defaults: everything asks, unknown methods are answered -32601.
    expect(defaultPolicies()[UNKNOWN_METHODS]).toBe("deny");
    expect(matchingPreset(defaultPolicies())?.id).toBe("ask");
    for (const preset of POLICY_PRESETS) {
      expect(preset.policies[UNKNOWN_METHODS]).toBe("deny");
      expect(matchingPreset({ ...defaultPolicies(), ...preset.policies })?.id).toBe(preset.id);
    }
    // Letting unknown methods wait for the user is no preset, and applying one restores the refusal.
    const asking = { ...defaultPolicies(), [UNKNOWN_METHODS]: "ask" as const };
    expect(matchingPreset(asking)).toBeUndefined();
    expect(policyChanges(asking, POLICY_PRESETS[0]!.policies)).toEqual({ [UNKNOWN_METHODS]: "deny" });
    // A method this page has no preset entry for does not decide.
    expect(matchingPreset({ ...defaultPolicies(), "x/new": "auto" })?.id).toBe("ask");
  });

  it("keeps only known methods and valid policies from storage", () => {
    expect(parseStoredPolicies(null)).toBeUndefined();
    expect(parseStoredPolicies("{not json")).toBeUndefined();
    expect(parseStoredPolicies("[1]")).toBeUndefined();
    expect(
      parseStoredPolicies(
        JSON.stringify({
          "fs/read_text_file": "auto",
          "fs/write_text_file": "yolo",
          __proto__x: "ask",
          "x/y": "ask",
          [UNKNOWN_METHODS]: "deny",
        }),
      ),
    ).toEqual({ "fs/read_text_file": "auto", [UNKNOWN_METHODS]: "deny" });
  });

  it("sends only what differs from the relay's policies, for methods the relay knows", () => {
    expect(policyChanges({ a: "ask", b: "auto" }, { a: "auto", b: "auto", c: "deny" })).toEqual({ a: "auto" });
    expect(policyChanges(undefined, { a: "auto" })).toEqual({});
  });
});
