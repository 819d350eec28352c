/**
 * Turn waterfall: where a prompt turn's time went, on one time axis. Folds
 * frames into per-turn timeline items (the prompt, time to first chunk, thought
 * and message streams, tool calls with their permission wait, every
 * agent-to-client request and its answer, the end with its stop reason) and
 * lays them out for a given width, merging items narrower than a pixel so a
 * turn of 10,000 updates draws at most a few bars per pixel column.
 *
 * Codex's app-server turns fold the same way (docs/app-server.md): `turn/start` to `turn/completed`
 * (its status as the stop reason), agent message and reasoning items as streams, command
 * executions, file changes and other tool items as tool calls (item/started to item/completed)
 * with their approvals, the token usage of the turn's model calls summed.
 *
 * The builder is fed frames in seq order and keeps its own state (a growing
 * log is folded once); `turns` returns the turns as they stand.
 */
import { idKey, type Frame, type JsonRpcId } from "../protocol/frame";
import { grantOutcome } from "./codex-app-server/items";
import { SeqList } from "./session-view";
import { turnUsageOf, type TurnUsage } from "./turn-usage";
import { isObject, str } from "../protocol/json";
import { AGENT_METHODS, CLIENT_METHODS } from "../protocol/methods";
import {
  APP_SERVER_CLIENT,
  APP_SERVER_NOTIFICATIONS as ASN,
  APP_SERVER_REQUESTS,
  turnIdOf,
} from "../protocol/app-server-methods";

export type StreamKind = "thought" | "message";

interface Timed {
  /** ms since the epoch (frame ts). */
  start: number;
  /** Absent while still running. */
  end?: number;
  seqs: SeqList;
}

export interface StreamBand extends Timed {
  kind: StreamKind;
  chunks: number;
}

export interface ClientRequestItem extends Timed {
  /** The agent's request method: fs/read_text_file, terminal/create, session/request_permission... */
  method: string;
  /** The answer was an error. */
  error?: boolean;
  /** For session/request_permission: the option the user picked, or "cancelled"; for an app-server approval, the decision. */
  outcome?: string;
}

export interface ToolItem extends Timed {
  toolCallId: string;
  title?: string;
  status?: string;
  updates: number;
  /** The permission requests for this call (time waiting for the user). */
  permissions: ClientRequestItem[];
}

export interface WaterfallTurn {
  /** The ACP session, or the app-server thread. */
  sessionId: string;
  /** An app-server turn's id, once the server named it. */
  turnId?: string;
  /** Position among all prompt turns seen, from 0. */
  index: number;
  requestId: JsonRpcId;
  promptSeq: number;
  start: number;
  /** The first agent output (chunk, tool call or permission request). */
  firstOutput?: { ts: number; seq: number };
  streams: StreamBand[];
  tools: ToolItem[];
  /** Every agent-to-client request during the turn, permissions included. */
  requests: ClientRequestItem[];
  /** stopReason: ACP's, or an app-server turn's final status ("completed", "interrupted", "failed"). */
  end?: { ts: number; seq: number; stopReason?: string | null; error?: string };
  usage?: TurnUsage;
  /** Frames folded into this turn. */
  frames: number;
}

type Obj = Record<string, unknown>;

const STREAM_OF: Record<string, StreamKind> = {
  agent_message_chunk: "message",
  agent_thought_chunk: "thought",
  // v2 upserts by messageId
  agent_message: "message",
  agent_thought: "thought",
};

/**
 * What the folds make of an app-server item, by its type: a stream (agent messages, plans,
 * reasoning) or a tool call. Other items (the user's message, context compaction...) are neither.
 */
export const APP_SERVER_ITEM_KIND: Readonly<Record<string, StreamKind | "tool">> = {
  agentMessage: "message",
  plan: "message",
  reasoning: "thought",
  commandExecution: "tool",
  fileChange: "tool",
  mcpToolCall: "tool",
  dynamicToolCall: "tool",
  collabAgentToolCall: "tool",
  webSearch: "tool",
  imageView: "tool",
  imageGeneration: "tool",
};
const DELTA_STREAM: Record<string, StreamKind> = {
  [ASN.agent_message_delta]: "message",
  [ASN.reasoning_summary_text_delta]: "thought",
  [ASN.reasoning_text_delta]: "thought",
};
const OUTPUT_DELTAS = new Set<string>([ASN.command_output_delta, ASN.file_change_output_delta]);

