/** Small inline icons for tool kinds (SVG: no emoji font needed). */
import type { ToolKind } from "@agentclientprotocol/sdk";

const PATHS: Record<ToolKind, string> = {
  edit: "M3 13l1-4 7-7 3 3-7 7-4 1z M9 4l3 3",
  read: "M2 3h5a2 2 0 012 2v9a2 2 0 00-2-2H2z M14 3H9a2 2 0 00-2 2v9a2 2 0 012-2h5z",
  execute: "M2 3h12v10H2z M4 6l2 2-2 2 M8 10h3",
  search: "M7 3a4 4 0 110 8 4 4 0 010-8z M10 10l4 4",
  fetch: "M8 2a6 6 0 110 12A6 6 0 018 2z M2 8h12 M8 2c2 2 2 10 0 12 M8 2c-2 2-2 10 0 12",
  think: "M8 2a4 4 0 00-2 7.5V11h4V9.5A4 4 0 008 2z M6 13h4",
  delete: "M3 4h10 M6 4V2h4v2 M4 4l1 10h6l1-10",
  move: "M2 8h12 M11 5l3 3-3 3 M5 5L2 8l3 3",
  switch_mode: "M3 5h9l-2-2 M13 11H4l2 2",
  other: "M8 5a3 3 0 110 6 3 3 0 010-6z M8 1v2 M8 13v2 M1 8h2 M13 8h2",
};

export function KindIcon({ kind }: { kind: string | undefined }) {
  const k = (kind && kind in PATHS ? kind : "other") as ToolKind;
  return (
    <svg
      data-testid="tool-kind"
      data-kind={k}
      viewBox="0 0 16 16"
      className="h-3.5 w-3.5 shrink-0 text-zinc-400"
      fill="none"
      stroke="currentColor"
      strokeWidth="1.4"
      strokeLinecap="round"
      strokeLinejoin="round"
      role="img"
      aria-label={k}
    >
      <title>{k}</title>
      <path d={PATHS[k]} />
    </svg>
  );
}
