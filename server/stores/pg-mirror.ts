/**
 * With `serve --database`, the relay still records into its local file store (the recorder's hot
 * path is unchanged) and this observer copies each transcript into PostgreSQL as it grows: the
 * store's notices (a recording's flush, an import, its end) are gathered for NOTIFY_MS, then the
 * new whole lines and the meta are saved. The team's routes read the database (server/stores/pg-routes.ts).
 */
import { closeSync, fstatSync, openSync, readSync } from "node:fs";
import type { IndexObserver } from "../transcripts/library-index";
import type { TranscriptStore } from "../transcripts/transcript-store";
import type { PgStore } from "./pg-store";

const NOTIFY_MS = 250;

/** A file's whole lines from byte `start` to its current end, and the byte after the last one. */
export function wholeLines(file: string, start: number): { lines: string[]; end: number } {
  const fd = openSync(file, "r");
  try {
    const size = fstatSync(fd).size;
    if (size <= start) return { lines: [], end: start };
    const buf = Buffer.alloc(size - start);
    let read = 0;
    while (read < buf.length) {
      const n = readSync(fd, buf, read, buf.length - read, start + read);
      if (n === 0) break;
      read += n;
    }
    // A line being written is left for the next time.
    const nl = buf.subarray(0, read).lastIndexOf(0x0a);
    if (nl === -1) return { lines: [], end: start };
    return { lines: buf.subarray(0, nl).toString("utf8").split("\n"), end: start + nl + 1 };
  } finally {
    closeSync(fd);
  }
}

export class PgMirror implements IndexObserver {
  /** How far each transcript has been copied. */
  private readonly sent = new Map<string, { bytes: number; lines: number; lastSeq: number }>();
  private readonly dirty = new Set<string>();
  private timer: NodeJS.Timeout | undefined;
  private chain: Promise<void> = Promise.resolve();

  constructor(
    private readonly files: TranscriptStore,
    private readonly db: PgStore,
  ) {}

  changed(id: string): void {
    this.dirty.add(id);
    this.timer ??= setTimeout(() => void this.flush(), NOTIFY_MS).unref();
  }

  /** Nothing: the local store's retention must not delete the team's copy (deletes go to the database). */
  removed(_id: string): void {}

  /** Copies every transcript told of so far; resolves when they are saved. */
  flush(): Promise<void> {
    clearTimeout(this.timer);
    this.timer = undefined;
    const ids = [...this.dirty];
    this.dirty.clear();
    this.chain = this.chain.then(async () => {
      for (const id of ids) {
        try {
          await this.sync(id);
        } catch (err) {
          // Copied again from the start the next time it changes.
          this.sent.delete(id);
          console.error(`database: transcript ${id}: ${(err as Error).message}`);
        }
      }
    });
    return this.chain;
  }

  /** Copies one transcript's new lines and its meta now. */
  async sync(id: string): Promise<void> {
    const meta = this.files.meta(id);
    if (!meta) return;
    let from = this.sent.get(id) ?? { bytes: 0, lines: 0, lastSeq: 0 };
    const { lines, end } = wholeLines(this.files.file(id), from.bytes);
    if (end < from.bytes) from = { bytes: 0, lines: 0, lastSeq: 0 };
    const lastSeq = await this.db.save(meta, lines, from.lines, from.lastSeq);
    this.sent.set(id, { bytes: end, lines: from.lines + lines.length, lastSeq });
  }
}
