/**
 * The client handshake, the same for every caller (Connect, the CLI, compare,
 * the warm pool, the probe): `initialize` with the playground's one
 * `clientInfo` and the caller's capabilities, `authenticate` when session/new
 * says it is needed (or first, when asked) with the method a chooser picks,
 * then `session/new`. Every step has a timeout and fails with the agent's own
 * error text. It talks through a `RequestPort` (lib/protocol/request-port.ts)
 * only, so it is tested without a relay.
 */
import type { ClientCapabilities } from "@agentclientprotocol/sdk";
import { CLIENT_INFO } from "../../protocol/client-capabilities";
import { isObject } from "../../protocol/json";
import type { RpcError, RpcOutcome } from "../../protocol/jsonrpc";
import { AGENT_METHODS } from "../../protocol/methods";
import { APP_SERVER_CLIENT } from "../../protocol/app-server-methods";
import { seconds, type RequestPort } from "../../protocol/request-port";
import { ok, type Failure, type Result } from "../../protocol/result";
import { type AuthMethodView, canAuthenticate, describeAuthMethods, parseAuthMethods } from "./auth-methods";

/** ACP v1, the SDK's PROTOCOL_VERSION (a value import of the SDK would put its validators in the page). */
export const ACP_V1 = 1;

/** v2's authenticate. */
export const V2_AUTH_LOGIN = "auth/login";

export type HandshakeStep =
  | typeof AGENT_METHODS.initialize
  | typeof AGENT_METHODS.authenticate
  | typeof AGENT_METHODS.session_new
  /** Codex's app-server (lib/features/protocols/codex-app-server/handshake.ts). */
  | typeof APP_SERVER_CLIENT.thread_start
  | "ready"
  | "failed";

export interface HandshakeProgress {
  step: HandshakeStep;
  /** Why it failed, or what is happening. */
  message?: string;
  sessionId?: string;
  /** The agent's auth methods, while the user is asked to choose one. */
  authMethods?: AuthMethodView[];
  /** The auth method being used (or used). */
  authMethodId?: string;
  /** Set only once `authenticate` has answered with a result. */
  authenticated?: boolean;
  /** The protocol version asked for in initialize (absent when the agent was initialized before). */
  requestedVersion?: number;
  /** The protocolVersion the agent's initialize result named, once it answered one. */
  negotiatedVersion?: number;
}

/** Why the handshake asks for an auth method. */
export interface AuthChoiceRequest {
  methods: AuthMethodView[];
  reason: "auth-required" | "before-session";
  /** The agent's error that led here (session/new's, or the last authenticate's), as one line. */
  error?: string;
}

/**
 * The answer: call `authenticate` with a method; or retry session/new (after
 * running a `terminal` method's command or setting an `env_var` method's
 * variables outside the page); or give up.
 */
export type AuthChoice =
  { type: typeof AGENT_METHODS.authenticate; methodId: string } | { type: "retry" } | { type: "cancel" };

export interface HandshakeTimeouts {
  initialize: number;
  authenticate: number;
  [AGENT_METHODS.session_new]: number;
  /** How long the user may take to choose an auth method. */
  choose: number;
}

export const DEFAULT_HANDSHAKE_TIMEOUTS: HandshakeTimeouts = {
  initialize: 30_000,
  // An agent's own login may open a browser and wait for the user.
  authenticate: 120_000,
  [AGENT_METHODS.session_new]: 60_000,
  choose: 15 * 60_000,
};

/** What `initialize` says: the version asked for and what the client advertises. */
export interface InitializeInput {
  /** 1 (the default), or 2 for the v2 draft: initialize then sends `info` and `capabilities`, and login is `auth/login`. */
  protocolVersion?: number;
  clientCapabilities: ClientCapabilities;
}

export interface HandshakeInput extends InitializeInput {
  cwd: string;
  timeouts?: Partial<HandshakeTimeouts>;
  /** Ask for an auth method before session/new when the agent lists any. */
  authenticateFirst?: boolean;
  /** The agent's initialize result when it was initialized before (the warm pool): not sent again. */
  initialized?: Record<string, unknown>;
}

export interface HandshakeDeps {
  port: Pick<RequestPort, "request">;
  progress?(p: HandshakeProgress): void;
  /** Asks which auth method to use; without it, the handshake fails listing the methods. */
  chooseAuth?(request: AuthChoiceRequest): Promise<AuthChoice>;
}

