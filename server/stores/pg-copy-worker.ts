/**
 * The database copy's thread (pg-mirror.ts starts it): reading each transcript's new lines,
 * building their rows (a JSON.parse and the search words of every line) and writing them to
 * PostgreSQL all happen here, on a pool of its own, never on the relay's event loop. The relay's
 * thread tells it which transcripts changed; it answers which are settled (nothing left to copy)
 * or released (over the backlog's bound), for the relay's thread keeps them from retention.
 */
import path from "node:path";
import { parentPort, threadId, workerData } from "node:worker_threads";
import { lowerThreadPriority } from "../thread-priority";
import { ProbeStore } from "../transcripts/probe-store";
import { TranscriptStore } from "../transcripts/transcript-store";
import { PgCopy } from "./pg-copy";
import type { CopyReply, CopyRequest, CopyWorkerData } from "./pg-mirror";
import { PgStore } from "./pg-store";

// The copy yields to the relay's event loop, which carries the frames (server/thread-priority.ts).
lowerThreadPriority();
const port = parentPort!;
const data = workerData as CopyWorkerData;
/** The relay's own store reads the same directory; this one only reads what the copy needs. */
const files = new TranscriptStore(path.dirname(data.transcriptsDir), {}, data.limits);
const db = PgStore.writer(data.url, data.instance);
/** The last notice each transcript was in: the relay's thread unpins it only once that one is copied. */
const batchOf = new Map<string, number>();
const reply = (m: CopyReply) => port.postMessage(m);
const copy = new PgCopy(
  files,
  db,
  {
    settled(id) {
      const batch = batchOf.get(id);
      batchOf.delete(id);
      reply({ type: "settled", id, batch: batch ?? 0, threadId });
    },
    released(ids) {
      reply({ type: "released", ids });
    },
  },
  data.backlogBytes,
  data.probesDataDir === undefined ? undefined : new ProbeStore(data.probesDataDir),
);
copy.startIndexing();

let closing: Promise<void> | undefined;
port.on("message", (m: CopyRequest) => {
  switch (m.type) {
    case "changed": {
      // Recordings this process writes: `meta` must not take them for a crashed writer's (same pid).
      const live = new Set(m.live);
      const unlisted = new Set(m.unlisted);
      for (const id of m.ids) {
        if (live.has(id)) files.live.add(id);
        else files.live.delete(id);
        // As the relay's store has it: left out until a browser takes it.
        if (unlisted.has(id)) files.unlisted.add(id);
        else files.unlisted.delete(id);
        batchOf.set(id, m.batch);
        copy.changed(id);
      }
      return;
    }
    case "flush":
      void copy.flush().then(() => reply({ type: "done", rid: m.rid }));
      return;
    case "close":
      closing ??= copy.close().then(() => db.close());
      void closing.then(() => reply({ type: "done", rid: m.rid }));
      return;
  }
});
