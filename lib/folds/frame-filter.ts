/**
 * The inspector's filter and full-text search over a frame log, and the merge
 * of stderr and lifecycle events into the same timeline. Pure and linear: one
 * pass over the frames, no per-frame allocation, so 100,000 frames filter in a
 * few milliseconds (a search in tens).
 */
import type { Frame, FrameDirection, FrameKind } from "../protocol/frame";
import { hasChecks } from "./frame-checks";
import { updateVariantOf, type FrameIndex } from "./frame-index";
import { isObject } from "../protocol/json";
import { APP_SERVER_NOTIFICATIONS } from "../protocol/app-server-methods";
import { chunkKeyOf, chunkTextOf, sameChunkKey } from "./chunk-key";

export interface FrameFilter {
  dir?: FrameDirection;
  kind?: FrameKind;
  method?: string;
  /** `params.update.sessionUpdate` of `session/update` frames. */
  updateVariant?: string;
  /** Invalid frames, frames with an `error`, JSON-RPC error responses, app-server errors. */
  errorsOnly?: boolean;
  /**
   * Frames a protocol check flags (lib/folds/frame-checks.ts), and those the schema
   * judge given to frameMatcher flags (the schemas load in the page, not here).
   */
  checksOnly?: boolean;
  /** Case-insensitive substring of the raw line, or of a message's text across its chunks. */
  search?: string;
}

/** Frames and everything else for the list: anything with `length` and `at`. */
export interface FrameSource {
  readonly length: number;
  at(i: number): Frame | undefined;
}

/** A JSON-RPC response carrying an `error` member. */
export function isErrorResponse(frame: Frame): boolean {
  return frame.kind === "response" && isObject(frame.message) && "error" in frame.message;
}

/** A Codex app-server error: an `error` notification, or a turn that completed with an error. */
function isAppServerError(frame: Frame): boolean {
  if (frame.kind !== "notification") return false;
  if (frame.method === APP_SERVER_NOTIFICATIONS.error) return true;
  if (frame.method !== APP_SERVER_NOTIFICATIONS.turn_completed || !isObject(frame.message)) return false;
  const params = frame.message.params;
  return isObject(params) && isObject(params.turn) && isObject(params.turn.error);
}

export function isErrorFrame(frame: Frame): boolean {
  return frame.kind === "invalid" || frame.error !== undefined || isErrorResponse(frame) || isAppServerError(frame);
}

/** Does any criterion narrow the list? */
export function isFiltering(f: FrameFilter): boolean {
  return !!(f.dir || f.kind || f.method || f.updateVariant || f.errorsOnly || f.checksOnly || f.search);
}

const escapeRegExp = (s: string) => s.replace(/[.*+?^${}()|[\]\\]/g, "\\$&");

/**
 * A case-insensitive literal matcher. A regular expression with the `i` flag
 * beats lowercasing every line (no copy of each raw string).
 */
export function textMatcher(query: string | undefined): ((text: string) => boolean) | undefined {
  if (!query) return undefined;
  if (!/[a-z]/i.test(query)) return (text) => text.includes(query);
  const re = new RegExp(escapeRegExp(query), "i");
  return (text) => re.test(text);
}

/** Whether a frame fails its schema (the page's judge); frames not judged yet pass as clean. */
export type SchemaFlag = (frame: Frame) => boolean;

/** The frame predicate for a filter; `index` answers the checks that need context, `schema` the schema check. */
export function frameMatcher(f: FrameFilter, index?: FrameIndex, schema?: SchemaFlag): (frame: Frame) => boolean {
  const text = textMatcher(f.search);
  const { dir, kind, method, updateVariant, errorsOnly, checksOnly } = f;
  return (frame) =>
    (dir === undefined || frame.dir === dir) &&
    (kind === undefined || frame.kind === kind) &&
    (method === undefined || frame.method === method) &&
    (updateVariant === undefined || updateVariantOf(frame) === updateVariant) &&
    (!errorsOnly || isErrorFrame(frame)) &&
    (!checksOnly || hasChecks(frame, index) || schema?.(frame) === true) &&
    (text === undefined || text(frame.raw));
}

/**
 * Appends the seqs of matching frames at positions [from, source.length) to
 * `out` and returns it. Called over the whole log, or only over what was
 * appended since the last call when the filter is unchanged. A search also
 * reads a message's chunks as one text: words split across chunks find the
 * chunks that hold them.
 */
export function filterFrames(
  source: FrameSource,
  filter: FrameFilter,
  index?: FrameIndex,
  from = 0,
  out: number[] = [],
  schema?: SchemaFlag,
): number[] {
  const match = frameMatcher(filter, index, schema);
  const across = filter.search
    ? acrossChunks(source, filter.search, frameMatcher({ ...filter, search: undefined }, index, schema))
    : undefined;
  const n = source.length;
  for (let i = Math.max(0, from); i < n; i++) {
    const frame = source.at(i)!;
    if (match(frame)) out.push(frame.seq);
    else if (across) {
      const seqs = across(i);
      if (seqs) mergeTail(out, seqs);
    }
  }
  return out;
}

