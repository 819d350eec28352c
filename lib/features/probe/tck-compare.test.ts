import { describe, expect, it } from "vitest";
import type { ProbeReport } from "../../contracts/reports";
import type { RequirementResult } from "../../contracts/requirements";
import { compareWithKit, comparisonMarkdown, kitStatusOf, parseKitReport } from "./tck-compare";

const kitJson = {
  agent_info: { name: "qwen-code", version: "0.24.4" },
  verdict: { conformant: false },
  requirements: [
    { id: "ACP-RESUME-001", tier: "CAPABILITY", status: "FAIL", tests: [{ status: "FAIL", message: "-32023" }] },
    { id: "ACP-LOAD-002", tier: "CAPABILITY", status: "FAIL", tests: [] },
    { id: "ACP-CANCEL-001", tier: "MANDATORY", status: "SKIPPED", tests: [] },
    { id: "ACP-INIT-001", tier: "MANDATORY", status: "PASS", tests: [] },
    { id: "ACP-LIST-002", tier: "CAPABILITY", status: "SKIPPED", tests: [] },
  ],
};

const req = (
  id: string,
  status: RequirementResult["status"],
  extra: Partial<RequirementResult> = {},
): RequirementResult => ({
  id,
  tier: "MANDATORY",
  title: id,
  citation: "c",
  status,
  checks: [{ requirement: id, status: status === "fail" ? "fail" : "pass", detail: `${id} detail` }],
  ...extra,
});

const probe = {
  profile: "qwen",
  startedAt: "",
  durationMs: 0,
  rows: [],
  facts: {},
  conformance: {
    verdict: "CONFORMANT",
    parts: [
      {
        variant: "v1",
        decides: true,
        requirements: [
          req("ACP-RESUME-001", "pass"),
          req("PG-LOAD-002", "pass", { kit: "ACP-LOAD-002" }),
          req("ACP-CANCEL-001", "pass"),
          req("ACP-INIT-001", "pass"),
          req("ACP-LIST-002", "not applicable"),
        ],
      },
    ],
  },
} as unknown as ProbeReport;

describe("the kit beside the probe", () => {
  it("reads the kit's report, refusing one that is not", () => {
    expect(parseKitReport(kitJson)).toMatchObject({ verdict: "NOT CONFORMANT", agent: { version: "0.24.4" } });
    expect(parseKitReport(kitJson).requirements[0]).toMatchObject({ id: "ACP-RESUME-001", message: "-32023" });
    expect(() => parseKitReport({ requirements: "x" })).toThrow(/not an acp-tck report/);
    expect(() => parseKitReport({ verdict: {}, requirements: [{ id: "X", status: "MAYBE" }] })).toThrow(
      /requirement 0/,
    );
  });

  it("pairs each kit requirement with the probe's, by id or by the PG- one naming it, and classes the difference", () => {
    const c = compareWithKit("qwen 0.24.4", parseKitReport(kitJson), probe);
    expect(c.requirements.map((r) => [r.id, r.probeId, r.kit, r.probe, r.agreement])).toEqual([
      ["ACP-RESUME-001", undefined, "FAIL", "PASS", "disagree"],
      ["ACP-LOAD-002", "PG-LOAD-002", "FAIL", "PASS", "disagree"],
      ["ACP-CANCEL-001", undefined, "SKIPPED", "PASS", "coverage"],
      ["ACP-INIT-001", undefined, "PASS", "PASS", "agree"],
      ["ACP-LIST-002", undefined, "SKIPPED", "SKIPPED", "agree"],
    ]);
    expect(kitStatusOf("blocked by auth")).toBe("SKIPPED");
    const md = comparisonMarkdown([c]);
    expect(md).toContain("| qwen 0.24.4 | NOT CONFORMANT | CONFORMANT | 2 of 5 | 2 | 1 |");
    expect(md).toContain("| qwen 0.24.4 | ACP-LOAD-002 (PG-LOAD-002) | CAPABILITY | FAIL | PASS | one side fails |");
    expect(md).toContain("| qwen 0.24.4 | ACP-RESUME-001 | CAPABILITY | FAIL | PASS | one side fails: -32023 |");
  });
});
