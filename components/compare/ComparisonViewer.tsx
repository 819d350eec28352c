"use client";
/**
 * A saved comparison, read-only: both transcripts side by side in their
 * Session views, with the same alignment as when it ran. Opened with the
 * access token (/compare/[id]) or a share link's token (/compare/shared/[id]).
 */
import { useEffect, useState } from "react";
import type { ComparisonRecord } from "@/lib/contracts/compare-format";
import { ownerRefusal, type Me } from "@/lib/contracts/transcript-meta";
import { SharedPageHeader } from "../PageHeader";
import { PageFrame } from "../transcripts/PageFrame";
import { api, shareApiUrl, transcriptUrl } from "../transcripts/api";
import { useRecording, type RecordingState } from "../transcripts/use-recording";
import { compareApi, comparisonSharePageUrl, fetchSharedComparison } from "./compare-api";
import { SplitView } from "./SplitView";

type Loaded = { record: Omit<ComparisonRecord, "shareToken">; urls: [string, string] };

/** Shows the whole recording once it is read (no playback clock here). */
function useWhole(rec: RecordingState): RecordingState {
  useEffect(() => {
    if (rec.complete && rec.tab && rec.recording)
      rec.tab.store.showUpTo(rec.recording.frames.length, Number.MAX_SAFE_INTEGER);
  }, [rec.complete, rec.tab, rec.recording]);
  return rec;
}

function Sides({ loaded, token, actions }: { loaded: Loaded; token?: string; actions?: React.ReactNode }) {
  const a = useWhole(useRecording(loaded.urls[0], token));
  const b = useWhole(useRecording(loaded.urls[1], token));
  const error = a.error ?? b.error;
  const { record } = loaded;
  return (
    <div data-testid="comparison-viewer" data-id={record.id} className="flex min-h-0 flex-1 flex-col">
      <div className="flex items-center gap-3 border-b border-zinc-800 px-3 py-2 text-xs">
        <span className="text-zinc-500">Comparison · read-only</span>
        <span data-testid="comparison-prompt" className="truncate text-zinc-200">
          {record.title ?? record.prompt}
        </span>
        <span className="ml-auto flex items-center gap-3">{actions}</span>
      </div>
      {error ? (
        <p data-testid="comparison-error" className="p-3 text-sm text-red-400">
          {error.message}
        </p>
      ) : a.tab && b.tab ? (
        <SplitView a={{ tab: a.tab, label: record.sides[0].label }} b={{ tab: b.tab, label: record.sides[1].label }} />
      ) : null}
    </div>
  );
}

/** Exported for its tests. `refused`: why this person may not share it (another's comparison). */
export function ShareButton({ token, id, refused }: { token: string; id: string; refused?: string }) {
  const [link, setLink] = useState<string>();
  const [error, setError] = useState<string>();
  return link ? (
    <input
      data-testid="comparison-share-link"
      readOnly
      value={link}
      onFocus={(e) => e.target.select()}
      className="w-96 rounded border border-zinc-700 bg-zinc-900 px-2 py-0.5 font-mono text-zinc-300"
    />
  ) : (
    <button
      data-testid="comparison-share"
      disabled={refused !== undefined}
      title={refused}
      onClick={() =>
        compareApi(token)
          .share(id)
          .then((r) => setLink(comparisonSharePageUrl(id, r.shareToken!)))
          .catch((e: Error) => setError(e.message))
      }
      className="rounded border border-zinc-700 px-2 py-0.5 text-zinc-300 hover:bg-zinc-800 disabled:opacity-40"
    >
      {error ?? "Share (both transcripts)"}
    </button>
  );
}

function Owned({ token, id }: { token: string; id: string }) {
  const [loaded, setLoaded] = useState<Loaded>();
  const [error, setError] = useState<string>();
  // Who is looking: another person's comparison offers no Share (its transcripts the relay checks).
  const [me, setMe] = useState<Me>();
  useEffect(() => {
    api(token)
      .me()
      .then(setMe, () => setMe(undefined));
  }, [token]);
  useEffect(() => {
    compareApi(token)
      .get(id)
      .then((record) =>
        setLoaded({
          record,
          urls: [transcriptUrl(record.sides[0].transcriptId), transcriptUrl(record.sides[1].transcriptId)],
        }),
      )
      .catch((e: Error) => setError(e.message));
  }, [token, id]);
  if (error)
    return (
      <p data-testid="comparison-error" className="p-3 text-sm text-red-400">
        {error}
      </p>
    );
  const refused = me && loaded ? ownerRefusal(me, loaded.record.owner, "share") : undefined;
  return loaded ? (
    <Sides loaded={loaded} token={token} actions={<ShareButton token={token} id={id} refused={refused} />} />
  ) : null;
}

export function ComparisonViewerPage({ id }: { id: string }) {
  return <PageFrame>{(token) => <Owned token={token} id={id} />}</PageFrame>;
}

/** The share link's page: no access token is read or stored. */
export function SharedComparisonPage({ id, shareToken }: { id: string; shareToken: string }) {
  const [loaded, setLoaded] = useState<Loaded>();
  const [error, setError] = useState<string>();
  useEffect(() => {
    fetchSharedComparison(id, shareToken)
      .then(({ comparison, transcripts }) =>
        setLoaded({
          record: comparison,
          urls: [
            shareApiUrl(transcripts[0].id, transcripts[0].token),
            shareApiUrl(transcripts[1].id, transcripts[1].token),
          ],
        }),
      )
      .catch((e: Error & { status?: number }) =>
        setError(
          e.status === 404 ? "This share link is not valid: the comparison was deleted or unshared." : e.message,
        ),
      );
  }, [id, shareToken]);
  return (
    <div className="flex h-dvh flex-col">
      <SharedPageHeader subtitle="Shared comparison · read-only" />
      {error ? (
        <p data-testid="comparison-error" className="p-3 text-sm text-red-400">
          {error}
        </p>
      ) : null}
      {loaded ? <Sides loaded={loaded} /> : null}
    </div>
  );
}
