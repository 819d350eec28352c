import { describe, expect, it } from "vitest";
import { CLIENT_REQUIREMENTS, clientAdvertised, clientProbeMarkdown, clientProbeReport } from "./client-probe";
import type { CheckResult } from "../../contracts/requirements";

const passAll = (): CheckResult[] =>
  CLIENT_REQUIREMENTS.map((r) => ({ requirement: r.id, status: "pass" as const, detail: "ok" }));

const facts = (caps: unknown) => ({
  startedAt: 0,
  endedAt: 5,
  client: { clientInfo: { name: "ed|itor\u001b[2J", version: "1" }, clientCapabilities: caps },
});

describe("client probe report", () => {
  it("reads advertised capabilities: true for booleans, an object for elicitation modes", () => {
    const caps = { fs: { readTextFile: true, writeTextFile: false }, terminal: true, elicitation: { form: {} } };
    expect(clientAdvertised(caps, "fs.readTextFile")).toBe(true);
    expect(clientAdvertised(caps, "fs.writeTextFile")).toBe(false);
    expect(clientAdvertised(caps, "terminal")).toBe(true);
    expect(clientAdvertised(caps, "elicitation.form")).toBe(true);
    expect(clientAdvertised(caps, "elicitation.url")).toBe(false);
    expect(clientAdvertised(undefined, "terminal")).toBe(false);
  });

  it("judges by the kit's rule: a capability not advertised is not applicable, an ADVISORY failure never decides", () => {
    const checks = passAll().map((c) =>
      c.requirement === "PG-CLIENT-015" || c.requirement === "PG-CLIENT-003"
        ? { ...c, status: "fail" as const, frames: [4] }
        : c,
    );
    const frames = [3, 4, 5].map((seq) => ({ seq, dir: "to-agent" as const, raw: `line ${seq}` }));
    const r = clientProbeReport(checks, facts({ terminal: false }), frames);
    expect(r.verdict).toBe("CONFORMANT");
    expect(r.requirements.find((q) => q.id === "PG-CLIENT-015")!.status).toBe("not applicable");
    expect(r.counts.ADVISORY.fail).toBe(1);
    expect(r.evidence).toEqual([{ seq: 4, dir: "to-agent", raw: "line 4" }]);
    const advertised = clientProbeReport(checks, facts({ terminal: true }), frames);
    expect(advertised.verdict).toBe("NOT CONFORMANT");
    expect(advertised.reasons).toEqual(["PG-CLIENT-015 fail"]);
  });

  it("counts a MANDATORY requirement never tested against the verdict", () => {
    const r = clientProbeReport(passAll().slice(1), facts({}), []);
    expect(r.reasons).toEqual(["PG-CLIENT-001 not tested"]);
  });

  it("writes Markdown whose table a client's name cannot break, nor a terminal's escapes reach", () => {
    const md = clientProbeMarkdown(clientProbeReport(passAll(), facts({}), []));
    expect(md).toMatch(/^# ACP client probe: ed\\\|itor\\u001b\[2J 1\n\n\*\*CONFORMANT\*\*/);
    expect(md).not.toContain("\u001b");
    expect(md).toContain(
      "| PG-CLIENT-001 [The client calls initialize before any other request](docs/protocol/v1/initialization.mdx) | MANDATORY | pass | ok |",
    );
  });
});