/** Requests that wait for the user: ACP's permission, the app-server's approvals and questions. */
const USER_REQUESTS = new Set<string>([
  CLIENT_METHODS.session_request_permission,
  ...Object.values(APP_SERVER_REQUESTS),
]);

/** What an app-server tool item is called: its command, its files, its (MCP) tool, else its type. */
export function appServerItemTitle(item: Obj): string {
  if (typeof item.command === "string") return item.command;
  if (Array.isArray(item.changes)) {
    const paths = item.changes.map((c) => (isObject(c) ? str(c.path) : undefined)).filter(Boolean);
    return `${str(item.type) ?? "fileChange"} ${paths.join(", ")}`;
  }
  if (typeof item.tool === "string") return [str(item.server), item.tool].filter(Boolean).join(".");
  return str(item.type) ?? "item";
}

/** An app-server turn's usage: the sum of its model calls' (each `last` of thread/tokenUsage/updated). */
function addUsage(prev: TurnUsage | undefined, last: unknown): TurnUsage | undefined {
  const u = turnUsageOf({ usage: last });
  if (!u) return prev;
  const sum = (a: number | undefined, b: number | undefined) => (a === undefined ? b : (b ?? 0) + a);
  return {
    source: "thread/tokenUsage/updated",
    inputTokens: sum(prev?.inputTokens, u.inputTokens),
    outputTokens: sum(prev?.outputTokens, u.outputTokens),
    totalTokens: sum(prev?.totalTokens, u.totalTokens),
  };
}

export class WaterfallBuilder {
  readonly #turns: WaterfallTurn[] = [];
  /** The running turn per session id. */
  readonly #running = new Map<string, WaterfallTurn>();
  /** session/prompt requests awaiting their response. */
  readonly #prompts = new Map<string, WaterfallTurn>();
  /** Agent-to-client requests awaiting their answer. */
  readonly #asked = new Map<string, { turn?: WaterfallTurn; item: ClientRequestItem }>();
  /** The stream band chunks currently append to, per turn (any other update closes it). */
  readonly #openBand = new Map<WaterfallTurn, { band: StreamBand; messageId?: string }>();
  /** Tool calls by id, per turn. */
  readonly #toolIds = new Map<WaterfallTurn, Map<string, ToolItem>>();
  /** App-server turns (they end on turn/completed, not on their request's answer). */
  readonly #appServer = new WeakSet<WaterfallTurn>();
  /** App-server stream items' bands by item id, per turn. */
  readonly #itemBands = new Map<WaterfallTurn, Map<string, StreamBand>>();
  /** Turns started so far, released ones included (each turn's index). */
  #started = 0;
  /** Highest seq folded in; 0 before any. */
  lastSeq = 0;
  /** From the agent's initialize response: from 2 on, a turn ends on `state_update` idle, not on the prompt response. */
  #version = 1;

  get turns(): readonly WaterfallTurn[] {
    return this.#turns;
  }

