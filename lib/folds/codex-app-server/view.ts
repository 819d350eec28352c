/**
 * The decoded view of a Codex app-server conversation (docs/app-server.md): threads, their turns
 * and each turn's items (messages, reasoning, command executions, file changes, tool calls...),
 * the token usage per turn, and the approvals the server asked for, answered or pending. Every
 * item keeps the seqs of the frames it was decoded from, for links to them. The app-server's
 * counterpart of lib/folds/session-view/ (ACP).
 *
 * Pure and incremental: `reduceAppServerFrames(frames, state)` folds frames after those already
 * in `state` without changing it; a frame that changes nothing returns the same state. A write
 * copies the path from the root to what it changes (state, thread, turns, turn, items, item):
 * turns and items are few, deltas are many, and a delta copies no text (string `+` is a rope).
 */
import type { Frame } from "../../protocol/frame";
import {
  APP_SERVER_CLIENT,
  APP_SERVER_NOTIFICATIONS as N,
  APP_SERVER_REQUESTS,
  threadIdOf,
  turnIdOf,
} from "../../protocol/app-server-methods";
import { isObject, num, obj, str, type JsonObject } from "../../protocol/json";
import { compact, get as own } from "../session-view/draft";
import {
  decodeItem,
  fresh,
  placeholder,
  strings,
  type ApprovalView,
  type AsItem,
  type CommandItem,
  type NoticeItem,
  type ReasoningItem,
} from "./items";

export type * from "./items";

/** Token counts as the server reports them (`totalTokens`, `inputTokens`, `outputTokens`...). */
export type TokenCounts = Readonly<Record<string, number>>;

export interface TokenUsage {
  last?: TokenCounts;
  total?: TokenCounts;
  modelContextWindow?: number;
}

export interface TurnView {
  id: string;
  threadId: string;
  /** The first frame of the turn (the `turn/start` request when seen). */
  seq: number;
  ts: number;
  /** inProgress, completed, interrupted, failed; "unknown" for a turn only thread/items/list named. */
  status: string;
  items: AsItem[];
  startSeq?: number;
  endSeq?: number;
  durationMs?: number;
  error?: JsonObject;
  usage?: TokenUsage;
  /** The turn's aggregated unified diff (`turn/diff/updated`). */
  diff?: string;
  /** `turn/interrupt` sent. */
  interruptSeq?: number;
}

export interface ThreadView {
  id: string;
  firstSeq: number;
  cwd?: string;
  model?: string;
  /** The `thread/start` (resume, fork) response's other settings: approvalPolicy, sandbox... */
  settings?: JsonObject;
  /** idle, active (with flags such as waitingOnApproval), notLoaded, systemError. */
  status?: string;
  activeFlags?: string[];
  usage?: TokenUsage;
  turns: TurnView[];
  /** Notices and items that name the thread but no turn it has. */
  outside: AsItem[];
}

/** A request the view waits to see answered, by its seq. */
interface OpenRequest {
  method: string;
  ts: number;
  threadId?: string;
  turnId?: string;
  itemId?: string;
  /** A page of history listed newest first (`sortDirection` "desc", thread/turns/list's default). */
  newestFirst?: boolean;
}

export interface AppServerViewState {
  threads: Readonly<Record<string, ThreadView>>;
  /** Thread ids in order of appearance. */
  order: readonly string[];
  /** Notices that name no thread (configWarning, deprecationNotice). */
  notices: readonly NoticeItem[];
  /** Server requests not answered yet, by request seq: the approvals a turn waits on. */
  pending: Readonly<Record<number, ApprovalView>>;
  open: Readonly<Record<number, OpenRequest>>;
}

export const EMPTY_APP_SERVER_VIEW: AppServerViewState = { threads: {}, order: [], notices: [], pending: {}, open: {} };

/** The item a server request is about, by method (a placeholder until the server reports the item itself). */
const REQUEST_ITEM_TYPE: Readonly<Record<string, string>> = {
  [APP_SERVER_REQUESTS.command_approval]: "commandExecution",
  [APP_SERVER_REQUESTS.exec_command_approval]: "commandExecution",
  [APP_SERVER_REQUESTS.file_change_approval]: "fileChange",
  [APP_SERVER_REQUESTS.apply_patch_approval]: "fileChange",
  [APP_SERVER_REQUESTS.permissions_approval]: "permissions",
  [APP_SERVER_REQUESTS.tool_user_input]: "userInput",
};

