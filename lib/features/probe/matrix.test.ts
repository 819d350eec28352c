import { describe, expect, it } from "vitest";
import type { ProbeReport } from "../../contracts/reports";
import { judge, type CheckResult } from "../../contracts/requirements";
import { buildMatrix, matrixToMarkdown } from "./matrix";
import { STABLE_REQUIREMENTS, UNSTABLE_REQUIREMENTS } from "./requirements";

const report = (profile: string, checks: CheckResult[]): ProbeReport => {
  const context = { advertised: () => true, blockedByAuth: false };
  const v1 = judge(STABLE_REQUIREMENTS, checks, context);
  const unstable = judge(UNSTABLE_REQUIREMENTS, checks, context);
  return {
    profile,
    startedAt: "2026-11-26T10:00:00.000Z",
    durationMs: 1,
    rows: [],
    conformance: {
      verdict: v1.verdict,
      parts: [
        { variant: "v1", decides: true, ...v1 },
        { variant: "v1 unstable", decides: false, ...unstable },
      ],
    },
  };
};

const allPass = (): CheckResult[] =>
  STABLE_REQUIREMENTS.map((r) => ({ requirement: r.id, status: "pass" as const, detail: "" }));

describe("the protocol matrix", () => {
  it("shows each agent's verdict and failing requirements, unstable ones marked", () => {
    const good = report("good", allPass());
    const bad = report("bad", [
      ...allPass().filter((c) => c.requirement !== "ACP-LOAD-001"),
      { requirement: "ACP-LOAD-001", status: "fail", detail: "error -32603" },
      { requirement: "PG-UNSTABLE-SESSION-FORK", status: "fail", detail: "error" },
    ]);
    const old: ProbeReport = { profile: "old", startedAt: "2026-11-20T00:00:00.000Z", durationMs: 1, rows: [] };
    const matrix = buildMatrix([good, bad, old]);
    const cells = (label: string) => matrix.rows.find((r) => r.label === label)!.cells;
    expect(cells("verdict")).toEqual(["CONFORMANT", "NOT CONFORMANT", "—"]);
    expect(cells("failing requirements")).toEqual([
      "none",
      "ACP-LOAD-001 (CAPABILITY), PG-UNSTABLE-SESSION-FORK (CAPABILITY, v1 unstable)",
      "—",
    ]);
    expect(matrixToMarkdown(matrix)).toContain("| verdict | CONFORMANT | NOT CONFORMANT | — |");
  });

  it("puts an app-server agent's rows where ACP's would be", () => {
    const codex: ProbeReport = {
      profile: "codex",
      agent: { name: "codex app-server", version: "0.169.0" },
      startedAt: "2026-11-26T00:00:00.000Z",
      durationMs: 1,
      rows: [
        { check: "initialize", method: "initialize", outcome: "answered", detail: "", conforms: true },
        { check: "thread/start", method: "thread/start", outcome: "answered", detail: "", conforms: true },
        { check: "turn/start (one text input)", method: "turn/start", outcome: "answered", detail: "", conforms: true },
        { check: "turn/interrupt of a running turn", outcome: "answered", detail: "", conforms: false },
      ],
      conformance: {
        verdict: "CONFORMANT",
        parts: [
          { variant: "app-server", decides: true, ...judge([], [], { advertised: () => true, blockedByAuth: false }) },
        ],
      },
    };
    const matrix = buildMatrix([report("gemini", allPass()), codex]);
    const cells = (label: string) => matrix.rows.find((r) => r.label === label)!.cells;
    expect(matrix.columns[1]).toBe("codex (codex app-server 0.169.0)");
    expect(cells("protocol")).toEqual(["ACP", "Codex app-server"]);
    expect(cells("initialize")[1]).toBe("✓ answered");
    expect(cells("session/new")[1]).toBe("✓ answered");
    expect(cells("prompt turn")[1]).toBe("✓ answered");
    expect(cells("cancel")[1]).toBe("✗ answered");
  });
});

describe("the protocol matrix: an agent that wants a sign-in", () => {
  it("reads BLOCKED BY AUTH, not NOT CONFORMANT", () => {
    const v1 = judge(STABLE_REQUIREMENTS, [], { advertised: () => true, blockedByAuth: true });
    const blocked: ProbeReport = {
      profile: "needs-login",
      startedAt: "2026-11-26T10:00:00.000Z",
      durationMs: 1,
      rows: [],
      conformance: { verdict: v1.verdict, parts: [{ variant: "v1", decides: true, ...v1 }] },
    };
    expect(buildMatrix([blocked]).rows.find((r) => r.label === "verdict")!.cells).toEqual(["BLOCKED BY AUTH"]);
  });
});
