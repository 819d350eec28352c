"use client";
/**
 * Search inside every recording (the relay's index, GET /api/search): filters by agent,
 * profile, method, errors only and date, and by the kind the library's filter shows (one
 * kind filter on the page, not two that disagree); each hit shows its matching line and opens that
 * frame (`/transcripts/ID#seq=N`). Below, latency per method across the library for the same
 * transcripts (GET /api/latency).
 */
import Link from "next/link";
import { useEffect, useMemo, useState } from "react";
import { useDebounced } from "../use-debounced";
import { indexPercent, type LatencyAnswer, type SearchAnswer, type SearchHit } from "@/lib/contracts/library-search";
import { KIND_LABELS, type TranscriptKind } from "@/lib/contracts/transcript-meta";
import type { TranscriptMeta } from "./api";
import type { TranscriptsClient } from "./use-transcripts";
import { formatDuration } from "./format";

const SEARCH_DEBOUNCE_MS = 250;
const input =
  "rounded border border-zinc-700 bg-zinc-950 px-2 py-1 text-zinc-200 placeholder:text-zinc-400 [color-scheme:dark]";

interface Filters {
  agent: string;
  profile: string;
  method: string;
  errors: boolean;
  from: string;
  to: string;
}

const NO_FILTERS: Filters = { agent: "", profile: "", method: "", errors: false, from: "", to: "" };

const unique = (values: (string | undefined)[]) => [...new Set(values.filter((v): v is string => !!v))].sort();

/** The hit's line with its matched words marked. */
function Marked({ hit }: { hit: SearchHit }) {
  const parts: React.ReactNode[] = [];
  let at = 0;
  hit.marks.forEach(([s, e], i) => {
    if (s < at) return;
    parts.push(hit.line.slice(at, s));
    parts.push(
      <mark key={i} className="rounded-sm bg-amber-400/25 px-0.5 text-amber-100">
        {hit.line.slice(s, e)}
      </mark>,
    );
    at = e;
  });
  parts.push(hit.line.slice(at));
  return <>{parts}</>;
}

