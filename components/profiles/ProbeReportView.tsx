"use client";
/** One probe report as a table, with JSON and Markdown export. */
import type { ProbeReport } from "@/lib/contracts/reports";
import {
  conformsMark,
  reportFileName,
  reportToJson,
  reportToMarkdown,
  statusMark,
  tierCounts,
} from "@/lib/features/probe/export";
import { probeSummary, summaryCounts, type ProbeState } from "@/lib/features/probe/summary";
import { RequirementTable } from "./RequirementTable";
import { saveFile } from "../transcripts/save-file";

const OUTCOME: Record<string, string> = {
  answered: "text-emerald-300",
  "-32601": "text-zinc-300",
  error: "text-red-300",
  timeout: "text-amber-300",
  "no reply": "text-zinc-400",
  skipped: "text-zinc-400",
};

export const STATE_COLOUR: Record<ProbeState, string> = {
  conformant: "text-emerald-300",
  "not conformant": "text-red-300",
  "blocked by auth": "text-amber-300",
};

const button = "rounded border border-zinc-700 px-2 py-0.5 text-xs text-zinc-200 hover:bg-zinc-800";

export function ProbeReportView({ report }: { report: ProbeReport }) {
  const summary = probeSummary(report);
  // Reports from before verdicts have only their checks to count.
  const passed = report.rows.filter((r) => r.conforms === true).length;
  const failed = report.rows.filter((r) => r.conforms === false).length;
  return (
    <section
      data-testid="probe-report"
      data-profile={report.profile}
      id="probe-report"
      aria-label="Probe report"
      className="flex flex-col gap-2 text-xs"
    >
      <div className="flex flex-wrap items-baseline gap-3">
        <h3 className="text-sm font-semibold text-zinc-100">
          Probe of <code>{report.profile}</code>
          {report.agent?.name ? (
            <span className="ml-2 font-normal text-zinc-400">{`${report.agent.name} ${report.agent.version ?? ""}`}</span>
          ) : null}
        </h3>
        <span data-testid="probe-counts" className="text-zinc-400">
          {report.rows.length} checks in {(report.durationMs / 1000).toFixed(1)} s ·{" "}
          {summary ? (
            <span>requirements that decide: {summaryCounts(summary)}</span>
          ) : (
            <>
              <span className="text-emerald-300">{passed} ✓</span> ·{" "}
              <span className={failed ? "text-red-300" : "text-zinc-400"}>{failed} ✗</span>
            </>
          )}
        </span>
        <div className="ml-auto flex gap-1">
          <button
            type="button"
            data-testid="export-json"
            className={button}
            onClick={() => saveFile(reportToJson(report), reportFileName(report, "json"), "application/json")}
          >
            Export JSON
          </button>
          <button
            type="button"
            data-testid="export-md"
            className={button}
            onClick={() => saveFile(reportToMarkdown(report), reportFileName(report, "md"), "text/markdown")}
          >
            Export Markdown
          </button>
        </div>
      </div>
      {report.conformance && summary ? (
        <div className="flex flex-col gap-2">
          <p
            data-testid="probe-verdict"
            data-verdict={report.conformance.verdict}
            data-state={summary.state}
            className={`text-sm font-semibold ${STATE_COLOUR[summary.state]}`}
          >
            {summary.label}
            <span className="ml-2 font-normal text-zinc-400">{summary.failed.join(", ")}</span>
          </p>
          {summary.advice ? (
            <p data-testid="probe-advice" className="text-zinc-300">
              {summary.advice}
            </p>
          ) : null}
          {report.conformance.parts.map((part) => (
            <details key={part.variant} open={part.decides} data-testid="conformance-part" data-variant={part.variant}>
              <summary className="cursor-pointer text-zinc-300">
                <span className="font-medium text-zinc-100">{part.variant}</span>{" "}
                {part.verdict === "NOT CONFORMANT" && part.reasons.every((r) => r === "blocked by auth") ? (
                  <span className={STATE_COLOUR["blocked by auth"]}>BLOCKED BY AUTH</span>
                ) : (
                  <span className={part.verdict === "CONFORMANT" ? "text-emerald-300" : "text-red-300"}>
                    {statusMark(part.verdict === "CONFORMANT" ? "pass" : "fail")} {part.verdict}
                  </span>
                )}
                {part.decides ? "" : " (reported apart, does not decide the verdict)"} · {tierCounts(part)}
              </summary>
              <RequirementTable requirements={part.requirements} transcriptId={report.transcriptId} />
            </details>
          ))}
        </div>
      ) : null}
      <div className="overflow-x-auto rounded-lg border border-zinc-800">
        <table className="w-full border-collapse font-mono text-[11px]">
          <thead className="border-b border-zinc-800 bg-zinc-900/70 text-left text-[10px] uppercase tracking-wider text-zinc-400">
            <tr>
              <th className="w-6 px-2 py-1 font-medium" title="conforms to the protocol" />
              <th className="px-2 py-1 font-medium">check</th>
              <th className="px-2 py-1 font-medium">method</th>
              <th className="px-2 py-1 font-medium">requirements</th>
              <th className="px-2 py-1 font-medium">outcome</th>
              <th className="px-2 py-1 text-right font-medium">latency</th>
              <th className="px-2 py-1 font-medium">detail</th>
            </tr>
          </thead>
          <tbody>
            {report.rows.map((r, i) => (
              <tr
                key={i}
                data-testid="probe-row"
                data-check={r.check}
                data-outcome={r.outcome}
                data-conforms={r.conforms === undefined ? "" : String(r.conforms)}
                className="border-b border-zinc-800/60 align-top"
              >
                <td className={`px-2 py-0.5 ${r.conforms ? "text-emerald-300" : "text-red-300"}`}>{conformsMark(r)}</td>
                <td className="px-2 py-0.5 font-sans text-zinc-100">{r.check}</td>
                <td className="px-2 py-0.5 text-zinc-400">{r.method ?? ""}</td>
                <td className="px-2 py-0.5 text-zinc-400">{(r.requirements ?? []).join(", ")}</td>
                <td className={`px-2 py-0.5 ${OUTCOME[r.outcome] ?? ""}`}>{r.outcome}</td>
                <td className="px-2 py-0.5 text-right text-zinc-400 tabular-nums">
                  {r.latencyMs === undefined ? "" : `${r.latencyMs} ms`}
                </td>
                <td className="break-all px-2 py-0.5 text-zinc-400">{r.detail}</td>
              </tr>
            ))}
          </tbody>
        </table>
      </div>
    </section>
  );
}
