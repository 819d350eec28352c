import { describe, expect, it } from "vitest";
import type { ProbeReport } from "../contracts/reports";
import { judge, type CheckResult } from "../contracts/requirements";
import { buildMatrix, matrixToMarkdown } from "./probe-matrix";
import { STABLE_REQUIREMENTS, UNSTABLE_REQUIREMENTS } from "./probe-requirements";

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
});
