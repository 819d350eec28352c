/** Test harness: what this process holds, for a relay started in the test's own process. */
import v8 from "node:v8";
import vm from "node:vm";

v8.setFlagsFromString("--expose-gc");
const gc = vm.runInNewContext("gc") as () => void;

/** Heap in use and array buffers, in bytes, after a full collection: what is held, not what is yet to be collected. */
export function liveBytes(): number {
  gc();
  const m = process.memoryUsage();
  return m.heapUsed + m.arrayBuffers;
}
