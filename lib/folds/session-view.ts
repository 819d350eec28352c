/**
 * Session view: folds frames into a decoded conversation per ACP session
 * (turns, messages, thoughts, tool calls, plans, session state). Used by the
 * live session view, transcript playback and tests.
 *
 * Pure: `reduceFrame` never mutates its input and returns the same state object
 * when a frame changes nothing. Internally every write goes through a
 * copy-on-write draft: an object is copied the first time it is written within
 * one call, and written in place after that, so `reduceFrames` over 100k frames
 * copies each object at most once while the caller's state stays untouched.
 */
import type {
  AvailableCommand,
  ContentBlock,
  Error as AcpError,
  PermissionOption,
  PlanEntry,
  RequestPermissionOutcome,
  SessionConfigOption,
  SessionMode,
  SessionUpdate,
  StopReason,
  ToolCallContent,
  ToolCallLocation,
  ToolCallStatus,
  ToolKind,
  UsageUpdate,
} from "@agentclientprotocol/sdk";
import type { Frame, JsonRpcId } from "../protocol/frame";
import { isObject, obj, str, num } from "../protocol/json";
import { isUsageOnlyChunk, turnUsageOf, type TurnUsage as BaseTurnUsage } from "./turn-usage";
import { AGENT_METHODS, CLIENT_METHODS, LEGACY_AGENT_METHODS } from "../protocol/methods";

/** Session id under which a `session/update` or `session/prompt` without a string sessionId is kept. */
export const NO_SESSION = "";

/**
 * The frame seqs an item was decoded from, in arrival order. An immutable list
 * with O(1) amortised `append`: a message merged from 100k chunks must not copy
 * a 100k-element array per chunk. Successive lists share one buffer; each reads
 * only its own prefix, so older states never see later seqs.
 */
export class SeqList implements Iterable<number> {
  readonly #buf: number[];
  readonly #sorted: boolean;
  readonly length: number;

  private constructor(buf: number[], length: number, sorted: boolean) {
    this.#buf = buf;
    this.length = length;
    this.#sorted = sorted;
  }

  static of(...seqs: number[]): SeqList {
    let sorted = true;
    for (let i = 1; i < seqs.length; i++) if (seqs[i]! <= seqs[i - 1]!) sorted = false;
    return new SeqList(seqs, seqs.length, sorted);
  }

  get first(): number | undefined {
    return this.length > 0 ? this.#buf[0] : undefined;
  }

  get last(): number | undefined {
    return this.length > 0 ? this.#buf[this.length - 1] : undefined;
  }

  append(seq: number): SeqList {
    const last = this.last;
    const sorted = this.#sorted && (last === undefined || seq > last);
    // Someone already appended past our end (a branch from an older state): copy our prefix.
    const buf = this.#buf.length === this.length ? this.#buf : this.#buf.slice(0, this.length);
    buf.push(seq);
    return new SeqList(buf, this.length + 1, sorted);
  }

  includes(seq: number): boolean {
    const buf = this.#buf;
    if (!this.#sorted) {
      for (let i = 0; i < this.length; i++) if (buf[i] === seq) return true;
      return false;
    }
    let lo = 0;
    let hi = this.length - 1;
    while (lo <= hi) {
      const mid = (lo + hi) >>> 1;
      const v = buf[mid]!;
      if (v === seq) return true;
      if (v < seq) lo = mid + 1;
      else hi = mid - 1;
    }
    return false;
  }

  toArray(): number[] {
    return this.#buf.slice(0, this.length);
  }

  toJSON(): number[] {
    return this.toArray();
  }

  *[Symbol.iterator](): Iterator<number> {
    for (let i = 0; i < this.length; i++) yield this.#buf[i]!;
  }
}

interface ItemBase {
  /** Source frames, so the UI can highlight them. `seqs.first` is unique per session: a good React key. */
  seqs: SeqList;
  /** Arrived after the turn it is listed in had ended. */
  outOfTurn?: boolean;
}

