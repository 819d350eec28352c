/**
 * What the agent has said so far that the composer and the prompt box need:
 * its initialize result (capabilities, auth methods), the session to talk to
 * (from the last session/new, load, resume or fork), methods it answered
 * -32601 and the diffs its tool calls carried. A session's modes, config
 * options, commands and turns are folded once, by lib/folds/session-view.ts; the
 * facts read them from that view (`sessions`, `lastTurn`).
 *
 * Pure, fed each frame once in seq order, O(1) per frame; parts that a batch
 * leaves alone keep their identity, so React selectors over them only
 * re-render when they change.
 */
import type { AvailableCommand, SessionConfigOption, SessionMode } from "@agentclientprotocol/sdk";
import type { Frame, JsonRpcId } from "../protocol/frame";
import { isObject, type JsonObject, obj, str } from "../protocol/json";
import type { RpcError } from "../protocol/jsonrpc";
import { emptyView, NO_SESSION, reduceFrames, type SessionViewState, type Turn } from "./session-view";
import { turnUsageOf, type TurnUsage } from "./turn-usage";
import { AGENT_METHODS, CLIENT_METHODS } from "../protocol/methods";
import { applySessionChange, foldListPage, LISTING_CHANGES, type SessionListing } from "./session-list";

export { turnUsageOf, type TurnUsage };

/** The last prompt turn, read from the session view's Turn. */
export interface LastTurn {
  sessionId: string;
  requestId: JsonRpcId;
  seq: number;
  ts: number;
  ended: boolean;
  endSeq?: number;
  /** `agent_message_chunk` updates seen during the turn. */
  chunks: number;
  /** null when the response had none. */
  stopReason?: string | null;
  error?: RpcError;
  usage?: TurnUsage;
  /** Ended without error, with no agent message chunk and no stopReason (how an invalid model shows up). */
  emptyResponse: boolean;
}

export interface SessionFacts {
  currentModeId?: string;
  availableModes?: readonly SessionMode[];
  configOptions?: readonly SessionConfigOption[];
  commands?: readonly AvailableCommand[];
  /** The cwd the session was opened in (the opener's params), when seen. */
  cwd?: string;
}

export interface AgentFacts {
  /** The initialize exchange, once answered (the pool's one included). */
  initialize?: { requestSeq: number; params?: unknown; result?: JsonObject; error?: RpcError };
  /** The session opened last (session/new, load, resume, fork). */
  sessionId?: string;
  /** Every session opened, oldest first. */
  sessionIds: readonly string[];
  /** Per session, from the session view. */
  sessions: Readonly<Record<string, SessionFacts>>;
  /** Methods the agent answered -32601 (method not found), with the seq of that answer. */
  unsupported: Readonly<Record<string, number>>;
  /** The newest prompt turn of any session, from the session view. */
  lastTurn?: LastTurn;
  /** The newest diff a tool call carried, per path (fs/write_text_file does not carry the old text). */
  diffs: Readonly<Record<string, { oldText?: string | null; newText: string; seq: number }>>;
  /** Requests sent to the agent awaiting their answer, by request seq (their params matter: initialize, load). */
  open: Readonly<Record<number, { method: string; params: unknown }>>;
  /** What session/list answered, page by page (lib/folds/session-list.ts). */
  listing?: SessionListing;
}

export const EMPTY_FACTS: AgentFacts = { sessionIds: [], sessions: {}, unsupported: {}, diffs: {}, open: {} };

/** The facts with the session view they read from; fold frames into both with `foldFacts`. */
export interface FactsState {
  facts: AgentFacts;
  view: SessionViewState;
}

export const EMPTY_FACTS_STATE: FactsState = { facts: EMPTY_FACTS, view: emptyView() };

/**
 * What a log's frames fold into, whatever the protocol: the agent's facts and one conversation,
 * whose type is the protocol's own (its spec's `foldLog`, lib/features/protocols/spec.ts).
 */
export interface LogFolds<C = unknown> {
  readonly facts: AgentFacts;
  readonly conversation: C;
}

export const METHOD_NOT_FOUND = -32601;
const SESSION_OPENERS = new Set<string>([
  AGENT_METHODS.session_new,
  AGENT_METHODS.session_load,
  AGENT_METHODS.session_resume,
  AGENT_METHODS.session_fork,
]);
/** Requests whose params a response needs: initialize, the openers, session/list and what changes a listing. */
const TRACKED = new Set<string>([
  AGENT_METHODS.initialize,
  AGENT_METHODS.session_list,
  ...SESSION_OPENERS,
  ...LISTING_CHANGES,
]);
/** Diffs kept: enough for the write cards, bounded for a long session. */
const MAX_DIFFS = 200;

function asError(v: unknown): RpcError {
  return isObject(v) && typeof v.code === "number" && typeof v.message === "string"
    ? (v as unknown as RpcError)
    : { code: -32603, message: JSON.stringify(v) ?? "unknown error" };
}