  add(f: Frame): void {
    if (f.seq <= this.lastSeq) return;
    this.lastSeq = f.seq;
    const m = f.message;
    if (!isObject(m)) return;
    const params = isObject(m.params) ? m.params : {};
    if (f.kind === "request" && f.dir === "to-agent" && f.method === AGENT_METHODS.session_prompt)
      return void this.#prompt(f, str(params.sessionId) ?? "");
    if (f.kind === "request" && f.dir === "to-agent" && f.method === APP_SERVER_CLIENT.turn_start)
      return void this.#appServer.add(this.#prompt(f, str(params.threadId) ?? ""));
    if (f.kind === "notification" && f.dir === "from-agent" && f.method === CLIENT_METHODS.session_update) {
      return this.#update(f, params);
    }
    if (f.kind === "notification" && f.dir === "from-agent" && typeof params.threadId === "string")
      return this.#threadEvent(f, f.method ?? "", params);
    if (f.kind === "request" && f.dir === "from-agent" && f.method) return this.#ask(f, f.method, params);
    if (f.kind === "response" && f.dir === "from-agent") {
      // The sequencer names a response's method; a recording paired on load does not: know it by its shape too.
      const r = m.result;
      if (
        isObject(r) &&
        (f.method === AGENT_METHODS.initialize ||
          (f.method === undefined && typeof r.protocolVersion === "number" && isObject(r.agentCapabilities)))
      ) {
        const v = r.protocolVersion;
        if (typeof v === "number") this.#version = v;
        return;
      }
      return this.#promptEnd(f, m);
    }
    if (f.kind === "response" && f.dir === "to-agent") return this.#answer(f, m);
  }

  /**
   * Forgets an ended turn and what is kept for it: a streaming reader that has taken it
   * (lib/features/otel) folds a long recording in memory bounded by its running turns.
   */
  release(t: WaterfallTurn): void {
    if (!t.end) return;
    const i = this.#turns.lastIndexOf(t);
    if (i >= 0) this.#turns.splice(i, 1);
    this.#toolIds.delete(t);
    this.#itemBands.delete(t);
    this.#openBand.delete(t);
  }

  #turnOf(sessionId: string | undefined): WaterfallTurn | undefined {
    if (sessionId !== undefined) return this.#running.get(sessionId);
    // No session id (off-spec): the newest running turn.
    for (let i = this.#turns.length - 1; i >= 0; i--) if (!this.#turns[i]!.end) return this.#turns[i];
    return undefined;
  }

