/**
 * ACP v2's probe as a spec's probe: the v2 probe (lib/features/probe-v2/) runs one fresh agent per
 * scenario, so it runs over the options' `fresh` connections, not the driver's agent; its verdict
 * is the report's one deciding part, variant "v2", with the kit's v2 requirement ids.
 */
import type { ProbeRow } from "../../../contracts/reports";
import { judge, type CheckResult } from "../../../contracts/requirements";
import type { ProbeResult } from "../../probe/probe";
import type { Driver, ProbeOptions } from "../../probe/context";
import { runV2Probe, type V2ProbeResult } from "../../probe-v2/probe";
import { V2_REQUIREMENTS } from "../../probe-v2/requirements";

const OUTCOME: Record<CheckResult["status"], ProbeRow["outcome"]> = {
  pass: "answered",
  fail: "error",
  skip: "skipped",
};

/** The v2 probe's result as the report the Profiles page and the CLI show. */
export function v2ProbeReport(result: V2ProbeResult): ProbeResult {
  const protocolVersion = result.init?.protocolVersion;
  return {
    rows: result.checks.map((c) => ({
      check: c.requirement,
      outcome: OUTCOME[c.status],
      detail: c.detail.slice(0, 200),
      conforms: c.status === "pass",
      requirements: [c.requirement],
    })),
    facts: {
      ...(protocolVersion === undefined ? {} : { protocolVersion }),
      authMethods: [],
      sessionCapabilities: [],
      modes: [],
      models: [],
      usage: [],
      answered: [],
    },
    checks: result.checks,
    conformance: {
      verdict: result.conformance.verdict,
      parts: [{ variant: "v2", decides: true, ...result.conformance }],
    },
    ...(result.agent ? { agent: result.agent } : {}),
  };
}

export async function runV2SpecProbe(_driver: Driver, options: ProbeOptions): Promise<ProbeResult> {
  // Without fresh agents the scenarios would share one (a batch may crash it): refuse, do not guess.
  if (!options.fresh) {
    const checks: CheckResult[] = V2_REQUIREMENTS.map((r) => ({
      requirement: r.id,
      status: "skip",
      detail: "not exercised: the caller opened no fresh agents (ProbeOptions.fresh)",
    }));
    const judged = judge(V2_REQUIREMENTS, checks, { advertised: () => false, blockedByAuth: false });
    return v2ProbeReport({
      checks,
      conformance: {
        ...judged,
        verdict: "NOT CONFORMANT",
        reasons: ["the v2 probe needs fresh agents, one per scenario"],
      },
    });
  }
  return v2ProbeReport(
    await runV2Probe(options.fresh, {
      cwd: options.cwd,
      ...(options.timeoutMs === undefined ? {} : { timeoutMs: options.timeoutMs }),
    }),
  );
}
