"use client";
/** The Transcripts page's diff picks: up to two, then a link to the diff (or to two turns of one). */
import Link from "next/link";
import { useCallback, useState } from "react";

/** Picks, newest last; a third pick drops the oldest. */
export function useDiffPicks() {
  const [picks, setPicks] = useState<string[]>([]);
  const toggle = useCallback(
    (id: string) => setPicks((p) => (p.includes(id) ? p.filter((x) => x !== id) : [...p, id].slice(-2))),
    [],
  );
  return { picks, toggle, clear: () => setPicks([]) };
}

export const diffHref = (a: string, b: string) =>
  `/transcripts/diff?a=${encodeURIComponent(a)}&b=${encodeURIComponent(b)}`;

/** `turnsOf`: a transcript's prompt turns, as listed (two of one are offered only when it has two). */
export function DiffPickBar({
  picks,
  onClear,
  turnsOf,
}: {
  picks: string[];
  onClear: () => void;
  turnsOf: (id: string) => number | undefined;
}) {
  if (picks.length === 0) return null;
  const [a, b] = picks as [string, string | undefined];
  return (
    <div
      data-testid="diff-picks"
      className="flex flex-wrap items-center gap-2 rounded border border-sky-800 bg-sky-950/30 px-3 py-1.5 text-xs"
    >
      <span className="text-zinc-300">
        Diff <span className="font-mono">{a}</span>
        {b ? (
          <>
            {" "}
            with <span className="font-mono">{b}</span>
          </>
        ) : (
          " with… (pick another)"
        )}
      </span>
      {b ? (
        <Link href={diffHref(a, b)} data-testid="diff-open" className="rounded bg-sky-600 px-2 py-0.5 text-white">
          Diff
        </Link>
      ) : (turnsOf(a) ?? 0) >= 2 ? (
        <Link
          href={diffHref(a, a)}
          data-testid="diff-turns"
          className="rounded px-2 py-0.5 text-sky-300 hover:bg-zinc-800"
        >
          Diff two of its turns
        </Link>
      ) : null}
      <button type="button" onClick={onClear} className="ml-auto text-zinc-400 hover:text-zinc-200">
        Clear
      </button>
    </div>
  );
}