export interface MessageItem extends ItemBase {
  type: "user_message" | "agent_message" | "thought";
  /** Content blocks in order; adjacent text chunks are concatenated into one text block. */
  blocks: ContentBlock[];
  messageId?: string;
}

export interface PermissionView {
  requestSeq: number;
  requestId: JsonRpcId;
  options: PermissionOption[];
  /** From the client's answer; absent while the request is pending. */
  outcome?: RequestPermissionOutcome;
  responseSeq?: number;
  error?: AcpError;
}

/** One tool call: `tool_call`, every `tool_call_update` and any permission request for the same id. */
export interface ToolCallItem extends ItemBase {
  type: "tool_call";
  toolCallId: string;
  title?: string;
  name?: string;
  kind?: ToolKind;
  status?: ToolCallStatus;
  content?: ToolCallContent[];
  locations?: ToolCallLocation[];
  rawInput?: unknown;
  rawOutput?: unknown;
  _meta?: { [key: string]: unknown };
  permission?: PermissionView;
}

export interface PlanItem extends ItemBase {
  type: "plan";
  entries: PlanEntry[];
}

export type SessionEventVariant =
  | "available_commands_update"
  | "current_mode_update"
  | "config_option_update"
  | "session_info_update"
  | "usage_update"
  | "notice";
export type SessionEventUpdate = Extract<SessionUpdate, { sessionUpdate: SessionEventVariant }>;

/** A session-state update, shown in place; the session's state is updated too. */
export interface EventItem extends ItemBase {
  type: "event";
  update: SessionEventUpdate;
}

/** An update this view does not decode (unknown variant or malformed), kept verbatim. */
export interface UnknownItem extends ItemBase {
  type: "unknown";
  /** The `sessionUpdate` value, the request method, or "(malformed)". */
  variant: string;
  update: unknown;
  reason: string;
}

export type ViewItem = MessageItem | ToolCallItem | PlanItem | EventItem | UnknownItem;

/** Token usage of one turn (lib/folds/turn-usage.ts), with Gemini's per-model figures and the raw report. */
export interface TurnUsage extends BaseTurnUsage {
  models?: Array<{ model: string; inputTokens?: number; outputTokens?: number }>;
  raw: unknown;
}

export interface Turn {
  sessionId: string;
  /** The `session/prompt` request. */
  requestId: JsonRpcId;
  seq: number;
  ts: number;
  prompt: ContentBlock[];
  /** In arrival order; the first is the user message built from the prompt. */
  items: ViewItem[];
  ended: boolean;
  endSeq?: number;
  endTs?: number;
  durationMs?: number;
  /** From the prompt to the first agent output (message, thought or tool call), by frame ts. */
  timeToFirstChunkMs?: number;
  /** null when the response had none. Agents may send values outside the spec'd set. */
  stopReason?: StopReason | (string & {}) | null;
  meta?: { [key: string]: unknown };
  usage?: TurnUsage;
  error?: AcpError;
  /** Ended without error, with no agent message chunk and no stopReason (how Gemini shows an invalid model). */
  emptyResponse?: boolean;
  cancelRequested?: boolean;
  cancelSeq?: number;
  agentMessageChunks: number;
}

/** `models` as Gemini returns it from session/new (unstable ACP, not in the SDK's stable types). */
export interface SessionModels {
  currentModelId?: string;
  availableModels?: Array<{ modelId: string; name?: string; description?: string | null; [key: string]: unknown }>;
  [key: string]: unknown;
}

export interface SessionState {
  sessionId: string;
  /** The first frame that mentioned this session. */
  firstSeq: number;
  /** The session/new, load, resume or fork exchange that opened it, when seen. */
  origin?: { method: string; requestSeq: number; responseSeq: number; cwd?: string };
  currentModeId?: string;
  availableModes: SessionMode[];
  configOptions: SessionConfigOption[];
  models?: SessionModels;
  availableCommands: AvailableCommand[];
  info: { title?: string | null; updatedAt?: string | null; _meta?: { [key: string]: unknown } | null };
  usage?: UsageUpdate;
  /** Items that arrived before the first prompt (e.g. available commands, session/load history). */
  preamble: ViewItem[];
  turns: Turn[];
  /** Every unknown item of the session (also listed in place), for a quick count. */
  unknown: UnknownItem[];
}

