/**
 * The search index's thread (library-index.ts starts it): all of the index's work, SQLite
 * writes and searches alike, happens here, never on the relay's event loop. Transcripts to
 * update are kept in a set and indexed a slice at a time, so a search waits for at most one slice.
 */
import { parentPort, workerData } from "node:worker_threads";
import { SearchIndex } from "./search-index";
import { lowerThreadPriority } from "../thread-priority";
import type { IndexReply, IndexRequest } from "./library-index";

/** Read per slice: tens of milliseconds of indexing. */
const SLICE_BYTES = 512 * 1024;
/** How often files written by other processes (a tap on its own, a second relay) are looked for. */
const RESCAN_MS = 30_000;

// Indexing yields to the relay's event loop, which carries the frames (server/thread-priority.ts).
lowerThreadPriority();
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
      return;
    case "idle":
      idleWaiters.push(m.rid);
      return rescan();
    case "close":
      closed = true;
      index.close();
      clearInterval(timer);
      return reply({ rid: m.rid, ok: true, value: null });
    default:
      try {
        const value = m.type === "search" ? index.search(m.query) : index.latency(m.query);
        reply({ rid: m.rid, ok: true, value });
      } catch (err) {
        reply({ rid: m.rid, ok: false, error: (err as Error).message });
      }
  }
});

const timer = setInterval(rescan, RESCAN_MS);
timer.unref();
rescan();
