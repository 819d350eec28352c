"use client";
/** The transcripts page body: import, then the list (newest first), filtered by kind and searched by text. */
import { useState } from "react";
import {
  KIND_LABELS,
  TRANSCRIPT_KINDS,
  UNSTARTED,
  type TranscriptKind,
  type TranscriptMeta,
} from "@/lib/contracts/transcript-meta";
import { TokenMessage } from "../TokenMessage";
import { LibrarySearch } from "./LibrarySearch";
import { TranscriptRow } from "./TranscriptRow";
import { UploadZone } from "./UploadZone";
import { useTranscripts } from "./use-transcripts";
import { DiffPickBar, useDiffPicks } from "../transcript-diff/DiffPickBar";

const th = "px-3 py-1.5 text-left font-medium";

/** "all" leaves out sessions that never got a turn (failed Connects): their own filter shows them. */
const inKind = (t: TranscriptMeta, kind: TranscriptKind | "") => (kind ? t.kind === kind : t.kind !== UNSTARTED);

function matches(t: TranscriptMeta, kind: TranscriptKind | "", owner: string, query: string): boolean {
  if (!inKind(t, kind)) return false;
  if (owner && t.owner !== owner) return false;
  const q = query.trim().toLowerCase();
  return q === "" || [t.title, t.profile, t.agentName ?? "", t.id].some((s) => s.toLowerCase().includes(q));
}

export function TranscriptLibrary({ token }: { token: string }) {
  const { client, list, error, refresh, me } = useTranscripts(token);
  const [kind, setKind] = useState<TranscriptKind | "">("");
  const [query, setQuery] = useState("");
  const [owner, setOwner] = useState("");
  const diff = useDiffPicks();
  if (error?.status === 401) return <TokenMessage refused />;
  const shown = list?.filter((t) => matches(t, kind, owner, query));
  // Named tokens on a team server: who recorded what (none on a one-person relay, then no filter).
  const owners = [...new Set(list?.flatMap((t) => (t.owner ? [t.owner] : [])) ?? [])].sort();

  return (
    <main className="min-h-0 flex-1 overflow-y-auto px-4 py-4">
      <div className="mx-auto flex max-w-7xl flex-col gap-3">
        <div className="flex items-baseline gap-3">
          <h2 className="text-xs font-semibold uppercase tracking-wider text-zinc-400">Transcripts</h2>
          {/* The count per kind is on the filter's chips: not a second total here. */}
          {list ? null : <span className="text-xs text-zinc-400">loading…</span>}
          <span className="text-xs text-zinc-400">Every agent the relay runs is recorded here, secrets redacted.</span>
          <a
            href="/api/viewer?download"
            download="acp-viewer.html"
            data-testid="download-viewer"
            title="One HTML page that opens any transcript file dropped on it, offline: keep one and share plain .jsonl files"
            className="ml-auto text-xs text-sky-400 hover:underline"
          >
            Download the viewer
          </a>
        </div>
        <UploadZone
          onUpload={async (text) => {
            const meta = await client.upload(text);
            await refresh();
            return meta;
          }}
        />
        {error ? (
          <p role="alert" className="text-xs text-red-300">
            Could not load the list: {error.message}
          </p>
        ) : null}
        <LibrarySearch client={client} list={list} kind={kind} owner={owner || undefined} />
        <div role="search" className="flex flex-wrap items-center gap-2 text-xs">
          <input
            type="search"
            data-testid="transcript-search"
            aria-label="Search transcripts by title, profile or agent"
            placeholder="Search title, profile, agent…"
            value={query}
            onChange={(e) => setQuery(e.target.value)}
            className="w-72 rounded border border-zinc-700 bg-zinc-950 px-2 py-1 text-zinc-200 placeholder:text-zinc-400"
          />
          <div role="group" aria-label="Filter by kind" className="flex flex-wrap gap-1">
            {(["", ...TRANSCRIPT_KINDS] as const).map((k) => (
              <button
                key={k || "all"}
                type="button"
                data-testid="kind-filter"
                data-kind={k || "all"}
                aria-pressed={kind === k}
                onClick={() => setKind(k)}
                className={`rounded-full border px-2 py-0.5 ${
                  kind === k
                    ? "border-sky-500 bg-sky-500/15 text-sky-200"
                    : "border-zinc-700 text-zinc-300 hover:bg-zinc-800"
                }`}
              >
                {k ? KIND_LABELS[k] : "all"}
                {list ? ` ${list.filter((t) => inKind(t, k)).length}` : ""}
              </button>
            ))}
          </div>
          {owners.length > 0 ? (
            <select
              data-testid="owner-filter"
              aria-label="Filter by owner"
              value={owner}
              onChange={(e) => setOwner(e.target.value)}
              className="rounded border border-zinc-700 bg-zinc-950 px-2 py-1 text-zinc-200"
            >
              <option value="">anyone</option>
              {owners.map((o) => (
                <option key={o} value={o}>
                  {o}
                </option>
              ))}
            </select>
          ) : null}
          {list && shown && shown.length !== list.length ? (
            <span data-testid="shown-count" className="text-zinc-400">
              showing {shown.length} of {list.length}
            </span>
          ) : null}
        </div>
        <DiffPickBar picks={diff.picks} onClear={diff.clear} turnsOf={(id) => list?.find((t) => t.id === id)?.turns} />
        {/* Not a scroll box of its own: a row's More menu would be cut off at the table's edge (the page scrolls). */}
        <div className="rounded-lg border border-zinc-800">
          <table data-testid="transcript-table" className="w-full border-collapse text-xs">
            <thead className="border-b border-zinc-800 bg-zinc-900/70 text-[10px] uppercase tracking-wider text-zinc-400">
              <tr>
                <th className={th}>Title</th>
                <th className={th}>Created</th>
                <th className={th}>Agent</th>
                <th className={`${th} text-right`}>Turns</th>
                <th className={`${th} text-right`}>Frames</th>
                <th className={`${th} text-right`}>Size</th>
                <th className={th}>Actions</th>
              </tr>
            </thead>
            <tbody>
              {shown?.map((t) => (
                <TranscriptRow
                  key={t.id}
                  t={t}
                  client={client}
                  me={me}
                  onChange={refresh}
                  picked={diff.picks.includes(t.id)}
                  onPick={diff.toggle}
                />
              ))}
              {list?.length === 0 ? (
                <tr>
                  <td colSpan={7} className="px-3 py-6 text-center text-zinc-400">
                    No transcripts yet. Start an agent in the playground: it is recorded here.
                  </td>
                </tr>
              ) : list && shown?.length === 0 ? (
                <tr>
                  <td colSpan={7} data-testid="no-match" className="px-3 py-6 text-center text-zinc-400">
                    No transcript matches this filter.
                  </td>
                </tr>
              ) : null}
            </tbody>
          </table>
        </div>
      </div>
    </main>
  );
}
