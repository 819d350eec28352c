"use client";
/**
 * The re-run's structural diff: one card per step that differs, naming the
 * fields and showing the recorded and live values side by side (wrapped, as
 * text, never markup). The unified patch stays available underneath.
 */
import type { DiffChange } from "@/lib/contracts/reports";
import { DiffView } from "./DiffView";

const KIND: Record<DiffChange["kind"], { text: string; style: string }> = {
  changed: { text: "changed", style: "bg-amber-500/15 text-amber-200" },
  missing: { text: "only in the recording", style: "bg-red-500/15 text-red-200" },
  new: { text: "only in the re-run", style: "bg-emerald-500/15 text-emerald-200" },
};

const show = (v: unknown) => (v === undefined ? "(absent)" : JSON.stringify(v, null, 2));

function Value({ value, side }: { value: unknown; side: "recorded" | "actual" }) {
  return (
    <pre
      data-testid={`diff-${side}`}
      className={`max-h-64 overflow-auto whitespace-pre-wrap break-all rounded px-2 py-1 font-mono text-[11px] leading-snug ${
        value === undefined
          ? "italic text-zinc-400"
          : side === "recorded"
            ? "bg-red-500/10 text-red-100"
            : "bg-emerald-500/10 text-emerald-100"
      }`}
    >
      {show(value)}
    </pre>
  );
}

export function RerunDiff({ changes, patch }: { changes?: DiffChange[]; patch: string }) {
  // A relay from before the structural diff sends only the patch.
  if (!changes) return <DiffView patch={patch} />;
  return (
    <div className="flex flex-col gap-2">
      <ol data-testid="rerun-structural-diff" className="flex flex-col gap-2" aria-label="Differences, step by step">
        {changes.map((c, i) => (
          <li
            key={i}
            data-testid="diff-step"
            data-kind={c.kind}
            className="rounded border border-zinc-800 bg-zinc-950/60 p-2"
          >
            <div className="mb-1 flex flex-wrap items-baseline gap-2">
              <span className={`rounded px-1.5 py-px text-[10px] ${KIND[c.kind].style}`}>{KIND[c.kind].text}</span>
              <span data-testid="diff-step-label" className="font-mono text-[11px] text-zinc-100">
                {c.label}
              </span>
              <span className="text-[10px] text-zinc-400">
                {c.recordedIndex !== undefined ? `recorded #${c.recordedIndex + 1}` : ""}
                {c.recordedIndex !== undefined && c.actualIndex !== undefined ? " · " : ""}
                {c.actualIndex !== undefined ? `re-run #${c.actualIndex + 1}` : ""}
              </span>
            </div>
            <table className="w-full table-fixed border-collapse text-[11px]">
              <thead className="sr-only">
                <tr>
                  <th>field</th>
                  <th>recorded</th>
                  <th>re-run</th>
                </tr>
              </thead>
              <tbody>
                {c.fields.map((f, j) => (
                  <tr key={j} data-testid="diff-field" data-path={f.path} className="align-top">
                    <td className="w-48 break-all py-0.5 pr-2 font-mono text-zinc-300">{f.path || "(whole entry)"}</td>
                    <td className="py-0.5 pr-1">
                      <Value value={f.recorded} side="recorded" />
                    </td>
                    <td className="py-0.5">
                      <Value value={f.actual} side="actual" />
                    </td>
                  </tr>
                ))}
              </tbody>
            </table>
            {c.moreFields ? <p className="mt-1 text-[10px] text-zinc-400">and {c.moreFields} more fields</p> : null}
          </li>
        ))}
      </ol>
      <details className="text-[11px]">
        <summary className="cursor-pointer text-zinc-300">Unified diff of the normalised entries</summary>
        <DiffView patch={patch} />
      </details>
    </div>
  );
}
