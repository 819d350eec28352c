/**
 * Copy-on-write draft and the small helpers every part of the fold shares.
 * An object is copied the first time it is written within one call, and
 * written in place after that.
 */
import type { ContentBlock } from "@agentclientprotocol/sdk";
import { isObject } from "../../protocol/json";
import type { SessionViewState } from "./types";

export class Draft {
  readonly #owned = new WeakSet<object>();
  root: SessionViewState;

  constructor(root: SessionViewState) {
    this.root = root;
  }

  /** Marks an object created in this call, referenced from one place only, as writable in place. */
  fresh<T extends object>(v: T): T {
    this.#owned.add(v);
    return v;
  }

  /** A writable version of `v`: itself if created in this call, else a shallow copy. */
  own<T extends object>(v: T): T {
    if (this.#owned.has(v)) return v;
    return this.fresh((Array.isArray(v) ? v.slice() : { ...v }) as T);
  }

  state(): SessionViewState {
    return (this.root = this.own(this.root));
  }
}

export type Obj = Record<string, unknown>;
export const isBlock = (v: unknown): v is ContentBlock =>
  isObject(v) && typeof v.type === "string" && (v.type !== "text" || typeof v.text === "string");

// Session ids come off the wire: "__proto__" must be an own key, never the prototype.
export const get = <T>(rec: Record<string, T>, k: string): T | undefined =>
  Object.hasOwn(rec, k) ? rec[k] : undefined;
export const put = <T>(rec: Record<string, T>, k: string, v: T): void => {
  Object.defineProperty(rec, k, { value: v, writable: true, enumerable: true, configurable: true });
};

/** Drops undefined fields so that views compare and serialise cleanly. */
export function compact<T extends object>(o: T): T {
  for (const k of Object.keys(o) as Array<keyof T>) if (o[k] === undefined) delete o[k];
  return o;
}
