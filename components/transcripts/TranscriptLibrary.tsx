"use client";
/** The transcripts page body: import, then the list (newest first). */
import { TokenMessage } from "../TokenMessage";
import { TranscriptRow } from "./TranscriptRow";
import { UploadZone } from "./UploadZone";
import { useTranscripts } from "./use-transcripts";

const th = "px-3 py-1.5 text-left font-medium";

export function TranscriptLibrary({ token }: { token: string }) {
  const { client, list, error, refresh } = useTranscripts(token);
  if (error?.status === 401) return <TokenMessage refused />;

  return (
    <main className="min-h-0 flex-1 overflow-y-auto px-4 py-4">
      <div className="mx-auto flex max-w-7xl flex-col gap-3">
        <div className="flex items-baseline gap-3">
          <h2 className="text-sm font-semibold text-zinc-100">Transcripts</h2>
          <span data-testid="transcript-count" className="text-xs text-zinc-500">
            {list ? `${list.length} recorded or imported` : "loading…"}
          </span>
          <span className="text-xs text-zinc-600">Every agent the relay runs is recorded here, secrets redacted.</span>
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
        <div className="overflow-x-auto rounded-lg border border-zinc-800">
          <table data-testid="transcript-table" className="w-full border-collapse text-xs">
            <thead className="border-b border-zinc-800 bg-zinc-900/70 text-[10px] uppercase tracking-wider text-zinc-500">
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
              {list?.map((t) => (
                <TranscriptRow key={t.id} t={t} client={client} onChange={refresh} />
              ))}
              {list?.length === 0 ? (
                <tr>
                  <td colSpan={7} className="px-3 py-6 text-center text-zinc-500">
                    No transcripts yet. Start an agent in the playground: it is recorded here.
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
