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
  /** Case-insensitive substring of the raw line. */
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
 * appended since the last call when the filter is unchanged.
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
  const n = source.length;
  for (let i = Math.max(0, from); i < n; i++) {
    const frame = source.at(i)!;
    if (match(frame)) out.push(frame.seq);
  }
  return out;
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
