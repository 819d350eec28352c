import { describe, expect, it } from "vitest";
import { compareReports } from "./probe";
import { type ProbeReport, type ProbeRow } from "../../contracts/reports";
import { judge, type CheckResult, type Requirement } from "../../contracts/requirements";
import { parseReport, reportFileName, reportToJson, reportToMarkdown } from "./export";

const report: ProbeReport = {
  profile: "replay:demo",
  agent: { name: "gemini-cli", version: "0.61.0" },
  startedAt: "2026-11-22T02:35:12.331Z",
  durationMs: 4321,
  rows: [
    {
      check: "unknown method",
      method: "acp_playground/no_such_method",
      outcome: "-32601",
      latencyMs: 3,
      detail: "not supported",
      conforms: true,
      requirements: ["ACP-JSONRPC-004"],
    },
    { check: "malformed line", outcome: "no reply", detail: "no | -32700\nresponse", conforms: false },
    { check: "logout", method: "logout", outcome: "skipped", detail: "skipped" },
  ],
};

describe("probe export", () => {
  it("round-trips through JSON", () => {
    expect(parseReport(reportToJson(report))).toEqual(report);
  });

  it("writes a Markdown table, one row per check, cells escaped", () => {
    const md = reportToMarkdown(report);
    expect(md).toContain("# ACP probe: replay:demo (gemini-cli 0.61.0)");
    expect(md).toContain(
      "| ✓ | unknown method | `acp_playground/no_such_method` | ACP-JSONRPC-004 | -32601 | 3 ms | not supported |",
    );
    expect(md).toContain("| ✗ | malformed line |  |  | no reply |  | no \\| -32700 response |");
    expect(md).toContain("|  | logout | `logout` |  | skipped |  | skipped |");
    // A report from before verdicts has no verdict section.
    expect(md).not.toContain("VERDICT");
    expect(md.trim().split("\n")).toHaveLength(4 + 2 + 3);
  });

  it("carries the verdict, each requirement's id, tier and citation, and a failure's frames", () => {
    const checks: CheckResult[] = [
      { requirement: "R-1", status: "pass", detail: "fine" },
      { requirement: "R-2", status: "fail", detail: "error -32603: No previous sessions", frames: [41, 42] },
    ];
    const requirements: Requirement[] = [
      { id: "R-1", tier: "MANDATORY", title: "must", citation: "docs/a.mdx#x" },
      {
        id: "R-2",
        tier: "CAPABILITY",
        title: "load | works",
        citation: "docs/b.mdx#y",
        capability: "agentCapabilities.loadSession",
      },
    ];
    const judged = judge(requirements, checks, { advertised: () => true, blockedByAuth: false });
    const withVerdict: ProbeReport = {
      ...report,
      transcriptId: "t-1",
      conformance: { verdict: judged.verdict, parts: [{ variant: "v1", decides: true, ...judged }] },
    };
    const md = reportToMarkdown(withVerdict);
    expect(md).toContain("**VERDICT: NOT CONFORMANT (R-2 fail)**");
    expect(md).toContain("## v1: NOT CONFORMANT");
    expect(md).toContain("MANDATORY 1 pass · CAPABILITY 1 fail");
    expect(md).toContain(
      "| ✗ | R-2 | CAPABILITY | fail | load \\| works | docs/b.mdx#y | error -32603: No previous sessions [frames 41, 42] |",
    );
    expect(md).toContain("in transcript `t-1`");
    expect(parseReport(reportToJson(withVerdict))).toEqual(withVerdict);
  });

  it("names files after the profile and start time", () => {
    expect(reportFileName(report, "json")).toBe("probe-replay_demo-2026-11-22T02-35-12.json");
    expect(reportFileName(report, "md")).toBe("probe-replay_demo-2026-11-22T02-35-12.md");
  });

  it("says what is wrong with a file that is not a report", () => {
    expect(() => parseReport("{")).toThrow(/^not JSON/);
    expect(() => parseReport("[]")).toThrow("a probe report is a JSON object");
    expect(() =>
      parseReport(JSON.stringify({ ...report, rows: [{ check: "x", outcome: "maybe", detail: "" }] })),
    ).toThrow("rows[0] needs check, outcome and detail");
    expect(() => parseReport(JSON.stringify({ ...report, durationMs: "1" }))).toThrow("durationMs must be a number");
  });
});

describe("compareReports", () => {
  const row = (detail: string, extra: Partial<ProbeRow> = {}): ProbeRow => ({
    check: "c",
    outcome: "answered",
    detail,
    ...extra,
  });
  const rep = (rows: ProbeRow[]): ProbeReport => ({ ...report, rows });

  it("ignores ids, UUIDs and timings that differ on every run", () => {
    const a = rep([
      row("session 0b7c5e2a-1d3f-4a5b-8c9d-0e1f2a3b4c5d, tool call_a1b2c3d4e5f6g7, 120 ms at 2026-11-22T10:00:00Z"),
    ]);
    const b = rep([
      row("session 9f8e7d6c-5b4a-4392-8170-6f5e4d3c2b1a, tool call_z9y8x7w6v5u4t3, 7 ms at 2026-11-23T11:30:12.5Z"),
    ]);
    expect(compareReports(a, b)).toEqual([expect.objectContaining({ same: true, differs: [] })]);
  });

  it("says what differs per check", () => {
    const a = rep([
      row("stopReason end_turn", { conforms: true, support: "supported" }),
      { ...row("x"), check: "only a" },
    ]);
    const b = rep([row("stopReason cancelled", { outcome: "inconclusive", conforms: false, support: "supported" })]);
    const [c, onlyA] = compareReports(a, b);
    expect(c).toMatchObject({ same: false, differs: ["outcome", "conforms", "detail"] });
    expect(onlyA).toMatchObject({ check: "only a", same: false, differs: ["missing"] });
  });
});