/**
 * A client terminal (terminal/create), as the agent has seen it: the output it
 * last read (terminal/output) and how the command ended. Tool calls show it by id.
 */
export interface TerminalView {
  terminalId: string;
  command?: string;
  args?: string[];
  cwd?: string;
  /** The output the agent last read; absent until it reads some. */
  output?: string;
  truncated: boolean;
  exitStatus?: { exitCode?: number | null; signal?: string | null };
  released?: boolean;
  /** The client's answers about this terminal. */
  seqs: SeqList;
}

/** A request awaiting its response; kept in the state so that reduceFrame stays pure. */
export interface PendingRequest {
  method: string;
  seq: number;
  ts: number;
  params: unknown;
  sessionId?: string;
  turn?: number;
}

export interface SessionViewState {
  sessions: Record<string, SessionState>;
  /** Session ids in order of appearance. */
  order: string[];
  /** Requests (either way) this view waits to see answered, by their seq (a response's `requestSeq`). */
  pending: Record<number, PendingRequest>;
  /** Client terminals by terminalId. */
  terminals: Record<string, TerminalView>;
}

export function emptyView(): SessionViewState {
  return { sessions: {}, order: [], pending: {}, terminals: {} };
}

/** The terminal with this id, if the view knows it (ids come off the wire: own keys only). */
export function terminalOf(state: Pick<SessionViewState, "terminals">, terminalId: string): TerminalView | undefined {
  return get(state.terminals, terminalId);
}

export function reduceFrame(state: SessionViewState, frame: Frame): SessionViewState {
  const d = new Draft(state);
  apply(d, frame);
  return d.root;
}

export function reduceFrames(frames: Iterable<Frame>, state: SessionViewState = emptyView()): SessionViewState {
  const d = new Draft(state);
  for (const frame of frames) apply(d, frame);
  return d.root;
}

// ---------------------------------------------------------------------------
// Copy-on-write draft