  #touch(t: WaterfallTurn, f: Frame): void {
    t.frames++;
    t.firstOutput ??= { ts: f.ts, seq: f.seq };
  }

  #prompt(f: Frame, sessionId: string): WaterfallTurn {
    const t: WaterfallTurn = {
      sessionId,
      index: this.#started++,
      requestId: f.id ?? null,
      promptSeq: f.seq,
      start: f.ts,
      streams: [],
      tools: [],
      requests: [],
      frames: 1,
    };
    this.#turns.push(t);
    this.#running.set(sessionId, t);
    this.#prompts.set(idKey(f.id), t);
    return t;
  }

  #promptEnd(f: Frame, m: Obj): void {
    const key = idKey(f.id);
    const t = this.#prompts.get(key);
    if (!t) return;
    this.#prompts.delete(key);
    t.frames++;
    const result = isObject(m.result) ? m.result : undefined;
    const error = isObject(m.error) ? (str(m.error.message) ?? "error") : "error" in m ? "error" : undefined;
    if (this.#appServer.has(t)) {
      // turn/start answers with the turn at once; the turn runs on until turn/completed.
      if (error !== undefined && !t.end) this.#finish(t, f, { error }, undefined);
      else t.turnId ??= turnIdOf(result);
      return;
    }
    // v2: the response acknowledges the prompt; the turn runs on until `state_update` idle.
    if (t.end || (this.#version >= 2 && error === undefined)) return;
    this.#finish(t, f, error !== undefined ? { error } : { stopReason: str(result?.stopReason) ?? null }, result);
  }

  #finish(
    t: WaterfallTurn,
    f: Frame,
    why: { error: string } | { stopReason: string | null },
    usageFrom: unknown,
  ): void {
    if (this.#running.get(t.sessionId) === t) this.#running.delete(t.sessionId);
    this.#openBand.delete(t);
    t.end = { ts: f.ts, seq: f.seq, ...why };
    const usage = turnUsageOf(usageFrom);
    if (usage) t.usage = usage;
    // Whatever is still open ends with the turn.
    for (const b of t.streams) b.end ??= f.ts;
    for (const tool of t.tools) tool.end ??= f.ts;
  }

  #update(f: Frame, p: Obj): void {
    const t = this.#turnOf(str(p.sessionId));
    const u = p.update;
    if (!t || !isObject(u)) return;
    const variant = str(u.sessionUpdate);
    const kind = variant !== undefined ? STREAM_OF[variant] : undefined;
    if (kind) {
      this.#touch(t, f);
      const messageId = str(u.messageId);
      const open = this.#openBand.get(t);
      if (
        open &&
        open.band.kind === kind &&
        (messageId === undefined || open.messageId === undefined || messageId === open.messageId)
      ) {
        open.band.end = f.ts;
        open.band.chunks++;
        open.band.seqs = open.band.seqs.append(f.seq);
        open.messageId ??= messageId;
        return;
      }
      const band: StreamBand = { kind, start: f.ts, end: f.ts, seqs: SeqList.of(f.seq), chunks: 1 };
      t.streams.push(band);
      this.#openBand.set(t, { band, messageId });
      return;
    }
    // The prompt echoed back (session/load, a v2 user message): no agent time.
    if (variant === "user_message_chunk" || variant === "user_message") return;
    if (variant === "state_update" && u.state === "idle") {
      t.frames++;
      this.#finish(t, f, { stopReason: str(u.stopReason) ?? null }, { usage: u.usage });
      return;
    }
    this.#openBand.delete(t);
    if (
      (variant === "tool_call" || variant === "tool_call_update" || variant === "tool_call_content_chunk") &&
      typeof u.toolCallId === "string"
    ) {
      this.#touch(t, f);
      const tool = this.#tool(t, u.toolCallId, f);
      tool.updates++;
      if (typeof u.title === "string") tool.title = u.title;
      if (typeof u.status === "string") tool.status = u.status;
      if (variant !== "tool_call_content_chunk")
        tool.end = u.status === "completed" || u.status === "failed" ? f.ts : undefined;
    } else {
      t.frames++;
    }
  }

  /** An app-server notification about a thread: the turn's lifecycle, its items, their deltas, usage. */
  #threadEvent(f: Frame, method: string, p: Obj): void {
    const t = this.#turnOf(str(p.threadId));
    if (!t) return;
    const turn = isObject(p.turn) ? p.turn : undefined;
    if (method === ASN.turn_started) {
      t.frames++;
      t.turnId ??= turnIdOf(p);
      return;
    }
    if (method === ASN.turn_completed) {
      const id = turnIdOf(p);
      if (t.turnId !== undefined && id !== undefined && id !== t.turnId) return;
      t.frames++;
      const error = isObject(turn?.error) ? str(turn.error.message) : undefined;
      // Its usage came before, in thread/tokenUsage/updated.
      this.#finish(t, f, error !== undefined ? { error } : { stopReason: str(turn?.status) ?? null }, undefined);
      return;
    }
    if (method === ASN.thread_token_usage_updated) {
      t.frames++;
      t.usage = addUsage(t.usage, isObject(p.tokenUsage) ? p.tokenUsage.last : undefined);
      return;
    }
    const item = isObject(p.item) ? p.item : undefined;
    const itemId = str(item?.id) ?? str(p.itemId);
    const isItemEvent = method === ASN.item_started || method === ASN.item_completed;
    const kind = isItemEvent ? APP_SERVER_ITEM_KIND[str(item?.type) ?? ""] : DELTA_STREAM[method];
    const stream = kind === "tool" ? undefined : kind;
    if (itemId === undefined || (!kind && !OUTPUT_DELTAS.has(method))) {
      t.frames++;
      return;
    }
    this.#touch(t, f);
    const done = method === ASN.item_completed;
    if (stream) {
      let bands = this.#itemBands.get(t);
      if (!bands) this.#itemBands.set(t, (bands = new Map<string, StreamBand>()));
      const band = bands.get(itemId);
      if (!band) {
        const chunks = isItemEvent ? 0 : 1;
        const fresh: StreamBand = { kind: stream, start: f.ts, end: f.ts, seqs: SeqList.of(f.seq), chunks };
        t.streams.push(fresh);
        bands.set(itemId, fresh);
        return;
      }
      band.end = f.ts;
      band.seqs = band.seqs.append(f.seq);
      if (!isItemEvent) band.chunks++;
      return;
    }
    const tool = this.#tool(t, itemId, f);
    tool.updates++;
    if (item) {
      tool.title ??= appServerItemTitle(item);
      if (typeof item.status === "string") tool.status = item.status;
    }
    if (done) tool.end = f.ts;
  }

  #tool(t: WaterfallTurn, toolCallId: string, f: Frame): ToolItem {
    let ids = this.#toolIds.get(t);
    if (!ids) this.#toolIds.set(t, (ids = new Map<string, ToolItem>()));
    let tool = ids.get(toolCallId);
    if (tool) {
      tool.seqs = tool.seqs.append(f.seq);
      return tool;
    }
    tool = { toolCallId, start: f.ts, seqs: SeqList.of(f.seq), updates: 0, permissions: [] };
    t.tools.push(tool);
    ids.set(toolCallId, tool);
    return tool;
  }

  #ask(f: Frame, method: string, p: Obj): void {
    const t = this.#turnOf(str(p.sessionId) ?? str(p.threadId));
    const item: ClientRequestItem = { method, start: f.ts, seqs: SeqList.of(f.seq) };
    if (t) {
      this.#touch(t, f);
      this.#openBand.delete(t);
      t.requests.push(item);
      const tc = p.toolCall;
      if (method === CLIENT_METHODS.session_request_permission && isObject(tc) && typeof tc.toolCallId === "string") {
        const tool = this.#tool(t, tc.toolCallId, f);
        if (typeof tc.title === "string") tool.title ??= tc.title;
        tool.permissions.push(item);
      } else if (USER_REQUESTS.has(method) && typeof p.itemId === "string") {
        this.#tool(t, p.itemId, f).permissions.push(item);
      }
    }
    this.#asked.set(idKey(f.id), { turn: t, item });
  }

  #answer(f: Frame, m: Obj): void {
    const key = idKey(f.id);
    const asked = this.#asked.get(key);
    if (!asked) return;
    this.#asked.delete(key);
    const { item, turn } = asked;
    item.end = f.ts;
    item.seqs = item.seqs.append(f.seq);
    if ("error" in m) item.error = true;
    const outcome = isObject(m.result) && isObject(m.result.outcome) ? m.result.outcome : undefined;
    if (outcome) item.outcome = str(outcome.optionId) ?? str(outcome.outcome);
    // An app-server approval's decision: "accept", "decline", "cancel", or an object keyed by its kind.
    const decision = isObject(m.result) ? m.result.decision : undefined;
    if (decision !== undefined)
      item.outcome = str(decision) ?? (isObject(decision) ? Object.keys(decision)[0] : undefined);
    // A permissions request's answer is the permissions granted, and for how long.
    else if (isObject(m.result) && isObject(m.result.permissions)) item.outcome = grantOutcome(m.result);
    if (turn) turn.frames++;
  }
}

