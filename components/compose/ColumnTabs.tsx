"use client";
/**
 * The left column's tabs: prompt (after Connect), sessions (when the agent lists them), compose (forms),
 * raw (the frame editor).
 */

export const COLUMN_TABS = ["prompt", "sessions", "compose", "raw"] as const;
export type ColumnTab = (typeof COLUMN_TABS)[number];

const LABEL: Record<ColumnTab, string> = {
  prompt: "Connect / Prompt",
  sessions: "Sessions",
  compose: "Compose",
  raw: "Raw",
};

export function ColumnTabs({
  active,
  onChange,
  hidden = [],
}: {
  active: ColumnTab;
  onChange: (tab: ColumnTab) => void;
  /** Tabs not offered now (sessions, while the agent does not advertise listing). */
  hidden?: readonly ColumnTab[];
}) {
  return (
    <div role="tablist" aria-label="Left column" className="flex border-b border-zinc-800 px-2">
      {COLUMN_TABS.filter((t) => t === active || !hidden.includes(t)).map((t) => (
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