class Draft {
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

type Obj = Record<string, unknown>;
const isBlock = (v: unknown): v is ContentBlock =>
  isObject(v) && typeof v.type === "string" && (v.type !== "text" || typeof v.text === "string");

// Session ids come off the wire: "__proto__" must be an own key, never the prototype.
const get = <T>(rec: Record<string, T>, k: string): T | undefined => (Object.hasOwn(rec, k) ? rec[k] : undefined);
const put = <T>(rec: Record<string, T>, k: string, v: T): void => {
  Object.defineProperty(rec, k, { value: v, writable: true, enumerable: true, configurable: true });
};

/** Drops undefined fields so that views compare and serialise cleanly. */
function compact<T extends object>(o: T): T {
  for (const k of Object.keys(o) as Array<keyof T>) if (o[k] === undefined) delete o[k];
  return o;
}

// ---------------------------------------------------------------------------
// Dispatch

const SESSION_OPENERS = new Set<string>([
  AGENT_METHODS.session_new,
  AGENT_METHODS.session_load,
  AGENT_METHODS.session_resume,
  AGENT_METHODS.session_fork,
]);
const TRACKED = new Set([
  ...SESSION_OPENERS,
  AGENT_METHODS.session_set_mode,
  AGENT_METHODS.session_set_config_option,
  LEGACY_AGENT_METHODS.session_set_model,
]);

function apply(d: Draft, f: Frame): void {
  if (!isObject(f.message)) return;
  const m = f.message;
  switch (f.kind) {
    case "notification":
      if (f.dir === "from-agent" && f.method === CLIENT_METHODS.session_update) onUpdate(d, f, obj(m.params));
      else if (f.dir === "to-agent" && f.method === AGENT_METHODS.session_cancel) onCancel(d, f, obj(m.params));
      return;
    case "request": {
      if (f.id === undefined || f.method === undefined) return;
      const params = obj(m.params);
      if (f.dir === "to-agent") {
        if (f.method === AGENT_METHODS.session_prompt) onPrompt(d, f, params);
        else if (TRACKED.has(f.method)) track(d, f, { sessionId: str(params.sessionId) });
      } else if (f.method === CLIENT_METHODS.session_request_permission) {
        onPermissionRequest(d, f, f.id, params);
      } else if (f.method.startsWith("terminal/")) {
        track(d, f, { sessionId: str(params.sessionId) });
      }
      return;
    }
    case "response": {
      if (f.requestSeq === undefined) return;
      const pend = take(d, f.requestSeq);
      if (!pend) return;
      if (pend.method === AGENT_METHODS.session_prompt) onPromptResponse(d, f, pend, m);
      else if (pend.method === CLIENT_METHODS.session_request_permission) onPermissionResponse(d, f, pend, m);
      else if ("error" in m) return;
      else if (pend.method.startsWith("terminal/")) onTerminalResult(d, f, pend, obj(m.result));
      else onResult(d, f, pend, obj(m.result));
      return;
    }
    default:
      return;
  }
}

function track(d: Draft, f: Frame, extra: Partial<PendingRequest>): void {
  const st = d.state();
  st.pending = d.own(st.pending);
  const params = isObject(f.message) ? f.message.params : undefined;
  st.pending[f.seq] = compact({ method: f.method ?? "", seq: f.seq, ts: f.ts, params, ...extra });
}

function take(d: Draft, requestSeq: number): PendingRequest | undefined {
  const pend = d.root.pending[requestSeq];
  if (!pend) return undefined; // an untracked response leaves the state (and its identity) untouched
  const st = d.state();
  st.pending = d.own(st.pending);
  delete st.pending[requestSeq];
  return pend;
}

// ---------------------------------------------------------------------------
// Sessions, turns, item lists

function ownSession(d: Draft, id: string, seq: number): SessionState {
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
    turns: [],
    unknown: [],
  });
  put(st.sessions, id, s);
  st.order = d.own(st.order);
  st.order.push(id);
  return s;
}

function ownTurn(d: Draft, s: SessionState, i: number): Turn {
  s.turns = d.own(s.turns);
  const t = d.own(s.turns[i]!);
  s.turns[i] = t;
  return t;
}

/** Writable item list of turn `i`, or of the preamble when `i` is -1. */
function ownItems(d: Draft, s: SessionState, i: number): ViewItem[] {
  if (i < 0) return (s.preamble = d.own(s.preamble));
  const t = ownTurn(d, s, i);
  return (t.items = d.own(t.items));
}

/** Where a session update lands: the running turn, else after the last turn, else the preamble. */
interface Target {
  items: ViewItem[];
  /** The running turn, writable. */
  turn?: Turn;
  outOfTurn: boolean;
}

function target(d: Draft, s: SessionState): Target {
  const i = s.turns.length - 1;
  const items = ownItems(d, s, i);
  if (i < 0) return { items, outOfTurn: false };
  const t = s.turns[i]!; // owned by ownItems
  return t.ended ? { items, outOfTurn: true } : { items, turn: t, outOfTurn: false };
}

function addItem<T extends ViewItem>(d: Draft, tg: Target, item: T): T {
  if (tg.outOfTurn) item.outOfTurn = true;
  tg.items.push(d.fresh(item));
  return item;
}

function lastIndex(items: readonly ViewItem[], pred: (it: ViewItem) => boolean): number {
  for (let i = items.length - 1; i >= 0; i--) if (pred(items[i]!)) return i;
  return -1;
}

function firstOutput(tg: Target, f: Frame): void {
  if (tg.turn && tg.turn.timeToFirstChunkMs === undefined) tg.turn.timeToFirstChunkMs = f.ts - tg.turn.ts;
}

