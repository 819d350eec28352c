import { describe, expect, it } from "vitest";
import { PROTOCOL_NAMES, PROTOCOLS } from "../../protocol/protocols";
import { PROTOCOL_SPECS, specOf } from "./registry";
import { missingParts, SPEC_PARTS } from "./spec";

describe("the protocol registry", () => {
  it("has a whole spec for every protocol name, under its own name, over its own descriptor", () => {
    expect(Object.keys(PROTOCOL_SPECS).sort()).toEqual([...PROTOCOL_NAMES].sort());
    for (const name of PROTOCOL_NAMES) {
      const spec = PROTOCOL_SPECS[name];
      expect(missingParts(spec), name).toEqual([]);
      expect(spec.name).toBe(name);
      for (const [key, value] of Object.entries(PROTOCOLS[name]))
        expect(spec[key as keyof typeof spec], key).toEqual(value);
    }
  });

  it("names each part a spec lacks, so a protocol registered half-done fails above", () => {
    const whole = PROTOCOL_SPECS.acp;
    for (const part of SPEC_PARTS) {
      const { [part]: _gone, ...rest } = whole;
      expect(missingParts(rest)).toContain(part);
    }
    expect(missingParts({ ...whole, side: { open: whole.side.open } })).toEqual(["side.turn"]);
    expect(missingParts({ ...whole, promptClient: { ...whole.promptClient, cancel: 1 } })).toEqual([
      "promptClient.cancel",
    ]);
    expect(missingParts({ ...whole, compose: { ...whole.compose, notes: undefined } })).toEqual(["compose.notes"]);
    expect(missingParts({ ...whole, probe: "run" })).toEqual(["probe"]);
  });

  it("reads an absent protocol as ACP's, as records made before a second protocol are", () => {
    expect(specOf(undefined)).toBe(PROTOCOL_SPECS.acp);
    expect(specOf("codex-app-server")).toBe(PROTOCOL_SPECS["codex-app-server"]);
  });

  it("answers approvals only where the protocol decides them itself", () => {
    expect(specOf("acp").answer("session/request_permission", {}, "auto")).toBeUndefined();
    expect(specOf("codex-app-server").answer("item/commandExecution/requestApproval", {}, "deny")).toEqual({
      result: { decision: "decline" },
    });
  });
});
