/**
 * The one-file export's client entry (see server/transcripts/export.ts): the transcript
 * embedded in the page as gzip + base64 data is inflated into a blob and
 * played back by the viewer's own <TranscriptPlayer/> (Session, Frames,
 * Waterfall, Insights, playback), with no network: the page's CSP allows nothing else.
 * With no data embedded (`export --viewer`), it opens a file the reader drops or picks.
 */
import { useCallback, useEffect, useState } from "react";
import { FilePicker, OpenFile, useDroppedFile } from "./OpenFile";
import { createRoot } from "react-dom/client";
import { TranscriptPlayer, ViewerMessage } from "@/components/transcripts/TranscriptPlayer";
import {
  EXPORT_DATA_ID,
  EXPORT_META_ID,
  EXPORT_SCHEMA_IDS,
  type ExportMeta,
  type ExportSchemaName,
} from "@/lib/features/library/export-page";
import { setSchemaSource } from "@/components/inspector/use-schema-checker";

function readMeta(): ExportMeta | undefined {
  try {
    return JSON.parse(document.getElementById(EXPORT_META_ID)?.textContent ?? "") as ExportMeta;
  } catch {
    return undefined;
  }
}

/** One of the page's gzip + base64 blocks, inflated. */
function inflate(id: string): Response {
  const element = document.getElementById(id);
  if (!element) throw new Error(`this export holds no ${id}`);
  const bin = atob(element.textContent?.trim() ?? "");
  const bytes = new Uint8Array(bin.length);
  for (let i = 0; i < bin.length; i++) bytes[i] = bin.charCodeAt(i);
  return new Response(new Blob([bytes]).stream().pipeThrough(new DecompressionStream("gzip")));
}

/** The embedded transcript as a blob: URL the player reads like any other. */
async function transcriptUrl(): Promise<string> {
  const text = inflate(EXPORT_DATA_ID);
  return URL.createObjectURL(new Blob([await text.arrayBuffer()], { type: "application/x-ndjson" }));
}

// The schema files travel as blocks of their own, only those the transcript's protocol needs.
const schema = async (name: ExportSchemaName): Promise<unknown> => inflate(EXPORT_SCHEMA_IDS[name]).json();
setSchemaSource({
  acp: async () => {
    const [stable, unstable] = await Promise.all([schema("stable"), schema("unstable")]);
    // Embedded only for an agent that answered initialize with version 2 (and in the empty viewer).
    const v2 = document.getElementById(EXPORT_SCHEMA_IDS.v2) ? await schema("v2") : undefined;
    return { stable, unstable, v2 };
  },
  appServer: () => schema("appServer"),
});

function ExportViewer({ meta }: { meta?: ExportMeta }) {
  const [url, setUrl] = useState<string>();
  const [error, setError] = useState<string>();
  const [file, setFile] = useState<string>();
  const empty = !!meta?.viewer;
  useEffect(() => {
    if (!empty) transcriptUrl().then(setUrl, (err: Error) => setError(err.message));
  }, [empty]);
  const open = useCallback(
    (f: File) => {
      if (!empty) return;
      setError(undefined);
      setFile(f.name);
      setUrl((old) => {
        if (old) URL.revokeObjectURL(old);
        return URL.createObjectURL(f);
      });
    },
    [empty],
  );
  const over = useDroppedFile(open);
  return (
    <div className="flex h-dvh flex-col">
      <header className="flex h-10 shrink-0 items-center gap-3 border-b border-zinc-800 bg-zinc-900/70 px-3">
        <h1 className="text-sm font-semibold tracking-tight text-zinc-100">ACP Playground</h1>
        <span className="text-xs text-zinc-500">
          {empty ? "Transcript viewer · read-only · works offline" : "Exported transcript · read-only · works offline"}
        </span>
        {empty ? (
          <span className="ml-auto flex items-center gap-2 text-xs text-zinc-400">
            {file ? (
              <span data-testid="viewer-file-name" className="font-mono text-zinc-300">
                {file}
              </span>
            ) : null}
            {url ? <FilePicker onFile={open}>Open another file</FilePicker> : null}
          </span>
        ) : meta ? (
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
          key={url}
          url={url}
          failure={(e) => (
            <ViewerMessage
              title={empty ? `${file ?? "The file"} is not a transcript` : "The embedded transcript could not be read"}
            >
              <p>{e.message}</p>
              {empty ? (
                <p className="mt-3">
                  <FilePicker onFile={open}>Choose another file</FilePicker>
                </p>
              ) : null}
            </ViewerMessage>
          )}
        />
      ) : empty ? (
        <OpenFile onFile={open} over={over} />
      ) : null}
    </div>
  );
}

createRoot(document.getElementById("root")!).render(<ExportViewer meta={readMeta()} />);
