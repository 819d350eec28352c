"use client";
/** Latency per method and direction (lib/folds/method-latency.ts); a method's max links to its slowest request. */
import type { MethodLatency } from "@/lib/contracts/library-search";
import { formatMs } from "@/lib/folds/waterfall";

const ms = (v: number | undefined) => (v === undefined ? "–" : formatMs(v));
const th = "px-2 py-1 text-right font-normal";
const td = "px-2 py-0.5 text-right tabular-nums";

export function LatencyTable({ rows, onShowFrame }: { rows: MethodLatency[]; onShowFrame?: (seq: number) => void }) {
  if (rows.length === 0) return <p className="text-zinc-400">No requests yet.</p>;
  return (
    <table data-testid="latency-table" className="w-full border-collapse font-mono text-[11px]">
      <thead className="text-zinc-400">
        <tr className="border-b border-zinc-800">
          <th className="px-2 py-1 text-left font-normal">method</th>
          <th className="px-2 py-1 text-left font-normal">direction</th>
          <th className={th}>count</th>
          <th className={th}>p50</th>
          <th className={th}>p95</th>
          <th className={th}>p99</th>
          <th className={th}>max</th>
          <th className={th}>errors</th>
          <th className={th}>unanswered</th>
        </tr>
      </thead>
      <tbody>
        {rows.map((r) => (
          <tr
            key={`${r.dir} ${r.method}`}
            data-testid="latency-row"
            data-method={r.method}
            data-dir={r.dir}
            className="border-b border-zinc-800/60"
          >
            <td className="px-2 py-0.5 text-zinc-100">{r.method}</td>
            <td className="px-2 py-0.5 text-zinc-400">{r.dir === "to-agent" ? "→ to agent" : "← from agent"}</td>
            <td className={td}>{r.requests}</td>
            <td className={td}>{ms(r.p50)}</td>
            <td className={td}>{ms(r.p95)}</td>
            <td className={td}>{ms(r.p99)}</td>
            <td className={td}>
              {r.max !== undefined && r.slowestSeq !== undefined && onShowFrame ? (
                <button
                  type="button"
                  data-testid="latency-slowest"
                  className="text-sky-300 hover:underline"
                  title={`Show the slowest request (#${r.slowestSeq})`}
                  onClick={() => onShowFrame(r.slowestSeq!)}
                >
                  {ms(r.max)}
                </button>
              ) : (
                ms(r.max)
              )}
            </td>
            <td className={`${td} ${r.errors ? "text-red-300" : ""}`}>{r.errors}</td>
            <td className={`${td} ${r.pending ? "text-amber-300" : ""}`}>{r.pending}</td>
          </tr>
        ))}
      </tbody>
    </table>
  );
}
