/** Sessions, turns and item lists: where an update lands, and the requests the view waits on. */
import type { Frame } from "../../protocol/frame";
import { AGENT_METHODS } from "../../protocol/methods";
import { schemaOfUpdateKind } from "../../protocol/update-kinds";
import { isObject } from "../../protocol/json";
import { compact, get, put, type Draft } from "./draft";
import { SeqList } from "./seq-list";
import type { PendingRequest, SessionState, Turn, UnknownItem, ViewItem } from "./types";

/**
 * The view's own record of the requests it waits on (answered by `requestSeq`):
 * not lib/protocol/pending-requests.ts's index, because it is part of the
 * immutable snapshot a render reads (copied on write through the draft).
 */
export function track(d: Draft, f: Frame, extra: Partial<PendingRequest>): void {
  const st = d.state();
  st.pending = d.own(st.pending);
  const params = isObject(f.message) ? f.message.params : undefined;
  st.pending[f.seq] = compact({ method: f.method ?? "", seq: f.seq, ts: f.ts, params, ...extra });
}

export function take(d: Draft, requestSeq: number): PendingRequest | undefined {
  const pend = d.root.pending[requestSeq];
  if (!pend) return undefined; // an untracked response leaves the state (and its identity) untouched
  const st = d.state();
  st.pending = d.own(st.pending);
  delete st.pending[requestSeq];
  return pend;
}

export function ownSession(d: Draft, id: string, seq: number): SessionState {
  const st = d.state();
  const cur = get(st.sessions, id);
  st.sessions = d.own(st.sessions);
  if (cur) {
    const s = d.own(cur);
    put(st.sessions, id, s);
    return s;
  }
  const s = d.fresh<SessionState>({
    sessionId: id,
    firstSeq: seq,
    availableModes: [],
    configOptions: [],
    availableCommands: [],
    info: {},
    preamble: [],
    history: [],
    turns: [],
    unknown: [],
  });
  put(st.sessions, id, s);
  st.order = d.own(st.order);
  st.order.push(id);
  return s;
}

export function ownTurn(d: Draft, s: SessionState, i: number): Turn {
  s.turns = d.own(s.turns);
  const t = d.own(s.turns[i]!);
  s.turns[i] = t;
  return t;
}

/** Writable item list of turn `i`, or of the preamble when `i` is -1. */
export function ownItems(d: Draft, s: SessionState, i: number): ViewItem[] {
  if (i < 0) return (s.preamble = d.own(s.preamble));
  const t = ownTurn(d, s, i);
  return (t.items = d.own(t.items));
}

/**
 * Where a session update lands: the history while a session/load (or session/resume) of
 * this session waits for its response, else the running turn, else after the last turn,
 * else the preamble.
 */
export interface Target {
  items: ViewItem[];
  /** The running turn, writable. */
  turn?: Turn;
  outOfTurn: boolean;
  history?: boolean;
}

const REPLAYING = new Set<string>([AGENT_METHODS.session_load, AGENT_METHODS.session_resume]);

/** A session/load or session/resume of this session is waiting for its response. */
export function replaying(d: Draft, sessionId: string): boolean {
  const pending = d.root.pending;
  for (const k in pending) {
    const p = pending[k]!;
    if (p.sessionId === sessionId && REPLAYING.has(p.method)) return true;
  }
  return false;
}

export function target(d: Draft, s: SessionState): Target {
  if (replaying(d, s.sessionId)) return { items: (s.history = d.own(s.history)), outOfTurn: false, history: true };
  const i = s.turns.length - 1;
  const items = ownItems(d, s, i);
  if (i < 0) return { items, outOfTurn: false };
  const t = s.turns[i]!; // owned by ownItems
  return t.ended ? { items, outOfTurn: true } : { items, turn: t, outOfTurn: false };
}

export function addItem<T extends ViewItem>(d: Draft, tg: Target, item: T): T {
  if (tg.outOfTurn) item.outOfTurn = true;
  tg.items.push(d.fresh(item));
  return item;
}

export function lastIndex(items: readonly ViewItem[], pred: (it: ViewItem) => boolean): number {
  for (let i = items.length - 1; i >= 0; i--) if (pred(items[i]!)) return i;
  return -1;
}

export function firstOutput(tg: Target, f: Frame): void {
  if (tg.turn && tg.turn.timeToFirstChunkMs === undefined) tg.turn.timeToFirstChunkMs = f.ts - tg.turn.ts;
}

export function addUnknown(
  d: Draft,
  s: SessionState,
  tg: Target,
  seq: number,
  variant: string,
  update: unknown,
  reason: string,
) {
  const item: UnknownItem = { type: "unknown", variant, update, reason, seqs: SeqList.of(seq) };
  const validIn = schemaOfUpdateKind(variant);
  if (validIn) item.validIn = validIn;
  if (tg.outOfTurn) item.outOfTurn = true;
  // Not fresh: listed twice, so never written in place (and never written at all).
  tg.items.push(item);
  s.unknown = d.own(s.unknown);
  s.unknown.push(item);
}

/** Replaces `tg.items[i]` with a writable copy and returns it, with `seq` appended to its seqs. */
export function ownAt<T extends ViewItem>(d: Draft, tg: Target, i: number, seq: number): T {
  const it = d.own(tg.items[i] as T);
  tg.items[i] = it;
  it.seqs = it.seqs.append(seq);
  return it;
}