/** Diff contents of a tool call (`tool_call`, `tool_call_update`, or a permission's `toolCall`). */
function diffsOf(toolCall: unknown): { path: string; oldText?: string | null; newText: string }[] {
  const content = isObject(toolCall) ? toolCall.content : undefined;
  if (!Array.isArray(content)) return [];
  return content.filter(
    (c): c is { type: "diff"; path: string; oldText?: string | null; newText: string } =>
      isObject(c) && c.type === "diff" && typeof c.path === "string" && typeof c.newText === "string",
  );
}

function addDiffs(f: AgentFacts, toolCall: unknown, seq: number): AgentFacts {
  const found = diffsOf(toolCall);
  if (found.length === 0) return f;
  let diffs = { ...f.diffs };
  for (const d of found) {
    delete diffs[d.path];
    diffs[d.path] = { oldText: d.oldText, newText: d.newText, seq };
  }
  const keys = Object.keys(diffs);
  if (keys.length > MAX_DIFFS) diffs = Object.fromEntries(keys.slice(-MAX_DIFFS).map((k) => [k, diffs[k]!]));
  return { ...f, diffs };
}

function onResponseFromAgent(f: AgentFacts, frame: Frame, m: JsonObject): AgentFacts {
  const key = frame.requestSeq;
  const request = key === undefined ? undefined : f.open[key];
  let next: AgentFacts = f;
  if (request) {
    const { [key!]: _done, ...open } = f.open;
    next = { ...f, open };
  }
  const method = request?.method ?? frame.method;
  if (!method) return next;
  const failed = "error" in m;
  const error = failed ? asError(m.error) : undefined;
  if (error?.code === METHOD_NOT_FOUND) next = { ...next, unsupported: { ...next.unsupported, [method]: frame.seq } };
  else if (!failed && method in next.unsupported) {
    const { [method]: _works, ...rest } = next.unsupported;
    next = { ...next, unsupported: rest };
  }
  const result = isObject(m.result) ? m.result : undefined;
  const params = isObject(request?.params) ? request.params : {};

  if (method === AGENT_METHODS.initialize) {
    return {
      ...next,
      initialize: {
        requestSeq: frame.requestSeq ?? frame.seq,
        params: request?.params,
        ...(failed ? { error } : { result: result ?? {} }),
      },
    };
  }
  if (failed || !result) return next;
  if (method === AGENT_METHODS.session_list && request)
    return { ...next, listing: foldListPage(next.listing, request.params, result, frame.seq) };
  if (LISTING_CHANGES.has(method) && request && next.listing) {
    const listing = applySessionChange(next.listing, method, request.params);
    return listing === next.listing ? next : { ...next, listing };
  }
  if (!SESSION_OPENERS.has(method)) return next;
  const sessionId = str(result.sessionId) ?? str(params.sessionId);
  if (sessionId === undefined) return next;
  return {
    ...next,
    sessionId,
    sessionIds: next.sessionIds.includes(sessionId) ? next.sessionIds : [...next.sessionIds, sessionId],
  };
}

function reduceFrame(f: AgentFacts, frame: Frame): AgentFacts {
  const m = frame.message;
  if (!isObject(m)) return f;
  if (frame.dir === "to-agent") {
    if (frame.kind !== "request" || frame.method === undefined) return f;
    // Only what a response needs later: the method and params of the requests in TRACKED.
    if (!TRACKED.has(frame.method)) return f;
    return { ...f, open: { ...f.open, [frame.seq]: { method: frame.method, params: m.params } } };
  }
  if (frame.kind === "response") return onResponseFromAgent(f, frame, m);
  const params = isObject(m.params) ? m.params : undefined;
  if (!params) return f;
  if (frame.kind === "notification" && frame.method === CLIENT_METHODS.session_update) {
    const update = params.update;
    const variant = isObject(update) ? update.sessionUpdate : undefined;
    return variant === "tool_call" || variant === "tool_call_update" ? addDiffs(f, update, frame.seq) : f;
  }
  if (frame.kind === "request" && frame.method === CLIENT_METHODS.session_request_permission)
    return addDiffs(f, params.toolCall, frame.seq);
  return f;
}

/** The turn's summary; `prev` itself when nothing in it changed (a thought chunk changes the Turn, not this). */
function summary(t: Turn, prev: LastTurn | undefined): LastTurn {
  const next: LastTurn = {
    sessionId: t.sessionId,
    requestId: t.requestId,
    seq: t.seq,
    ts: t.ts,
    ended: t.ended,
    chunks: t.agentMessageChunks,
    emptyResponse: t.emptyResponse === true,
  };
  if (t.endSeq !== undefined) next.endSeq = t.endSeq;
  if (t.ended && !t.error) next.stopReason = t.stopReason ?? null;
  if (t.error) next.error = t.error;
  if (t.usage) {
    const { models: _m, raw: _r, ...usage } = t.usage;
    next.usage = usage;
  }
  if (!prev) return next;
  const keys = new Set([...Object.keys(prev), ...Object.keys(next)]) as Set<keyof LastTurn>;
  for (const k of keys) {
    const a = prev[k];
    const b = next[k];
    if (a !== b && JSON.stringify(a) !== JSON.stringify(b)) return next;
  }
  return prev;
}

const same = <T>(a: readonly T[] | undefined, b: readonly T[] | undefined) => a === b;

