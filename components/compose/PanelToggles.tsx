"use client";
/**
 * The tools that open as a side panel when wanted (docs/design.md#layout): compose (forms), raw (the
 * frame editor), sessions (when the agent lists them), stderr. The toggles sit at the end of the view
 * bar; pressing the open one closes the panel. "none" is the closed panel.
 */

export const PANEL_TABS = ["compose", "raw", "sessions", "stderr"] as const;
export type PanelTab = (typeof PANEL_TABS)[number];
export const PANEL_STATES = [...PANEL_TABS, "none"] as const;
export type PanelState = (typeof PANEL_STATES)[number];

export const PANEL_LABEL: Record<PanelTab, string> = {
  compose: "Compose",
  raw: "Raw",
  sessions: "Sessions",
  stderr: "stderr",
};

export function PanelToggles({
  open,
  onChange,
  hidden = [],
  counts = {},
}: {
  open: PanelState;
  onChange: (tab: PanelState) => void;
  /** Panels not offered now (sessions, while the agent does not advertise listing). */
  hidden?: readonly PanelTab[];
  /** What waits in a closed panel, shown on its toggle (stderr's chunks). */
  counts?: Partial<Record<PanelTab, number>>;
}) {
  return (
    <div role="group" aria-label="Panels" className="ml-auto flex items-center gap-0.5 self-center">
      {PANEL_TABS.filter((t) => t === open || !hidden.includes(t)).map((t) => (
        <button
          key={t}
          type="button"
          aria-pressed={open === t}
          aria-controls={open === t ? "tool-panel" : undefined}
          data-testid={`column-tab-${t}`}
          onClick={() => onChange(open === t ? "none" : t)}
          title={open === t ? `Close the ${PANEL_LABEL[t]} panel` : `Open the ${PANEL_LABEL[t]} panel`}
          className={`rounded px-2 py-0.5 text-xs ${
            open === t
              ? "bg-sky-500/15 text-sky-200 ring-1 ring-inset ring-sky-600"
              : "text-zinc-400 hover:bg-zinc-800 hover:text-zinc-200"
          }`}
        >
          {PANEL_LABEL[t]}
          {counts[t] ? (
            <span data-testid={`panel-count-${t}`} className="ml-1 tabular-nums text-zinc-500">
              {counts[t]}
            </span>
          ) : null}
        </button>
      ))}
    </div>
  );
}
