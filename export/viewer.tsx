/**
 * The one-file export's client entry (see server/transcripts/export.ts): the transcript
 * embedded in the page as gzip + base64 data is inflated into a blob and
 * played back by the viewer's own <TranscriptPlayer/> (Session, Frames,
 * Waterfall, playback), with no network: the page's CSP allows nothing else.
 */
import { useEffect, useState } from "react";
import { createRoot } from "react-dom/client";
import { TranscriptPlayer, ViewerMessage } from "@/components/transcripts/TranscriptPlayer";
import { EXPORT_DATA_ID, EXPORT_META_ID, type ExportMeta } from "@/lib/features/export-page";

function readMeta(): ExportMeta | undefined {
  try {
    return JSON.parse(document.getElementById(EXPORT_META_ID)?.textContent ?? "") as ExportMeta;
  } catch {
    return undefined;
  }
}

/** The embedded transcript as a blob: URL the player reads like any other. */
async function transcriptUrl(): Promise<string> {
  const b64 = document.getElementById(EXPORT_DATA_ID)?.textContent?.trim() ?? "";
  const bin = atob(b64);
  const bytes = new Uint8Array(bin.length);
  for (let i = 0; i < bin.length; i++) bytes[i] = bin.charCodeAt(i);
  const text = new Response(new Blob([bytes]).stream().pipeThrough(new DecompressionStream("gzip")));
  return URL.createObjectURL(new Blob([await text.arrayBuffer()], { type: "application/x-ndjson" }));
}

function ExportViewer({ meta }: { meta?: ExportMeta }) {
  const [url, setUrl] = useState<string>();
  const [error, setError] = useState<string>();
  useEffect(() => {
    transcriptUrl().then(setUrl, (err: Error) => setError(err.message));
  }, []);
  return (
    <div className="flex h-dvh flex-col">
      <header className="flex h-10 shrink-0 items-center gap-3 border-b border-zinc-800 bg-zinc-900/70 px-3">
        <h1 className="text-sm font-semibold tracking-tight text-zinc-100">ACP Playground</h1>
        <span className="text-xs text-zinc-500">Exported transcript · read-only · works offline</span>
        {meta ? (
          <span data-testid="export-redaction" className="ml-auto text-xs text-amber-300">
            Redacted before export
            {meta.redactions > 0 ? `: ${meta.redactions} more secret${meta.redactions === 1 ? "" : "s"} removed` : ""} ·
            exported {meta.exportedAt}
          </span>
        ) : null}
      </header>
      {error ? (
        <ViewerMessage title="The embedded transcript could not be read">
          <p>{error}</p>
        </ViewerMessage>
      ) : url ? (
        <TranscriptPlayer
          url={url}
          failure={(e) => (
            <ViewerMessage title="The embedded transcript could not be read">
              <p>{e.message}</p>
            </ViewerMessage>
          )}
        />
      ) : null}
    </div>
  );
}

createRoot(document.getElementById("root")!).render(<ExportViewer meta={readMeta()} />);
