"use client";
/**
 * Streams a transcript from the API into an offline session store: frames
 * show while the rest downloads (first paint does not wait for 100,000
 * frames). One store per source; no socket.
 */
import { useEffect, useState } from "react";
import type { AgentInfoEvent, TranscriptHeader } from "@/lib/transcript";
import { TranscriptReader, type RecordedPart } from "@/lib/transcript-stream";
import { SessionStore, type OfflineRecording } from "../state/session-store";
import type { Tab } from "../state/tabs-store";
import { errorOf } from "./api";

/**
 * How often the view catches up with what has been read. Each catch-up is an
 * urgent update: too often, and the inspector's deferred render never gets to
 * finish (first paint would wait for the whole file).
 */
const PUBLISH_MS = 250;

export interface RecordingState {
  tab?: Tab;
  recording?: OfflineRecording;
  header?: TranscriptHeader;
  agentInfo?: AgentInfoEvent;
  redactions: number;
  truncated: boolean;
  /** Frames read so far. */
  total: number;
  complete: boolean;
  error?: { status: number; message: string };
}

const INITIAL: RecordingState = { redactions: 0, truncated: false, total: 0, complete: false };

function append(rec: OfflineRecording, part: RecordedPart): void {
  for (const f of part.frames) rec.frames.push(f);
  for (const e of part.stderr) rec.stderr.push(e);
  for (const e of part.lifecycle) rec.lifecycle.push(e);
}

/** Lets React render (deferred work included) and the browser paint before reading on. */
const nextFrame = () => new Promise<void>((resolve) => requestAnimationFrame(() => setTimeout(resolve, 0)));
const settle = async () => {
  await nextFrame();
  await nextFrame();
};

export function useRecording(url: string, token?: string): RecordingState {
  const [state, setState] = useState<RecordingState>(INITIAL);

  useEffect(() => {
    const recording: OfflineRecording = { frames: [], stderr: [], lifecycle: [] };
    const store = SessionStore.offline(recording);
    const tab: Tab = { id: 0, store, ui: new Map() };
    const abort = new AbortController();
    const reader = new TranscriptReader();
    // The views mount (and load what they need) while the transcript downloads.
    setState({ ...INITIAL, tab, recording });

    const publish = (complete: boolean) => {
      const h = reader.header;
      if (h && !recording.agent) {
        const pid = reader.spawned?.pid ?? 0;
        recording.agent = {
          profile: h.agent.profile,
          pid,
          command: h.agent.command,
          args: h.agent.args,
          cwd: h.agent.cwd,
          transcriptId: h.id,
        };
      }
      if (reader.exit)
        recording.exit = { ts: reader.exit.ts, code: reader.exit.code ?? null, signal: reader.exit.signal ?? null };
      setState({
        tab,
        recording,
        header: h,
        agentInfo: reader.agentInfo,
        redactions: reader.redactions,
        truncated: reader.truncated,
        total: recording.frames.length,
        complete,
      });
    };

    (async () => {
      const res = await fetch(url, {
        headers: token ? { authorization: `Bearer ${token}` } : {},
        cache: "no-store",
        signal: abort.signal,
      });
      if (!res.ok) throw await errorOf(res);
      const body = res.body!.getReader();
      const decoder = new TextDecoder();
      let published = 0;
      for (;;) {
        const { done, value } = await body.read();
        if (done) {
          append(recording, reader.push(decoder.decode()));
          append(recording, reader.end());
          publish(true);
          return;
        }
        append(recording, reader.push(decoder.decode(value, { stream: true })));
        if (performance.now() - published > PUBLISH_MS && reader.header) {
          publish(false);
          await settle();
          published = performance.now();
        }
      }
    })().catch((err: Error & { status?: number }) => {
      if (abort.signal.aborted) return;
      setState((s) => ({ ...s, error: { status: err.status ?? 0, message: err.message } }));
    });

    return () => {
      abort.abort();
      store.dispose();
    };
  }, [url, token]);

  return state;
}