export function buildWaterfall(frames: Iterable<Frame>): WaterfallBuilder {
  const b = new WaterfallBuilder();
  for (const f of frames) b.add(f);
  return b;
}

// ---------------------------------------------------------------------------
// Summary figures

export interface TurnSummary {
  /** Prompt to response (or to `now` while running). */
  totalMs: number;
  timeToFirstChunkMs?: number;
  /** Total less waiting for the user and less client requests. */
  agentMs: number;
  /** Permission requests, from the question to the answer (overlaps counted once). */
  userWaitMs: number;
  /** Other agent-to-client requests (fs, terminal...), overlaps and permission time counted once. */
  clientMs: number;
  requests: number;
  toolCalls: number;
  usage?: TurnUsage;
  running: boolean;
}

/** A request that waits for the user (a permission, an approval), not for the client's own work. */
export const waitsForUser = (r: ClientRequestItem) => USER_REQUESTS.has(r.method);

/** Total length of the union of intervals. */
function unionMs(spans: Array<[number, number]>): number {
  spans.sort((a, b) => a[0] - b[0]);
  let total = 0;
  let curStart = -Infinity;
  let curEnd = -Infinity;
  for (const [s, e] of spans) {
    if (s > curEnd) {
      if (curEnd > curStart) total += curEnd - curStart;
      curStart = s;
      curEnd = e;
    } else if (e > curEnd) curEnd = e;
  }
  if (curEnd > curStart) total += curEnd - curStart;
  return total;
}

