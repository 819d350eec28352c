"use client";
/**
 * Chunk folds of the inspector's log (lib/folds/chunk-folds.ts), kept
 * incrementally: while the log only grows, only new frames are folded.
 */
import { useMemo, useRef } from "react";
import { ChunkFolder } from "@/lib/folds/chunk-folds";
import type { FrameWindow } from "@/lib/folds/frame-log";

interface Cache {
  frames: FrameWindow;
  folder: ChunkFolder;
}

/** The folder over `frames`, and its version (changes when a fold is made or grows). */
export function useChunkFolds(frames: FrameWindow, enabled: boolean): { folder: ChunkFolder; version: number } {
  const cache = useRef<Cache | null>(null);
  return useMemo(() => {
    if (!enabled) return { folder: new ChunkFolder(), version: 0 };
    const c = cache.current;
    let folder: ChunkFolder;
    let from = 0;
    if (c && frames.extends(c.frames)) {
      folder = c.folder;
      from = c.frames.length ? frames.indexOfSeq(c.frames.last!.seq) + 1 : 0;
    } else folder = new ChunkFolder();
    for (let i = from; i < frames.length; i++) folder.add(frames.at(i)!);
    cache.current = { frames, folder };
    return { folder, version: folder.version };
  }, [frames, enabled]);
}
