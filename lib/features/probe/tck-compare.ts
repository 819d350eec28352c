/**
 * The ACP test kit's verdict beside the probe's, requirement by requirement
 * (scripts/tck-compare.ts runs both on the pinned agents; docs/conformance.md shows the table).
 * The kit's JSON report (acp-tck `--report-json`) is read as hostile input: only what is
 * needed, checked.
 */
import type { ProbeReport } from "../../contracts/reports";
import type { RequirementResult, RequirementStatus, Verdict } from "../../contracts/requirements";
import { isObject } from "../../protocol/json";

/** A status on either side, in the kit's words: not applicable and blocked by auth are the kit's SKIPPED. */
export type KitStatus = "PASS" | "FAIL" | "SKIPPED" | "NOT_TESTED";

export interface KitReport {
  verdict: Verdict;
  agent?: { name?: string; version?: string };
  requirements: Array<{ id: string; tier: string; status: KitStatus; message?: string }>;
}

const KIT_STATUSES = new Set<string>(["PASS", "FAIL", "SKIPPED", "NOT_TESTED"]);

/** The parts of the kit's `--report-json` the comparison needs; an error for anything else. */
export function parseKitReport(json: unknown): KitReport {
  if (!isObject(json) || !Array.isArray(json.requirements) || !isObject(json.verdict))
    throw new Error("not an acp-tck report: no requirements array or verdict");
  const requirements = (json.requirements as unknown[]).map((r, i) => {
    if (!isObject(r) || typeof r.id !== "string" || typeof r.status !== "string" || !KIT_STATUSES.has(r.status))
      throw new Error(`acp-tck report: requirement ${i} has no id or a status the kit does not use`);
    const tests: unknown[] = Array.isArray(r.tests) ? r.tests : [];
    const failed = tests.find((t) => isObject(t) && t.status === "FAIL");
    const text = isObject(failed) && typeof failed.message === "string" ? failed.message : undefined;
    // pytest's report: the test's source, then the assertion's "E   ..." lines, which say why.
    const why = text?.split("\n").find((l) => /^E\s+\S/.test(l));
    const message = why ? why.replace(/^E\s+/, "") : text;
    return {
      id: r.id,
      tier: typeof r.tier === "string" ? r.tier : "?",
      status: r.status as KitStatus,
      ...(message ? { message: message.slice(0, 300) } : {}),
    };
  });
  const info = isObject(json.agent_info) ? json.agent_info : undefined;
  return {
    verdict: json.verdict.conformant === true ? "CONFORMANT" : "NOT CONFORMANT",
    ...(info
      ? {
          agent: {
            ...(typeof info.name === "string" ? { name: info.name } : {}),
            ...(typeof info.version === "string" ? { version: info.version } : {}),
          },
        }
      : {}),
    requirements,
  };
}

/** The probe's status in the kit's words. */
export function kitStatusOf(status: RequirementStatus): KitStatus {
  switch (status) {
    case "pass":
      return "PASS";
    case "fail":
      return "FAIL";
    case "not tested":
      return "NOT_TESTED";
    default:
      return "SKIPPED";
  }
}

/**
 * `agree`: the same status. `disagree`: exactly one side fails (what docs/conformance.md must
 * argue). `coverage`: one side passed what the other skipped or did not test.
 */
export type Agreement = "agree" | "disagree" | "coverage";

export interface ComparedRequirement {
  /** The kit's id. */
  id: string;
  tier: string;
  kit: KitStatus;
  probe?: KitStatus;
  /** The probe's requirement, where its id is not the kit's (PG-LOAD-002 for ACP-LOAD-002). */
  probeId?: string;
  agreement: Agreement;
  kitMessage?: string;
  probeDetail?: string;
}

export interface AgentComparison {
  agent: string;
  kitVerdict: KitReport["verdict"];
  probeVerdict: Verdict;
  requirements: ComparedRequirement[];
}

function agreementOf(kit: KitStatus, probe: KitStatus | undefined): Agreement {
  if (probe === kit) return "agree";
  if (kit === "FAIL" || probe === "FAIL") return "disagree";
  return "coverage";
}

/** Each kit requirement beside the probe's verdict on it (its own id, or the PG- one that names it). */
export function compareWithKit(
  agent: string,
  kit: KitReport,
  probe: Pick<ProbeReport, "conformance">,
): AgentComparison {
  const mine: RequirementResult[] = (probe.conformance?.parts ?? []).flatMap((p) => p.requirements);
  const requirements = kit.requirements.map((k): ComparedRequirement => {
    const r = mine.find((x) => x.id === k.id) ?? mine.find((x) => x.kit === k.id);
    const status = r ? kitStatusOf(r.status) : undefined;
    const failing = r?.checks.find((c) => c.status === "fail") ?? r?.checks[0];
    return {
      id: k.id,
      tier: k.tier,
      kit: k.status,
      ...(status ? { probe: status } : {}),
      ...(r && r.id !== k.id ? { probeId: r.id } : {}),
      agreement: agreementOf(k.status, status),
      ...(k.message ? { kitMessage: k.message } : {}),
      ...(failing ? { probeDetail: failing.detail } : {}),
    };
  });
  return {
    agent,
    kitVerdict: kit.verdict,
    probeVerdict: probe.conformance?.verdict ?? "NOT CONFORMANT",
    requirements,
  };
}

const cell = (s: string) => s.replace(/\|/g, "\\|").replace(/\s+/g, " ");

/** The table for docs/conformance.md: one line per agent, then every requirement on which they differ. */
export function comparisonMarkdown(comparisons: readonly AgentComparison[]): string {
  const count = (c: AgentComparison, a: Agreement) => c.requirements.filter((r) => r.agreement === a).length;
  const lines = [
    "| agent | the kit | the probe | same status | one side fails | one side not exercised |",
    "| --- | --- | --- | --- | --- | --- |",
    ...comparisons.map(
      (c) =>
        `| ${cell(c.agent)} | ${c.kitVerdict} | ${c.probeVerdict} | ${count(c, "agree")} of ${c.requirements.length} | ${count(c, "disagree")} | ${count(c, "coverage")} |`,
    ),
    "",
    "| agent | requirement | tier | the kit | the probe | |",
    "| --- | --- | --- | --- | --- | --- |",
  ];
  for (const c of comparisons)
    for (const r of c.requirements.filter((x) => x.agreement !== "agree")) {
      const why = cell((r.kit === "FAIL" ? r.kitMessage : r.probeDetail) ?? "").slice(0, 160);
      const what = r.agreement === "disagree" ? "one side fails" : "one side not exercised";
      lines.push(
        `| ${cell(c.agent)} | ${r.id}${r.probeId ? ` (${r.probeId})` : ""} | ${r.tier} | ${r.kit} | ${r.probe ?? "none"} | ${why ? `${what}: ${why}` : what} |`,
      );
    }
  return `${lines.join("\n")}\n`;
}
