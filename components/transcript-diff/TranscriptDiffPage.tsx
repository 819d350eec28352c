"use client";
/**
 * /transcripts/diff?a=ID&b=ID: any two transcripts aligned step by step
 * (lib/features/compare/transcript-align.ts), or two turns of one (`ta`, `tb`: turn
 * indices from 0; the same id twice opens on its first two turns). Both files
 * are read whole and aligned here, in the browser.
 */
import Link from "next/link";
import { useEffect, useMemo, useState } from "react";
import { alignTranscripts, framesOfTurn, turnRanges, type TurnRange } from "@/lib/features/compare/transcript-align";
import { protocolOf } from "@/lib/protocol/protocols";
import { PageFrame } from "../transcripts/PageFrame";
import { TokenMessage } from "../TokenMessage";
import { ApiError } from "../transcripts/api";
import { AlignedSteps } from "./AlignedSteps";
import { loadTranscript, type LoadedTranscript } from "./load-transcript";
import { plural } from "../transcripts/format";

interface Props {
  a: string;
  b: string;
  /** Turn of each side; undefined: the whole transcript. */
  ta?: number;
  tb?: number;
}

type Loaded = { a: LoadedTranscript; b: LoadedTranscript } | { error: ApiError | Error };

function useBoth(token: string, a: string, b: string): Loaded | undefined {
  const [loaded, setLoaded] = useState<Loaded>();
  useEffect(() => {
    const abort = new AbortController();
    setLoaded(undefined);
    const one = loadTranscript(token, a, abort.signal);
    const two = a === b ? one : loadTranscript(token, b, abort.signal);
    Promise.all([one, two]).then(
      ([x, y]) => setLoaded({ a: x, b: y }),
      (err: Error) => !abort.signal.aborted && setLoaded({ error: err }),
    );
    return () => abort.abort();
  }, [token, a, b]);
  return loaded;
}

function TurnSelect(props: {
  testId: string;
  turns: TurnRange[];
  value: number | undefined;
  onChange: (turn: number | undefined) => void;
}) {
  return (
    <select
      data-testid={props.testId}
      aria-label="Turn"
      className="max-w-72 rounded border border-zinc-700 bg-zinc-900 px-1.5 py-0.5 text-xs text-zinc-200"
      value={props.value ?? ""}
      onChange={(e) => props.onChange(e.target.value === "" ? undefined : Number(e.target.value))}
    >
      <option value="">whole transcript</option>
      {props.turns.map((t) => (
        <option key={t.index} value={t.index}>
          turn {t.index + 1}
          {t.prompt ? `: ${t.prompt}` : ""}
        </option>
      ))}
    </select>
  );
}

function Diff({ token, a, b, ta: ta0, tb: tb0 }: Props & { token: string }) {
  const loaded = useBoth(token, a, b);
  const [ta, setTa] = useState(ta0 ?? (a === b ? 0 : undefined));
  const [tb, setTb] = useState(tb0 ?? (a === b ? 1 : undefined));
  const turns = useMemo(
    () =>
      loaded && "a" in loaded
        ? {
            a: turnRanges(loaded.a.frames, protocolOf(loaded.a.header.agent)),
            b: turnRanges(loaded.b.frames, protocolOf(loaded.b.header.agent)),
          }
        : undefined,
    [loaded],
  );
  const alignment = useMemo(() => {
    if (!loaded || !("a" in loaded) || !turns) return undefined;
    const side = (t: LoadedTranscript, ranges: TurnRange[], turn: number | undefined) => ({
      frames: turn !== undefined && ranges[turn] ? framesOfTurn(t.frames, ranges[turn]) : t.frames,
      cwd: t.header.agent.cwd,
      protocol: protocolOf(t.header.agent),
    });
    return alignTranscripts(side(loaded.a, turns.a, ta), side(loaded.b, turns.b, tb));
  }, [loaded, turns, ta, tb]);

  if (!loaded) return <p className="p-4 text-xs text-zinc-400">Loading both transcripts…</p>;
  if ("error" in loaded) {
    if (loaded.error instanceof ApiError && loaded.error.status === 401) return <TokenMessage refused />;
    return (
      <p role="alert" data-testid="diff-error" className="p-4 text-xs text-red-300">
        {loaded.error.message}
      </p>
    );
  }
  const counts = alignment?.counts;
  const title = (t: LoadedTranscript) => t.header.title ?? t.header.id;
  const href = (id: string) => (seq: number) => `/transcripts/${encodeURIComponent(id)}#seq=${seq}`;
  return (
    <main className="min-h-0 flex-1 overflow-y-auto px-4 py-4">
      <div className="mx-auto flex max-w-7xl flex-col gap-3 text-xs">
        <div className="flex items-baseline gap-3">
          <h2 className="text-xs font-semibold uppercase tracking-wider text-zinc-400">Diff</h2>
          <Link href="/transcripts" className="text-sky-400 hover:underline">
            All transcripts
          </Link>
        </div>
        <div className="grid grid-cols-2 gap-3">
          {(
            [
              ["A", loaded.a, a, turns!.a, ta, setTa],
              ["B", loaded.b, b, turns!.b, tb, setTb],
            ] as const
          ).map(([name, t, id, ranges, turn, setTurn]) => (
            <div key={name} data-testid={`diff-side-${name}`} className="rounded border border-zinc-800 p-2">
              <div className="mb-1 flex items-baseline gap-2">
                <span className="rounded bg-zinc-800 px-1.5 text-zinc-200">{name}</span>
                <Link href={`/transcripts/${encodeURIComponent(id)}`} className="truncate text-sky-300 hover:underline">
                  {title(t)}
                </Link>
                <span className="text-zinc-400">
                  {plural(t.frames.length, "frame")} · {plural(ranges.length, "turn")}
                </span>
              </div>
              <TurnSelect testId={`diff-turn-${name}`} turns={ranges} value={turn} onChange={setTurn} />
            </div>
          ))}
        </div>
        {alignment && counts ? (
          <>
            <p data-testid="diff-summary" className="text-zinc-300">
              {counts.same} same · <span className="text-amber-200">{counts.changed} changed</span> ·{" "}
              <span className="text-red-200">{counts.removed} only in A</span> ·{" "}
              <span className="text-emerald-200">{counts.inserted} only in B</span>
              <span className="text-zinc-400">
                {" "}
                · aligned by direction, method and shape; ids, session ids, times and working directories are ignored
              </span>
            </p>
            {alignment.approximate ? (
              <p data-testid="diff-approximate" className="text-amber-300">
                These transcripts differ too much for an exact alignment: it was made turn by turn, and in part step by
                step.
              </p>
            ) : null}
            <AlignedSteps alignment={alignment} hrefA={href(a)} hrefB={href(b)} />
          </>
        ) : null}
      </div>
    </main>
  );
}

export function TranscriptDiffPage(props: Props) {
  if (!props.a)
    return (
      <PageFrame>
        {() => (
          <p className="p-4 text-xs text-zinc-300">
            Pick two transcripts with Diff… on the{" "}
            <Link href="/transcripts" className="text-sky-400 hover:underline">
              Transcripts
            </Link>{" "}
            page, then Diff.
          </p>
        )}
      </PageFrame>
    );
  return <PageFrame>{(token) => <Diff token={token} {...props} />}</PageFrame>;
}