/** Requests to the server whose answers the view reads. */
const TRACKED: ReadonlySet<string> = new Set([
  APP_SERVER_CLIENT.thread_start,
  APP_SERVER_CLIENT.thread_resume,
  "thread/fork",
  APP_SERVER_CLIENT.thread_read,
  APP_SERVER_CLIENT.thread_turns_list,
  APP_SERVER_CLIENT.thread_items_list,
  APP_SERVER_CLIENT.turn_start,
]);

/** How each history page is ordered when the request does not say (ThreadTurnsListParams, ThreadItemsListParams). */
const NEWEST_FIRST_BY_DEFAULT: Readonly<Record<string, boolean>> = {
  [APP_SERVER_CLIENT.thread_turns_list]: true,
  [APP_SERVER_CLIENT.thread_items_list]: false,
};

export function reduceAppServerFrames(
  frames: Iterable<Frame>,
  state: AppServerViewState = EMPTY_APP_SERVER_VIEW,
): AppServerViewState {
  let s = state;
  for (const f of frames) s = reduceAppServerFrame(s, f);
  return s;
}

export function reduceAppServerFrame(s: AppServerViewState, f: Frame): AppServerViewState {
  if (!isObject(f.message)) return s;
  const m = f.message;
  const p = obj(m.params);
  if (f.kind === "request" && f.method !== undefined) {
    if (f.dir === "to-agent") return onClientRequest(s, f, p);
    return REQUEST_ITEM_TYPE[f.method] !== undefined ? onServerRequest(s, f, p) : s;
  }
  if (f.kind === "response" && f.requestSeq !== undefined) return onResponse(s, f, m);
  if (f.kind === "notification" && f.dir === "from-agent" && f.method !== undefined) return onNotification(s, f, p);
  return s;
}

// --- requests and responses

function onClientRequest(s: AppServerViewState, f: Frame, p: JsonObject): AppServerViewState {
  const method = f.method!;
  if (method === APP_SERVER_CLIENT.turn_interrupt) {
    const threadId = str(p.threadId);
    const turnId = str(p.turnId);
    if (threadId === undefined || turnId === undefined || !hasTurn(s, threadId, turnId)) return s;
    return updateTurn(s, threadId, turnId, f, (t) =>
      t.interruptSeq === undefined ? { ...t, interruptSeq: f.seq } : t,
    );
  }
  if (!TRACKED.has(method)) return s;
  const sort = str(p.sortDirection);
  const newestFirst = sort === undefined ? NEWEST_FIRST_BY_DEFAULT[method] : sort === "desc";
  return { ...s, open: { ...s.open, [f.seq]: compact({ method, ts: f.ts, threadId: str(p.threadId), newestFirst }) } };
}

function onServerRequest(s: AppServerViewState, f: Frame, p: JsonObject): AppServerViewState {
  const approval: ApprovalView = { method: f.method!, requestSeq: f.seq, requestId: f.id ?? null, params: p };
  // v2 approvals name their thread, turn and item; the legacy ones a conversation and a call.
  const threadId = str(p.threadId) ?? str(p.conversationId) ?? "";
  const turnId = str(p.turnId) ?? "";
  const itemId = str(p.itemId) ?? str(p.callId) ?? `request-${f.seq}`;
  const open = { ...s.open, [f.seq]: { method: f.method!, ts: f.ts, threadId, turnId, itemId } };
  const next = upsertItem(
    { ...s, open, pending: { ...s.pending, [f.seq]: approval } },
    f,
    threadId,
    turnId,
    itemId,
    (it) => (it ? { ...it, approval } : placeholder(itemId, REQUEST_ITEM_TYPE[f.method!]!, approval, f.seq)),
  );
  return next;
}

