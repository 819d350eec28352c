/**
 * What `session/list` answered, folded page by page: the sessions the agent
 * listed (id, cwd, title, updated time, archived), the cursor of the next page,
 * and the changes the playground's own session/set_title, close, delete,
 * archive and unarchive made once the agent accepted them.
 *
 * Everything here comes from the agent and is hostile: a page keeps at most
 * MAX_PAGE_SESSIONS entries, the whole list MAX_LISTED, strings are cut to
 * MAX_TEXT characters, entries without a string id or cwd are dropped and
 * counted (`dropped`), a cursor must be a string of at most MAX_CURSOR
 * characters (else there is no next page and `badCursor` says why).
 */
import { isObject, type JsonObject, str } from "../protocol/json";
import { AGENT_METHODS } from "../protocol/methods";

export const MAX_PAGE_SESSIONS = 500;
export const MAX_LISTED = 2_000;
export const MAX_TEXT = 300;
export const MAX_CURSOR = 4_096;

export interface ListedSession {
  sessionId: string;
  cwd: string;
  title?: string;
  updatedAt?: string;
  archived?: boolean;
}

export interface SessionListing {
  sessions: readonly ListedSession[];
  /** The next page's cursor, when the agent gave a usable one. */
  nextCursor?: string;
  /** Why the agent's nextCursor was not kept. */
  badCursor?: string;
  /** Entries the agent sent that were not sessions (no string sessionId or cwd), over all pages. */
  dropped: number;
  /** Pages folded since the last first page. */
  pages: number;
  /** The seq of the last session/list response folded. */
  seq: number;
}

const cut = (s: string, n = MAX_TEXT) => (s.length > n ? `${s.slice(0, n)}…` : s);

/** One SessionInfo, or undefined when it is not one. */
export function readSessionInfo(v: unknown): ListedSession | undefined {
  if (!isObject(v)) return undefined;
  const sessionId = str(v.sessionId);
  const cwd = str(v.cwd);
  if (!sessionId || cwd === undefined || sessionId.length > MAX_TEXT) return undefined;
  const out: ListedSession = { sessionId, cwd: cut(cwd, 1_024) };
  const title = str(v.title);
  if (title !== undefined) out.title = cut(title.replace(/[\r\n]+/g, " "));
  const updatedAt = str(v.updatedAt);
  if (updatedAt !== undefined) out.updatedAt = cut(updatedAt, 64);
  if (v.archived === true) out.archived = true;
  return out;
}

/** Folds one session/list result: a page without a cursor in its request starts the list again. */
export function foldListPage(
  prev: SessionListing | undefined,
  params: unknown,
  result: JsonObject,
  seq: number,
): SessionListing {
  const p = isObject(params) ? params : {};
  const first = typeof p.cursor !== "string" || !prev;
  const base = first ? [] : [...prev.sessions];
  let dropped = first ? 0 : prev.dropped;
  const raw = Array.isArray(result.sessions) ? result.sessions : [];
  if (raw.length > MAX_PAGE_SESSIONS) dropped += raw.length - MAX_PAGE_SESSIONS;
  const index = new Map(base.map((s, i) => [s.sessionId, i]));
  for (const item of raw.slice(0, MAX_PAGE_SESSIONS)) {
    const s = readSessionInfo(item);
    if (!s) {
      dropped++;
      continue;
    }
    const at = index.get(s.sessionId);
    if (at !== undefined) base[at] = s;
    else if (base.length < MAX_LISTED) {
      index.set(s.sessionId, base.length);
      base.push(s);
    } else dropped++;
  }
  const out: SessionListing = { sessions: base, dropped, pages: first ? 1 : prev.pages + 1, seq };
  const cursor = result.nextCursor;
  if (typeof cursor === "string" && cursor.length > 0) {
    if (cursor.length > MAX_CURSOR) out.badCursor = `nextCursor is longer than ${MAX_CURSOR} characters`;
    else if (cursor === p.cursor) out.badCursor = "nextCursor repeats the cursor of this page";
    else out.nextCursor = cursor;
  } else if (cursor !== undefined && cursor !== null && cursor !== "") {
    out.badCursor = "nextCursor is not a string";
  }
  return out;
}

/** Applies an accepted session/set_title, close, delete, archive or unarchive to the listing. */
export function applySessionChange(listing: SessionListing, method: string, params: unknown): SessionListing {
  const p = isObject(params) ? params : {};
  const id = str(p.sessionId);
  if (id === undefined) return listing;
  const at = listing.sessions.findIndex((s) => s.sessionId === id);
  if (at < 0) return listing;
  const sessions = [...listing.sessions];
  const s = sessions[at]!;
  switch (method) {
    case AGENT_METHODS.session_set_title: {
      const title = str(p.title);
      if (title === undefined) return listing;
      sessions[at] = { ...s, title: cut(title) };
      break;
    }
    case AGENT_METHODS.session_delete:
      sessions.splice(at, 1);
      break;
    case AGENT_METHODS.session_archive:
      sessions[at] = { ...s, archived: true };
      break;
    case AGENT_METHODS.session_unarchive: {
      const { archived: _a, ...rest } = s;
      sessions[at] = rest;
      break;
    }
    default:
      return listing;
  }
  return { ...listing, sessions };
}

/** Methods whose accepted request changes the listing. */
export const LISTING_CHANGES: ReadonlySet<string> = new Set([
  AGENT_METHODS.session_set_title,
  AGENT_METHODS.session_delete,
  AGENT_METHODS.session_archive,
  AGENT_METHODS.session_unarchive,
]);
