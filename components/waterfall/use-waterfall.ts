"use client";
/**
 * The waterfall of the surrounding tab's frames, kept up to date cheaply: one
 * builder per store folds only the frames it has not seen (a restarted log,
 * new epoch, starts over), and a flood of frame batches becomes at most one
 * React update per animation frame.
 *
 * The builder grows its turns in place, ahead of React: a frame folded in a transition is in the
 * builder before that update renders, and a render React then discards as unchanged (an urgent
 * update of the same view, a context it reads, re-rendering it meanwhile) would read it. What a
 * render decides with (a turn exists, has ended) is therefore read from this state's snapshot
 * (`ended`), never from the builder: an effect keyed on it (the live clock) would otherwise take
 * the new value in the discarded render, without running, and never run for it.
 */
import { startTransition, useEffect, useState } from "react";
import { WaterfallBuilder } from "@/lib/folds/waterfall";
import type { ProtocolName } from "@/lib/protocol/protocols";
import { selectProtocol, type SessionStore } from "../state/session-store";
import { useSessionStore } from "../state/use-session";

interface Cache {
  epoch: number;
  /** The log's agent's protocol: its turns are read by it. */
  protocol: ProtocolName;
  builder: WaterfallBuilder;
}

export interface WaterfallState {
  builder: WaterfallBuilder;
  epoch: number;
  /** Changes whenever the builder folded something in. */
  lastSeq: number;
  /** ts of the newest frame: "now" for a recording. */
  lastTs: number;
  live: boolean;
  /** Per turn folded so far, whether it had ended: the turns as of this state, for what a render decides. */
  ended: readonly boolean[];
}

const caches = new WeakMap<SessionStore, Cache>();

function advance(store: SessionStore): WaterfallState {
  const snap = store.getSnapshot();
  const { frames, epoch } = snap;
  const protocol = selectProtocol(snap);
  let cache = caches.get(store);
  if (!cache || cache.epoch !== epoch || cache.protocol !== protocol)
    caches.set(store, (cache = { epoch, protocol, builder: new WaterfallBuilder(protocol) }));
  const { builder } = cache;
  const last = frames.last;
  if (last && last.seq > builder.lastSeq) {
    // Seqs never skip, so the new frames are at most the last (last.seq - lastSeq) held.
    for (let i = Math.max(0, frames.length - (last.seq - builder.lastSeq)); i < frames.length; i++)
      builder.add(frames.at(i)!);
  }
  return {
    builder,
    epoch,
    lastSeq: builder.lastSeq,
    lastTs: last?.ts ?? 0,
    live: !store.isOffline,
    ended: builder.turns.map((t) => t.end !== undefined),
  };
}

export function useWaterfall(): WaterfallState {
  const store = useSessionStore();
  const [state, setState] = useState(() => advance(store));
  useEffect(() => {
    let raf = 0;
    const flush = () => {
      raf = 0;
      const next = advance(store);
      startTransition(() =>
        setState((prev) => (prev.lastSeq === next.lastSeq && prev.epoch === next.epoch ? prev : next)),
      );
    };
    const unsubscribe = store.subscribe(() => {
      if (raf === 0) raf = requestAnimationFrame(flush);
    });
    flush();
    return () => {
      unsubscribe();
      if (raf !== 0) cancelAnimationFrame(raf);
    };
  }, [store]);
  return state;
}