function onResponse(s: AppServerViewState, f: Frame, m: JsonObject): AppServerViewState {
  const req = s.open[f.requestSeq!];
  if (!req) return s;
  const { [f.requestSeq!]: _, ...open } = s.open;
  let next: AppServerViewState = { ...s, open };
  const result = obj(m.result);
  if (REQUEST_ITEM_TYPE[req.method] !== undefined) {
    const { [f.requestSeq!]: answered, ...pending } = next.pending;
    next = { ...next, pending };
    if (!answered) return next;
    const approval = compact<ApprovalView>({ ...answered, result: m.result, error: m.error, responseSeq: f.seq });
    return updateItem(next, req.threadId!, req.turnId!, req.itemId!, f, (it) => ({ ...it, approval }));
  }
  if ("error" in m) return next;
  if (req.method === APP_SERVER_CLIENT.turn_start) {
    const threadId = req.threadId;
    const turnId = turnIdOf(result);
    if (threadId === undefined || turnId === undefined) return next;
    // The turn's first frame is the request that started it.
    return ensureTurn(next, threadId, turnId, { seq: f.requestSeq!, ts: req.ts }, f);
  }
  if (req.method === APP_SERVER_CLIENT.thread_turns_list || req.method === APP_SERVER_CLIENT.thread_items_list)
    return req.threadId === undefined ? next : onPage(next, f, req, result);
  // thread/start, resume, fork: the thread, its settings and its turns so far; thread/read: its turns.
  const threadId = threadIdOf(result);
  if (threadId === undefined) return next;
  const withHistory = onHistory(next, f, threadId, obj(result.thread).turns);
  if (req.method === APP_SERVER_CLIENT.thread_read) return withHistory;
  const { thread: _t, model, cwd, ...settings } = result;
  return updateThread(withHistory, threadId, f.requestSeq!, (t) =>
    compact({ ...t, model: str(model) ?? t.model, cwd: str(cwd) ?? t.cwd, settings: settings }),
  );
}

/**
 * A page of a thread's history: thread/turns/list's turns (with their items, as much as `itemsView`
 * loaded), or thread/items/list's items (each naming its turn). A page is an unbroken stretch of
 * the history: turns the view has not seen are placed among those it has by the page's order; a
 * page that shares none of them is older history when listed newest first (paging back), newer
 * otherwise.
 */
function onPage(s: AppServerViewState, f: Frame, req: OpenRequest, result: JsonObject): AppServerViewState {
  const threadId = req.threadId!;
  const data = Array.isArray(result.data) ? result.data.filter(isObject) : [];
  const chronological = req.newestFirst ? [...data].reverse() : data;
  if (req.method === APP_SERVER_CLIENT.thread_turns_list) {
    // Each listed turn says its own status (onHistory reads it).
    const ids = chronological.map((t) => str(t.id));
    const placed = placeTurns(s, f, threadId, ids, !!req.newestFirst, "inProgress");
    return onHistory(placed, f, threadId, chronological);
  }
  // thread/items/list: entries {turnId, item}, grouped into their turns in the page's order.
  const turns = new Map<string, JsonObject[]>();
  for (const entry of chronological) {
    const turnId = str(entry.turnId);
    if (turnId === undefined || !isObject(entry.item)) continue;
    turns.set(turnId, [...(turns.get(turnId) ?? []), entry.item]);
  }
  // An item page does not say how its turns went.
  const placed = placeTurns(s, f, threadId, [...turns.keys()], !!req.newestFirst, "unknown");
  return onHistory(
    placed,
    f,
    threadId,
    [...turns].map(([id, items]) => ({ id, items })),
  );
}

/** Adds the page's turns the thread lacks: before the next one it has, after the last one it has, or at an end. */
function placeTurns(
  s: AppServerViewState,
  f: Frame,
  threadId: string,
  page: readonly (string | undefined)[],
  older: boolean,
  status: string,
): AppServerViewState {
  return updateThread(s, threadId, f.seq, (t) => {
    const turns = [...t.turns];
    const fresh = (id: string): TurnView => ({ id, threadId, seq: f.seq, ts: f.ts, status, items: [] });
    const known = new Set(turns.map((x) => x.id));
    const ids = [...new Set(page.filter((id): id is string => id !== undefined))];
    if (ids.every((id) => known.has(id))) return t;
    if (!ids.some((id) => known.has(id))) {
      const added = ids.map(fresh);
      return { ...t, turns: older ? [...added, ...turns] : [...turns, ...added] };
    }
    let at: number | undefined;
    const before: TurnView[] = [];
    for (const id of ids) {
      const i = turns.findIndex((x) => x.id === id);
      if (i < 0) {
        if (at === undefined) before.push(fresh(id));
        else turns.splice(at++, 0, fresh(id));
      } else if (at === undefined) {
        turns.splice(i, 0, ...before);
        at = i + before.length + 1;
      } else at = i + 1;
    }
    return { ...t, turns };
  });
}

