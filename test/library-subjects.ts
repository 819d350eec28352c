/**
 * Test harness: the two library stores, each fed transcripts as it is in use (the file store by an
 * import, the PostgreSQL store through PgMirror as `serve --database` feeds it), behind one
 * interface, so a suite runs against both (server/stores/library-store.test.ts, search-differential.test.ts).
 */
import { appendFileSync, mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import type { TranscriptMeta } from "../lib/contracts/transcript-meta";
import { transcriptLimits } from "../server/config";
import { SearchIndex, type QueryBudget } from "../server/transcripts/search-index";
import { TranscriptStore } from "../server/transcripts/transcript-store";
import type { LibrarySearch, TranscriptLibrary } from "../server/stores/library-store";
import { PgMirror } from "../server/stores/pg-mirror";
import { PgStore, type PgOptions } from "../server/stores/pg-store";

export interface Subject {
  store: TranscriptLibrary & LibrarySearch;
  /** Adds a transcript as an upload does; answers its meta as the store lists it. */
  add(jsonl: string): Promise<TranscriptMeta>;
  /** Appends lines to a transcript as a recording does, and waits until the store has them. */
  append(id: string, jsonl: string): Promise<void>;
  close(): Promise<void>;
}

/** The file store satisfies the interface as it is (a compile-time check). */
const _fileStoreFits: (s: TranscriptStore) => TranscriptLibrary = (s) => s;

/** A search's budget (QUERY_BUDGET) no search of a test's library meets, even on a loaded machine. */
export const UNBOUNDED: QueryBudget = { steps: 1e12, ms: 600_000 };

export function fileStore(budget?: QueryBudget): Subject {
  const dir = mkdtempSync(path.join(tmpdir(), "acp-lib-file-"));
  const files = new TranscriptStore(dir, {}, transcriptLimits({}));
  const index = new SearchIndex(files.dir, budget);
  const store = Object.assign(Object.create(files) as TranscriptStore, {
    search: async (q: Parameters<SearchIndex["search"]>[0]) => (index.updateAll(), index.search(q)),
    latency: async (q: Parameters<SearchIndex["latency"]>[0]) => (index.updateAll(), index.latency(q)),
  });
  return {
    store,
    add: async (jsonl) => {
      const temp = files.tempFile();
      writeFileSync(temp, jsonl);
      return files.import(temp);
    },
    append: async (id, jsonl) => appendFileSync(files.file(id), jsonl),
    close: async () => {
      index.close();
      rmSync(dir, { recursive: true, force: true });
    },
  };
}

/** The PostgreSQL store, fed as `serve --database` feeds it: a local import copied by PgMirror. */
export async function pgStore(url: string, options: PgOptions = {}): Promise<Subject> {
  const db = await PgStore.open(url, options);
  await db.pool.query("TRUNCATE transcripts CASCADE");
  const dir = mkdtempSync(path.join(tmpdir(), "acp-lib-pg-"));
  const files = new TranscriptStore(dir, {}, transcriptLimits({}));
  const mirror = new PgMirror(files, db);
  files.index = mirror;
  return {
    store: db,
    add: async (jsonl) => {
      const temp = files.tempFile();
      writeFileSync(temp, jsonl);
      const meta = files.import(temp);
      await mirror.flush();
      return (await db.meta(meta.id))!;
    },
    append: async (id, jsonl) => {
      appendFileSync(files.file(id), jsonl);
      mirror.changed(id);
      await mirror.flush();
    },
    close: async () => {
      await mirror.close();
      await db.close();
      rmSync(dir, { recursive: true, force: true });
    },
  };
}