function addUnknown(
  d: Draft,
  s: SessionState,
  tg: Target,
  seq: number,
  variant: string,
  update: unknown,
  reason: string,
) {
  const item: UnknownItem = { type: "unknown", variant, update, reason, seqs: SeqList.of(seq) };
  if (tg.outOfTurn) item.outOfTurn = true;
  // Not fresh: listed twice, so never written in place (and never written at all).
  tg.items.push(item);
  s.unknown = d.own(s.unknown);
  s.unknown.push(item);
}

// ---------------------------------------------------------------------------
// session/update

const CHUNK_ITEM = {
  user_message_chunk: "user_message",
  agent_message_chunk: "agent_message",
  agent_thought_chunk: "thought",
} as const;

function onUpdate(d: Draft, f: Frame, p: Obj): void {
  const s = ownSession(d, str(p.sessionId) ?? NO_SESSION, f.seq);
  const tg = target(d, s);
  const u = p.update;
  const variant = isObject(u) ? str(u.sessionUpdate) : undefined;
  if (!isObject(u) || variant === undefined) {
    addUnknown(d, s, tg, f.seq, "(malformed)", u, "update has no sessionUpdate");
    return;
  }
  const bad = (reason: string) => addUnknown(d, s, tg, f.seq, variant, u, reason);
  const event = () => addEvent(d, tg, f.seq, u as unknown as SessionEventUpdate);
  switch (variant) {
    case "user_message_chunk":
    case "agent_message_chunk":
    case "agent_thought_chunk": {
      if (!isBlock(u.content)) return bad("content is not a content block");
      // Qwen Code's usage report: an empty chunk carrying `_meta.usage`, not a message.
      if (isUsageOnlyChunk(u)) return;
      const type = CHUNK_ITEM[variant];
      appendChunk(d, tg, f.seq, type, u.content, str(u.messageId));
      if (type !== "user_message") firstOutput(tg, f);
      if (type === "agent_message" && tg.turn) tg.turn.agentMessageChunks++;
      return;
    }
    case "tool_call":
    case "tool_call_update":
      if (typeof u.toolCallId !== "string") return bad("toolCallId is not a string");
      mergeToolCall(d, tg, f.seq, u.toolCallId, u);
      firstOutput(tg, f);
      return;
    case "plan": {
      if (!Array.isArray(u.entries)) return bad("entries is not an array");
      const entries = u.entries as PlanEntry[];
      const i = lastIndex(tg.items, (it) => it.type === "plan");
      if (i < 0) {
        addItem<PlanItem>(d, tg, { type: "plan", entries, seqs: SeqList.of(f.seq) });
      } else {
        // A plan is a full replacement; it keeps its place in the turn.
        const it = d.own(tg.items[i] as PlanItem);
        tg.items[i] = it;
        it.entries = entries;
        it.seqs = it.seqs.append(f.seq);
      }
      return;
    }
    case "available_commands_update":
      if (!Array.isArray(u.availableCommands)) return bad("availableCommands is not an array");
      s.availableCommands = u.availableCommands as AvailableCommand[];
      return event();
    case "current_mode_update":
      if (typeof u.currentModeId !== "string") return bad("currentModeId is not a string");
      s.currentModeId = u.currentModeId;
      return event();
    case "config_option_update":
      if (!Array.isArray(u.configOptions)) return bad("configOptions is not an array");
      s.configOptions = u.configOptions as SessionConfigOption[];
      return event();
    case "session_info_update": {
      // Partial update: absent leaves a field alone, null clears it.
      const info = { ...s.info };
      if (u.title === null || typeof u.title === "string") info.title = u.title;
      if (u.updatedAt === null || typeof u.updatedAt === "string") info.updatedAt = u.updatedAt;
      if (u._meta === null || isObject(u._meta)) info._meta = u._meta;
      s.info = info;
      return event();
    }
    case "usage_update":
      if (num(u.used) === undefined || num(u.size) === undefined) return bad("used or size is not a number");
      s.usage = u as unknown as UsageUpdate;
      return event();
    case "notice":
      if (typeof u.title !== "string") return bad("title is not a string");
      return event();
    default:
      return bad("not a session update this view decodes");
  }
}

