"use client";
/**
 * A recorded session played back with the live view's own components: the
 * transcript streams into an offline session store, and <ViewPane/> renders
 * it inside a TabContext exactly as it renders a live tab.
 */
import type { ReactNode } from "react";
import type { Frame } from "@/lib/protocol/frame";
import type { TranscriptHeader as Header } from "@/lib/contracts/transcript";
import { TabContext } from "../state/use-session";
import type { FrameGoto } from "../inspector/FrameInspector";
import { DeepLinkedPane } from "./DeepLinkedPane";
import { PlaybackBar } from "./PlaybackBar";
import { TranscriptHeader } from "./TranscriptHeader";
import { usePlayback } from "./use-playback";
import { useRecording } from "./use-recording";

interface Props {
  /** The JSONL: the API route (with `token`) or a share route (without). */
  url: string;
  token?: string;
  /** Shown instead of the player when loading fails. */
  failure: (error: { status: number; message: string }) => ReactNode;
  /** Header actions; a function is given what was read (the viewer's Replay needs the frames). */
  actions?: ReactNode | ((header: Header, frames: readonly Frame[]) => ReactNode);
  /** Between the playback bar and the views (the re-run panel), once the header is read. */
  panel?: (header: Header, frames: readonly Frame[], complete: boolean) => ReactNode;
  /** Select a frame and scroll to it (a link to a frame); a new object per request. */
  goto?: FrameGoto;
}

export function TranscriptPlayer({ url, token, failure, actions, panel, goto }: Props) {
  const rec = useRecording(url, token);
  const playback = usePlayback(rec.tab?.store, rec.recording, rec.total, rec.complete);

  if (rec.error) return <>{failure(rec.error)}</>;
  if (!rec.tab || !rec.recording) return null;
  const frames = rec.recording.frames;
  return (
    <div data-testid="transcript-viewer" data-complete={rec.complete} className="flex min-h-0 flex-1 flex-col">
      {rec.header ? (
        <TranscriptHeader
          header={rec.header}
          agentInfo={rec.agentInfo}
          redactions={rec.redactions}
          truncated={rec.truncated}
        >
          {typeof actions === "function" ? actions(rec.header, frames) : actions}
        </TranscriptHeader>
      ) : (
        <p data-testid="viewer-loading" className="border-b border-zinc-800 px-3 py-3 text-xs text-zinc-400">
          Loading transcript…
        </p>
      )}
      <PlaybackBar playback={playback} complete={rec.complete} frameTs={(i) => frames[i]?.ts} />
      {rec.header ? panel?.(rec.header, frames, rec.complete) : null}
      <TabContext.Provider value={rec.tab}>
        <DeepLinkedPane goto={goto} />
      </TabContext.Provider>
    </div>
  );
}

/** A centred message for a transcript that cannot be shown. */
export function ViewerMessage({ title, children }: { title: string; children?: ReactNode }) {
  return (
    <div className="flex flex-1 items-center justify-center p-8">
      <div
        data-testid="viewer-error"
        role="alert"
        className="max-w-lg rounded-lg border border-zinc-800 bg-zinc-900 p-6 text-sm text-zinc-300 shadow-xl"
      >
        <h2 className="mb-2 text-base font-semibold text-zinc-100">{title}</h2>
        {children}
      </div>
    </div>
  );
}