/** How the handshake ended (`progress.step` is "ready" or "failed"), with the results it got. */
export interface HandshakeEnd {
  progress: HandshakeProgress;
  /** The initialize result (the one given, or the agent's answer). */
  initialize?: Record<string, unknown>;
  /** The session/new result, once ready. */
  session?: Record<string, unknown>;
}

/** initialize's params for the version asked: v2 renamed clientInfo/clientCapabilities and has no fs or terminal. */
export function initializeParams(input: InitializeInput) {
  const protocolVersion = input.protocolVersion ?? ACP_V1;
  if (protocolVersion >= 2)
    return {
      protocolVersion,
      info: CLIENT_INFO,
      capabilities: input.clientCapabilities.elicitation ? { elicitation: input.clientCapabilities.elicitation } : {},
    };
  return { protocolVersion, clientCapabilities: input.clientCapabilities, clientInfo: CLIENT_INFO };
}

/** session/new's params: the playground never sends MCP servers of its own. */
export const sessionNewParams = (cwd: string) => ({ cwd, mcpServers: [] as [] });

/** A protocolVersion as the agent answered it: a uint16, else undefined. */
function versionOf(v: unknown): number | undefined {
  return typeof v === "number" && Number.isInteger(v) && v >= 0 && v <= 65_535 ? v : undefined;
}

/** Rounds of choosing a method before the handshake gives up. */
const MAX_AUTH_ROUNDS = 3;

/** The agent's error as one line: its message, code and data (at most `max` characters). */
export function agentErrorText(e: RpcError, max = 1_000): string {
  const data =
    e.data === undefined || e.data === null ? "" : typeof e.data === "string" ? e.data : JSON.stringify(e.data);
  const text = `${e.message} (${e.code})${data ? `: ${data}` : ""}`;
  return text.length > max ? `${text.slice(0, max)}…` : text;
}

/** Why a request got no result, as one line. */
export function outcomeText(outcome: Exclude<RpcOutcome, { kind: "result" }>): string {
  return outcome.kind === "error" ? agentErrorText(outcome.error) : outcome.message;
}

/** Whether an error asks for authentication: -32000 (the ACP's auth_required) or a message saying so. */
export function needsAuth(e: RpcError): boolean {
  return e.code === -32000 || /auth/i.test(e.message);
}

/** The promise's value, or "timed out" after `ms`. */
export function within<T>(promise: Promise<T>, ms: number): Promise<Result<T, "timed out">> {
  let timer: ReturnType<typeof setTimeout> | undefined;
  const timeout = new Promise<Failure<"timed out">>((resolve) => {
    timer = setTimeout(() => resolve({ ok: false, error: "timed out" }), ms);
  });
  return Promise.race([promise.then(ok), timeout]).finally(() => clearTimeout(timer));
}

/**
 * One request under a time limit; running out is a failed outcome that says
 * where to look. The limit holds whatever the port does (a port may have none).
 */
async function call(
  port: Pick<RequestPort, "request">,
  method: string,
  params: unknown,
  ms: number,
  id?: string,
): Promise<RpcOutcome> {
  const res = await within(port.request(method, params, { timeoutMs: ms, ...(id === undefined ? {} : { id }) }), ms);
  if (res.ok && !(res.value.kind === "failed" && res.value.reason === "timeout")) return res.value;
  return {
    kind: "failed",
    reason: "timeout",
    message: `no answer within ${seconds(ms)} (see its frames and its stderr)`,
  };
}

/** `initialize` alone (the warm pool): the agent's result, or why there is none ("initialize failed: ..."). */
export async function initializeAgent(
  port: Pick<RequestPort, "request">,
  input: InitializeInput & { timeoutMs?: number; id?: string },
): Promise<Result<Record<string, unknown>>> {
  const res = await call(
    port,
    AGENT_METHODS.initialize,
    initializeParams(input),
    input.timeoutMs ?? DEFAULT_HANDSHAKE_TIMEOUTS.initialize,
    input.id,
  );
  if (res.kind !== "result") return { ok: false, error: `initialize failed: ${outcomeText(res)}` };
  return ok(isObject(res.result) ? res.result : {});
}

