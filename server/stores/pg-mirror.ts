/**
 * With `serve --database`, the relay still records into its local file store (the recorder's hot
 * path is unchanged) and this observer has each transcript copied into PostgreSQL as it grows: the
 * store's notices (a recording's flush, an import, its end) are gathered for NOTIFY_MS and sent to
 * the copy's thread (pg-copy-worker.ts, PgCopy in pg-copy.ts), which reads the new whole lines and
 * saves them with the meta, on its own connections and at a lower priority, so the event loop that
 * forwards frames never waits for a copy. The team's routes read the database (server/stores/pg-routes.ts).
 *
 * This thread keeps what waits to be copied from the local store's retention (`files.pinned`): a
 * transcript is pinned when it changes and unpinned when the copy's thread says it is settled (and
 * no later change is on its way there) or released (over the backlog's bound).
 */
import path from "node:path";
import { Worker } from "node:worker_threads";
import type { TranscriptLimits } from "../config";
import type { IndexObserver } from "../transcripts/library-index";
import type { ProbeStore } from "../transcripts/probe-store";
import type { TranscriptStore } from "../transcripts/transcript-store";
import { workerScript } from "../runtime";
import { DEFAULT_BACKLOG_BYTES, PROBE } from "./pg-copy";
import type { PgStore } from "./pg-store";

const NOTIFY_MS = 250;

export interface CopyWorkerData {
  url: string;
  /** The relay's PgStore.instance: the copies name it as their writer, whose lease the relay renews. */
  instance: string;
  transcriptsDir: string;
  limits: TranscriptLimits;
  backlogBytes: number;
  /** The data directory of the probe store whose reports are copied too, if any. */
  probesDataDir?: string;
}

export type CopyRequest =
  /**
   * `batch` numbers the notice; `live`: those of `ids` this process is recording; `unlisted`:
   * those a warm agent records that nobody took yet (TranscriptStore.unlisted: not copied).
   */
  | { type: "changed"; batch: number; ids: string[]; live: string[]; unlisted: string[] }
  /** Answered once everything told so far is copied, or its try failed. */
  | { type: "flush"; rid: number }
  | { type: "close"; rid: number };

export type CopyReply =
  /** `id` is copied up to notice `batch`; `threadId`: the thread that copied it. */
  | { type: "settled"; id: string; batch: number; threadId: number }
  | { type: "released"; ids: string[] }
  | { type: "done"; rid: number };

export class PgMirror implements IndexObserver {
  private readonly worker: Worker;
  /** Told since the last notice was sent. */
  private readonly pending = new Set<string>();
  /** The last notice each pinned transcript was sent in. */
  private readonly sentIn = new Map<string, number>();
  private batch = 0;
  private timer: NodeJS.Timeout | undefined;
  private readonly waiting = new Map<number, () => void>();
  private nextRid = 1;
  private stopped = false;
  /** A hook for tests: called with the thread that copied each settled transcript. */
  onSettled: ((id: string, threadId: number) => void) | undefined;

  constructor(
    private readonly files: TranscriptStore,
    db: PgStore,
    backlogBytes = DEFAULT_BACKLOG_BYTES,
    /** Where probe reports are kept here: each one kept is copied too. */
    probes?: ProbeStore,
  ) {
    if (probes) probes.onSaved = (id) => this.changed(`${PROBE}${id}`);
    const script = workerScript("pg-copy-worker");
    const workerData: CopyWorkerData = {
      url: db.url,
      instance: db.instance,
      transcriptsDir: files.dir,
      limits: files.limits,
      backlogBytes,
      ...(probes ? { probesDataDir: path.dirname(probes.dir) } : {}),
    };
    this.worker = new Worker(script.source, { eval: script.eval, workerData });
    this.worker.on("message", (m: CopyReply) => this.heard(m));
    // What is not copied stays in the local data directory (and pinned): the relay goes on.
    const fail = (err: Error) => {
      if (this.stopped) return;
      this.stopped = true;
      console.error(`database: the copy's thread stopped (${err.message}): recordings stay in ${files.dir}`);
      for (const done of this.waiting.values()) done();
      this.waiting.clear();
    };
    this.worker.on("error", fail);
    this.worker.on("exit", (code) => fail(new Error(`exit code ${code}`)));
    this.worker.unref();
  }

  changed(id: string): void {
    this.pending.add(id);
    if (!id.startsWith(PROBE)) this.files.pinned.add(id);
    this.timer ??= setTimeout(() => this.send(), NOTIFY_MS).unref();
  }

  /** Not deleted in the database: the local store's retention must not delete the team's copy (deletes go to the database). */
  removed(id: string): void {
    this.files.pinned.delete(id);
  }

  private send(): void {
    clearTimeout(this.timer);
    this.timer = undefined;
    if (this.pending.size === 0 || this.stopped) return;
    const ids = [...this.pending];
    this.pending.clear();
    const batch = ++this.batch;
    for (const id of ids) if (!id.startsWith(PROBE)) this.sentIn.set(id, batch);
    const live = ids.filter((id) => this.files.live.has(id));
    const unlisted = ids.filter((id) => this.files.unlisted.has(id));
    this.worker.postMessage({ type: "changed", batch, ids, live, unlisted } satisfies CopyRequest);
  }

  private heard(m: CopyReply): void {
    switch (m.type) {
      case "settled":
        // Unless a later notice of it is on its way to the copy.
        if (!this.pending.has(m.id) && (this.sentIn.get(m.id) ?? 0) <= m.batch) {
          this.files.pinned.delete(m.id);
          this.sentIn.delete(m.id);
        }
        this.onSettled?.(m.id, m.threadId);
        return;
      case "released":
        for (const id of m.ids) this.files.pinned.delete(id);
        return;
      case "done": {
        const done = this.waiting.get(m.rid);
        this.waiting.delete(m.rid);
        done?.();
        return;
      }
    }
  }

  private ask(type: "flush" | "close"): Promise<void> {
    if (this.stopped) return Promise.resolve();
    const rid = this.nextRid++;
    return new Promise<void>((resolve) => {
      this.waiting.set(rid, resolve);
      this.worker.postMessage({ type, rid } satisfies CopyRequest);
    });
  }

  /** Has every transcript told of so far copied; resolves when they are saved or the try failed. */
  flush(): Promise<void> {
    this.send();
    return this.ask("flush");
  }

  /** A last try (the copy's thread says what it could not copy), then no more. */
  async close(): Promise<void> {
    this.send();
    await this.ask("close");
    this.stopped = true;
    await this.worker.terminate();
  }
}
