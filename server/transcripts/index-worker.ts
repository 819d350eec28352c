/**
 * The search index's thread (library-index.ts starts it): all of the index's work, SQLite
 * writes and searches alike, happens here, never on the relay's event loop. Transcripts to
 * update are kept in sets and indexed a slice at a time, so a search waits for at most one slice.
 *
 * How hard it works depends on the relay: while frames flow (the relay's side counts the
 * recorder's notices in a shared counter, `flow`), slices are small and each is followed by a
 * rest twice as long, so the index takes a third of a core at most from the frames; once
 * nothing has flowed for FLOW_QUIET_MS it runs flat out, yielding between slices only to answer
 * searches. Transcripts the relay said changed (a live recording) take turns with the backlog a
 * rescan found, so what is being recorded is searchable within a slice or two.
 */
import { parentPort, workerData } from "node:worker_threads";
import { SearchIndex } from "./search-index";
import { lowerThreadPriority } from "../thread-priority";
import type { IndexReply, IndexRequest } from "./library-index";

/** Read per slice when idle (tens of milliseconds of work: how long a search may wait) and while frames flow. */
const SLICE_BYTES = 1024 * 1024;
const BUSY_SLICE_BYTES = 256 * 1024;
/** While frames flow, each slice is followed by a rest this many times as long as it took. */
const BUSY_REST = 2;
/** Frames count as flowing until none has been told for this long. */
const FLOW_QUIET_MS = 500;
/** How often files written by other processes (a tap on its own, a second relay) are looked for. */
const RESCAN_MS = 30_000;
/** A removal's traces are purged once removals have stopped for this long (or when the index is idle). */
const PURGE_DELAY_MS = 2_000;

// Indexing yields to the relay's event loop, which carries the frames (server/thread-priority.ts).
lowerThreadPriority();
const port = parentPort!;
const { dir, flow } = workerData as { dir: string; flow: Int32Array };
const index = new SearchIndex(dir);
/** Told changed by the relay (first), and found stale by a rescan (the backlog). */
const urgent = new Set<string>();
const backlog = new Set<string>();
const idleWaiters: number[] = [];
let running = false;
let closed = false;

function reply(message: IndexReply): void {
  port.postMessage(message);
}

function rescan(): void {
  try {
    for (const id of index.stale()) if (!urgent.has(id)) backlog.add(id);
  } catch (err) {
    console.error(`search index: ${(err as Error).message}`);
  }
  run();
}

let seenFlow = Atomics.load(flow, 0);
let flowedAt = -Infinity;
/** Whether frames are flowing through the relay: its counter moved within FLOW_QUIET_MS. */
function flowing(): boolean {
  const now = performance.now();
  const n = Atomics.load(flow, 0);
  if (n !== seenFlow) {
    seenFlow = n;
    flowedAt = now;
  }
  return now - flowedAt < FLOW_QUIET_MS;
}

let restMs = 0;
let urgentTurn = false;

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
  // Changed files and the backlog take turns: a recording that streams for hours must not starve the backlog.
  urgentTurn = !urgentTurn;
  const queue = (urgentTurn && urgent.size > 0) || backlog.size === 0 ? urgent : backlog;
  const id = queue.values().next().value;
  if (id === undefined) {
    purge();
    for (const rid of idleWaiters.splice(0)) reply({ rid, ok: true, value: null });
    return;
  }
  const busy = flowing();
  const started = performance.now();
  try {
    if (index.update(id, busy ? BUSY_SLICE_BYTES : SLICE_BYTES)) queue.delete(id);
  } catch (err) {
    // A file that cannot be indexed (read error, disk full) is left until it changes again.
    queue.delete(id);
    console.error(`search index: ${id}: ${(err as Error).message}`);
  }
  if (busy) restMs = Math.min(1000, BUSY_REST * (performance.now() - started));
  run();
}

/** How far the index has got, while it has a backlog (a search then says its results may be incomplete). */
function progress() {
  return backlog.size > 0 ? index.progress() : undefined;
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
    let value: unknown;
    if (first.m.type === "search") {
      const answer = index.search(first.m.query);
      const p = progress();
      value = p ? { ...answer, progress: p } : answer;
    } else value = index.latency(first.m.query);
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
      for (const id of m.ids) {
        backlog.delete(id);
        urgent.add(id);
      }
      return run();
    case "removed":
      for (const id of m.ids) {
        urgent.delete(id);
        backlog.delete(id);
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
