/**
 * Connect, the newcomer's path from nothing to a session: start the agent
 * (from the warm pool when possible), initialize it unless the pool already
 * did, authenticate when session/new says it is required (or first, when the
 * user asks) with the method the user chooses, then open a session. Every step
 * has a timeout and fails with the agent's own error text. Pure orchestration
 * over injected steps, so it is tested without a relay; the session store
 * provides the real ones.
 */
import type { ClientCapabilities, Implementation } from "@agentclientprotocol/sdk";
import { type AuthMethodView, canAuthenticate, describeAuthMethod, parseAuthMethods } from "./auth-methods";
import type { RpcError, RpcOutcome } from "../protocol/jsonrpc";
import { isObject } from "../protocol/json";
import { AGENT_METHODS } from "../protocol/methods";
import { ok, type Failure, type Result } from "../protocol/result";

export type ConnectStep =
  | "start"
  | typeof AGENT_METHODS.initialize
  | typeof AGENT_METHODS.authenticate
  | typeof AGENT_METHODS.session_new
  | "ready"
  | "failed";

export interface ConnectProgress {
  step: ConnectStep;
  /** Why it failed, or what is happening. */
  message?: string;
  sessionId?: string;
  /** The agent came from the warm pool, already initialized. */
  pooled?: boolean;
  /** The agent's auth methods, while the user is asked to choose one. */
  authMethods?: AuthMethodView[];
  /** The auth method being used (or used). */
  authMethodId?: string;
  /** Set only once `authenticate` has answered with a result. */
  authenticated?: boolean;
  /** The protocol version asked for in initialize (absent for a pooled agent, which the pool initialized). */
  requestedVersion?: number;
  /** The protocolVersion the agent's initialize result named, once it answered one. */
  negotiatedVersion?: number;
}

/** Why Connect asks the user for an auth method. */
export interface AuthChoiceRequest {
  methods: AuthMethodView[];
  reason: "auth-required" | "before-session";
  /** The agent's error that led here (session/new's, or the last authenticate's), as one line. */
  error?: string;
}

/**
 * The user's answer: call `authenticate` with a method; or retry session/new
 * (after running a `terminal` method's command or setting an `env_var` method's
 * variables outside the page); or give up.
 */
export type AuthChoice =
  { type: typeof AGENT_METHODS.authenticate; methodId: string } | { type: "retry" } | { type: "cancel" };

export interface ConnectDeps {
  /** agent:start (pooled); policies must be in place once it resolves. */
  start(): Promise<Result<{ pooled: boolean }>>;
  /** A pooled agent's initialize result, read from its log (undefined if not there). */
  pooledInitialize(): Promise<Record<string, unknown> | undefined>;
  request(method: string, params: unknown): Promise<RpcOutcome>;
  progress(p: ConnectProgress): void;
  /** Asks the user which auth method to use; without it, Connect fails listing the methods. */
  chooseAuth?(request: AuthChoiceRequest): Promise<AuthChoice>;
}

export interface ConnectTimeouts {
  start: number;
  initialize: number;
  authenticate: number;
  [AGENT_METHODS.session_new]: number;
  /** How long the user may take to choose an auth method. */
  choose: number;
}

export const DEFAULT_CONNECT_TIMEOUTS: ConnectTimeouts = {
  start: 30_000,
  initialize: 30_000,
  // An agent's own login may open a browser and wait for the user.
  authenticate: 120_000,
  [AGENT_METHODS.session_new]: 60_000,
  choose: 15 * 60_000,
};

export interface ConnectInput {
  cwd: string;
  /** 1 (the default), or 2 for the v2 draft: initialize then sends `info` and `capabilities`, and login is `auth/login`. */
  protocolVersion: number;
  clientCapabilities: ClientCapabilities;
  clientInfo: Implementation;
  timeouts?: Partial<ConnectTimeouts>;
  /** Ask for an auth method before session/new when the agent lists any. */
  authenticateFirst?: boolean;
}

/** v2's authenticate. */
export const V2_AUTH_LOGIN = "auth/login";

/** initialize's params for the version asked: v2 renamed clientInfo/clientCapabilities and has no fs or terminal. */
export function initializeParams(input: Pick<ConnectInput, "protocolVersion" | "clientCapabilities" | "clientInfo">) {
  if (input.protocolVersion >= 2)
    return {
      protocolVersion: input.protocolVersion,
      info: input.clientInfo,
      capabilities: input.clientCapabilities.elicitation ? { elicitation: input.clientCapabilities.elicitation } : {},
    };
  return {
    protocolVersion: input.protocolVersion,
    clientCapabilities: input.clientCapabilities,
    clientInfo: input.clientInfo,
  };
}

/** A protocolVersion as the agent answered it: a uint16, else undefined. */
function versionOf(v: unknown): number | undefined {
  return typeof v === "number" && Number.isInteger(v) && v >= 0 && v <= 65_535 ? v : undefined;
}

/** Rounds of choosing a method before Connect gives up. */
const MAX_AUTH_ROUNDS = 3;

/** The agent's error as one line: its message, code and data (bounded). */
export function agentErrorText(e: RpcError): string {
  const data =
    e.data === undefined || e.data === null ? "" : typeof e.data === "string" ? e.data : JSON.stringify(e.data);
  const text = `${e.message} (${e.code})${data ? `: ${data}` : ""}`;
  return text.length > 1_000 ? `${text.slice(0, 1_000)}…` : text;
}

function outcomeText(outcome: Exclude<RpcOutcome, { kind: "result" }>): string {
  return outcome.kind === "error" ? agentErrorText(outcome.error) : outcome.message;
}

/** Whether an error asks for authentication: -32000 (the ACP's auth_required) or a message saying so. */
export function needsAuth(e: RpcError): boolean {
  return e.code === -32000 || /auth/i.test(e.message);
}

