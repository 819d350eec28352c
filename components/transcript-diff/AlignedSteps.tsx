"use client";
/**
 * An alignment of two transcripts (lib/features/compare/transcript-align.ts) as rows:
 * each step of A beside its step of B, inserted, removed and changed steps
 * marked, with the fields that differ, timing and tokens per step. Runs of
 * identical steps are folded into one row, which opens on a click.
 */
import { Fragment, useState } from "react";
import type { AlignedRow, Step, TranscriptAlignment } from "@/lib/features/compare/transcript-align";
import { formatMs } from "@/lib/folds/waterfall";

const OP: Record<AlignedRow["op"], { text: string; style: string }> = {
  same: { text: "same", style: "text-zinc-500" },
  changed: { text: "changed", style: "bg-amber-500/15 text-amber-200" },
  removed: { text: "only in A", style: "bg-red-500/15 text-red-200" },
  inserted: { text: "only in B", style: "bg-emerald-500/15 text-emerald-200" },
};

/** Identical steps in a row beyond this are folded. */
const SAME_RUN = 4;
/** Rows rendered at first; the rest behind "show more". */
const PAGE = 500;

const show = (v: unknown) => (v === undefined ? "(absent)" : JSON.stringify(v, null, 2));

function tokensOf(s: Step): number | undefined {
  const u = s.usage;
  if (!u) return undefined;
  return (
    u.totalTokens ??
    (u.inputTokens !== undefined || u.outputTokens !== undefined
      ? (u.inputTokens ?? 0) + (u.outputTokens ?? 0)
      : undefined)
  );
}

function StepCell({ step, href }: { step?: Step; href?: (seq: number) => string }) {
  if (!step) return <td className="px-2 py-1 text-zinc-600">—</td>;
  const tokens = tokensOf(step);
  return (
    <td className="px-2 py-1 align-top">
      <div className="flex flex-wrap items-baseline gap-x-2">
        {href ? (
          <a href={href(step.seq)} className="font-mono text-sky-300 hover:underline" data-testid="step-seq">
            #{step.seq}
          </a>
        ) : (
          <span className="font-mono text-zinc-400">#{step.seq}</span>
        )}
        <span data-testid="step-label" className="font-mono text-zinc-100">
          {step.label}
        </span>
      </div>
      <div className="text-[10px] text-zinc-400 tabular-nums">
        at {formatMs(step.at)}
        {step.durationMs !== undefined ? (
          <span data-testid="step-duration"> · took {formatMs(step.durationMs)}</span>
        ) : null}
        {tokens !== undefined ? (
          <span data-testid="step-tokens"> · {tokens.toLocaleString("en-US")} tokens</span>
        ) : null}
      </div>
    </td>
  );
}

type Line = { row: AlignedRow; i: number } | { run: number; from: number; to: number };

/** Rows with runs of identical steps folded (unless opened). */
function lines(rows: AlignedRow[], open: ReadonlySet<number>): Line[] {
  const out: Line[] = [];
  for (let i = 0; i < rows.length;) {
    if (rows[i]!.op !== "same") {
      out.push({ row: rows[i]!, i });
      i++;
      continue;
    }
    let j = i;
    while (j < rows.length && rows[j]!.op === "same") j++;
    if (j - i > SAME_RUN && !open.has(i)) out.push({ run: j - i, from: i, to: j });
    else for (let k = i; k < j; k++) out.push({ row: rows[k]!, i: k });
    i = j;
  }
  return out;
}

export function AlignedSteps({
  alignment,
  hrefA,
  hrefB,
}: {
  alignment: TranscriptAlignment;
  hrefA?: (seq: number) => string;
  hrefB?: (seq: number) => string;
}) {
  const [open, setOpen] = useState<ReadonlySet<number>>(new Set());
  const [limit, setLimit] = useState(PAGE);
  const all = lines(alignment.rows, open);
  const shown = all.slice(0, limit);
  return (
    <div className="overflow-x-auto rounded-lg border border-zinc-800">
      <table data-testid="aligned-steps" className="w-full table-fixed border-collapse text-xs">
        <thead className="border-b border-zinc-800 bg-zinc-900/70 text-[10px] uppercase tracking-wider text-zinc-400">
          <tr>
            <th className="w-24 px-2 py-1.5 text-left font-medium">step</th>
            <th className="px-2 py-1.5 text-left font-medium">A</th>
            <th className="px-2 py-1.5 text-left font-medium">B</th>
          </tr>
        </thead>
        <tbody>
          {shown.map((line) => {
            if ("run" in line)
              return (
                <tr key={`run${line.from}`} className="border-b border-zinc-800/60">
                  <td colSpan={3} className="px-2 py-1">
                    <button
                      type="button"
                      data-testid="same-run"
                      className="text-zinc-400 hover:text-zinc-200 hover:underline"
                      onClick={() => setOpen((prev) => new Set(prev).add(line.from))}
                    >
                      {line.run} identical steps · show
                    </button>
                  </td>
                </tr>
              );
            const { row, i } = line;
            const a = row.a !== undefined ? alignment.a[row.a] : undefined;
            const b = row.b !== undefined ? alignment.b[row.b] : undefined;
            return (
              <Fragment key={i}>
                <tr data-testid="aligned-step" data-op={row.op} className="border-b border-zinc-800/60">
                  <td className="px-2 py-1 align-top">
                    <span className={`rounded px-1.5 py-px text-[10px] ${OP[row.op].style}`}>{OP[row.op].text}</span>
                  </td>
                  <StepCell step={a} href={hrefA} />
                  <StepCell step={b} href={hrefB} />
                </tr>
                {row.fields?.length ? (
                  <tr className="border-b border-zinc-800/60 bg-zinc-950/60">
                    <td />
                    <td colSpan={2} className="px-2 py-1">
                      <table className="w-full table-fixed border-collapse text-[11px]" data-testid="step-fields">
                        <tbody>
                          {row.fields.map((f, k) => (
                            <tr key={k} data-testid="step-field" data-path={f.path}>
                              <td className="w-48 truncate px-1 align-top font-mono text-zinc-300" title={f.path}>
                                {f.path || "(whole)"}
                              </td>
                              <td className="px-1 align-top">
                                <pre className="max-h-40 overflow-auto whitespace-pre-wrap break-all rounded bg-red-500/10 px-1 text-red-100">
                                  {show(f.recorded)}
                                </pre>
                              </td>
                              <td className="px-1 align-top">
                                <pre className="max-h-40 overflow-auto whitespace-pre-wrap break-all rounded bg-emerald-500/10 px-1 text-emerald-100">
                                  {show(f.actual)}
                                </pre>
                              </td>
                            </tr>
                          ))}
                          {row.moreFields ? (
                            <tr>
                              <td colSpan={3} className="px-1 text-zinc-400">
                                and {row.moreFields} more fields
                              </td>
                            </tr>
                          ) : null}
                        </tbody>
                      </table>
                    </td>
                  </tr>
                ) : null}
              </Fragment>
            );
          })}
        </tbody>
      </table>
      {all.length > limit ? (
        <button
          type="button"
          className="w-full px-3 py-2 text-xs text-sky-300 hover:bg-zinc-900"
          onClick={() => setLimit((l) => l + PAGE)}
        >
          Show more ({all.length - limit} rows left)
        </button>
      ) : null}
    </div>
  );
}
