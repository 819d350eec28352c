/**
 * Gathers the relay's frame batches and hands them on once per animation
 * frame. At 10,000 frames/s the relay sends a batch every few ms; applying each
 * on arrival changed the snapshot (and re-rendered every subscriber) many
 * times a frame, and a deferred render that spanned a change was redone
 * synchronously by React, in one long task. Hidden tabs get no animation
 * frames, so a timer flushes too.
 */
import type { WireFrame } from "@/lib/frame";

/** Flushes a hidden tab (and any page without animation frames). */
export const FALLBACK_FLUSH_MS = 100;

export interface FlushScheduler {
  /** Calls `fn` once, soon; returns how to cancel it. */
  (fn: () => void): () => void;
}

/** The next animation frame or FALLBACK_FLUSH_MS, whichever comes first. */
export const nextAnimationFrame: FlushScheduler = (fn) => {
  let done = false;
  const once = () => {
    if (done) return;
    done = true;
    cancel();
    fn();
  };
  const timer = setTimeout(once, FALLBACK_FLUSH_MS);
  const raf = typeof requestAnimationFrame === "function" ? requestAnimationFrame(once) : 0;
  const cancel = () => {
    clearTimeout(timer);
    if (raf) cancelAnimationFrame(raf);
  };
  return () => {
    done = true;
    cancel();
  };
};

export class FrameInbox {
  private batches: (readonly WireFrame[])[] = [];
  private cancel?: () => void;

  constructor(
    private readonly deliver: (frames: readonly WireFrame[]) => void,
    private readonly schedule: FlushScheduler = nextAnimationFrame,
  ) {}

  push(batch: readonly WireFrame[]): void {
    if (batch.length === 0) return;
    this.batches.push(batch);
    this.cancel ??= this.schedule(() => {
      this.cancel = undefined;
      this.flush();
    });
  }

  /** Delivers what is waiting now: before any other relay event, so the order of events holds. */
  flush(): void {
    this.cancel?.();
    this.cancel = undefined;
    if (this.batches.length === 0) return;
    const batches = this.batches;
    this.batches = [];
    this.deliver(batches.length === 1 ? batches[0]! : batches.flat());
  }

  /** Drops what is waiting (the store is going away). */
  dispose(): void {
    this.cancel?.();
    this.cancel = undefined;
    this.batches = [];
  }
}
