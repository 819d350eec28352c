/**
 * Request ids for what the playground sends to one agent. The relay assigns
 * none: ids come from here, unique per agent, always above any numeric id
 * already seen going to the agent (the pool's initialize, a hand-typed frame,
 * frames re-read after a reload), so a composed request never reuses one.
 */
import type { JsonRpcId } from "./frame";

export class RequestIdCounter {
  #max = 0;

  /** The highest numeric id seen or handed out. */
  get max(): number {
    return this.#max;
  }

  /** Notes an id seen on a request to the agent; strings and non-integers do not count. */
  observe(id: JsonRpcId | undefined): void {
    if (typeof id === "number" && Number.isSafeInteger(id) && id > this.#max) this.#max = id;
  }

  /** The id `next()` would return, without taking it (for previews). */
  peek(): number {
    return this.#max + 1;
  }

  /** Takes the next id: every call returns a new one, even before the request is seen. */
  next(): number {
    this.#max += 1;
    return this.#max;
  }

  /** A new agent: ids start over. */
  reset(): void {
    this.#max = 0;
  }
}
