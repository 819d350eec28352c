/**
 * What the HTTP routes (transcripts, share, search, latency) and the recorder's notices ask of a
 * transcript library, as one surface with two implementations: the embedded file store
 * (server/transcripts/transcript-store.ts with its SQLite index, synchronous) and the team store
 * on PostgreSQL (server/stores/pg-store.ts, asynchronous). Every answer may be a promise, so the
 * file store satisfies this unchanged; callers await.
 */
import type { LatencyAnswer, LatencyQuery, SearchAnswer, SearchQuery } from "../../lib/contracts/library-search";
import type { ListFilter, TranscriptMeta } from "../../lib/contracts/transcript-meta";

export type Awaitable<T> = T | Promise<T>;

/** Transcripts: meta, their JSONL, and what a user changes about them. */
export interface TranscriptLibrary {
  /** Every listed transcript (`filter.owner`: only theirs), newest first. */
  list(filter?: ListFilter): Awaitable<TranscriptMeta[]>;
  meta(id: string): Awaitable<TranscriptMeta | undefined>;
  exists(id: string): Awaitable<boolean>;
  /** The JSONL as recorded, with the current title in its header. */
  read(id: string): Awaitable<string | undefined>;
  rename(id: string, title: string): Awaitable<TranscriptMeta | undefined>;
  /** Records who made it (a named token's owner). */
  own(id: string, owner: string): Awaitable<TranscriptMeta | undefined>;
  share(id: string, options?: { showCommand?: boolean }): Awaitable<TranscriptMeta | undefined>;
  unshare(id: string): Awaitable<TranscriptMeta | undefined>;
  /** False when there is no such transcript or it is still being recorded. */
  delete(id: string): Awaitable<boolean>;
}

/** Full-text search and latency across the library (the file store's is LibraryIndex). */
export interface LibrarySearch {
  search(query: SearchQuery): Promise<SearchAnswer>;
  latency(query: LatencyQuery): Promise<LatencyAnswer>;
}
