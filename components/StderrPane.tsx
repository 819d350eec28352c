"use client";
/** The agent's stderr, as plain text. */
import { useSession, useSessionStore } from "./state/use-session";
import { useStickToBottom } from "./use-stick-to-bottom";

export function StderrPane() {
  const store = useSessionStore();
  const stderr = useSession((s) => s.stderr);
  const { ref, onScroll } = useStickToBottom<HTMLPreElement>([stderr]);
  return (
    <section className="flex h-44 shrink-0 flex-col border-t border-zinc-800" aria-label="Agent stderr">
      <header className="flex items-center gap-3 px-3 py-1.5 text-xs">
        <h2 className="font-semibold uppercase tracking-wider text-zinc-400">stderr</h2>
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
        className="min-h-0 flex-1 overflow-auto whitespace-pre-wrap break-all bg-zinc-950 px-3 pb-2 font-mono text-[11px] leading-snug text-zinc-400"
      >
        {stderr.map((e) => e.text).join("")}
      </pre>
    </section>
  );
}
