/**
 * Background threads (the search index's) run at a lower scheduling priority than the
 * relay's event loop, so that on a busy machine a frame waiting on the relay's thread is not
 * kept behind a slice of indexing: with two cores shared by the agent, the relay and the
 * browser, the kernel would otherwise let that slice run out first (milliseconds).
 */
import { readlinkSync } from "node:fs";
import { getPriority, setPriority } from "node:os";

/**
 * The nice value of a background thread: it yields to the relay's thread whenever both want
 * a core, and still gets about a tenth of one against a busy thread of normal priority (19
 * would starve searches on a loaded machine).
 */
export const BACKGROUND_NICE = 10;

/**
 * Lowers the calling thread's priority to `nice`; returns whether it did. Linux only, where a
 * nice value is a thread's own (elsewhere it is the whole process's, the relay's included), and
 * never the main thread. Best effort: lowering one's own priority needs no privilege, but a
 * sandbox may refuse it.
 */
export function lowerThreadPriority(nice = BACKGROUND_NICE): boolean {
  if (process.platform !== "linux") return false;
  try {
    const tid = Number(readlinkSync("/proc/thread-self").split("/").pop());
    if (!Number.isInteger(tid) || tid === process.pid) return false;
    if (getPriority(tid) < nice) setPriority(tid, nice);
    return true;
  } catch {
    return false;
  }
}
