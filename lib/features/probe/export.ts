/**
 * Probe reports as files: JSON to keep and compare later, Markdown to paste
 * into an issue. `parseReport` checks an uploaded JSON before it is compared.
 */
import type { ProbeOutcome, ProbeReport, ProbeRow, VariantConformance } from "../../contracts/reports";
import { TIERS, type RequirementResult, type RequirementStatus } from "../../contracts/requirements";
import { isObject } from "../../protocol/json";

const OUTCOMES = new Set<ProbeOutcome>([
  "answered",
  "-32601",
  "error",
  "timeout",
  "no reply",
  "skipped",
  "not applicable",
  "inconclusive",
]);

/** A kept report in the list (GET /api/probes). */
export interface ProbeReportMeta {
  id: string;
  profile: string;
  agent?: { name?: string; version?: string };
  startedAt: string;
  durationMs: number;
  checks: number;
}

export const reportToJson = (report: ProbeReport): string => `${JSON.stringify(report, null, 2)}\n`;

/** Table cells: pipes and newlines would break the row. */
const cell = (s: string) => s.replace(/\\/g, "\\\\").replace(/\|/g, "\\|").replace(/\r?\n/g, " ");

export const conformsMark = (r: ProbeRow) => (r.conforms === undefined ? "" : r.conforms ? "✓" : "✗");

const STATUS_MARK: Record<RequirementStatus, string> = {
  pass: "✓",
  fail: "✗",
  skipped: "–",
  "not tested": "?",
  "not applicable": "n/a",
  "blocked by auth": "auth",
};
export const statusMark = (s: RequirementStatus) => STATUS_MARK[s];

/** `MANDATORY 18 pass, 1 fail · CAPABILITY 2 pass, 4 not applicable · …` (zero counts left out). */
export function tierCounts(part: VariantConformance): string {
  return TIERS.map((tier) => {
    const counts = Object.entries(part.counts[tier]).filter(([, n]) => n > 0);
    return counts.length ? `${tier} ${counts.map(([k, n]) => `${n} ${k}`).join(", ")}` : "";
  })
    .filter(Boolean)
    .join(" · ");
}

/** `VERDICT: NOT CONFORMANT (ACP-LOAD-001 fail)`, or undefined for a report from before verdicts. */
export function verdictLine(report: ProbeReport): string | undefined {
  const c = report.conformance;
  if (!c) return undefined;
  const reasons = c.parts.flatMap((p) => (p.decides ? p.reasons : []));
  return `VERDICT: ${c.verdict}${reasons.length ? ` (${reasons.join(", ")})` : ""}`;
}

/** What a requirement's checks saw, with the transcript frames that show it. */
export const evidence = (r: RequirementResult) =>
  r.checks.map((c) => `${c.detail}${c.frames?.length ? ` [frames ${c.frames.join(", ")}]` : ""}`).join("; ");

/** The requirements as text lines for the CLI: every failure and what decides the verdict first. */
export function requirementLines(report: ProbeReport): string[] {
  const c = report.conformance;
  if (!c) return [];
  return c.parts.flatMap((part) => [
    "",
    `${part.variant}: ${part.verdict}${part.decides ? "" : " (reported apart, does not decide the verdict)"} · ${tierCounts(part)}`,
    ...part.requirements.map(
      (r) =>
        `${statusMark(r.status).padEnd(4)} ${r.id.padEnd(28)} ${r.tier.padEnd(13)} ${r.status.padEnd(15)} ${r.title}${
          r.status === "fail" ? `\n       ${evidence(r)}\n       cites ${r.citation}` : ""
        }`,
    ),
  ]);
}

function requirementsMarkdown(report: ProbeReport): string[] {
  const c = report.conformance;
  if (!c) return [];
  const transcript = report.transcriptId ? ` (frames are seq numbers in transcript \`${report.transcriptId}\`)` : "";
  return [
    `**${verdictLine(report)}**`,
    "",
    ...c.parts.flatMap((part) => [
      `## ${part.variant}: ${part.verdict}${part.decides ? "" : " (reported apart, does not decide the verdict)"}`,
      "",
      tierCounts(part),
      "",
      `| | id | tier | status | requirement | citation | evidence${transcript} |`,
      "|---|---|---|---|---|---|---|",
      ...part.requirements.map(
        (r) =>
          `| ${statusMark(r.status)} | ${r.id} | ${r.tier} | ${r.status} | ${cell(r.title)} | ${cell(r.citation)} | ${cell(evidence(r))} |`,
      ),
      "",
    ]),
    "## Checks",
    "",
  ];
}

export function reportToMarkdown(report: ProbeReport): string {
  const agent = report.agent?.name
    ? ` (${report.agent.name}${report.agent.version ? ` ${report.agent.version}` : ""})`
    : "";
  const lines = [
    `# ACP probe: ${report.profile}${agent}`,
    "",
    `Started ${report.startedAt}, ${report.rows.length} checks in ${(report.durationMs / 1000).toFixed(1)} s.`,
    "",
    ...requirementsMarkdown(report),
    "| | check | method | requirements | outcome | latency | detail |",
    "|---|---|---|---|---|---:|---|",
    ...report.rows.map(
      (r) =>
        `| ${conformsMark(r)} | ${cell(r.check)} | ${r.method ? `\`${cell(r.method)}\`` : ""} | ${(r.requirements ?? []).join(", ")} | ${cell(r.outcome)} | ${r.latencyMs === undefined ? "" : `${r.latencyMs} ms`} | ${cell(r.detail)} |`,
    ),
  ];
  return `${lines.join("\n")}\n`;
}

/** `probe-gemini-2026-11-22T02-35-12.json` */
export function reportFileName(report: ProbeReport, ext: "json" | "md"): string {
  const name = report.profile.replace(/[^\w.-]+/g, "_");
  const when = report.startedAt.slice(0, 19).replace(/:/g, "-");
  return `probe-${name}-${when}.${ext}`;
}

/** A report read back from an exported JSON file; throws with what is wrong. */
export function parseReport(text: string): ProbeReport {
  let value: unknown;
  try {
    value = JSON.parse(text);
  } catch (err) {
    throw new Error(`not JSON: ${(err as Error).message}`);
  }
  if (!isObject(value)) throw new Error("a probe report is a JSON object");
  if (typeof value.profile !== "string") throw new Error("profile must be a string");
  if (typeof value.startedAt !== "string") throw new Error("startedAt must be a string");
  if (typeof value.durationMs !== "number") throw new Error("durationMs must be a number");
  if (!Array.isArray(value.rows)) throw new Error("rows must be an array");
  value.rows.forEach((r, i) => {
    if (
      !isObject(r) ||
      typeof r.check !== "string" ||
      typeof r.detail !== "string" ||
      !OUTCOMES.has(r.outcome as ProbeOutcome)
    ) {
      throw new Error(`rows[${i}] needs check, outcome and detail`);
    }
  });
  return value as unknown as ProbeReport;
}