/** Session facts and the last turn as the view has them; unchanged parts keep their identity. */
function fromView(f: AgentFacts, view: SessionViewState): AgentFacts {
  let sessions = f.sessions;
  for (const id of view.order) {
    const s = view.sessions[id]!;
    const prev = Object.hasOwn(f.sessions, id) ? f.sessions[id] : undefined;
    if (
      prev &&
      prev.currentModeId === s.currentModeId &&
      same(prev.availableModes, s.availableModes) &&
      same(prev.configOptions, s.configOptions) &&
      same(prev.commands, s.availableCommands) &&
      prev.cwd === s.origin?.cwd
    )
      continue;
    if (sessions === f.sessions) sessions = { ...f.sessions };
    Object.defineProperty(sessions, id, {
      value: {
        currentModeId: s.currentModeId,
        availableModes: s.availableModes,
        configOptions: s.configOptions,
        commands: s.availableCommands,
        ...(s.origin?.cwd !== undefined ? { cwd: s.origin.cwd } : {}),
      } satisfies SessionFacts,
      writable: true,
      enumerable: true,
      configurable: true,
    });
  }
  let turn: Turn | undefined;
  for (const id of view.order) {
    if (id === NO_SESSION) continue;
    const t = view.sessions[id]!.turns.at(-1);
    if (t && (!turn || t.seq > turn.seq)) turn = t;
  }
  const lastTurn = turn && summary(turn, f.lastTurn);
  if (sessions === f.sessions && lastTurn === f.lastTurn) return f;
  return { ...f, sessions, lastTurn };
}

/** Folds frames (in seq order, after those already folded) into the facts and their session view. */
export function foldFacts(frames: Iterable<Frame>, state: FactsState = EMPTY_FACTS_STATE): FactsState {
  let facts = state.facts;
  const batch: Frame[] = [];
  for (const frame of frames) {
    facts = reduceFrame(facts, frame);
    batch.push(frame);
  }
  const view = reduceFrames(batch, state.view);
  facts = fromView(facts, view);
  return facts === state.facts && view === state.view ? state : { facts, view };
}

/**
 * The facts alone, without ACP's session view: for a protocol whose conversation another fold
 * decodes (the app-server's threads); what the agent said to initialize and the like.
 */
export function foldFactsAlone(frames: Iterable<Frame>, facts: AgentFacts = EMPTY_FACTS): AgentFacts {
  for (const frame of frames) facts = reduceFrame(facts, frame);
  return facts;
}

/** The facts of a whole log. */
export function reduceAllFacts(frames: Iterable<Frame>): AgentFacts {
  return foldFacts(frames).facts;
}

// ---------------------------------------------------------------------------
// Reading the initialize result

export interface AgentCapabilitiesView {
  /** The protocol version the agent answered (1 when it said none or something else than a number). */
  protocolVersion: number;
  loadSession: boolean;
  prompt: { image: boolean; audio: boolean; embeddedContext: boolean };
  mcp: { http: boolean; sse: boolean };
  /** `sessionCapabilities` keys present and not null (list, resume, close, delete, fork...). */
  session: readonly string[];
  logout: boolean;
  raw: JsonObject;
}

/** The agent's capabilities, with the schema's defaults for what it left out. */
export function agentCapabilities(facts: AgentFacts): AgentCapabilitiesView | undefined {
  const result = facts.initialize?.result;
  if (!result) return undefined;
  const protocolVersion = negotiatedVersion(facts) ?? 1;
  // v2 renamed agentCapabilities to capabilities and moved prompt and mcp under session.
  const v2 = protocolVersion >= 2;
  const caps = obj(v2 ? result.capabilities : result.agentCapabilities);
  const session = obj(v2 ? caps.session : caps.sessionCapabilities);
  const prompt = obj(v2 ? session.prompt : caps.promptCapabilities);
  const mcp = obj(v2 ? session.mcp : caps.mcpCapabilities);
  const auth = obj(caps.auth);
  return {
    protocolVersion,
    loadSession: caps.loadSession === true,
    prompt: {
      image: prompt.image === true,
      audio: prompt.audio === true,
      embeddedContext: prompt.embeddedContext === true,
    },
    mcp: { http: mcp.http === true, sse: mcp.sse === true },
    session: Object.keys(session).filter(
      (k) =>
        k !== "_meta" &&
        !(v2 && (k === "prompt" || k === "mcp")) &&
        session[k] !== null &&
        session[k] !== undefined &&
        session[k] !== false,
    ),
    logout: isObject(auth.logout),
    raw: caps,
  };
}

/** The protocolVersion of the agent's initialize result, when it answered one (a non-negative integer). */
export function negotiatedVersion(facts: AgentFacts): number | undefined {
  const v = facts.initialize?.result?.protocolVersion;
  return typeof v === "number" && Number.isInteger(v) && v >= 0 && v <= 65_535 ? v : undefined;
}

/** The current session's facts (empty when there is none). */
export function currentSession(facts: AgentFacts): SessionFacts {
  return (facts.sessionId !== undefined ? facts.sessions[facts.sessionId] : undefined) ?? {};
}
