"use client";
/**
 * Drives an offline store from the playback reducer (lib/folds/playback.ts): the
 * clock's timer, and `showUpTo` whenever the position moves.
 */
import { useCallback, useEffect, useMemo, useState } from "react";
import {
  eventCutoff,
  initialPlayback,
  nextDelay,
  playbackReducer,
  playbackTimes,
  type PlaybackAction,
  type Speed,
} from "@/lib/folds/playback";
import type { OfflineRecording, SessionStore } from "../state/session-store";

const EMPTY = new Float64Array(0);
/** Timers no finer than a display frame: a tick shows every frame that is due. */
const MIN_TICK_MS = 16;

export function usePlayback(
  store: SessionStore | undefined,
  recording: OfflineRecording | undefined,
  total: number,
  complete: boolean,
) {
  // Playback times only once every frame is read: play is enabled then.
  const times = useMemo(
    () => (recording && complete ? playbackTimes(recording.frames.map((f) => f.ts)) : EMPTY),
    [recording, complete],
  );
  const [state, setState] = useState(() => initialPlayback(0));
  const act = useCallback((action: PlaybackAction) => setState((s) => playbackReducer(s, action, times)), [times]);

  useEffect(() => act({ type: "total", total }), [act, total]);

  useEffect(() => {
    if (!store || !recording) return;
    const ts = (i: number) => recording.frames[i]!.ts;
    store.showUpTo(state.position, eventCutoff(ts, state.position, state.total, complete));
  }, [store, recording, state.position, state.total, complete]);

  useEffect(() => {
    const delay = nextDelay(state, times, performance.now());
    if (delay === undefined) return;
    const timer = setTimeout(
      () =>
        setState((s) => {
          const next = playbackReducer(s, { type: "tick", now: performance.now() }, times);
          // A timer that fired a hair early changes nothing: a new object re-arms it.
          return next === s && s.playing ? { ...s } : next;
        }),
      Math.max(MIN_TICK_MS, Math.ceil(delay)),
    );
    return () => clearTimeout(timer);
  }, [state, times]);

  const now = () => performance.now();
  return {
    state,
    play: () => act({ type: "play", now: now() }),
    pause: () => act({ type: "pause" }),
    step: (delta: number) => act({ type: "step", delta }),
    seek: (position: number) => act({ type: "seek", position, now: now() }),
    setSpeed: (speed: Speed) => act({ type: "speed", speed, now: now() }),
  };
}

export type Playback = ReturnType<typeof usePlayback>;
