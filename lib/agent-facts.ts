/**
 * What the agent has said so far that the composer and the prompt box need:
 * its initialize result (capabilities, auth methods), the session to talk to
 * (from the last session/new, load or resume), that session's modes, config
 * options and slash commands, methods it answered -32601, the last prompt
 * turn (usage, empty response) and the diffs its tool calls carried.
 *
 * A pure reducer fed each frame once, in seq order: O(1) per frame, and it
 * returns the same object when a frame changes nothing, so React selectors
 * over its parts only re-render when those parts change.
 */
import type { AvailableCommand, SessionConfigOption, SessionMode } from "@agentclientprotocol/sdk";
import type { Frame, JsonRpcId } from "./frame";
import { turnUsageOf, type TurnUsage } from "./turn-usage";

export { turnUsageOf, type TurnUsage };

export interface RpcError {
  code: number;
  message: string;
  data?: unknown;
}

export interface TurnSummary {
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
  availableModes?: SessionMode[];
  configOptions?: SessionConfigOption[];
  commands?: AvailableCommand[];
}

export interface AgentFacts {
  /** The initialize exchange, once answered (the pool's one included). */
  initialize?: { requestSeq: number; params?: unknown; result?: Record<string, unknown>; error?: RpcError };
  /** The session opened last (session/new, load, resume, fork). */
  sessionId?: string;
  /** Every session opened, oldest first. */
  sessionIds: readonly string[];
  sessions: Readonly<Record<string, SessionFacts>>;
  /** Methods the agent answered -32601 (method not found), with the seq of that answer. */
  unsupported: Readonly<Record<string, number>>;
  lastTurn?: TurnSummary;
  /** The newest diff a tool call carried, per path (fs/write_text_file does not carry the old text). */
  diffs: Readonly<Record<string, { oldText?: string | null; newText: string; seq: number }>>;
  /** Requests sent to the agent awaiting their answer, by id key (their params matter: load, set_mode). */
  open: Readonly<Record<string, { method: string; params: unknown; seq: number }>>;
}

export const EMPTY_FACTS: AgentFacts = { sessionIds: [], sessions: {}, unsupported: {}, diffs: {}, open: {} };

export const METHOD_NOT_FOUND = -32601;
const SESSION_OPENERS = new Set(["session/new", "session/load", "session/resume", "session/fork"]);
/** Diffs kept: enough for the write cards, bounded for a long session. */
const MAX_DIFFS = 200;

type Obj = Record<string, unknown>;
const isObj = (v: unknown): v is Obj => typeof v === "object" && v !== null && !Array.isArray(v);
const str = (v: unknown) => (typeof v === "string" ? v : undefined);
const idKey = (id: JsonRpcId | undefined) => (typeof id === "string" ? `s:${id}` : `n:${String(id)}`);

function asError(v: unknown): RpcError {
  return isObj(v) && typeof v.code === "number" && typeof v.message === "string"
    ? (v as unknown as RpcError)
    : { code: -32603, message: JSON.stringify(v) ?? "unknown error" };
}

function withSession(f: AgentFacts, sessionId: string, patch: Partial<SessionFacts>): AgentFacts {
  const prev = f.sessions[sessionId] ?? {};
  return { ...f, sessions: { ...f.sessions, [sessionId]: { ...prev, ...patch } } };
}