/**
 * For the chunk at position i: the seqs of the chunks (it and those just before it, of the same
 * message) that a match of `query` spans, when one ends in this chunk's text; else undefined.
 */
function acrossChunks(
  source: FrameSource,
  query: string,
  passes: (frame: Frame) => boolean,
): (i: number) => number[] | undefined {
  const re = new RegExp(escapeRegExp(query), "gi");
  const lower = query.toLowerCase();
  /** Whether `text` starts with the end of the query (a match ending in it began before it). Cheap: most chunks fail at once. */
  const startsWithQueryEnd = (text: string): boolean => {
    const head = text.slice(0, lower.length - 1).toLowerCase();
    for (let k = Math.min(head.length, lower.length - 1); k >= 1; k--)
      if (lower.endsWith(head.slice(0, k))) return true;
    return false;
  };
  const first = new Set(lower.slice(1));
  return (i) => {
    const frame = source.at(i)!;
    const text = chunkTextOf(frame);
    if (!text || !first.has(text[0]!.toLowerCase()) || !startsWithQueryEnd(text)) return undefined;
    const key = chunkKeyOf(frame);
    if (!key || !passes(frame)) return undefined;
    // Back through the message's chunks for the query's length less one: a match longer than
    // that before this chunk would have been found without it.
    const parts: Array<{ seq: number; text: string }> = [];
    let before = 0;
    for (let j = i - 1; j >= 0 && before < query.length - 1; j--) {
      const prev = source.at(j)!;
      if (prev.seq !== frame.seq - (i - j) || !sameChunkKey(chunkKeyOf(prev), key)) break;
      const t = chunkTextOf(prev);
      parts.unshift({ seq: prev.seq, text: t });
      before += t.length;
    }
    if (before === 0) return undefined;
    const window = parts.map((p) => p.text).join("") + text;
    // Only a match that ends in this chunk: one wholly before it was found at its own chunk.
    re.lastIndex = Math.max(0, before - query.length + 1);
    const found = re.exec(window);
    if (!found || found.index + found[0].length <= before) return undefined;
    const seqs: number[] = [];
    let at = 0;
    for (const p of parts) {
      if (at + p.text.length > found.index && passes(source.at(i - (frame.seq - p.seq))!)) seqs.push(p.seq);
      at += p.text.length;
    }
    seqs.push(frame.seq);
    return seqs;
  };
}

/** Adds ascending `seqs` to ascending `out`, keeping it ascending and without repeats (they are at its end). */
function mergeTail(out: number[], seqs: number[]): void {
  let cut = out.length;
  while (cut > 0 && out[cut - 1]! >= seqs[0]!) cut--;
  const merged = [...new Set([...out.slice(cut), ...seqs])].sort((a, b) => a - b);
  out.splice(cut, out.length - cut, ...merged);
}

/** A non-frame entry on the timeline. */
export interface TimelineEvent {
  ts: number;
  type: "stderr" | "started" | "exited" | "error" | "attached" | "transport";
  text: string;
}

/** Merges two ts-ordered event lists into one (stable: `a` first on ties). */
export function mergeEvents(a: readonly TimelineEvent[], b: readonly TimelineEvent[]): TimelineEvent[] {
  const out: TimelineEvent[] = [];
  let i = 0;
  let j = 0;
  while (i < a.length || j < b.length) {
    if (j >= b.length || (i < a.length && a[i]!.ts <= b[j]!.ts)) out.push(a[i++]!);
    else out.push(b[j++]!);
  }
  return out;
}

/**
 * One timeline row: a frame seq (>= 1), or an event as -(index + 1) into the
 * event list. Numbers, not objects, so 100,000 rows cost one array.
 */
export type TimelineRow = number;

export const eventRow = (eventIndex: number): TimelineRow => -(eventIndex + 1);
export const rowEventIndex = (row: TimelineRow): number => -row - 1;
export const isEventRow = (row: TimelineRow): boolean => row < 0;

/**
 * Interleaves events with the (filtered) frame seqs by time. An event goes
 * before the first frame seen after it. Events not matching `search` are left
 * out; the frame filter's other criteria do not apply to them.
 */
export function mergeTimeline(
  seqs: readonly number[],
  tsOfSeq: (seq: number) => number,
  events: readonly TimelineEvent[],
  search?: string,
): TimelineRow[] {
  const text = textMatcher(search);
  const out: TimelineRow[] = [];
  let e = 0;
  const nextEvent = () => {
    while (e < events.length && text && !text(events[e]!.text)) e++;
  };
  nextEvent();
  for (const seq of seqs) {
    const ts = tsOfSeq(seq);
    while (e < events.length && events[e]!.ts < ts) {
      out.push(eventRow(e++));
      nextEvent();
    }
    out.push(seq);
  }
  while (e < events.length) {
    out.push(eventRow(e++));
    nextEvent();
  }
  return out;
}