export async function runHandshake(deps: HandshakeDeps, input: HandshakeInput): Promise<HandshakeEnd> {
  const limits = { ...DEFAULT_HANDSHAKE_TIMEOUTS, ...input.timeouts };
  const progress = (p: HandshakeProgress) => deps.progress?.(p);
  let authMethodId: string | undefined;
  let authenticated: boolean | undefined;
  let requestedVersion: number | undefined;
  let negotiatedVersion: number | undefined;
  let init = input.initialized;
  const state = () => ({
    ...(requestedVersion === undefined ? {} : { requestedVersion }),
    ...(negotiatedVersion === undefined ? {} : { negotiatedVersion }),
    ...(authMethodId ? { authMethodId } : {}),
    ...(authenticated ? { authenticated } : {}),
  });
  const end = (p: HandshakeProgress, session?: Record<string, unknown>): HandshakeEnd => {
    progress(p);
    return { progress: p, ...(init ? { initialize: init } : {}), ...(session ? { session } : {}) };
  };
  const fail = (message: string) => end({ step: "failed", ...state(), message });

  if (!init) {
    requestedVersion = input.protocolVersion ?? ACP_V1;
    progress({ step: AGENT_METHODS.initialize, ...state() });
    const res = await initializeAgent(deps.port, { ...input, timeoutMs: limits.initialize });
    if (!res.ok) return fail(res.error);
    init = res.value;
  }
  negotiatedVersion = versionOf(init.protocolVersion);
  if (requestedVersion !== undefined && negotiatedVersion !== undefined && negotiatedVersion > requestedVersion)
    return fail(
      `the agent answered protocolVersion ${negotiatedVersion}, above the ${requestedVersion} asked for (it must answer at or below it)`,
    );
  // An agent that answers v1 to a v2 initialize is talked to in v1 (the spec's negotiation).
  const loginMethod = (negotiatedVersion ?? ACP_V1) >= 2 ? V2_AUTH_LOGIN : AGENT_METHODS.authenticate;
  const methods = parseAuthMethods(init);
  let rounds = 0;

  /** Asks for a method and authenticates with it; a message when the handshake must stop. */
  const authenticate = async (reason: AuthChoiceRequest["reason"], error?: string): Promise<string | undefined> => {
    if (methods.length === 0)
      return `session/new needs authentication, but the agent listed no auth method${error ? `: ${error}` : ""}`;
    if (!deps.chooseAuth)
      return `session/new needs authentication${error ? ` (${error})` : ""}; the agent offers: ${describeAuthMethods(methods)}`;
    let lastError = error;
    while (rounds < MAX_AUTH_ROUNDS) {
      rounds++;
      authenticated = undefined;
      progress({ step: AGENT_METHODS.authenticate, ...state(), authMethods: methods });
      const asked = await within(deps.chooseAuth({ methods, reason, error: lastError }), limits.choose);
      if (!asked.ok) return `no auth method chosen within ${seconds(limits.choose)}`;
      const choice = asked.value;
      if (choice.type === "cancel") return `authentication cancelled${lastError ? ` (${lastError})` : ""}`;
      if (choice.type === "retry") return undefined;
      const method = methods.find((m) => m.id === choice.methodId);
      if (!method) return `the agent listed no auth method "${choice.methodId}"`;
      if (!canAuthenticate(method))
        return `"${method.name}" is a terminal login: run its command, then retry (the protocol forbids authenticate for it)`;
      authMethodId = method.id;
      progress({ step: AGENT_METHODS.authenticate, ...state() });
      const res = await call(deps.port, loginMethod, { methodId: method.id }, limits.authenticate);
      if (res.kind === "result") {
        authenticated = true;
        progress({ step: AGENT_METHODS.authenticate, ...state() });
        return undefined;
      }
      lastError = `authenticate failed: ${outcomeText(res)}`;
    }
    return lastError ?? "authentication failed";
  };

  if (input.authenticateFirst && methods.length > 0) {
    const stop = await authenticate("before-session");
    if (stop) return fail(stop);
  }

  for (;;) {
    progress({ step: AGENT_METHODS.session_new, ...state() });
    const session = await call(
      deps.port,
      AGENT_METHODS.session_new,
      sessionNewParams(input.cwd),
      limits[AGENT_METHODS.session_new],
    );
    if (session.kind === "error" && needsAuth(session.error) && rounds < MAX_AUTH_ROUNDS) {
      const stop = await authenticate("auth-required", agentErrorText(session.error));
      if (stop) return fail(stop);
      continue;
    }
    if (session.kind !== "result") return fail(`session/new failed: ${outcomeText(session)}`);
    const result = isObject(session.result) ? session.result : {};
    const sessionId = typeof result.sessionId === "string" ? result.sessionId : undefined;
    if (!sessionId) return fail("session/new answered without a sessionId");
    return end({ step: "ready", ...state(), sessionId }, result);
  }
}
