"use client";
/** Insights (lib/features/library/insights.ts) as a list; each item's link selects its first frame. */
import type { Insight, InsightSeverity } from "@/lib/features/library/insights";

const SEVERITY: Record<InsightSeverity, string> = {
  error: "border-red-500/40 bg-red-500/5",
  warning: "border-amber-500/40 bg-amber-500/5",
  info: "border-zinc-700 bg-zinc-900/40",
};

const BADGE: Record<InsightSeverity, string> = {
  error: "bg-red-500/15 text-red-300",
  warning: "bg-amber-500/15 text-amber-300",
  info: "bg-sky-500/10 text-sky-300",
};

export function InsightList({ insights, onShowFrame }: { insights: Insight[]; onShowFrame?: (seq: number) => void }) {
  if (insights.length === 0)
    return (
      <p data-testid="insights-empty" className="text-zinc-400">
        Nothing stands out yet.
      </p>
    );
  return (
    <ul className="flex flex-col gap-2" aria-label="Insights">
      {insights.map((insight) => (
        <li
          key={insight.kind}
          data-testid="insight"
          data-kind={insight.kind}
          className={`rounded border p-2 ${SEVERITY[insight.severity]}`}
        >
          <div className="mb-1 flex items-baseline gap-2">
            <span className={`rounded px-1.5 py-px text-[10px] uppercase ${BADGE[insight.severity]}`}>
              {insight.severity}
            </span>
            <h3 className="font-medium text-zinc-100">{insight.title}</h3>
            {insight.more > 0 ? <span className="text-zinc-500">and {insight.more} more</span> : null}
          </div>
          <ul className="flex flex-col gap-0.5">
            {insight.items.map((item, i) => (
              <li key={i} data-testid="insight-item" className="flex flex-wrap items-baseline gap-x-2">
                {onShowFrame ? (
                  <button
                    type="button"
                    data-testid="insight-link"
                    data-seq={item.seqs[0]}
                    className="font-mono text-sky-300 hover:underline"
                    title={`Show frame #${item.seqs[0]} in the Frames view`}
                    onClick={() => onShowFrame(item.seqs[0]!)}
                  >
                    {item.label}
                  </button>
                ) : (
                  <span className="font-mono text-zinc-200">{item.label}</span>
                )}
                {item.detail ? <span className="text-zinc-400">{item.detail}</span> : null}
              </li>
            ))}
          </ul>
        </li>
      ))}
    </ul>
  );
}