/** Diff contents of a tool call (`tool_call`, `tool_call_update`, or a permission's `toolCall`). */
function diffsOf(toolCall: unknown): { path: string; oldText?: string | null; newText: string }[] {
  const content = isObj(toolCall) ? toolCall.content : undefined;
  if (!Array.isArray(content)) return [];
  return content.filter(
    (c): c is { type: "diff"; path: string; oldText?: string | null; newText: string } =>
      isObj(c) && c.type === "diff" && typeof c.path === "string" && typeof c.newText === "string",
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

function onUpdate(f: AgentFacts, frame: Frame, params: Obj): AgentFacts {
  const sessionId = str(params.sessionId);
  const update = isObj(params.update) ? params.update : undefined;
  if (!update || sessionId === undefined) return f;
  switch (update.sessionUpdate) {
    case "agent_message_chunk": {
      const t = f.lastTurn;
      if (!t || t.ended || t.sessionId !== sessionId) return f;
      return { ...f, lastTurn: { ...t, chunks: t.chunks + 1 } };
    }
    case "available_commands_update":
      return Array.isArray(update.availableCommands)
        ? withSession(f, sessionId, { commands: update.availableCommands as AvailableCommand[] })
        : f;
    case "current_mode_update":
      return typeof update.currentModeId === "string"
        ? withSession(f, sessionId, { currentModeId: update.currentModeId })
        : f;
    case "config_option_update":
      return Array.isArray(update.configOptions)
        ? withSession(f, sessionId, { configOptions: update.configOptions as SessionConfigOption[] })
        : f;
    case "tool_call":
    case "tool_call_update":
      return addDiffs(f, update, frame.seq);
    default:
      return f;
  }
}

function onRequestToAgent(f: AgentFacts, frame: Frame, params: unknown): AgentFacts {
  let next: AgentFacts = {
    ...f,
    open: { ...f.open, [idKey(frame.id)]: { method: frame.method!, params, seq: frame.seq } },
  };
  if (frame.method === "session/prompt" && isObj(params) && typeof params.sessionId === "string") {
    next = {
      ...next,
      lastTurn: {
        sessionId: params.sessionId,
        requestId: frame.id ?? null,
        seq: frame.seq,
        ts: frame.ts,
        ended: false,
        chunks: 0,
        emptyResponse: false,
      },
    };
  }
  return next;
}

function onResponseFromAgent(f: AgentFacts, frame: Frame, m: Obj): AgentFacts {
  const key = idKey(frame.id);
  const request = f.open[key];
  const { [key]: _done, ...open } = f.open;
  let next: AgentFacts = request ? { ...f, open } : f;
  const method = request?.method ?? frame.method;
  if (!method) return next;
  const failed = "error" in m;
  const error = failed ? asError(m.error) : undefined;
  if (error?.code === METHOD_NOT_FOUND) next = { ...next, unsupported: { ...next.unsupported, [method]: frame.seq } };
  else if (!failed && method in next.unsupported) {
    const { [method]: _works, ...rest } = next.unsupported;
    next = { ...next, unsupported: rest };
  }
  const result = isObj(m.result) ? m.result : undefined;
  const params = isObj(request?.params) ? request.params : {};

  if (method === "initialize") {
    return {
      ...next,
      initialize: {
        requestSeq: request?.seq ?? frame.seq,
        params: request?.params,
        ...(failed ? { error } : { result: result ?? {} }),
      },
    };
  }
  if (method === "session/prompt") {
    const t = next.lastTurn;
    if (!t || t.ended || idKey(t.requestId) !== key) return next;
    const stopReason = failed ? undefined : (str(result?.stopReason) ?? null);
    const usage = turnUsageOf(result);
    return {
      ...next,
      lastTurn: {
        ...t,
        ended: true,
        endSeq: frame.seq,
        ...(failed ? { error } : { stopReason }),
        ...(usage ? { usage } : {}),
        emptyResponse: !failed && t.chunks === 0 && stopReason === null,
      },
    };
  }
  if (failed || !result) return next;
  if (SESSION_OPENERS.has(method)) {
    const sessionId = str(result.sessionId) ?? str(params.sessionId);
    if (sessionId === undefined) return next;
    next = {
      ...next,
      sessionId,
      sessionIds: next.sessionIds.includes(sessionId) ? next.sessionIds : [...next.sessionIds, sessionId],
    };
    const patch: Partial<SessionFacts> = {};
    const modes = isObj(result.modes) ? result.modes : undefined;
    if (modes) {
      if (typeof modes.currentModeId === "string") patch.currentModeId = modes.currentModeId;
      if (Array.isArray(modes.availableModes)) patch.availableModes = modes.availableModes as SessionMode[];
    }
    if (Array.isArray(result.configOptions)) patch.configOptions = result.configOptions as SessionConfigOption[];
    return withSession(next, sessionId, patch);
  }
  const sessionId = str(params.sessionId);
  if (sessionId === undefined) return next;
  if (method === "session/set_mode" && typeof params.modeId === "string")
    return withSession(next, sessionId, { currentModeId: params.modeId });
  if (method === "session/set_config_option" && Array.isArray(result.configOptions)) {
    return withSession(next, sessionId, { configOptions: result.configOptions as SessionConfigOption[] });
  }
  return next;
}

export function reduceFacts(f: AgentFacts, frame: Frame): AgentFacts {
  const m = frame.message;
  if (!isObj(m)) return f;
  if (frame.dir === "to-agent") {
    return frame.kind === "request" && frame.method !== undefined ? onRequestToAgent(f, frame, m.params) : f;
  }
  if (frame.kind === "response") return onResponseFromAgent(f, frame, m);
  const params = isObj(m.params) ? m.params : undefined;
  if (!params) return f;
  if (frame.kind === "notification" && frame.method === "session/update") return onUpdate(f, frame, params);
  if (frame.kind === "request" && frame.method === "session/request_permission")
    return addDiffs(f, params.toolCall, frame.seq);
  return f;
}

export function reduceAllFacts(frames: Iterable<Frame>, f: AgentFacts = EMPTY_FACTS): AgentFacts {
  let out = f;
  for (const frame of frames) out = reduceFacts(out, frame);
  return out;
}

// ---------------------------------------------------------------------------
// Reading the initialize result

export interface AgentCapabilitiesView {
  loadSession: boolean;
  prompt: { image: boolean; audio: boolean; embeddedContext: boolean };
  mcp: { http: boolean; sse: boolean };
  /** `sessionCapabilities` keys present and not null (list, resume, close, delete, fork...). */
  session: readonly string[];
  logout: boolean;
  raw: Obj;
}

/** The agent's capabilities, with the schema's defaults for what it left out. */
export function agentCapabilities(facts: AgentFacts): AgentCapabilitiesView | undefined {
  const result = facts.initialize?.result;
  if (!result) return undefined;
  const caps = isObj(result.agentCapabilities) ? result.agentCapabilities : {};
  const prompt = isObj(caps.promptCapabilities) ? caps.promptCapabilities : {};
  const mcp = isObj(caps.mcpCapabilities) ? caps.mcpCapabilities : {};
  const session = isObj(caps.sessionCapabilities) ? caps.sessionCapabilities : {};
  const auth = isObj(caps.auth) ? caps.auth : {};
  return {
    loadSession: caps.loadSession === true,
    prompt: {
      image: prompt.image === true,
      audio: prompt.audio === true,
      embeddedContext: prompt.embeddedContext === true,
    },
    mcp: { http: mcp.http === true, sse: mcp.sse === true },
    session: Object.keys(session).filter(
      (k) => k !== "_meta" && session[k] !== null && session[k] !== undefined && session[k] !== false,
    ),
    logout: isObj(auth.logout),
    raw: caps,
  };
}

export interface AuthMethodView {
  id: string;
  name: string;
  description?: string | null;
  type?: string;
  _meta?: unknown;
}

export function authMethods(facts: AgentFacts): AuthMethodView[] {
  const list = facts.initialize?.result?.authMethods;
  if (!Array.isArray(list)) return [];
  return list
    .filter((m): m is AuthMethodView => isObj(m) && typeof m.id === "string")
    .map((m) => ({ ...m, name: m.name ?? m.id }));
}

/** The current session's facts (empty when there is none). */
export function currentSession(facts: AgentFacts): SessionFacts {
  return (facts.sessionId !== undefined ? facts.sessions[facts.sessionId] : undefined) ?? {};
}