function appendChunk(
  d: Draft,
  tg: Target,
  seq: number,
  type: MessageItem["type"],
  block: ContentBlock,
  messageId: string | undefined,
): void {
  const items = tg.items;
  const i = items.length - 1;
  const last = items[i];
  if (
    last?.type === type &&
    // ACP: a new messageId starts a new message.
    !(messageId !== undefined && last.messageId !== undefined && messageId !== last.messageId) &&
    !!last.outOfTurn === tg.outOfTurn
  ) {
    const it = d.own(last);
    items[i] = it;
    it.blocks = appendBlock(d, it.blocks, block);
    it.seqs = it.seqs.append(seq);
    if (it.messageId === undefined && messageId !== undefined) it.messageId = messageId;
    return;
  }
  const item: MessageItem = { type, blocks: d.fresh([block]), seqs: SeqList.of(seq) };
  if (messageId !== undefined) item.messageId = messageId;
  addItem(d, tg, item);
}

function appendBlock(d: Draft, blocks: ContentBlock[], block: ContentBlock): ContentBlock[] {
  const out = d.own(blocks);
  const j = out.length - 1;
  const prev = out[j];
  if (prev?.type === "text" && block.type === "text") {
    // The block may come straight from a frame's message: copy before writing. String `+` is a rope: O(1).
    const merged = d.own(prev);
    merged.text += block.text;
    out[j] = merged;
  } else {
    out.push(block);
  }
  return out;
}

const TOOL_FIELDS: Record<string, (v: unknown) => boolean> = {
  title: (v) => typeof v === "string",
  name: (v) => typeof v === "string",
  kind: (v) => typeof v === "string",
  status: (v) => typeof v === "string",
  content: Array.isArray,
  locations: Array.isArray,
  rawInput: (v) => v !== undefined,
  rawOutput: (v) => v !== undefined,
  _meta: isObject,
};

/** Merges a ToolCall or ToolCallUpdate (fields present override) into the item with its id, creating it if new. */
function mergeToolCall(d: Draft, tg: Target, seq: number, id: string, u: Obj): ToolCallItem {
  const i = lastIndex(tg.items, (it) => it.type === "tool_call" && it.toolCallId === id);
  let it: ToolCallItem;
  if (i < 0) {
    it = addItem<ToolCallItem>(d, tg, { type: "tool_call", toolCallId: id, seqs: SeqList.of(seq) });
  } else {
    it = d.own(tg.items[i] as ToolCallItem);
    tg.items[i] = it;
    it.seqs = it.seqs.append(seq);
  }
  const w = it as unknown as Obj;
  for (const [k, ok] of Object.entries(TOOL_FIELDS)) if (ok(u[k])) w[k] = u[k];
  return it;
}

function addEvent(d: Draft, tg: Target, seq: number, update: SessionEventUpdate): void {
  const i = tg.items.length - 1;
  const last = tg.items[i];
  // Usage updates come often and each is a full snapshot: fold a run of them into one item.
  if (
    update.sessionUpdate === "usage_update" &&
    last?.type === "event" &&
    last.update.sessionUpdate === "usage_update" &&
    !!last.outOfTurn === tg.outOfTurn
  ) {
    const it = d.own(last);
    tg.items[i] = it;
    it.update = update;
    it.seqs = it.seqs.append(seq);
    return;
  }
  addItem<EventItem>(d, tg, { type: "event", update, seqs: SeqList.of(seq) });
}

// ---------------------------------------------------------------------------
// Prompt turns, cancel, permission, other responses

function onPrompt(d: Draft, f: Frame, p: Obj): void {
  const sessionId = str(p.sessionId) ?? NO_SESSION;
  const s = ownSession(d, sessionId, f.seq);
  // Not fresh: shared by turn.prompt and the user item, so copied before any write.
  const prompt = Array.isArray(p.prompt) ? p.prompt.filter(isBlock) : [];
  const user: MessageItem = d.fresh({ type: "user_message", blocks: prompt, seqs: SeqList.of(f.seq) });
  s.turns = d.own(s.turns);
  s.turns.push(
    d.fresh<Turn>({
      sessionId,
      requestId: f.id ?? null,
      seq: f.seq,
      ts: f.ts,
      prompt,
      items: d.fresh<ViewItem[]>([user]),
      ended: false,
      agentMessageChunks: 0,
    }),
  );
  track(d, f, { sessionId, turn: s.turns.length - 1 });
}