/** The turns a resumed, forked or read thread already had (or a listed page), with their items, as the response lists them. */
function onHistory(s: AppServerViewState, f: Frame, threadId: string, turns: unknown): AppServerViewState {
  let next = s;
  for (const turn of Array.isArray(turns) ? turns.filter(isObject) : []) {
    const turnId = str(turn.id);
    if (turnId === undefined) continue;
    next = ensureTurn(next, threadId, turnId, { seq: f.seq, ts: f.ts }, f);
    for (const item of Array.isArray(turn.items) ? turn.items.filter(isObject) : []) {
      const id = str(item.id);
      if (id !== undefined) next = upsertItem(next, f, threadId, turnId, id, (it) => decodeItem(item, it, true, f.seq));
    }
    next = updateTurn(next, threadId, turnId, f, (t) =>
      compact({
        ...t,
        status: str(turn.status) ?? t.status,
        durationMs: num(turn.durationMs) ?? t.durationMs,
        error: isObject(turn.error) ? turn.error : t.error,
      }),
    );
  }
  return next;
}

// --- notifications

function onNotification(s: AppServerViewState, f: Frame, p: JsonObject): AppServerViewState {
  const threadId = str(p.threadId);
  const turnId = str(p.turnId);
  switch (f.method) {
    case N.thread_started: {
      const id = threadIdOf(p);
      return id === undefined ? s : updateThread(s, id, f.seq, (t) => t);
    }
    case N.thread_status_changed: {
      if (threadId === undefined) return s;
      const status = obj(p.status);
      return updateThread(s, threadId, f.seq, (t) =>
        compact({ ...t, status: str(status.type), activeFlags: strings(status.activeFlags) }),
      );
    }
    case N.turn_started:
    case N.turn_completed: {
      const turn = obj(p.turn);
      const id = turnIdOf(p);
      if (threadId === undefined || id === undefined) return s;
      const started = f.method === N.turn_started;
      const next = ensureTurn(s, threadId, id, { seq: f.seq, ts: f.ts }, f);
      return updateTurn(next, threadId, id, f, (t) =>
        compact({
          ...t,
          status: str(turn.status) ?? t.status,
          startSeq: started ? (t.startSeq ?? f.seq) : t.startSeq,
          endSeq: started ? t.endSeq : f.seq,
          durationMs: num(turn.durationMs) ?? t.durationMs,
          error: isObject(turn.error) ? turn.error : t.error,
        }),
      );
    }
    case N.item_started:
    case N.item_completed: {
      const item = obj(p.item);
      const id = str(item.id);
      if (threadId === undefined || turnId === undefined || id === undefined) return s;
      const completed = f.method === N.item_completed;
      return upsertItem(s, f, threadId, turnId, id, (it) => decodeItem(item, it, completed, f.seq));
    }
    case N.agent_message_delta:
    case N.reasoning_summary_text_delta:
    case N.reasoning_text_delta:
    case N.command_output_delta:
    case N.file_change_output_delta:
      return onDelta(s, f, p);
    case N.thread_token_usage_updated: {
      if (threadId === undefined) return s;
      const u = obj(p.tokenUsage);
      const usage = compact<TokenUsage>({
        last: counts(u.last),
        total: counts(u.total),
        modelContextWindow: num(u.modelContextWindow),
      });
      const next = updateThread(s, threadId, f.seq, (t) => ({ ...t, usage }));
      return turnId !== undefined && hasTurn(next, threadId, turnId)
        ? updateTurn(next, threadId, turnId, f, (t) => ({ ...t, usage }))
        : next;
    }
    case "turn/diff/updated": {
      const diff = str(p.diff);
      if (threadId === undefined || turnId === undefined || diff === undefined || !hasTurn(s, threadId, turnId))
        return s;
      return updateTurn(s, threadId, turnId, f, (t) => ({ ...t, diff }));
    }
    case N.server_request_resolved: {
      if (threadId === undefined) return s;
      const seq = Object.keys(s.open)
        .map(Number)
        .find((k) => s.open[k]!.threadId === threadId && s.pending[k]?.requestId === p.requestId);
      if (seq === undefined) return s;
      const req = s.open[seq]!;
      const { [seq]: approval, ...pending } = s.pending;
      // Resolved without an answer (the turn ended): nothing is pending any more, and no answer will come.
      const { [seq]: _, ...open } = s.open;
      return updateItem({ ...s, pending, open }, threadId, req.turnId!, req.itemId!, f, (it) => ({
        ...it,
        approval: { ...approval!, resolvedSeq: f.seq },
      }));
    }
    case N.error:
    case N.warning:
    case "configWarning":
    case "deprecationNotice":
      return addNotice(s, f, p, threadId, turnId);
    default:
      return s;
  }
}

