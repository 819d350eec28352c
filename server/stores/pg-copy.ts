/**
 * The copy of the local file store into PostgreSQL (`serve --database`): the work of PgMirror
 * (pg-mirror.ts), done in its own thread (pg-copy-worker.ts) so that reading the new lines,
 * building their rows and writing them never holds up the relay's event loop. Told which
 * transcripts changed, it saves their new whole lines and their meta, one after the other.
 *
 * While the database cannot be reached, the local file is the buffer: nothing is held in memory
 * but the position copied so far, the copy is tried again (every RETRY_MS, up to MAX_RETRY_MS) and
 * resumes from that position when the database is back; lines saved again after a commit whose
 * answer was lost are not duplicated (PgStore.save). Transcripts not yet copied are kept from the
 * local store's retention (by the relay's thread, told by `notes`), up to `backlogBytes`
 * (ACP_PLAYGROUND_DATABASE_BACKLOG_BYTES); past it the copier says so and the oldest are left to
 * retention again.
 */
import { closeSync, fstatSync, openSync, readSync, statSync } from "node:fs";
import type { TranscriptStore } from "../transcripts/transcript-store";
import type { ProbeStore } from "../transcripts/probe-store";
import type { PgStore } from "./pg-store";

const RETRY_MS = 1_000;
/** How often the copier looks for ended transcripts whose documents have no rows yet. */
const INDEX_MS = 2_000;
const MAX_RETRY_MS = 5_000;
/**
 * Errors that are not a transcript's own but the database's or another transaction's: a lost
 * connection (08), a deadlock or a serialization failure (40), a server shutting down (57P0x).
 * Its indexing is tried again the next time, not left to its rows until the copier starts again.
 */
const PASSING = /^(08|40|57P0)/;
/** The most read from a file for one save (a line longer than this is read whole). */
const CHUNK_BYTES = 4 * 1024 * 1024;
export const DEFAULT_BACKLOG_BYTES = 1024 * 1024 * 1024;
const MIB = 1024 * 1024;
/** A probe report's entry among the ids waiting to be copied (transcript ids never hold a colon). */
export const PROBE = "probe:";

/**
 * A file's whole lines from byte `start`, at most about `max` bytes of them, the byte after the
 * last one, and whether more whole lines may follow.
 */
export function wholeLines(
  file: string,
  start: number,
  max = Infinity,
): { lines: string[]; end: number; more: boolean; size: number } {
  const fd = openSync(file, "r");
  try {
    const size = fstatSync(fd).size;
    if (size <= start) return { lines: [], end: start, more: false, size };
    const read = (length: number) => {
      const buf = Buffer.alloc(length);
      let got = 0;
      while (got < length) {
        const n = readSync(fd, buf, got, length - got, start + got);
        if (n === 0) break;
        got += n;
      }
      return buf.subarray(0, got);
    };
    let buf = read(Math.min(size - start, max));
    let nl = buf.lastIndexOf(0x0a);
    // One line longer than a chunk: read up to its end.
    if (nl === -1 && buf.length < size - start) {
      buf = read(size - start);
      nl = buf.lastIndexOf(0x0a);
    }
    // A line being written is left for the next time.
    if (nl === -1) return { lines: [], end: start, more: false, size };
    const end = start + nl + 1;
    return {
      lines: buf.subarray(0, nl).toString("utf8").split("\n"),
      end,
      more: end < size && buf.length < size - start,
      size,
    };
  } finally {
    closeSync(fd);
  }
}

interface Progress {
  bytes: number;
  lines: number;
  lastSeq: number;
}
const START: Progress = { bytes: 0, lines: 0, lastSeq: 0 };

/** What the copier tells the thread that keeps transcripts from retention (`files.pinned`). */
export interface CopyNotes {
  /** Nothing of it is left to copy (copied up to every change told so far, or gone). */
  settled(id: string): void;
  /** Left to retention again: what waits is over the bound. */
  released(ids: string[]): void;
}