function onPromptResponse(d: Draft, f: Frame, pend: PendingRequest, m: Obj): void {
  if (pend.sessionId === undefined || pend.turn === undefined) return;
  const s = ownSession(d, pend.sessionId, f.seq);
  if (!s.turns[pend.turn]) return;
  const t = ownTurn(d, s, pend.turn);
  t.ended = true;
  t.endSeq = f.seq;
  t.endTs = f.ts;
  t.durationMs = f.ts - t.ts;
  if ("error" in m) {
    t.error = (isObject(m.error) ? m.error : { code: -32603, message: String(m.error) }) as AcpError;
    t.emptyResponse = false;
    return;
  }
  const r = obj(m.result);
  t.stopReason = str(r.stopReason) ?? null;
  if (isObject(r._meta)) t.meta = r._meta;
  const usage = turnUsage(r);
  if (usage) t.usage = usage;
  t.emptyResponse = t.agentMessageChunks === 0 && t.stopReason === null;
}

function turnUsage(r: Obj): TurnUsage | undefined {
  const base = turnUsageOf(r);
  if (!base) return undefined;
  if (base.source !== "_meta.quota") return { ...base, raw: base.source === "usage" ? r.usage : obj(r._meta).usage };
  const q = obj(obj(r._meta).quota);
  return compact<TurnUsage>({
    ...base,
    models: Array.isArray(q.model_usage)
      ? q.model_usage.filter(isObject).map((mu) =>
          compact({
            model: str(mu.model) ?? "",
            inputTokens: num(obj(mu.token_count).input_tokens),
            outputTokens: num(obj(mu.token_count).output_tokens),
          }),
        )
      : undefined,
    raw: q,
  });
}

function onCancel(d: Draft, f: Frame, p: Obj): void {
  const sessionId = str(p.sessionId);
  const s0 = sessionId === undefined ? undefined : get(d.root.sessions, sessionId);
  const i = s0 ? s0.turns.length - 1 : -1;
  if (!s0 || sessionId === undefined || i < 0 || s0.turns[i]!.ended) return;
  const t = ownTurn(d, ownSession(d, sessionId, f.seq), i);
  t.cancelRequested = true;
  t.cancelSeq ??= f.seq;
}

function onPermissionRequest(d: Draft, f: Frame, id: JsonRpcId, p: Obj): void {
  const sessionId = str(p.sessionId) ?? NO_SESSION;
  const s = ownSession(d, sessionId, f.seq);
  const tg = target(d, s);
  const tc = p.toolCall;
  if (!isObject(tc) || typeof tc.toolCallId !== "string") {
    addUnknown(d, s, tg, f.seq, CLIENT_METHODS.session_request_permission, p, "toolCall has no toolCallId");
    return;
  }
  // Gemini sends the tool call only here, with no `tool_call` update before it: this may create the item.
  const it = mergeToolCall(d, tg, f.seq, tc.toolCallId, tc);
  it.permission = {
    requestSeq: f.seq,
    requestId: id,
    options: Array.isArray(p.options) ? (p.options as PermissionOption[]) : [],
  };
  firstOutput(tg, f);
  track(d, f, { sessionId });
}

