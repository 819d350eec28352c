"use client";
/** The protocol matrix: the reports of one "probe several" run side by side, exportable. */
import { useMemo } from "react";
import type { ProbeReport } from "@/lib/contracts/reports";
import { buildMatrix, matrixToJson, matrixToMarkdown } from "@/lib/features/probe/matrix";
import { saveFile } from "../transcripts/save-file";

const cellTone = (text: string) =>
  text === "NOT CONFORMANT"
    ? "font-semibold text-red-300"
    : text === "CONFORMANT"
      ? "font-semibold text-emerald-300"
      : text.startsWith("✓") || text === "supported"
        ? "text-emerald-300"
        : text.startsWith("✗") || text === "not found"
          ? "text-red-300"
          : text === "auth required" || text === "BLOCKED BY AUTH"
            ? "text-amber-300"
            : "text-zinc-300";

export function ProbeMatrixView({ reports }: { reports: ProbeReport[] }) {
  const matrix = useMemo(() => buildMatrix(reports), [reports]);
  const stamp = reports[0]?.startedAt.slice(0, 19).replace(/:/g, "-") ?? "";
  return (
    <section data-testid="probe-matrix" aria-label="Protocol matrix" className="flex flex-col gap-2 text-xs">
      <div className="flex items-center gap-2">
        <h2 className="text-xs font-semibold uppercase tracking-wider text-zinc-400">Protocol matrix</h2>
        <button
          type="button"
          data-testid="matrix-export-md"
          onClick={() => saveFile(matrixToMarkdown(matrix), `protocol-matrix-${stamp}.md`, "text/markdown")}
          className="rounded border border-zinc-700 px-2 py-0.5 text-zinc-200 hover:bg-zinc-800"
        >
          Markdown
        </button>
        <button
          type="button"
          data-testid="matrix-export-json"
          onClick={() => saveFile(matrixToJson(reports), `protocol-matrix-${stamp}.json`, "application/json")}
          className="rounded border border-zinc-700 px-2 py-0.5 text-zinc-200 hover:bg-zinc-800"
        >
          JSON
        </button>
      </div>
      <div className="overflow-x-auto rounded-lg border border-zinc-800">
        <table data-testid="matrix-table" className="w-full border-collapse font-mono text-[11px]">
          <thead className="border-b border-zinc-800 bg-zinc-900/70 text-zinc-400">
            <tr>
              <th className="px-2 py-1 text-left font-sans font-medium" />
              {matrix.columns.map((c) => (
                <th key={c} className="px-2 py-1 text-left font-medium">
                  {c}
                </th>
              ))}
            </tr>
          </thead>
          <tbody>
            {matrix.rows.map((r) => (
              <tr
                key={r.label}
                data-testid="matrix-row"
                data-label={r.label}
                className="border-b border-zinc-800/60 align-top"
              >
                <td className="px-2 py-0.5 font-sans text-zinc-300">{r.label}</td>
                {r.cells.map((c, i) => (
                  <td key={i} className={`break-all px-2 py-0.5 ${cellTone(c)}`}>
                    {c}
                  </td>
                ))}
              </tr>
            ))}
          </tbody>
        </table>
      </div>
    </section>
  );
}
