/**
 * What a tab sent, kept for re-sending and editing, and stored across reloads:
 * entries are capped in number and, when stored, in size (sessionStorage is small).
 */
import { isObject } from "../protocol/json";

/** Sent frames kept in a tab's history. */
export const HISTORY_CAP = 200;
/**
 * Stored history at most this many characters per tab; the oldest entries go
 * first. Every tab of the page shares about 5 MB of sessionStorage.
 */
export const STORED_HISTORY_CHARS = 100_000;

/** A frame this tab sent, exactly as sent. */
export interface SentEntry {
  ts: number;
  /** The exact text that went to the agent. */
  text: string;
  method?: string;
  id?: string | number | null;
  kind: "request" | "notification" | "response" | "other";
  seq: number;
}

const KINDS = new Set<unknown>(["request", "notification", "response", "other"]);

export function appendSent(
  history: readonly SentEntry[],
  frame: string | object,
  seq: number,
  ts = Date.now(),
): readonly SentEntry[] {
  const text = typeof frame === "string" ? frame : JSON.stringify(frame);
  const m = isObject(frame) ? frame : undefined;
  const method = typeof m?.method === "string" ? m.method : undefined;
  const hasId = m !== undefined && "id" in m;
  const kind: SentEntry["kind"] = !m
    ? "other"
    : method
      ? hasId
        ? "request"
        : "notification"
      : hasId
        ? "response"
        : "other";
  const entry: SentEntry = {
    ts,
    text,
    kind,
    seq,
    ...(method ? { method } : {}),
    ...(hasId ? { id: m.id as SentEntry["id"] } : {}),
  };
  const next = [...history, entry];
  return next.length > HISTORY_CAP ? next.slice(-HISTORY_CAP) : next;
}

/** JSON of the newest entries that fit in `maxChars`. */
export function encodeSentHistory(history: readonly SentEntry[], maxChars = STORED_HISTORY_CHARS): string {
  let from = 0;
  let text = JSON.stringify(history);
  while (text.length > maxChars && from < history.length) {
    // Drop about the share that is over, at least one entry.
    from += Math.max(1, Math.ceil(((text.length - maxChars) / text.length) * (history.length - from)));
    text = JSON.stringify(history.slice(from));
  }
  return text;
}

/** Entries the history re-sends as objects must still parse (storage is editable by anyone at the keyboard). */
function parsesAsObject(text: string): boolean {
  try {
    return isObject(JSON.parse(text));
  } catch {
    return false;
  }
}

const isEntry = (v: unknown): v is SentEntry =>
  isObject(v) &&
  typeof v.text === "string" &&
  (v.kind === "other" || parsesAsObject(v.text)) &&
  typeof v.ts === "number" &&
  typeof v.seq === "number" &&
  KINDS.has(v.kind) &&
  (v.method === undefined || typeof v.method === "string") &&
  (v.id === undefined || v.id === null || typeof v.id === "string" || typeof v.id === "number");

/** Stored history back; anything unreadable is left out (it is only a convenience). */
export function decodeSentHistory(text: string | null): SentEntry[] {
  if (!text) return [];
  try {
    const value: unknown = JSON.parse(text);
    return Array.isArray(value) ? value.filter(isEntry).slice(-HISTORY_CAP) : [];
  } catch {
    return [];
  }
}
