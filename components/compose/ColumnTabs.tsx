"use client";
/** The left column's tabs: prompt (after Connect), compose (forms), raw (the frame editor). */

export const COLUMN_TABS = ["prompt", "compose", "raw"] as const;
export type ColumnTab = (typeof COLUMN_TABS)[number];

const LABEL: Record<ColumnTab, string> = { prompt: "Connect / Prompt", compose: "Compose", raw: "Raw" };

export function ColumnTabs({ active, onChange }: { active: ColumnTab; onChange: (tab: ColumnTab) => void }) {
  return (
    <div role="tablist" aria-label="Left column" className="flex border-b border-zinc-800 px-2">
      {COLUMN_TABS.map((t) => (
        <button
          key={t}
          type="button"
          role="tab"
          aria-selected={active === t}
          data-testid={`column-tab-${t}`}
          onClick={() => onChange(t)}
          className={`-mb-px border-b-2 px-2.5 py-1.5 text-xs ${
            active === t ? "border-sky-500 text-sky-200" : "border-transparent text-zinc-500 hover:text-zinc-300"
          }`}
        >
          {LABEL[t]}
        </button>
      ))}
    </div>
  );
}