/** The promise's value, or "timed out" after `ms`. */
function within<T>(promise: Promise<T>, ms: number): Promise<Result<T, "timed out">> {
  let timer: ReturnType<typeof setTimeout> | undefined;
  const timeout = new Promise<Failure<"timed out">>((resolve) => {
    timer = setTimeout(() => resolve({ ok: false, error: "timed out" }), ms);
  });
  return Promise.race([promise.then(ok), timeout]).finally(() => clearTimeout(timer));
}

const seconds = (ms: number) => `${Math.round(ms / 100) / 10} s`;

/** The methods as a chooser would list them, for an error without a chooser. */
function listMethods(methods: AuthMethodView[]): string {
  return methods.map(describeAuthMethod).join("; ");
}

export async function runConnect(deps: ConnectDeps, input: ConnectInput): Promise<ConnectProgress> {
  const limits = { ...DEFAULT_CONNECT_TIMEOUTS, ...input.timeouts };
  let pooled: boolean | undefined;
  let authMethodId: string | undefined;
  let authenticated: boolean | undefined;
  let requestedVersion: number | undefined;
  let negotiatedVersion: number | undefined;
  const state = () => ({
    ...(pooled === undefined ? {} : { pooled }),
    ...(requestedVersion === undefined ? {} : { requestedVersion }),
    ...(negotiatedVersion === undefined ? {} : { negotiatedVersion }),
    ...(authMethodId ? { authMethodId } : {}),
    ...(authenticated ? { authenticated } : {}),
  });
  const done = (p: ConnectProgress) => {
    deps.progress(p);
    return p;
  };
  const fail = (message: string) => done({ step: "failed", ...state(), message });

  /** One request under its step's timeout; a timeout is a failed outcome naming the step. */
  const call = async (step: keyof ConnectTimeouts, params: unknown, method: string = step): Promise<RpcOutcome> => {
    const res = await within(deps.request(method, params), limits[step]);
    return res.ok
      ? res.value
      : { kind: "failed", message: `no answer within ${seconds(limits[step])} (see the Frames tab and stderr)` };
  };

  deps.progress({ step: "start" });
  const started = await within(deps.start(), limits.start);
  if (!started.ok) return fail(`start timed out after ${seconds(limits.start)}`);
  if (!started.value.ok) return fail(started.value.error);
  pooled = started.value.value.pooled;

  let init = pooled ? await deps.pooledInitialize() : undefined;
  if (!init) {
    requestedVersion = input.protocolVersion;
    deps.progress({ step: AGENT_METHODS.initialize, ...state() });
    const res = await call(AGENT_METHODS.initialize, initializeParams(input));
    if (res.kind !== "result") return fail(`initialize failed: ${outcomeText(res)}`);
    init = isObject(res.result) ? res.result : {};
  }
  negotiatedVersion = versionOf(init.protocolVersion);
  if (requestedVersion !== undefined && negotiatedVersion !== undefined && negotiatedVersion > requestedVersion)
    return fail(
      `the agent answered protocolVersion ${negotiatedVersion}, above the ${requestedVersion} asked for (it must answer at or below it)`,
    );
  // An agent that answers v1 to a v2 initialize is talked to in v1 (the spec's negotiation).
  const loginMethod = (negotiatedVersion ?? 1) >= 2 ? V2_AUTH_LOGIN : AGENT_METHODS.authenticate;
  const methods = parseAuthMethods(init);
  let rounds = 0;

  /** Asks for a method and authenticates with it; a message when Connect must stop. */
  const authenticate = async (reason: AuthChoiceRequest["reason"], error?: string): Promise<string | undefined> => {
    if (methods.length === 0)
      return `session/new needs authentication, but the agent listed no auth method${error ? `: ${error}` : ""}`;
    if (!deps.chooseAuth)
      return `session/new needs authentication${error ? ` (${error})` : ""}; the agent offers: ${listMethods(methods)}`;
    let lastError = error;
    while (rounds < MAX_AUTH_ROUNDS) {
      rounds++;
      authenticated = undefined;
      deps.progress({ step: AGENT_METHODS.authenticate, ...state(), authMethods: methods });
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
      deps.progress({ step: AGENT_METHODS.authenticate, ...state() });
      const res = await call(AGENT_METHODS.authenticate, { methodId: method.id }, loginMethod);
      if (res.kind === "result") {
        authenticated = true;
        deps.progress({ step: AGENT_METHODS.authenticate, ...state() });
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
    deps.progress({ step: AGENT_METHODS.session_new, ...state() });
    const session = await call(AGENT_METHODS.session_new, { cwd: input.cwd, mcpServers: [] });
    if (session.kind === "error" && needsAuth(session.error) && rounds < MAX_AUTH_ROUNDS) {
      const stop = await authenticate("auth-required", agentErrorText(session.error));
      if (stop) return fail(stop);
      continue;
    }
    if (session.kind !== "result") return fail(`session/new failed: ${outcomeText(session)}`);
    const sessionId =
      isObject(session.result) && typeof session.result.sessionId === "string" ? session.result.sessionId : undefined;
    if (!sessionId) return fail("session/new answered without a sessionId");
    return done({ step: "ready", ...state(), sessionId });
  }
}

/**
 * session/new needs an absolute cwd: empty is the first workspace root, a relative path is inside it;
 * undefined while the root is not known (never "/", which would open the session on the whole disk).
 */
export function sessionCwd(input: string, root: string | undefined): string | undefined {
  const t = input.trim();
  if (t.startsWith("/")) return t;
  if (root === undefined) return undefined;
  if (t === "") return root;
  return `${root.replace(/\/+$/, "")}/${t.replace(/^\.\/+/, "")}`;
}
