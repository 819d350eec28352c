/**
 * The search index's thread (library-index.ts starts it): all of the index's work, SQLite
 * writes and searches alike, happens here, never on the relay's event loop. Transcripts to
 * update are kept in a set and indexed a slice at a time, so a search waits for at most one slice.
 */
import { parentPort, workerData } from "node:worker_threads";
import { SearchIndex } from "./search-index";
import type { IndexReply, IndexRequest } from "./library-index";

/** Read per slice: tens of milliseconds of indexing. */
const SLICE_BYTES = 512 * 1024;
/** How often files written by other processes (a tap on its own, a second relay) are looked for. */
const RESCAN_MS = 30_000;
/** A removal's traces are purged once removals have stopped for this long (or when the index is idle). */
const PURGE_DELAY_MS = 2_000;

const port = parentPort!;
const { dir } = workerData as { dir: string };
const index = new SearchIndex(dir);
const dirty = new Set<string>();
const idleWaiters: number[] = [];
let running = false;
let closed = false;

function reply(message: IndexReply): void {
  port.postMessage(message);
}

function rescan(): void {
  try {
    for (const id of index.stale()) dirty.add(id);
  } catch (err) {
    console.error(`search index: ${(err as Error).message}`);
  }
  run();
}

/** After a slice that took `ms`, the next one waits as long: the index takes at most half a core from the relay. */
let restMs = 0;

function run(): void {
  if (running || closed) return;
  running = true;
  if (restMs > 0) setTimeout(step, restMs);
  else setImmediate(step);
}

function step(): void {
  running = false;
  restMs = 0;
  if (closed) return;
  const id = dirty.values().next().value;
  if (id === undefined) {
    purge();
    for (const rid of idleWaiters.splice(0)) reply({ rid, ok: true, value: null });
    return;
  }
  const started = performance.now();
  try {
    if (index.update(id, SLICE_BYTES)) dirty.delete(id);
  } catch (err) {
    // A file that cannot be indexed (read error, disk full) is left until it changes again.
    dirty.delete(id);
    console.error(`search index: ${id}: ${(err as Error).message}`);
  }
  restMs = Math.min(1000, performance.now() - started);
  run();
}

/** Clears what removed transcripts left in the index (its cost grows with the index: once removals stop). */
function purge(): void {
  clearTimeout(purgeTimer);
  purgeTimer = undefined;
  try {
    index.purge();
  } catch (err) {
    console.error(`search index: purge: ${(err as Error).message}`);
  }
}
let purgeTimer: NodeJS.Timeout | undefined;

/**
 * Searches waiting, answered one per turn of the loop (an indexing slice may run between two):
 * the same query asked again while it waits is answered once, for every asker.
 */
const queries: Array<{ rid: number; key: string; m: Extract<IndexRequest, { type: "search" | "latency" }> }> = [];

function answer(): void {
  const first = queries.shift();
  if (!first) return;
  let message: IndexReply;
  try {
    const value = first.m.type === "search" ? index.search(first.m.query) : index.latency(first.m.query);
    message = { rid: first.rid, ok: true, value };
  } catch (err) {
    message = { rid: first.rid, ok: false, error: (err as Error).message };
  }
  reply(message);
  for (let i = queries.length - 1; i >= 0; i--)
    if (queries[i]!.key === first.key) reply({ ...message, rid: queries.splice(i, 1)[0]!.rid });
  if (queries.length > 0) setImmediate(answer);
}

port.on("message", (m: IndexRequest) => {
  if (closed) return;
  switch (m.type) {
    case "changed":
      for (const id of m.ids) dirty.add(id);
      return run();
    case "removed":
      for (const id of m.ids) {
        dirty.delete(id);
        index.remove(id);
      }
      clearTimeout(purgeTimer);
      purgeTimer = setTimeout(purge, PURGE_DELAY_MS);
      return;
    case "idle":
      idleWaiters.push(m.rid);
      return rescan();
    case "close":
      closed = true;
      purge();
      index.close();
      clearInterval(timer);
      clearTimeout(purgeTimer);
      return reply({ rid: m.rid, ok: true, value: null });
    default:
      if (queries.push({ rid: m.rid, key: JSON.stringify([m.type, m.query]), m }) === 1) setImmediate(answer);
  }
});

const timer = setInterval(rescan, RESCAN_MS);
timer.unref();
rescan();
