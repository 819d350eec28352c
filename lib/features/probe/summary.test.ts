import { describe, expect, it } from "vitest";
import type { ProbeReport } from "../../contracts/reports";
import { judge, TIERS, type CheckResult } from "../../contracts/requirements";
import { probeSummary, summaryCounts } from "./summary";
import { STABLE_REQUIREMENTS, UNSTABLE_REQUIREMENTS } from "./requirements";

/** A report as the probe makes one; `blockedByAuth` as when the agent wants a sign-in before session/new. */
function report(checks: CheckResult[], blockedByAuth = false): Pick<ProbeReport, "conformance"> {
  const context = { advertised: () => true, blockedByAuth };
  const v1 = judge(STABLE_REQUIREMENTS, checks, context);
  const unstable = judge(UNSTABLE_REQUIREMENTS, checks, context);
  return {
    conformance: {
      verdict: v1.verdict,
      parts: [
        { variant: "v1", decides: true, ...v1 },
        { variant: "v1 unstable", decides: false, ...unstable },
      ],
    },
  };
}

const initOnly = (): CheckResult[] =>
  STABLE_REQUIREMENTS.filter((r) => r.id.startsWith("ACP-INIT")).map((r) => ({
    requirement: r.id,
    status: "pass" as const,
    detail: "",
  }));

/** The tier summary's figures of the deciding part, summed: what the header must agree with. */
const tierTotal = (r: Pick<ProbeReport, "conformance">, status: "pass" | "fail" | "blocked by auth") =>
  TIERS.reduce((n, tier) => n + r.conformance!.parts[0]!.counts[tier][status], 0);

describe("probeSummary", () => {
  it("blocked by auth is its own state with what to do, not NOT CONFORMANT", () => {
    const blocked = report(initOnly(), true);
    expect(blocked.conformance!.verdict).toBe("NOT CONFORMANT");
    const s = probeSummary(blocked)!;
    expect(s).toMatchObject({ state: "blocked by auth", label: "BLOCKED BY AUTH", failed: [] });
    expect(s.advice).toMatch(/credentials/);
    expect(s.blocked).toBeGreaterThan(0);
  });

  it("a failure decides even when blocked too", () => {
    const checks = initOnly().map((c, i) => (i === 0 ? { ...c, status: "fail" as const } : c));
    const s = probeSummary(report(checks, true))!;
    expect(s.state).toBe("not conformant");
    expect(s.failed).toEqual([`${checks[0]!.requirement} fail`]);
  });

  it("counts agree with the tier summary", () => {
    for (const r of [report(initOnly(), true), report(initOnly())]) {
      const s = probeSummary(r)!;
      expect([s.pass, s.fail, s.blocked]).toEqual([
        tierTotal(r, "pass"),
        tierTotal(r, "fail"),
        tierTotal(r, "blocked by auth"),
      ]);
    }
    const all = STABLE_REQUIREMENTS.map((r) => ({ requirement: r.id, status: "pass" as const, detail: "" }));
    const s = probeSummary(report(all))!;
    expect(s.state).toBe("conformant");
    expect(summaryCounts(s)).toBe(`${STABLE_REQUIREMENTS.length} pass · 0 fail`);
    expect(probeSummary({})).toBeUndefined();
  });
});