export function turnEnd(t: WaterfallTurn, now: number): number {
  return t.end?.ts ?? Math.max(now, t.start);
}

export function summarizeTurn(t: WaterfallTurn, now: number): TurnSummary {
  const end = turnEnd(t, now);
  const span = (r: ClientRequestItem): [number, number] => [r.start, r.end ?? end];
  const userWaitMs = unionMs(t.requests.filter(waitsForUser).map(span));
  const waitingMs = unionMs(t.requests.map(span));
  const totalMs = end - t.start;
  return {
    totalMs,
    timeToFirstChunkMs: t.firstOutput ? t.firstOutput.ts - t.start : undefined,
    agentMs: Math.max(0, totalMs - waitingMs),
    userWaitMs,
    clientMs: waitingMs - userWaitMs,
    requests: t.requests.length,
    toolCalls: t.tools.length,
    usage: t.usage,
    running: !t.end,
  };
}

// ---------------------------------------------------------------------------
// Layout

export type BarKind = "ttfc" | StreamKind | "tool" | "permission" | "request" | "request-error";

export interface Lane {
  id: string;
  label: string;
}

export interface Bar {
  lane: number;
  kind: BarKind;
  /** Pixels from the left edge. */
  x: number;
  width: number;
  start: number;
  end: number;
  label: string;
  seqs: SeqList;
  /** Items merged into this bar (1 for a single item). */
  count: number;
}

export interface Marker {
  kind: "prompt" | "end";
  x: number;
  ts: number;
  seq: number;
  label: string;
}

export interface WaterfallLayout {
  lanes: Lane[];
  bars: Bar[];
  markers: Marker[];
  start: number;
  end: number;
  /** Pixels per millisecond. */
  scale: number;
}

/** A bar of merged items stops absorbing neighbours at this width. */
const MERGE_MAX_PX = 3;

/** Tool calls get a lane each up to this many; the rest share one. */
export const MAX_TOOL_LANES = 30;

interface Item {
  lane: number;
  kind: BarKind;
  start: number;
  end: number;
  label: string;
  seqs: SeqList;
}

function requestLabel(r: ClientRequestItem): string {
  const answer =
    r.end === undefined ? "unanswered" : r.error ? "error" : r.outcome ? `answer: ${r.outcome}` : "answered";
  return `${r.method} (${answer})`;
}

function concatSeqs(a: SeqList, b: SeqList): SeqList {
  let out = a;
  for (const s of b) out = out.append(s);
  return out;
}

/**
 * Lays turn `t` out over `width` pixels. Items of a lane that would be drawn
 * narrower than a pixel merge with their neighbours into one bar (their frames
 * and count kept), so the bar count stays near the width whatever the turn holds.
 */
