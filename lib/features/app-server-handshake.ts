/**
 * The client handshake and one turn in Codex's app-server protocol (docs/app-server.md), as
 * lib/features/handshake.ts is for ACP: `initialize` with the playground's one `clientInfo`, the
 * `initialized` notification, then `thread/start` in the workspace. The thread's id plays the part
 * of ACP's sessionId everywhere the playground keeps one (Connect, compare, the probe). A turn is
 * `turn/start`, answered at once with the turn; it ends with a `turn/completed` notification.
 */
import { APP_SERVER_CLIENT, APP_SERVER_NOTIFICATIONS } from "../protocol/app-server-methods";
import { CLIENT_INFO } from "../protocol/client-capabilities";
import type { Frame } from "../protocol/frame";
import { isObject } from "../protocol/json";
import type { RequestPort } from "../protocol/request-port";
import type { HandshakeEnd, HandshakeProgress } from "./handshake";
import { DEFAULT_HANDSHAKE_TIMEOUTS, outcomeText, within } from "./handshake";

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

/** A `turn/start` with one text input. */
export const turnStartParams = (threadId: string, text: string) => ({
  threadId,
  input: [{ type: "text", text, text_elements: [] }],
});

/** The thread id in a thread/start (or thread/resume, thread/fork) result. */
export function threadIdOf(result: unknown): string | undefined {
  const thread = isObject(result) && isObject(result.thread) ? result.thread : undefined;
  return typeof thread?.id === "string" ? thread.id : undefined;
}

/** The turn id in a turn/start result, or a turn/started and turn/completed notification's params. */
export function turnIdOf(value: unknown): string | undefined {
  const turn = isObject(value) && isObject(value.turn) ? value.turn : undefined;
  return typeof turn?.id === "string" ? turn.id : undefined;
}

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
  const before = early.find((f) => isTurnCompleted(f, turnId!));
  const frame = before ?? (await completed);
  if (!frame) return { ok: false, message: `turn ${turnId} did not complete within ${Math.round(timeoutMs / 1000)} s` };
  return { ok: true, turnId, status: turnStatusOf(frame), completed: frame };
}
