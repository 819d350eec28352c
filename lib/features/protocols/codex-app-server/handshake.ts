/**
 * The client handshake and one turn in Codex's app-server protocol (docs/app-server.md), as
 * lib/features/connect/handshake.ts is for ACP: `initialize` with the playground's one `clientInfo`, the
 * `initialized` notification, then `thread/start` in the workspace. The thread's id plays the part
 * of ACP's sessionId everywhere the playground keeps one (Connect, compare, the probe). A turn is
 * `turn/start`, answered at once with the turn; it ends with a `turn/completed` notification.
 */
import {
  APP_SERVER_CLIENT,
  APP_SERVER_NOTIFICATIONS,
  threadIdOf,
  turnIdOf,
} from "../../../protocol/app-server-methods";
import { CLIENT_INFO } from "../../../protocol/client-capabilities";
import type { Frame, JsonRpcId } from "../../../protocol/frame";
import { isObject, num, str } from "../../../protocol/json";
import type { RequestPort } from "../../../protocol/request-port";
import type { HandshakeEnd, HandshakeProgress } from "../../connect/handshake";
import { DEFAULT_HANDSHAKE_TIMEOUTS, outcomeText, within } from "../../connect/handshake";

export interface AppServerHandshakeInput {
  cwd: string;
  timeouts?: { initialize?: number; thread?: number };
}

export interface AppServerHandshakeDeps {
  port: Pick<RequestPort, "request" | "notify">;
  progress?(p: HandshakeProgress): void;
}

export const appServerInitializeParams = () => ({ clientInfo: CLIENT_INFO });

/** thread/start's params: the workspace, nothing else (the server's config decides the rest). */
export const threadStartParams = (cwd: string) => ({ cwd });

/** One text input, as `turn/start` and `turn/steer` take it. */
const textInput = (text: string) => [{ type: "text", text, text_elements: [] }];

/** A `turn/start` with one text input. */
export const turnStartParams = (threadId: string, text: string) => ({ threadId, input: textInput(text) });

/** A `turn/steer`: more input for the running turn, which it must name (the server refuses another). */
export const turnSteerParams = (threadId: string, expectedTurnId: string, text: string) => ({
  threadId,
  expectedTurnId,
  input: textInput(text),
});

/** A `turn/interrupt` of a running turn. */
export const turnInterruptParams = (threadId: string, turnId: string) => ({ threadId, turnId });

export async function runAppServerHandshake(
  deps: AppServerHandshakeDeps,
  input: AppServerHandshakeInput,
): Promise<HandshakeEnd> {
  const progress = (p: HandshakeProgress) => deps.progress?.(p);
  const initializeMs = input.timeouts?.initialize ?? DEFAULT_HANDSHAKE_TIMEOUTS.initialize;
  const threadMs = input.timeouts?.thread ?? DEFAULT_HANDSHAKE_TIMEOUTS["session/new"];
  let initialize: Record<string, unknown> | undefined;
  const end = (p: HandshakeProgress, session?: Record<string, unknown>): HandshakeEnd => {
    progress(p);
    return { progress: p, ...(initialize ? { initialize } : {}), ...(session ? { session } : {}) };
  };

  progress({ step: APP_SERVER_CLIENT.initialize });
  const init = await within(
    deps.port.request(APP_SERVER_CLIENT.initialize, appServerInitializeParams(), { timeoutMs: initializeMs }),
    initializeMs,
  );
  if (!init.ok) return end({ step: "failed", message: `initialize failed: no answer within ${initializeMs} ms` });
  if (init.value.kind !== "result")
    return end({ step: "failed", message: `initialize failed: ${outcomeText(init.value)}` });
  initialize = isObject(init.value.result) ? init.value.result : {};
  const sent = await deps.port.notify(APP_SERVER_CLIENT.initialized);
  if (!sent.ok) return end({ step: "failed", message: `initialized was not sent: ${sent.error}` });

  progress({ step: APP_SERVER_CLIENT.thread_start });
  const thread = await within(
    deps.port.request(APP_SERVER_CLIENT.thread_start, threadStartParams(input.cwd), { timeoutMs: threadMs }),
    threadMs,
  );
  if (!thread.ok) return end({ step: "failed", message: `thread/start failed: no answer within ${threadMs} ms` });
  if (thread.value.kind !== "result")
    return end({ step: "failed", message: `thread/start failed: ${outcomeText(thread.value)}` });
  const threadId = threadIdOf(thread.value.result);
  if (!threadId) return end({ step: "failed", message: "thread/start answered without a thread id" });
  const result = isObject(thread.value.result) ? thread.value.result : {};
  return end({ step: "ready", sessionId: threadId }, result);
}

export type AppServerTurnEnd =
  { ok: true; turnId: string; status: string | null; completed: Frame } | { ok: false; message: string };