function onDelta(s: AppServerViewState, f: Frame, p: JsonObject): AppServerViewState {
  const threadId = str(p.threadId);
  const turnId = str(p.turnId);
  const itemId = str(p.itemId);
  const delta = str(p.delta);
  if (threadId === undefined || turnId === undefined || itemId === undefined || delta === undefined) return s;
  return upsertItem(s, f, threadId, turnId, itemId, (it) => {
    switch (f.method) {
      case N.agent_message_delta: {
        const m = it?.type === "agentMessage" ? it : undefined;
        return { ...(m ?? fresh(itemId, f.seq)), type: "agentMessage", text: (m?.text ?? "") + delta };
      }
      case N.reasoning_summary_text_delta:
      case N.reasoning_text_delta: {
        const r: ReasoningItem =
          it?.type === "reasoning" ? it : { ...fresh(itemId, f.seq), type: "reasoning", summary: [], content: [] };
        const summary = f.method === N.reasoning_summary_text_delta;
        const parts = [...(summary ? r.summary : r.content)];
        const i = num(summary ? p.summaryIndex : p.contentIndex) ?? Math.max(0, parts.length - 1);
        while (parts.length <= i) parts.push("");
        parts[i] += delta;
        return summary ? { ...r, summary: parts } : { ...r, content: parts };
      }
      case N.command_output_delta: {
        const c: CommandItem =
          it?.type === "commandExecution" ? it : { ...fresh(itemId, f.seq), type: "commandExecution", output: "" };
        return { ...c, output: c.output + delta };
      }
      default:
        // A file change's output (the patch tool's report): the changes themselves come with the item.
        return it ?? { ...fresh(itemId, f.seq), type: "fileChange", changes: [] };
    }
  });
}

function addNotice(
  s: AppServerViewState,
  f: Frame,
  p: JsonObject,
  threadId: string | undefined,
  turnId: string | undefined,
): AppServerViewState {
  const error = obj(p.error);
  const notice = compact<NoticeItem>({
    ...fresh(`notice-${f.seq}`, f.seq),
    completed: true,
    type: "notice",
    level: f.method === N.error ? "error" : "warning",
    method: f.method!,
    message: str(p.message) ?? str(error.message) ?? str(p.summary) ?? "",
    details: str(p.details) ?? str(error.additionalDetails),
    willRetry: f.method === N.error ? p.willRetry === true : undefined,
  });
  if (threadId === undefined) return { ...s, notices: [...s.notices, notice] };
  if (turnId !== undefined && hasTurn(s, threadId, turnId))
    return updateTurn(s, threadId, turnId, f, (t) => ({ ...t, items: [...t.items, notice] }));
  // A warning names the thread of the turn being started: the turn/start response comes after it.
  return updateThread(s, threadId, f.seq, (t) => ({ ...t, outside: [...t.outside, notice] }));
}

function counts(v: unknown): TokenCounts | undefined {
  if (!isObject(v)) return undefined;
  return Object.fromEntries(Object.entries(v).filter((e): e is [string, number] => typeof e[1] === "number"));
}

