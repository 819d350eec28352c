/**
 * Conformance requirements in the model of the ACP test kit (agentclientprotocol/acp-tck):
 * each has an id, a spec citation and a tier; a requirement's status is the
 * worst of its checks; a verdict is CONFORMANT or NOT CONFORMANT. Shared by the
 * probe, `validate` and the client probe, so each declares its requirements once
 * and judges them by the same rule.
 */

/**
 * MANDATORY: a spec MUST. CAPABILITY: applies only when the agent advertised it,
 * then it must work. ADVISORY: a SHOULD, never affects the verdict.
 * INFORMATIONAL: the spec is silent; observations only.
 */
export type Tier = "MANDATORY" | "CAPABILITY" | "ADVISORY" | "INFORMATIONAL";
export const TIERS: readonly Tier[] = ["MANDATORY", "CAPABILITY", "ADVISORY", "INFORMATIONAL"];

/** Which schema variant a requirement belongs to (ACP's, or Codex's app-server protocol): reported apart. */
export type SpecVariant = "v1" | "v1 unstable" | "v2" | "app-server";

export interface Requirement {
  /** `ACP-SESSION-001`: the kit's id where the requirement is the kit's, else `PG-<AREA>-<NNN>`. */
  id: string;
  tier: Tier;
  /** The schema definition or the docs page and section: `docs/protocol/v1/session-setup.mdx#loading-sessions`. */
  citation: string;
  /** What is required, in one sentence. */
  title: string;
  /**
   * What gates it: a path in the `initialize` result (`agentCapabilities.loadSession`), or
   * `inferred:<field>` of the session/new result (`inferred:modes`). Not advertised: "not applicable".
   */
  capability?: string;
  /** v1 stable unless said otherwise. */
  variant?: SpecVariant;
  /** Why the tier differs from the kit's, or why the kit has no such requirement. */
  note?: string;
  /** The kit's requirement this one answers, under another id, where the playground reads the spec differently. */
  kit?: string;
}

/** One check's outcome. `skip`: it could not be exercised (say why in the detail). */
export type CheckStatus = "pass" | "fail" | "skip";

/**
 * A requirement's status, the worst of its checks (fail > pass > skipped);
 * "not tested" when no check ran; "not applicable" for a CAPABILITY not advertised;
 * "blocked by auth" when the agent gates sessions behind authentication and no method was chosen.
 */
export type RequirementStatus = "pass" | "fail" | "skipped" | "not tested" | "not applicable" | "blocked by auth";

export interface CheckResult {
  requirement: string;
  status: CheckStatus;
  /** What was seen, in a few words. */
  detail: string;
  /** Frames (seq in the recorded transcript) that show it; a failure's evidence. */
  frames?: number[];
}

export interface RequirementResult extends Requirement {
  status: RequirementStatus;
  checks: CheckResult[];
}

export type Verdict = "CONFORMANT" | "NOT CONFORMANT";

export interface TierCounts {
  pass: number;
  fail: number;
  skipped: number;
  "not tested": number;
  "not applicable": number;
  "blocked by auth": number;
}

export interface Conformance {
  verdict: Verdict;
  /** Why it is not conformant: the requirement ids that decide it, or "blocked by auth". */
  reasons: string[];
  blockedByAuth: boolean;
  counts: Record<Tier, TierCounts>;
  requirements: RequirementResult[];
}

const emptyCounts = (): TierCounts => ({
  pass: 0,
  fail: 0,
  skipped: 0,
  "not tested": 0,
  "not applicable": 0,
  "blocked by auth": 0,
});

/** The status of one requirement from its checks and what the agent advertised. */
export function requirementStatus(
  requirement: Requirement,
  checks: readonly CheckResult[],
  context: { advertised: (capability: string) => boolean; blockedByAuth: boolean },
): RequirementStatus {
  // Not advertised: whatever the agent answered does not count.
  if (requirement.capability && !context.advertised(requirement.capability)) return "not applicable";
  if (checks.some((c) => c.status === "fail")) return "fail";
  if (checks.some((c) => c.status === "pass")) return "pass";
  if (context.blockedByAuth) return "blocked by auth";
  return checks.length ? "skipped" : "not tested";
}

/**
 * Judges a set of requirements by the kit's rule: not conformant on a MANDATORY
 * failure or one never tested, a CAPABILITY failure, or sessions blocked by auth.
 * ADVISORY and INFORMATIONAL never change the verdict.
 */
export function judge(
  requirements: readonly Requirement[],
  checks: readonly CheckResult[],
  context: { advertised: (capability: string) => boolean; blockedByAuth: boolean },
): Conformance {
  const byId = new Map<string, CheckResult[]>();
  for (const c of checks) byId.set(c.requirement, [...(byId.get(c.requirement) ?? []), c]);
  const counts = Object.fromEntries(TIERS.map((t) => [t, emptyCounts()])) as Record<Tier, TierCounts>;
  const reasons: string[] = [];
  const results = requirements.map((r): RequirementResult => {
    const own = byId.get(r.id) ?? [];
    const status = requirementStatus(r, own, context);
    counts[r.tier][status]++;
    const decides =
      (r.tier === "MANDATORY" && (status === "fail" || status === "not tested")) ||
      (r.tier === "CAPABILITY" && status === "fail");
    if (decides) reasons.push(`${r.id} ${status}`);
    return { ...r, status, checks: own };
  });
  if (context.blockedByAuth) reasons.push("blocked by auth");
  return {
    verdict: reasons.length ? "NOT CONFORMANT" : "CONFORMANT",
    reasons,
    blockedByAuth: context.blockedByAuth,
    counts,
    requirements: results,
  };
}