/** Whether a frame is the `turn/completed` notification of this turn. */
export const isTurnCompleted = (frame: Frame, turnId: string): boolean =>
  frame.dir === "from-agent" &&
  frame.kind === "notification" &&
  frame.method === APP_SERVER_NOTIFICATIONS.turn_completed &&
  turnIdOf((frame.message as { params?: unknown } | undefined)?.params) === turnId;

/** The status a turn/completed notification gives its turn ("completed", "interrupted", "failed"). */
export function turnStatusOf(frame: Frame): string | null {
  const params = (frame.message as { params?: unknown } | undefined)?.params;
  const turn = isObject(params) && isObject(params.turn) ? params.turn : undefined;
  return typeof turn?.status === "string" ? turn.status : null;
}

/**
 * One turn: `turn/start`, then its `turn/completed`. The watch starts before the request, so a turn
 * that completes before its answer arrives is still seen.
 */
export async function runAppServerTurn(
  port: Pick<RequestPort, "request" | "waitForFrame">,
  threadId: string,
  text: string,
  timeoutMs = 10 * 60_000,
): Promise<AppServerTurnEnd> {
  let turnId: string | undefined;
  const early: Frame[] = [];
  const completed = port.waitForFrame((f) => {
    if (f.method !== APP_SERVER_NOTIFICATIONS.turn_completed || f.kind !== "notification") return false;
    if (turnId === undefined) {
      early.push(f);
      return false;
    }
    return isTurnCompleted(f, turnId);
  }, timeoutMs);
  const started = await port.request(APP_SERVER_CLIENT.turn_start, turnStartParams(threadId, text), { timeoutMs });
  if (started.kind !== "result") return { ok: false, message: `turn/start failed: ${outcomeText(started)}` };
  turnId = turnIdOf(started.result);
  if (!turnId) return { ok: false, message: "turn/start answered without a turn id" };
  const before = early.find((f) => isTurnCompleted(f, turnId));
  const frame = before ?? (await completed);
  if (!frame) return { ok: false, message: `turn ${turnId} did not complete within ${Math.round(timeoutMs / 1000)} s` };
  return { ok: true, turnId, status: turnStatusOf(frame), completed: frame };
}

// ---------------------------------------------------------------------------
// The thread and turn Connect and the prompt box follow

/** Token counts a turn reported (`thread/tokenUsage/updated`'s `last`, summed over the turn's model calls). */
export interface AppServerUsage {
  inputTokens: number;
  outputTokens: number;
  totalTokens: number;
  reasoningTokens: number;
  cachedInputTokens: number;
}

/** A turn: running from its `turn/start` until its `turn/completed` (or a refused `turn/start`). */
export interface AppServerTurn {
  threadId: string;
  /** Known once turn/start answered, or turn/started named it. */
  turnId?: string;
  /** The turn/start request's id and seq, and when it was sent. */
  requestId: JsonRpcId;
  seq: number;
  ts: number;
  ended: boolean;
  endSeq?: number;
  /** turn/completed's `turn.status`: "completed", "interrupted", "failed". */
  status?: string;
  /** Why it failed: turn/start's error, or the completed turn's `error.message`. */
  error?: string;
  /** `item/agentMessage/delta` notifications seen. */
  deltas: number;
  usage?: AppServerUsage;
}

/** What the app-server said that Connect, the prompt box and the forms follow. */
export interface AppServerState {
  /** The thread opened last (thread/start, resume, fork). */
  threadId?: string;
  /** Every thread opened, oldest first. */
  threadIds: readonly string[];
  /** The newest turn, of any thread. */
  turn?: AppServerTurn;
  /** Requests to the server awaiting their answer, by request seq. */
  open: Readonly<Record<number, { method: string; params: unknown }>>;
  /** A listing's next page: the `nextCursor` of the last answer to each method that pages (thread/turns/list...), while there is one. */
  cursors: Readonly<Record<string, string>>;
  /** The model providers the last modelProvider/list answer named. */
  providers: readonly string[];
}

export const EMPTY_APP_SERVER_STATE: AppServerState = { threadIds: [], open: {}, cursors: {}, providers: [] };

const THREAD_OPENERS = new Set<string>([
  APP_SERVER_CLIENT.thread_start,
  APP_SERVER_CLIENT.thread_resume,
  APP_SERVER_CLIENT.thread_fork,
]);

const paramsOf = (frame: Frame) => {
  const m = frame.message;
  return isObject(m) && isObject(m.params) ? m.params : {};
};

