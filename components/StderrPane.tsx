"use client";
/**
 * The agent's stderr, as plain text: a pane under a page's views (watch, tap), or the playground's
 * side panel's stderr tab (`inPanel`: the panel gives it its height and title).
 */
import { useSession, useSessionStore } from "./state/use-session";
import { useStickToBottom } from "./use-stick-to-bottom";

export function StderrPane({ inPanel = false }: { inPanel?: boolean }) {
  const store = useSessionStore();
  const stderr = useSession((s) => s.stderr);
  const { ref, onScroll } = useStickToBottom<HTMLPreElement>([stderr]);
  return (
    <section
      className={`flex min-h-0 flex-col ${inPanel ? "h-full" : "h-44 shrink-0 border-t border-zinc-800"}`}
      aria-label="Agent stderr"
    >
      <header className="flex shrink-0 items-center gap-3 px-3 py-1.5 text-xs">
        {inPanel ? null : <h2 className="font-semibold uppercase tracking-wider text-zinc-400">stderr</h2>}
        <span className="text-zinc-500 tabular-nums">{stderr.length} chunks</span>
        <button
          type="button"
          data-testid="clear-stderr"
          onClick={() => store.clearStderr()}
          disabled={stderr.length === 0}
          className="ml-auto rounded px-2 py-0.5 text-zinc-400 hover:bg-zinc-800 hover:text-zinc-200 disabled:opacity-40"
        >
          Clear
        </button>
      </header>
      <pre
        ref={ref}
        onScroll={onScroll}
        data-testid="stderr-pane"
        // Reachable by keyboard, so its scrolled-away lines can be read without a mouse.
        tabIndex={0}
        className="min-h-0 flex-1 overflow-auto outline-none focus-visible:ring-2 focus-visible:ring-inset focus-visible:ring-sky-500 whitespace-pre-wrap break-all bg-zinc-950 px-3 pb-2 font-mono text-[11px] leading-snug text-zinc-400"
      >
        {stderr.map((e) => e.text).join("")}
      </pre>
    </section>
  );
}