// --- copying the path to what changes

function hasTurn(s: AppServerViewState, threadId: string, turnId: string): boolean {
  const t = own(s.threads, threadId);
  return !!t && t.turns.some((x) => x.id === turnId);
}

function updateThread(
  s: AppServerViewState,
  id: string,
  seq: number,
  change: (t: ThreadView) => ThreadView,
): AppServerViewState {
  const cur = own(s.threads, id);
  const t = change(cur ?? { id, firstSeq: seq, turns: [], outside: [] });
  if (t === cur) return s;
  const threads = { ...s.threads };
  Object.defineProperty(threads, id, { value: t, enumerable: true, writable: true, configurable: true });
  return { ...s, threads, order: cur ? s.order : [...s.order, id] };
}

function ensureTurn(
  s: AppServerViewState,
  threadId: string,
  turnId: string,
  first: { seq: number; ts: number },
  f: Frame,
): AppServerViewState {
  return updateThread(s, threadId, f.seq, (t) => {
    const i = t.turns.findIndex((x) => x.id === turnId);
    if (i >= 0) {
      const turn = t.turns[i]!;
      // The turn/start response names a turn its notifications may have opened already.
      if (first.seq >= turn.seq) return t;
      const turns = [...t.turns];
      turns[i] = { ...turn, seq: first.seq, ts: first.ts };
      return { ...t, turns };
    }
    const turn: TurnView = { id: turnId, threadId, seq: first.seq, ts: first.ts, status: "inProgress", items: [] };
    return { ...t, turns: [...t.turns, turn] };
  });
}

function updateTurn(
  s: AppServerViewState,
  threadId: string,
  turnId: string,
  f: Frame,
  change: (t: TurnView) => TurnView,
): AppServerViewState {
  return updateThread(s, threadId, f.seq, (t) => {
    const i = t.turns.findLastIndex((x) => x.id === turnId);
    if (i < 0) return t;
    const next = change(t.turns[i]!);
    if (next === t.turns[i]) return t;
    const turns = [...t.turns];
    turns[i] = next;
    return { ...t, turns };
  });
}

/** Changes (or adds) an item of a turn, opening the turn (and thread) if this is its first frame; the frame joins the item's seqs. */
function upsertItem(
  s: AppServerViewState,
  f: Frame,
  threadId: string,
  turnId: string,
  itemId: string,
  change: (it: AsItem | undefined) => AsItem,
): AppServerViewState {
  const withTurn = turnId === "" ? s : ensureTurn(s, threadId, turnId, { seq: f.seq, ts: f.ts }, f);
  const joined = (it: AsItem | undefined): AsItem => {
    const next = change(it);
    return it && next.seqs.last !== f.seq ? { ...next, seqs: next.seqs.append(f.seq) } : next;
  };
  if (turnId === "") {
    // A legacy request names no turn: it goes with the thread's other loose items.
    return updateThread(withTurn, threadId, f.seq, (t) => ({ ...t, outside: upsert(t.outside, itemId, joined) }));
  }
  return updateTurn(withTurn, threadId, turnId, f, (t) => ({ ...t, items: upsert(t.items, itemId, joined) }));
}

/** Changes an item that exists; the state unchanged otherwise. */
function updateItem(
  s: AppServerViewState,
  threadId: string,
  turnId: string,
  itemId: string,
  f: Frame,
  change: (it: AsItem) => AsItem,
): AppServerViewState {
  const t = own(s.threads, threadId);
  if (!t) return s;
  const found =
    turnId === ""
      ? t.outside.some((it) => it.id === itemId)
      : t.turns.some((x) => x.id === turnId && x.items.some((it) => it.id === itemId));
  return found ? upsertItem(s, f, threadId, turnId, itemId, (it) => change(it!)) : s;
}

function upsert(items: AsItem[], id: string, change: (it: AsItem | undefined) => AsItem): AsItem[] {
  const i = items.findLastIndex((it) => it.id === id && it.type !== "notice");
  const next = [...items];
  if (i < 0) next.push(change(undefined));
  else next[i] = change(items[i]);
  return next;
}
