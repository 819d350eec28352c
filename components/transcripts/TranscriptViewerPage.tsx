"use client";
/** /transcripts/[id]: playback, download, share, replay and re-run of one transcript. */
import Link from "next/link";
import { useMemo, useState } from "react";
import { TokenMessage } from "../TokenMessage";
import { api, transcriptUrl } from "./api";
import { PageFrame } from "./PageFrame";
import { RerunPanel } from "./RerunPanel";
import { SendToOtlp } from "./SendToOtlp";
import { saveFile } from "./save-file";
import { ReplayLink } from "./ReplayLink";
import { TranscriptPlayer, ViewerMessage } from "./TranscriptPlayer";
import { earlyFetchScript } from "./early-fetch";

const action = "rounded px-2 py-0.5 text-xs text-zinc-300 hover:bg-zinc-800 hover:text-zinc-100";

/** Exported for its tests. */
export function Viewer({ id, token, rerun }: { id: string; token: string; rerun: boolean }) {
  const [rerunOpen, setRerunOpen] = useState(rerun);
  const [error, setError] = useState<string>();
  const client = useMemo(() => api(token), [token]);
  const download = async (as: "download" | "exportHtml" = "download") => {
    try {
      const { blob, name } = await client[as](id);
      saveFile(blob, name);
    } catch (err) {
      setError((err as Error).message);
    }
  };
  return (
    <TranscriptPlayer
      url={transcriptUrl(id)}
      token={token}
      failure={(e) =>
        e.status === 401 ? (
          <TokenMessage refused />
        ) : (
          <ViewerMessage title={e.status === 404 ? "No such transcript" : "The transcript could not be loaded"}>
            <p>{e.message}</p>
            <Link href="/transcripts" className="mt-3 inline-block text-sky-400 hover:underline">
              All transcripts
            </Link>
          </ViewerMessage>
        )
      }
      actions={(header, frames) => (
        <>
          {error ? <span className="text-red-300">{error}</span> : null}
          <button type="button" data-testid="viewer-download" className={action} onClick={() => void download()}>
            Download
          </button>
          <button
            type="button"
            data-testid="viewer-export"
            className={action}
            onClick={() => void download("exportHtml")}
          >
            Export HTML
          </button>
          <SendToOtlp id={id} client={client} />
          {/* The file as read says no more than its frames: a recording's replay is refused by the relay. */}
          <ReplayLink
            t={{ id, title: header.title ?? id, frames: frames.length, recording: false }}
            className={action}
            testId="viewer-replay"
          />
          <button
            type="button"
            data-testid="rerun-open"
            aria-expanded={rerunOpen}
            className={`${action} ${rerunOpen ? "bg-zinc-800 text-zinc-100" : ""}`}
            onClick={() => setRerunOpen((o) => !o)}
          >
            Re-run against…
          </button>
        </>
      )}
      panel={(header, frames, complete) =>
        rerunOpen ? (
          <RerunPanel
            id={id}
            frames={frames}
            complete={complete}
            token={token}
            recordedProfile={header.agent.profile}
            onClose={() => setRerunOpen(false)}
          />
        ) : null
      }
    />
  );
}

/** `nonce`: the page's CSP nonce, for the inline script that starts the transcript's GET. */
export function TranscriptViewerPage({ id, rerun, nonce }: { id: string; rerun: boolean; nonce?: string }) {
  return (
    <>
      {/* Runs as the HTML is parsed; browsers hide a script's nonce attribute afterwards. */}
      <script
        nonce={nonce}
        suppressHydrationWarning
        dangerouslySetInnerHTML={{ __html: earlyFetchScript(transcriptUrl(id)) }}
      />
      <PageFrame>{(token) => <Viewer id={id} token={token} rerun={rerun} />}</PageFrame>
    </>
  );
}
