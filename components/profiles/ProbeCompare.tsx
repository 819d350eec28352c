"use client";
/**
 * Two probe reports side by side, by check; rows that really differ are highlighted with what
 * differs (values that change on every run, such as ids, UUIDs and timings, are ignored).
 */
import { useMemo } from "react";
import { compareReports } from "@/lib/features/probe/probe";
import { type ProbeRow } from "@/lib/contracts/reports";
import { conformsMark } from "@/lib/features/probe/export";
import type { ReportEntry } from "./use-probe-reports";

interface Props {
  entries: ReportEntry[];
  a?: string;
  b?: string;
  onPick: (side: "a" | "b", key: string) => void;
  onUpload: (file: File) => void;
  uploadError?: string;
}

const select =
  "max-w-80 rounded border border-zinc-700 bg-zinc-900 px-1.5 py-0.5 text-xs text-zinc-100 focus:border-sky-500 focus:outline-none";

function Cell({ row }: { row?: ProbeRow }) {
  if (!row)
    return (
      <td className="px-2 py-0.5 text-zinc-400" colSpan={2}>
        not in this report
      </td>
    );
  return (
    <>
      <td className="px-2 py-0.5 whitespace-nowrap">
        <span className={row.conforms ? "text-emerald-300" : "text-red-300"}>{conformsMark(row)}</span> {row.outcome}
        {row.latencyMs !== undefined ? <span className="ml-1 text-zinc-400">{row.latencyMs} ms</span> : null}
      </td>
      <td className="break-all px-2 py-0.5 text-zinc-400">{row.detail}</td>
    </>
  );
}

export function ProbeCompare({ entries, a, b, onPick, onUpload, uploadError }: Props) {
  const left = entries.find((e) => e.key === a);
  const right = entries.find((e) => e.key === b);
  const rows = useMemo(() => (left && right ? compareReports(left.report, right.report) : []), [left, right]);
  const differing = rows.filter((r) => !r.same).length;

  const picker = (side: "a" | "b", value: string | undefined) => (
    <select
      data-testid={`compare-${side}`}
      aria-label={`Report ${side.toUpperCase()}`}
      className={select}
      value={value ?? ""}
      onChange={(e) => onPick(side, e.target.value)}
    >
      <option value="">choose a report…</option>
      {entries.map((e) => (
        <option key={e.key} value={e.key}>
          {e.label}
        </option>
      ))}
    </select>
  );

  return (
    <section data-testid="probe-compare" aria-label="Diff two probe reports" className="flex flex-col gap-2 text-xs">
      <div className="flex flex-wrap items-center gap-2">
        <h3 className="text-xs font-semibold uppercase tracking-wider text-zinc-400">Report diff</h3>
        <span className="text-zinc-400">A</span>
        {picker("a", a)}
        <span className="text-zinc-400">B</span>
        {picker("b", b)}
        <label className="cursor-pointer text-sky-400 hover:underline">
          upload an exported JSON
          <input
            type="file"
            data-testid="compare-upload"
            accept=".json,application/json"
            className="sr-only"
            onChange={(e) => {
              const file = e.target.files?.[0];
              e.target.value = "";
              if (file) onUpload(file);
            }}
          />
        </label>
        {left && right ? (
          <span data-testid="compare-summary" className={differing ? "text-amber-300" : "text-emerald-300"}>
            {differing ? `${differing} of ${rows.length} checks differ` : "identical outcomes"}
          </span>
        ) : null}
      </div>
      {uploadError ? (
        <p data-testid="compare-upload-error" role="alert" className="text-red-300">
          {uploadError}
        </p>
      ) : null}
      {left && right ? (
        <div className="overflow-x-auto rounded-lg border border-zinc-800">
          <table data-testid="compare-table" className="w-full border-collapse font-mono text-[11px]">
            <thead className="border-b border-zinc-800 bg-zinc-900/70 text-left text-[10px] uppercase tracking-wider text-zinc-400">
              <tr>
                <th className="px-2 py-1 font-medium">check</th>
                <th className="px-2 py-1 font-medium" colSpan={2}>
                  A · {left.label}
                </th>
                <th className="px-2 py-1 font-medium" colSpan={2}>
                  B · {right.label}
                </th>
              </tr>
            </thead>
            <tbody>
              {rows.map((r) => (
                <tr
                  key={r.check}
                  data-testid="compare-row"
                  data-same={r.same}
                  className={`border-b border-zinc-800/60 align-top ${r.same ? "" : "bg-amber-500/10"}`}
                >
                  <td className={`px-2 py-0.5 font-sans ${r.same ? "text-zinc-300" : "text-amber-200"}`}>
                    {r.check}
                    {r.same ? null : (
                      <div data-testid="compare-differs" className="text-[10px] text-amber-300/80">
                        differs: {r.differs.join(", ")}
                      </div>
                    )}
                  </td>
                  <Cell row={r.a} />
                  <Cell row={r.b} />
                </tr>
              ))}
            </tbody>
          </table>
        </div>
      ) : (
        <p className="text-zinc-400">Pick two reports: probes run on this page, or exported JSON files.</p>
      )}
    </section>
  );
}
