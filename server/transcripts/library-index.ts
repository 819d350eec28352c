/**
 * The relay's side of the search index: a worker thread (index-worker.ts) owns the SQLite
 * database, so indexing and searching never run on the event loop that carries frames. The
 * store tells it which transcripts changed (a recording's flush, an import, a rename) or went;
 * those notices are gathered and sent at most every NOTIFY_MS, one message for many flushes.
 */
import { Worker } from "node:worker_threads";
import type { LatencyAnswer, LatencyQuery, SearchAnswer, SearchQuery } from "../../lib/contracts/library-search";
import { workerScript } from "../runtime";

const NOTIFY_MS = 250;

export type IndexRequest =
  | { type: "changed"; ids: string[] }
  | { type: "removed"; ids: string[] }
  | { type: "search"; rid: number; query: SearchQuery }
  | { type: "latency"; rid: number; query: LatencyQuery }
  /** Answered once every known change is indexed (tests, the benchmark). */
  | { type: "idle"; rid: number }
  | { type: "close"; rid: number };

export type IndexReply = { rid: number; ok: true; value: unknown } | { rid: number; ok: false; error: string };

/** What the store tells the index (TranscriptStore.index). */
export interface IndexObserver {
  changed(id: string): void;
  removed(id: string): void;
}

export class LibraryIndex implements IndexObserver {
  private readonly worker: Worker;
  private readonly waiting = new Map<number, { resolve: (v: unknown) => void; reject: (e: Error) => void }>();
  private nextRid = 1;
  private changedIds = new Set<string>();
  private timer: NodeJS.Timeout | undefined;
  private failure: Error | undefined;
  /**
   * Counts the store's notices (a recording's flushes, every few frames): the worker reads it to
   * know whether frames are flowing, and backs off while they do. Shared memory, so telling it
   * costs the relay one store, never a message.
   */
  private readonly flow = new Int32Array(new SharedArrayBuffer(4));

  /** `dir`: the transcript store's directory. */
  constructor(dir: string) {
    const script = workerScript("index-worker");
    this.worker = new Worker(script.source, { eval: script.eval, workerData: { dir, flow: this.flow } });
    this.worker.on("message", (m: IndexReply) => {
      const w = this.waiting.get(m.rid);
      if (!w) return;
      this.waiting.delete(m.rid);
      if (m.ok) w.resolve(m.value);
      else w.reject(new Error(m.error));
    });
    // The index is an aid: if its thread dies, searches fail and the relay goes on.
    const fail = (err: Error) => {
      this.failure = err;
      console.error(`search index stopped: ${err.message}`);
      for (const w of this.waiting.values()) w.reject(err);
      this.waiting.clear();
    };
    this.worker.on("error", fail);
    this.worker.on("exit", (code) => {
      if (!this.failure) fail(new Error(`the index thread exited (${code})`));
    });
    this.worker.unref();
  }

  changed(id: string): void {
    Atomics.add(this.flow, 0, 1);
    this.changedIds.add(id);
    this.timer ??= setTimeout(() => this.flush(), NOTIFY_MS).unref();
  }

  removed(id: string): void {
    this.changedIds.delete(id);
    if (!this.failure) this.worker.postMessage({ type: "removed", ids: [id] } satisfies IndexRequest);
  }

  private flush(): void {
    this.timer = undefined;
    if (this.changedIds.size === 0 || this.failure) return;
    const ids = [...this.changedIds];
    this.changedIds.clear();
    this.worker.postMessage({ type: "changed", ids } satisfies IndexRequest);
  }

  private ask<T>(request: { type: "search" | "latency" | "idle" | "close" } & Record<string, unknown>): Promise<T> {
    if (this.failure) return Promise.reject(this.failure);
    const rid = this.nextRid++;
    return new Promise<T>((resolve, reject) => {
      this.waiting.set(rid, { resolve: resolve as (v: unknown) => void, reject });
      this.worker.postMessage({ ...request, rid });
    });
  }

  search(query: SearchQuery): Promise<SearchAnswer> {
    return this.ask({ type: "search", query });
  }

  latency(query: LatencyQuery): Promise<LatencyAnswer> {
    return this.ask({ type: "latency", query });
  }

  /** Resolves once every change told so far (and every file on disk) is indexed. */
  idle(): Promise<void> {
    clearTimeout(this.timer);
    this.flush();
    return this.ask({ type: "idle" });
  }

  async close(): Promise<void> {
    clearTimeout(this.timer);
    if (this.failure) return;
    // Unref'd, the worker would let a process with nothing else to do exit (0, silently) before it answers.
    this.worker.ref();
    await this.ask({ type: "close" }).catch(() => undefined);
    this.failure = new Error("the search index is closed");
    await this.worker.terminate();
  }
}
