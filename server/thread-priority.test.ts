import { mkdtempSync, readdirSync, readFileSync, rmSync } from "node:fs";
import { getPriority, tmpdir } from "node:os";
import path from "node:path";
import { pathToFileURL } from "node:url";
import { Worker } from "node:worker_threads";
import { describe, expect, it } from "vitest";
import { BACKGROUND_NICE, lowerThreadPriority } from "./thread-priority";
import { LibraryIndex } from "./transcripts/library-index";

/** The nice value of each of this process's threads. */
const threadNices = () =>
  readdirSync("/proc/self/task").map((tid) => {
    const stat = readFileSync(`/proc/self/task/${tid}/stat`, "utf8");
    return Number(stat.slice(stat.lastIndexOf(")") + 2).split(" ")[16]);
  });

/** Runs lowerThreadPriority in a worker thread (through tsx, as server/runtime.ts workerScript does). */
function inWorker(): Promise<{ lowered: boolean; nice: number }> {
  const file = pathToFileURL(path.join(import.meta.dirname, "thread-priority.ts")).href;
  const api = import.meta.resolve("tsx/esm/api");
  const source = `
    const { parentPort } = require("node:worker_threads");
    const { getPriority } = require("node:os");
    import(${JSON.stringify(api)})
      .then(({ tsImport }) => tsImport(${JSON.stringify(file)}, ${JSON.stringify(file)}))
      .then((m) => {
        const lowered = m.lowerThreadPriority();
        parentPort.postMessage({ lowered, nice: getPriority(0) });
      });`;
  const worker = new Worker(source, { eval: true });
  return new Promise((resolve, reject) => {
    worker.once("message", (m: { lowered: boolean; nice: number }) => void worker.terminate().then(() => resolve(m)));
    worker.once("error", reject);
  });
}

// Run below BACKGROUND_NICE already (`nice npm test`), every thread starts there: nothing to tell apart.
describe.runIf(process.platform === "linux" && getPriority(process.pid) < BACKGROUND_NICE)(
  "a background thread's priority (Linux)",
  () => {
    it("lowers the worker thread's own priority and leaves the process's main thread as it was", async () => {
      const before = getPriority(process.pid);
      const { lowered, nice } = await inWorker();
      expect(lowered).toBe(true);
      expect(nice).toBe(Math.max(before, BACKGROUND_NICE));
      expect(getPriority(process.pid)).toBe(before);
    });

    it("never lowers the main thread (the relay's event loop)", () => {
      const before = getPriority(process.pid);
      expect(lowerThreadPriority()).toBe(false);
      expect(getPriority(process.pid)).toBe(before);
    });

    it("runs the search index's thread below the relay's", async () => {
      const dir = mkdtempSync(path.join(tmpdir(), "acp-nice-"));
      const before = threadNices().filter((n) => n >= BACKGROUND_NICE).length;
      const index = new LibraryIndex(dir);
      try {
        await index.idle();
        expect(threadNices().filter((n) => n >= BACKGROUND_NICE).length).toBeGreaterThan(before);
        expect(getPriority(process.pid)).toBeLessThan(BACKGROUND_NICE);
      } finally {
        await index.close();
        rmSync(dir, { recursive: true, force: true });
      }
    });
  },
);
