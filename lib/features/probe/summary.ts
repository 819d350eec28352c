/**
 * A probe report as people read it: one state (conformant, not conformant, or blocked by auth:
 * the agent wants a sign-in before it opens a session, so most of the protocol went untested,
 * which is no failure of the agent) and the requirement counts of the parts that decide, the same
 * figures wherever the report is summed up (the report's header, its tier summary, the profile's row).
 */
import type { ProbeReport } from "../../contracts/reports";

export type ProbeState = "conformant" | "not conformant" | "blocked by auth";

export interface ProbeSummary {
  state: ProbeState;
  /** What the page shows: CONFORMANT, NOT CONFORMANT, BLOCKED BY AUTH. */
  label: string;
  /** The failed requirements that decide (not "blocked by auth"). */
  failed: string[];
  pass: number;
  fail: number;
  blocked: number;
  /** What to do, for a blocked probe. */
  advice?: string;
}

const BLOCKED = "blocked by auth";

export const BLOCKED_ADVICE =
  "The agent asks for a sign-in before it opens a session, so the session and prompt requirements went untested. " +
  "Give the profile its credentials (an API key in the server's environment, or log in once with the agent's own " +
  "command), then probe again.";

/** Undefined for a report from before verdicts. */
export function probeSummary(report: Pick<ProbeReport, "conformance">): ProbeSummary | undefined {
  const c = report.conformance;
  if (!c) return undefined;
  const deciding = c.parts.filter((p) => p.decides);
  const failed = deciding.flatMap((p) => p.reasons.filter((r) => r !== BLOCKED));
  const statuses = deciding.flatMap((p) => p.requirements.map((r) => r.status));
  const count = (s: string) => statuses.filter((x) => x === s).length;
  const blocked = deciding.some((p) => p.blockedByAuth);
  const state: ProbeState = failed.length ? "not conformant" : blocked ? "blocked by auth" : "conformant";
  return {
    state,
    label: state.toUpperCase(),
    failed,
    pass: count("pass"),
    fail: count("fail"),
    blocked: count(BLOCKED),
    ...(state === "blocked by auth" ? { advice: BLOCKED_ADVICE } : {}),
  };
}

/** "12 pass · 0 fail · 4 blocked by auth": the deciding requirements' counts, zeros left out but pass and fail. */
export function summaryCounts(s: ProbeSummary): string {
  return [`${s.pass} pass`, `${s.fail} fail`, ...(s.blocked ? [`${s.blocked} ${BLOCKED}`] : [])].join(" · ");
}