export function layoutTurn(t: WaterfallTurn, width: number, now: number): WaterfallLayout {
  const start = t.start;
  const end = turnEnd(t, now);
  const scale = width / Math.max(1, end - start);
  const lanes: Lane[] = [{ id: "turn", label: "turn" }];
  const items: Item[] = [];
  const laneOf = new Map<string, number>();
  const lane = (id: string, label: string) => {
    let i = laneOf.get(id);
    if (i === undefined) {
      i = lanes.push({ id, label }) - 1;
      laneOf.set(id, i);
    }
    return i;
  };

  if (t.firstOutput) {
    items.push({
      lane: 0,
      kind: "ttfc",
      start,
      end: t.firstOutput.ts,
      label: "time to first chunk",
      seqs: SeqList.of(t.promptSeq, t.firstOutput.seq),
    });
  }
  for (const b of t.streams) {
    const l = b.kind === "thought" ? lane("thought", "thinking") : lane("message", "message");
    const label = `${b.kind === "thought" ? "thought" : "message"} stream, ${b.chunks} chunk${b.chunks === 1 ? "" : "s"}`;
    items.push({ lane: l, kind: b.kind, start: b.start, end: b.end ?? end, label, seqs: b.seqs });
  }
  t.tools.forEach((tool, i) => {
    const name = tool.title ?? tool.toolCallId;
    const l =
      i < MAX_TOOL_LANES
        ? lane(`tool:${i}`, name)
        : lane("tool:more", `${t.tools.length - MAX_TOOL_LANES} more tool calls`);
    const toolEnd = tool.end ?? end;
    const label = `tool ${name}${tool.status ? ` (${tool.status})` : ""}`;
    // The agent's own time: the call's span less its permission waits, drawn around them.
    let cursor = tool.start;
    const waits = tool.permissions.slice().sort((a, b) => a.start - b.start);
    for (const p of waits) {
      const pEnd = p.end ?? end;
      if (p.start > cursor) items.push({ lane: l, kind: "tool", start: cursor, end: p.start, label, seqs: tool.seqs });
      items.push({
        lane: l,
        kind: "permission",
        start: p.start,
        end: pEnd,
        label: `waiting for the user: ${requestLabel(p)}`,
        seqs: p.seqs,
      });
      cursor = Math.max(cursor, pEnd);
    }
    if (toolEnd > cursor || waits.length === 0) {
      items.push({ lane: l, kind: "tool", start: cursor, end: Math.max(cursor, toolEnd), label, seqs: tool.seqs });
    }
  });
  for (const r of t.requests) {
    if (waitsForUser(r)) continue; // drawn in its tool call's lane
    const group = r.method.split("/")[0] ?? r.method;
    items.push({
      lane: lane(`request:${group}`, `${group} requests`),
      kind: r.error ? "request-error" : "request",
      start: r.start,
      end: r.end ?? end,
      label: requestLabel(r),
      seqs: r.seqs,
    });
  }

  const x = (ts: number) => (ts - start) * scale;
  const bars: Bar[] = [];
  const lastInLane = new Map<number, Bar>();
  items.sort((a, b) => a.lane - b.lane || a.start - b.start);
  for (const it of items) {
    const bx = x(it.start);
    const bw = Math.max(0, (it.end - it.start) * scale);
    const prev = lastInLane.get(it.lane);
    // Merge a sub-pixel item into a narrow bar that reaches within a pixel of it.
    if (prev && bw < 1 && bx - (prev.x + prev.width) < 1 && prev.width < MERGE_MAX_PX) {
      const merged: Bar = {
        ...prev,
        width: Math.max(prev.width, bx + bw - prev.x),
        end: Math.max(prev.end, it.end),
        count: prev.count + 1,
        seqs: concatSeqs(prev.seqs, it.seqs),
      };
      merged.label = `${merged.count} items`;
      bars[bars.length - 1] = merged;
      lastInLane.set(it.lane, merged);
      continue;
    }
    const bar: Bar = { ...it, x: bx, width: bw, count: 1 };
    bars.push(bar);
    lastInLane.set(it.lane, bar);
  }

  const markers: Marker[] = [{ kind: "prompt", x: 0, ts: start, seq: t.promptSeq, label: "prompt" }];
  if (t.end) {
    const why = t.end.error !== undefined ? `error: ${t.end.error}` : `stop reason: ${t.end.stopReason ?? "none"}`;
    markers.push({ kind: "end", x: x(t.end.ts), ts: t.end.ts, seq: t.end.seq, label: why });
  }
  return { lanes, bars, markers, start, end, scale };
}

/** "1.234 s" / "56 ms": the exact figure, for hovers and the summary. */
export function formatMs(ms: number): string {
  return Math.abs(ms) >= 1000 ? `${(ms / 1000).toFixed(3)} s` : `${Math.round(ms)} ms`;
}