function addUsage(prev: AppServerUsage | undefined, last: unknown): AppServerUsage | undefined {
  if (!isObject(last)) return prev;
  const add = (key: string, sum = 0) => sum + (num(last[key]) ?? 0);
  return {
    inputTokens: add("inputTokens", prev?.inputTokens),
    outputTokens: add("outputTokens", prev?.outputTokens),
    totalTokens: add("totalTokens", prev?.totalTokens),
    reasoningTokens: add("reasoningOutputTokens", prev?.reasoningTokens),
    cachedInputTokens: add("cachedInputTokens", prev?.cachedInputTokens),
  };
}

/** The newest turn's change for one frame, or the turn itself when the frame is not about it. */
function foldTurn(turn: AppServerTurn | undefined, frame: Frame): AppServerTurn | undefined {
  if (!turn || turn.ended || frame.dir !== "from-agent") return turn;
  const p = paramsOf(frame);
  const ours = (id: unknown) => turn.turnId !== undefined && id === turn.turnId;
  switch (frame.method) {
    case APP_SERVER_NOTIFICATIONS.turn_started:
      return turn.turnId === undefined && p.threadId === turn.threadId ? { ...turn, turnId: turnIdOf(p) } : turn;
    case APP_SERVER_NOTIFICATIONS.agent_message_delta:
      return ours(p.turnId) ? { ...turn, deltas: turn.deltas + 1 } : turn;
    case APP_SERVER_NOTIFICATIONS.thread_token_usage_updated:
      return ours(p.turnId) && isObject(p.tokenUsage)
        ? { ...turn, usage: addUsage(turn.usage, p.tokenUsage.last) }
        : turn;
    case APP_SERVER_NOTIFICATIONS.turn_completed: {
      if (!ours(turnIdOf(p))) return turn;
      const t = isObject(p.turn) ? p.turn : {};
      const error = isObject(t.error) ? str(t.error.message) : undefined;
      return { ...turn, ended: true, endSeq: frame.seq, status: str(t.status), ...(error ? { error } : {}) };
    }
    default:
      return turn;
  }
}

function onAnswer(state: AppServerState, frame: Frame): AppServerState {
  const key = frame.requestSeq;
  const request = key === undefined ? undefined : state.open[key];
  if (!request) return state;
  const { [key!]: _done, ...open } = state.open;
  const next = { ...state, open };
  const m = isObject(frame.message) ? frame.message : {};
  if (request.method === APP_SERVER_CLIENT.turn_start) {
    const turn = next.turn;
    if (!turn || turn.seq !== key || turn.ended) return next;
    if ("error" in m) {
      const error = isObject(m.error) ? (str(m.error.message) ?? JSON.stringify(m.error)) : JSON.stringify(m.error);
      return { ...next, turn: { ...turn, ended: true, endSeq: frame.seq, error } };
    }
    return { ...next, turn: turn.turnId ? turn : { ...turn, turnId: turnIdOf(m.result) } };
  }
  const result = isObject(m.result) ? m.result : {};
  if ("nextCursor" in result) {
    const { [request.method]: _last, ...cursors } = next.cursors;
    const cursor = str(result.nextCursor);
    // fromEntries defines an own key whatever the method is called.
    return {
      ...next,
      cursors: cursor === undefined ? cursors : { ...cursors, ...Object.fromEntries([[request.method, cursor]]) },
    };
  }
  if (request.method === APP_SERVER_CLIENT.model_provider_list && Array.isArray(result.data)) {
    const ids = result.data.filter(isObject).flatMap((p) => str(p.id) ?? []);
    return { ...next, providers: ids };
  }
  if (!THREAD_OPENERS.has(request.method)) return next;
  const threadId = threadIdOf(m.result);
  if (threadId === undefined) return next;
  return {
    ...next,
    threadId,
    threadIds: next.threadIds.includes(threadId) ? next.threadIds : [...next.threadIds, threadId],
  };
}

/** Folds frames (in seq order, after those already folded): the thread opened last and the newest turn. */
export function foldAppServer(frames: Iterable<Frame>, state: AppServerState = EMPTY_APP_SERVER_STATE): AppServerState {
  let next = state;
  for (const frame of frames) {
    if (frame.dir === "to-agent" && frame.kind === "request" && frame.method !== undefined) {
      const isTurn = frame.method === APP_SERVER_CLIENT.turn_start;
      const params = paramsOf(frame);
      next = { ...next, open: { ...next.open, [frame.seq]: { method: frame.method, params } } };
      const threadId = str(params.threadId);
      if (isTurn && threadId !== undefined)
        next = {
          ...next,
          turn: { threadId, requestId: frame.id ?? null, seq: frame.seq, ts: frame.ts, ended: false, deltas: 0 },
        };
    } else if (frame.dir === "from-agent" && frame.kind === "response") next = onAnswer(next, frame);
    else {
      const turn = foldTurn(next.turn, frame);
      if (turn !== next.turn) next = { ...next, turn };
    }
  }
  return next;
}