export class PgCopy {
  /** How far each transcript has been copied. */
  private readonly sent = new Map<string, Progress>();
  private readonly dirty = new Set<string>();
  /** Ids handed to copies not yet under way, and how many times: one is settled only when none waits. */
  private readonly queued = new Map<string, number>();
  private timer: NodeJS.Timeout | undefined;
  private chain: Promise<void> = Promise.resolve();
  /** The database could not be reached at the last try: wait `retryMs` between tries. */
  private down = false;
  private retryMs = RETRY_MS;
  private overBound = false;
  private closed = false;
  private indexTimer: NodeJS.Timeout | undefined;
  /** The round of indexing running, if any; `indexAgain`: asked for meanwhile, so one more. */
  private indexing: Promise<void> | undefined;
  private indexAgain = false;
  /** Transcripts whose indexing failed here: not tried again until the copier starts again. */
  private readonly unindexable = new Set<string>();
  private stopping = false;

  constructor(
    private readonly files: TranscriptStore,
    private readonly db: PgStore,
    private readonly notes: CopyNotes = { settled() {}, released() {} },
    private readonly backlogBytes = DEFAULT_BACKLOG_BYTES,
    /** Where probe reports are kept: `probe:ID` among the ids told names one. */
    private readonly probes?: ProbeStore,
  ) {}

  /** `id` changed (or `probe:ID`, a probe report kept): copied at once, or at the next try while the database is away. */
  changed(id: string): void {
    this.dirty.add(id);
    this.schedule();
  }

  private schedule(): void {
    if (this.closed) return;
    // The relay's side gathers its notices (pg-mirror.ts NOTIFY_MS): no second wait here.
    this.timer ??= setTimeout(() => void this.flush(), this.down ? this.retryMs : 0).unref();
  }

  /** Copies every transcript told of so far; resolves when they are saved or the try failed. */
  flush(): Promise<void> {
    clearTimeout(this.timer);
    this.timer = undefined;
    const ids = [...this.dirty];
    this.dirty.clear();
    for (const id of ids) this.queued.set(id, (this.queued.get(id) ?? 0) + 1);
    this.chain = this.chain.then(() => this.copy(ids));
    return this.chain;
  }

  /** A last try, then no more. */
  async close(): Promise<void> {
    // The last copy is made; indexing stops after the transcript it is at and waits for the next
    // start (any instance's).
    this.stopping = true;
    clearInterval(this.indexTimer);
    await this.flush();
    await this.indexing;
    this.closed = true;
    clearTimeout(this.timer);
    if (this.dirty.size > 0)
      console.error(
        `database: ${this.dirty.size} transcript(s) not copied at exit: they are in the local data directory (${this.files.dir})`,
      );
  }

  private async copy(ids: string[]): Promise<void> {
    const left: string[] = [];
    for (const id of ids) {
      const n = this.queued.get(id) ?? 1;
      if (n > 1) this.queued.set(id, n - 1);
      else this.queued.delete(id);
      // Once the database is away, the rest wait for the next try.
      if (left.length > 0) {
        left.push(id);
        continue;
      }
      try {
        if (id.startsWith(PROBE)) await this.syncProbe(id.slice(PROBE.length));
        else await this.sync(id);
      } catch (err) {
        if (await this.reachable()) {
          // This transcript's own trouble: copied again from the start the next time it changes.
          this.sent.delete(id);
          console.error(`database: transcript ${id}: ${(err as Error).message}`);
        } else {
          left.push(id);
          if (!this.down)
            console.error(
              `database: unreachable (${(err as Error).message}): recording goes on here; what is not copied yet is copied when it is back`,
            );
          this.down = true;
        }
      }
    }
    if (left.length === 0) {
      if (this.down) console.error("database: reachable again: the recordings' copies caught up");
      this.down = false;
      this.overBound = false;
      this.retryMs = RETRY_MS;
      void this.indexNow();
      return;
    }
    for (const id of left) this.dirty.add(id);
    this.holdBacklog();
    this.schedule();
    this.retryMs = Math.min(this.retryMs * 2, MAX_RETRY_MS);
  }

  /**
   * Gives the documents of the transcripts that have ended rows of their own (PgStore.indexDocs),
   * one at a time, whichever instance recorded them: after each copy, and every INDEX_MS for those
   * ended by another (a crash marked by a lease's sweep). A failure waits for the next time.
   */
  private async indexEnded(): Promise<void> {
    while (!this.stopping) {
      try {
        if ((await this.db.indexDocs([...this.unindexable])) === undefined) return;
      } catch (err) {
        const id = (err as { transcript?: string }).transcript;
        console.error(
          `database: indexing ${id === undefined ? "an ended transcript" : `transcript ${id}`}'s search: ${(err as Error).message}` +
            (id === undefined ? "" : " (it is searched through its rows of lines)"),
        );
        // Its own trouble: the others go on; the database's: the next time.
        const code = (err as { code?: unknown }).code;
        if (id === undefined || (typeof code === "string" && PASSING.test(code)) || !(await this.reachable())) return;
        this.unindexable.add(id);
      }
    }
  }

