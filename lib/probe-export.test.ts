import { describe, expect, it } from "vitest";
import type { ProbeReport } from "./probe";
import { parseReport, reportFileName, reportToJson, reportToMarkdown } from "./probe-export";

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
    expect(md).toContain("| ✓ | unknown method | `acp_playground/no_such_method` | -32601 | 3 ms | not supported |");
    expect(md).toContain("| ✗ | malformed line |  | no reply |  | no \\| -32700 response |");
    expect(md).toContain("|  | logout | `logout` | skipped |  | skipped |");
    expect(md.trim().split("\n")).toHaveLength(4 + 2 + 3);
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