function onPermissionResponse(d: Draft, f: Frame, pend: PendingRequest, m: Obj): void {
  const s0 = pend.sessionId === undefined ? undefined : get(d.root.sessions, pend.sessionId);
  const toolCallId = obj(obj(pend.params).toolCall).toolCallId;
  if (!s0 || pend.sessionId === undefined) return;
  const isIt = (it: ViewItem) => it.type === "tool_call" && it.toolCallId === toolCallId;
  // Usually in the last turn; search back further only if the answer came late.
  for (let ti = s0.turns.length - 1; ti >= -1; ti--) {
    const list = ti < 0 ? s0.preamble : s0.turns[ti]!.items;
    const i = lastIndex(list, isIt);
    if (i < 0) continue;
    const items = ownItems(d, ownSession(d, pend.sessionId, f.seq), ti);
    const it = d.own(items[i] as ToolCallItem);
    items[i] = it;
    it.seqs = it.seqs.append(f.seq);
    const perm: PermissionView = {
      ...(it.permission ?? { requestSeq: pend.seq, requestId: f.id ?? null, options: [] }),
    };
    perm.responseSeq = f.seq;
    if ("error" in m) perm.error = m.error as AcpError;
    else if (isObject(obj(m.result).outcome)) perm.outcome = obj(m.result).outcome as RequestPermissionOutcome;
    it.permission = perm;
    return;
  }
}

/** The client's successful answers to the agent's terminal/ requests. */
function onTerminalResult(d: Draft, f: Frame, pend: PendingRequest, r: Obj): void {
  const params = obj(pend.params);
  const terminalId = pend.method === CLIENT_METHODS.terminal_create ? str(r.terminalId) : str(params.terminalId);
  if (terminalId === undefined) return;
  const st = d.state();
  st.terminals = d.own(st.terminals);
  const cur = get(st.terminals, terminalId);
  const t = cur ? d.own(cur) : d.fresh<TerminalView>({ terminalId, truncated: false, seqs: SeqList.of(f.seq) });
  if (cur) t.seqs = t.seqs.append(f.seq);
  put(st.terminals, terminalId, t);
  const exitStatus = (v: Obj) =>
    compact({
      exitCode: num(v.exitCode) ?? (v.exitCode === null ? null : undefined),
      signal: str(v.signal) ?? (v.signal === null ? null : undefined),
    });
  switch (pend.method) {
    case CLIENT_METHODS.terminal_create:
      compact(
        Object.assign(t, {
          command: str(params.command),
          cwd: str(params.cwd),
          args: Array.isArray(params.args) ? params.args.filter((a): a is string => typeof a === "string") : undefined,
        }),
      );
      return;
    case CLIENT_METHODS.terminal_output:
      if (typeof r.output === "string") t.output = r.output;
      t.truncated = r.truncated === true;
      if (isObject(r.exitStatus)) t.exitStatus = exitStatus(r.exitStatus);
      return;
    case CLIENT_METHODS.terminal_wait_for_exit:
      t.exitStatus = exitStatus(r);
      return;
    case CLIENT_METHODS.terminal_release:
      t.released = true;
      return;
  }
}

/** Successful responses to session/new, load, resume, fork, set_mode, set_config_option, set_model. */
function onResult(d: Draft, f: Frame, pend: PendingRequest, r: Obj): void {
  const params = obj(pend.params);
  const sessionId = str(r.sessionId) ?? pend.sessionId;
  if (sessionId === undefined) return;
  const s = ownSession(d, sessionId, f.seq);
  if (SESSION_OPENERS.has(pend.method)) {
    s.origin = compact({ method: pend.method, requestSeq: pend.seq, responseSeq: f.seq, cwd: str(params.cwd) });
  }
  if (isObject(r.modes)) {
    const modes = r.modes;
    if (typeof modes.currentModeId === "string") s.currentModeId = modes.currentModeId;
    if (Array.isArray(modes.availableModes)) s.availableModes = modes.availableModes as SessionMode[];
  }
  if (Array.isArray(r.configOptions)) s.configOptions = r.configOptions as SessionConfigOption[];
  if (isObject(r.models)) s.models = r.models as SessionModels;
  if (pend.method === AGENT_METHODS.session_set_mode && typeof params.modeId === "string")
    s.currentModeId = params.modeId;
  if (pend.method === LEGACY_AGENT_METHODS.session_set_model && typeof params.modelId === "string") {
    s.models = { ...s.models, currentModelId: params.modelId };
  }
}