  /**
   * Indexes the ended transcripts (indexEnded), beside the copies: a copy and a flush (a comparison
   * waits for this instance's copies) never wait for a long transcript's indexing, close only for
   * the transcript it is at. While a round runs, asking again makes one more after it. Resolves
   * when the rounds are done.
   */
  indexNow(): Promise<void> {
    if (this.indexing) {
      this.indexAgain = true;
      return this.indexing;
    }
    const rounds = async () => {
      do {
        this.indexAgain = false;
        await this.indexEnded();
      } while (this.indexAgain && !this.stopping);
    };
    this.indexing = rounds().finally(() => (this.indexing = undefined));
    return this.indexing;
  }

  /** Looks for ended transcripts to index every INDEX_MS (those another instance's sweep marked ended). */
  startIndexing(): void {
    this.indexTimer ??= setInterval(() => void this.indexNow(), INDEX_MS).unref();
  }

  private async reachable(): Promise<boolean> {
    try {
      await this.db.pool.query("SELECT 1");
      return true;
    } catch {
      return false;
    }
  }

  /** Keeps what waits to be copied from local retention, up to the bound; past it says so, once per outage. */
  private holdBacklog(): void {
    const waiting = [...this.dirty]
      .filter((id) => !id.startsWith(PROBE))
      .sort()
      .map((id) => {
        let size = 0;
        try {
          size = statSync(this.files.file(id)).size;
        } catch {
          // gone
        }
        return { id, bytes: Math.max(0, size - (this.sent.get(id)?.bytes ?? 0)) };
      });
    let total = waiting.reduce((sum, w) => sum + w.bytes, 0);
    if (total <= this.backlogBytes) return;
    if (!this.overBound)
      console.error(
        `database: ${Math.ceil(total / MIB)} MiB of recordings wait to be copied, over the bound of ` +
          `${Math.floor(this.backlogBytes / MIB)} MiB (ACP_PLAYGROUND_DATABASE_BACKLOG_BYTES): recording goes on here, ` +
          "but the oldest of them are no longer kept from the local library's retention",
      );
    this.overBound = true;
    // Oldest first (ids begin with their start time).
    const released: string[] = [];
    for (const w of waiting) {
      if (total <= this.backlogBytes) break;
      released.push(w.id);
      total -= w.bytes;
    }
    if (released.length > 0) this.notes.released(released);
  }

  private async syncProbe(id: string): Promise<void> {
    const report = this.probes?.get(id);
    if (report) await this.db.saveProbe({ ...report, id });
  }

  /** Copies one transcript's new lines and its meta now, a chunk at a time. */
  async sync(id: string): Promise<void> {
    // A warm agent nobody has taken: the file store does not list it, nor does the team's library
    // (the pool drops it at stop). Once taken, its next line brings it here, copied whole.
    if (this.files.unlisted.has(id)) {
      this.notes.settled(id);
      return;
    }
    for (;;) {
      const meta = this.files.meta(id);
      if (!meta) {
        this.notes.settled(id);
        return;
      }
      let from = this.sent.get(id) ?? START;
      let chunk = wholeLines(this.files.file(id), from.bytes, CHUNK_BYTES);
      // A file replaced by a shorter one: copied again whole.
      if (chunk.size < from.bytes) {
        from = START;
        chunk = wholeLines(this.files.file(id), 0, CHUNK_BYTES);
      }
      // While catching up, the database's copy is still being written, whatever the file's meta says.
      const shown = chunk.more ? { ...meta, recording: true } : meta;
      const lastSeq = await this.db.save(shown, chunk.lines, from.lines, from.lastSeq);
      this.sent.set(id, { bytes: chunk.end, lines: from.lines + chunk.lines.length, lastSeq });
      if (!chunk.more) break;
    }
    // Told of again meanwhile: settled by the copy that follows.
    if (!this.dirty.has(id) && !this.queued.has(id)) this.notes.settled(id);
  }
}
