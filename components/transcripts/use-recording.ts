"use client";
/**
 * Streams a transcript from the API into an offline session store: frames
 * show while the rest downloads (first paint does not wait for 100,000
 * frames). One store per source; no socket.
 */
import { useEffect, useState } from "react";
import type { AgentInfoEvent, TranscriptHeader } from "@/lib/contracts/transcript";
import { TranscriptReader, type RecordedPart } from "@/lib/folds/transcript-stream";
import { SessionStore, type OfflineRecording } from "../state/session-store";
import type { Tab } from "../state/tabs-store";
import { errorOf } from "./api";
import { fetchTranscript, takeEarlyFetch } from "./early-fetch";

/**
 * How often the view catches up with what has been read. Each catch-up is an
 * urgent update: too often, and the inspector's deferred render never gets to
 * finish (first paint would wait for the whole file).
 */
const PUBLISH_MS = 250;
/**
 * Reading works in slices of about this long, then gives the browser a turn:
 * a buffered download otherwise resolves read after read as microtasks, one
 * task of hundreds of ms that holds back the first paint and input.
 */
const SLICE_MS = 8;
/** Text fed to the reader at once: one fetch chunk can hold megabytes. */
const PIECE_CHARS = 64 * 1024;

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

/** A new task (MessageChannel: setTimeout is clamped to 4 ms once nested). */
const nextTask = () =>
  new Promise<void>((resolve) => {
    const channel = new MessageChannel();
    channel.port1.onmessage = () => {
      channel.port1.close();
      resolve();
    };
    channel.port2.postMessage(null);
  });

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
          ...(h.agent.protocol ? { protocol: h.agent.protocol } : {}),
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
      const res = await (takeEarlyFetch(url, token) ?? fetchTranscript(url, token, abort.signal));
      if (abort.signal.aborted) return void res.body?.cancel();
      if (!res.ok) throw await errorOf(res);
      const body = res.body!.getReader();
      // The early GET has no signal of its own.
      abort.signal.addEventListener("abort", () => void body.cancel().catch(() => undefined));
      const decoder = new TextDecoder();
      let published = 0;
      let slice = performance.now();
      for (;;) {
        const { done, value } = await body.read();
        if (abort.signal.aborted) return;
        if (done) {
          append(recording, reader.push(decoder.decode()));
          append(recording, reader.end());
          publish(true);
          return;
        }
        const text = decoder.decode(value, { stream: true });
        for (let at = 0; at < text.length; at += PIECE_CHARS) {
          append(recording, reader.push(text.slice(at, at + PIECE_CHARS)));
          if (abort.signal.aborted) return;
          // The first screen as soon as the header and a first batch are read; then every PUBLISH_MS.
          if (reader.header && recording.frames.length && performance.now() - published > PUBLISH_MS) {
            publish(false);
            await settle();
            published = slice = performance.now();
          } else if (performance.now() - slice > SLICE_MS) {
            await nextTask();
            slice = performance.now();
          }
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
