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

  it("registers ACP v2 apart: asked for at Connect, never warm, probed with the kit's v2 ids", async () => {
    const v2 = specOf("acp-v2");
    expect(v2.poolable).toBe(false);
    expect(v2.answerable).not.toContain("fs/read_text_file");
    expect(v2.answerable).not.toContain("terminal/create");
    const sent: Array<{ method: string; params: unknown }> = [];
    const end = await v2.connect(
      {
        request: async (method: string, params: unknown) => {
          sent.push({ method, params });
          return method === "initialize"
            ? { kind: "result", result: { protocolVersion: 2, agentCapabilities: {} } }
            : { kind: "result", result: { sessionId: "s1" } };
        },
        progress: () => {},
        pooledInitialize: async () => {
          throw new Error("a v2 Connect never takes a warm agent");
        },
      } as never,
      { cwd: "/tmp", clientCapabilities: {} },
      {} as never,
      { pooled: false },
    );
    expect(sent[0]).toMatchObject({ method: "initialize", params: { protocolVersion: 2 } });
    expect(end.progress).toMatchObject({ step: "ready", requestedVersion: 2, negotiatedVersion: 2 });
    // Without fresh agents the v2 probe runs nothing and says why, under the kit's v2 ids.
    const report = await v2.probe({} as never, { cwd: "/tmp" });
    expect(report.conformance.verdict).toBe("NOT CONFORMANT");
    expect(report.conformance.parts.map((p) => p.variant)).toEqual(["v2"]);
    expect(report.checks.map((c) => c.requirement)).toContain("ACP-STATE-201");
    expect(report.checks.every((c) => c.status === "skip")).toBe(true);
  });

  it("answers approvals only where the protocol decides them itself", () => {
    expect(specOf("acp").answer("session/request_permission", {}, "auto")).toBeUndefined();
    expect(specOf("codex-app-server").answer("item/commandExecution/requestApproval", {}, "deny")).toEqual({
      result: { decision: "decline" },
    });
  });
});