function HitRow({ hit }: { hit: SearchHit }) {
  const href = `/transcripts/${encodeURIComponent(hit.transcript.id)}#seq=${hit.seq}`;
  return (
    <li data-testid="search-hit" data-transcript={hit.transcript.id} data-seq={hit.seq}>
      <Link href={href} className="block rounded px-2 py-1.5 hover:bg-zinc-800/70">
        <span className="flex flex-wrap items-baseline gap-x-2 text-[11px] text-zinc-400">
          <span className="font-medium text-zinc-200">{hit.transcript.title}</span>
          <span>{hit.transcript.agentName ?? hit.transcript.profile}</span>
          <span>frame {hit.seq}</span>
          {hit.method ? <span className="font-mono">{hit.method}</span> : null}
          <span className={hit.error ? "text-red-300" : ""}>{hit.field}</span>
        </span>
        <span data-testid="search-line" className="block truncate font-mono text-xs text-zinc-300">
          {hit.line ? (
            <Marked hit={hit} />
          ) : (
            <span className="text-zinc-500">(matched in the frame's other fields)</span>
          )}
        </span>
      </Link>
    </li>
  );
}

function LatencyTable({ answer }: { answer: LatencyAnswer }) {
  const th = "px-2 py-1 text-right font-medium";
  return (
    <table data-testid="library-latency" className="w-full border-collapse text-xs tabular-nums">
      <thead className="text-[10px] uppercase tracking-wider text-zinc-400">
        <tr>
          <th className="px-2 py-1 text-left font-medium">Method</th>
          <th className="px-2 py-1 text-left font-medium">Direction</th>
          <th className={th}>Count</th>
          <th className={th}>p50</th>
          <th className={th}>p95</th>
          <th className={th}>p99</th>
          <th className={th}>Max</th>
          <th className={th}>Errors</th>
        </tr>
      </thead>
      <tbody>
        {answer.rows.map((r) => (
          <tr
            key={`${r.dir} ${r.method}`}
            data-testid="latency-row"
            data-method={r.method}
            className="border-t border-zinc-800/70"
          >
            <td className="px-2 py-1 font-mono text-zinc-200">{r.method}</td>
            <td className="px-2 py-1 text-zinc-400">{r.dir === "to-agent" ? "client → agent" : "agent → client"}</td>
            <td className="px-2 py-1 text-right">{r.requests}</td>
            <td className="px-2 py-1 text-right">{formatDuration(r.p50)}</td>
            <td className="px-2 py-1 text-right">{formatDuration(r.p95)}</td>
            <td className="px-2 py-1 text-right">{formatDuration(r.p99)}</td>
            <td className="px-2 py-1 text-right">{formatDuration(r.max)}</td>
            <td className={`px-2 py-1 text-right ${r.errors ? "text-red-300" : ""}`}>{r.errors}</td>
          </tr>
        ))}
        {answer.rows.length === 0 ? (
          <tr>
            <td colSpan={8} className="px-2 py-3 text-center text-zinc-400">
              No answered request in these transcripts.
            </td>
          </tr>
        ) : null}
      </tbody>
    </table>
  );
}

interface Props {
  client: TranscriptsClient;
  list: TranscriptMeta[] | undefined;
  /** The kind picked in the library's filter ("" for all). */
  kind: TranscriptKind | "";
  /** The library's owner filter, which the search and the latency table keep to as the list does. */
  owner?: string;
}

export function LibrarySearch({ client, list, kind, owner }: Props) {
  const [q, setQ] = useState("");
  const [filters, setFilters] = useState<Filters>(NO_FILTERS);
  const [showLatency, setShowLatency] = useState(false);
  const [answer, setAnswer] = useState<SearchAnswer>();
  const [latency, setLatency] = useState<LatencyAnswer>();
  const [error, setError] = useState<string>();
  const query = useDebounced(q.trim(), SEARCH_DEBOUNCE_MS);
  const set = <K extends keyof Filters>(k: K, v: Filters[K]) => setFilters((f) => ({ ...f, [k]: v }));
  const agents = useMemo(() => unique(list?.map((t) => t.agentName) ?? []), [list]);
  const profiles = useMemo(() => unique(list?.map((t) => t.profile) ?? []), [list]);
  const { agent, profile, method, errors, from, to } = filters;

  useEffect(() => {
    if (!query) return setAnswer(undefined);
    const abort = new AbortController();
    client
      .search(
        {
          q: query,
          agent: agent || undefined,
          profile: profile || undefined,
          kind: kind || undefined,
          owner,
          method: method.trim() || undefined,
          errors,
          from: from || undefined,
          to: to || undefined,
        },
        abort.signal,
      )
      .then((a) => {
        setAnswer(a);
        setError(undefined);
      })
      .catch((err: Error) => {
        if (!abort.signal.aborted) setError(err.message);
      });
    return () => abort.abort();
  }, [client, query, agent, profile, kind, owner, method, errors, from, to]);

  useEffect(() => {
    if (!showLatency) return;
    const abort = new AbortController();
    client
      .latency(
        {
          agent: agent || undefined,
          profile: profile || undefined,
          // Sessions unless a kind is picked: a probe's deliberate timeouts are no agent's latency.
          kind: kind || "session",
          owner,
          from: from || undefined,
          to: to || undefined,
        },
        abort.signal,
      )
      .then(setLatency)
      .catch((err: Error) => {
        if (!abort.signal.aborted) setError(err.message);
      });
    return () => abort.abort();
  }, [client, showLatency, agent, profile, kind, owner, from, to]);

  return (
    <section
      aria-label="Search every recording"
      data-testid="library-search"
      className="flex flex-col gap-2 rounded-lg border border-zinc-800 p-3"
    >
      <div role="search" className="flex flex-wrap items-center gap-2 text-xs">
        <input
          type="search"
          data-testid="library-search-input"
          aria-label="Search inside every recording"
          placeholder="Search inside every recording: messages, tools, paths, errors, stderr…"
          value={q}
          onChange={(e) => setQ(e.target.value)}
          className={`${input} w-96 max-w-full`}
        />
        <select
          aria-label="Agent"
          data-testid="search-agent"
          value={agent}
          onChange={(e) => set("agent", e.target.value)}
          className={input}
        >
          <option value="">any agent</option>
          {agents.map((a) => (
            <option key={a}>{a}</option>
          ))}
        </select>
        <select
          aria-label="Profile"
          data-testid="search-profile"
          value={profile}
          onChange={(e) => set("profile", e.target.value)}
          className={input}
        >
          <option value="">any profile</option>
          {profiles.map((p) => (
            <option key={p}>{p}</option>
          ))}
        </select>
        <input
          aria-label="Method"
          data-testid="search-method"
          placeholder="method"
          value={method}
          onChange={(e) => set("method", e.target.value)}
          className={`${input} w-36`}
        />
        <label className="flex items-center gap-1 text-zinc-300">
          <input
            type="checkbox"
            data-testid="search-errors"
            checked={errors}
            onChange={(e) => set("errors", e.target.checked)}
          />
          errors only
        </label>
        <label className="flex items-center gap-1 text-zinc-400">
          from
          <input
            type="date"
            aria-label="From date"
            value={from}
            onChange={(e) => set("from", e.target.value)}
            className={input}
          />
        </label>
        <label className="flex items-center gap-1 text-zinc-400">
          to
          <input
            type="date"
            aria-label="To date"
            value={to}
            onChange={(e) => set("to", e.target.value)}
            className={input}
          />
        </label>
        <button
          type="button"
          data-testid="latency-toggle"
          aria-expanded={showLatency}
          onClick={() => setShowLatency((s) => !s)}
          className="rounded border border-zinc-700 px-2 py-1 text-zinc-300 hover:bg-zinc-800"
        >
          Latency per method
        </button>
      </div>
      {!q.trim() && !showLatency && (agent || profile || method.trim() || errors || from || to) ? (
        // Without words the filters change nothing on the page: the list below is not filtered by them.
        <p data-testid="search-filters-hint" role="status" className="text-[11px] text-zinc-400">
          These filters narrow a search (agent, profile and dates the latency per method too): type the words to look
          for.
        </p>
      ) : null}
      {error ? (
        <p role="alert" className="text-xs text-red-300">
          {error}
        </p>
      ) : null}
      {answer && query ? (
        <div>
          <p data-testid="search-summary" role="status" className="text-[11px] text-zinc-400">
            {answer.total === 0
              ? "No frame matches."
              : `${answer.more ? `more than ${answer.total}` : answer.total} matching ${answer.total === 1 ? "frame" : "frames"}${answer.hits.length < answer.total ? `, best ${answer.hits.length} shown` : ""} · ${answer.tookMs} ms`}
          </p>
          {answer.progress ? (
            <p data-testid="search-progress" role="status" className="text-[11px] text-amber-300">
              {`index ${indexPercent(answer.progress)}% — results may be incomplete`}
            </p>
          ) : null}
          {answer.cut ? (
            <p data-testid="search-cut" className="text-[11px] text-amber-300">
              {answer.cut}
            </p>
          ) : null}
          <ul className="mt-1 flex max-h-96 flex-col overflow-y-auto">
            {answer.hits.map((h) => (
              <HitRow key={`${h.transcript.id}:${h.seq}:${h.field}:${h.ts}`} hit={h} />
            ))}
          </ul>
        </div>
      ) : null}
      {showLatency && latency ? (
        <div className="overflow-x-auto">
          <p className="text-[11px] text-zinc-400">
            Across {latency.transcripts} {kind ? KIND_LABELS[kind] : "session"}{" "}
            {latency.transcripts === 1 ? "transcript" : "transcripts"} (agent, profile and dates above apply
            {kind ? "" : "; probe runs and the other kinds apart: pick one in the kind filter below"}).
          </p>
          <LatencyTable answer={latency} />
        </div>
      ) : null}
    </section>
  );
}
