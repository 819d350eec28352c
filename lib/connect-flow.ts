/**
 * Connect, the newcomer's path from nothing to a session: start the agent
 * (from the warm pool when possible), initialize it unless the pool already
 * did, authenticate only when session/new says it is required, then open a
 * session. Pure orchestration over injected steps, so it is tested without a
 * relay; the session store provides the real ones.
 */
import type { ClientCapabilities, Implementation } from "@agentclientprotocol/sdk";
import { describeError, isAuthRequired, type RpcOutcome } from "./jsonrpc";

export type ConnectStep = "start" | "initialize" | "authenticate" | "session/new" | "ready" | "failed";

export interface ConnectProgress {
  step: ConnectStep;
  /** Why it failed, or what is happening. */
  message?: string;
  sessionId?: string;
  /** The agent came from the warm pool, already initialized. */
  pooled?: boolean;
  /** The auth method used, when session/new asked for one. */
  authMethodId?: string;
}

export interface ConnectDeps {
  /** agent:start (pooled); policies must be in place once it resolves. */
  start(): Promise<{ ok: true; pooled: boolean } | { ok: false; message: string }>;
  /** A pooled agent's initialize result, read from its log (undefined if not there). */
  pooledInitialize(): Promise<Record<string, unknown> | undefined>;
  request(method: string, params: unknown): Promise<RpcOutcome>;
  progress(p: ConnectProgress): void;
}

export interface ConnectInput {
  cwd: string;
  protocolVersion: number;
  clientCapabilities: ClientCapabilities;
  clientInfo: Implementation;
}

const isObj = (v: unknown): v is Record<string, unknown> => typeof v === "object" && v !== null && !Array.isArray(v);

function failure(method: string, outcome: Exclude<RpcOutcome, { kind: "result" }>): string {
  return `${method} failed: ${outcome.kind === "error" ? describeError(outcome.error) : outcome.message}`;
}

/** The first auth method the agent listed in its initialize result. */
export function firstAuthMethod(init: Record<string, unknown> | undefined): string | undefined {
  const methods = init?.authMethods;
  const first: unknown = Array.isArray(methods) ? methods[0] : undefined;
  return isObj(first) && typeof first.id === "string" ? first.id : undefined;
}

export async function runConnect(deps: ConnectDeps, input: ConnectInput): Promise<ConnectProgress> {
  const done = (p: ConnectProgress) => {
    deps.progress(p);
    return p;
  };
  deps.progress({ step: "start" });
  const started = await deps.start();
  if (!started.ok) return done({ step: "failed", message: started.message });
  const pooled = started.pooled;

  let init = pooled ? await deps.pooledInitialize() : undefined;
  if (!init) {
    deps.progress({ step: "initialize", pooled });
    const res = await deps.request("initialize", {
      protocolVersion: input.protocolVersion,
      clientCapabilities: input.clientCapabilities,
      clientInfo: input.clientInfo,
    });
    if (res.kind !== "result") return done({ step: "failed", pooled, message: failure("initialize", res) });
    init = isObj(res.result) ? res.result : {};
  }

  const newSession = () => deps.request("session/new", { cwd: input.cwd, mcpServers: [] });
  deps.progress({ step: "session/new", pooled });
  let session = await newSession();
  let authMethodId: string | undefined;
  if (session.kind === "error" && isAuthRequired(session.error)) {
    authMethodId = firstAuthMethod(init);
    if (!authMethodId)
      return done({
        step: "failed",
        pooled,
        message: "session/new needs authentication, but the agent listed no auth method",
      });
    deps.progress({ step: "authenticate", pooled, authMethodId });
    const auth = await deps.request("authenticate", { methodId: authMethodId });
    if (auth.kind !== "result")
      return done({ step: "failed", pooled, authMethodId, message: failure("authenticate", auth) });
    deps.progress({ step: "session/new", pooled, authMethodId });
    session = await newSession();
  }
  if (session.kind !== "result")
    return done({ step: "failed", pooled, authMethodId, message: failure("session/new", session) });
  const sessionId =
    isObj(session.result) && typeof session.result.sessionId === "string" ? session.result.sessionId : undefined;
  if (!sessionId)
    return done({ step: "failed", pooled, authMethodId, message: "session/new answered without a sessionId" });
  return done({ step: "ready", pooled, authMethodId, sessionId });
}

/** session/new needs an absolute cwd: empty is the first workspace root, a relative path is inside it. */
export function sessionCwd(input: string, root: string | undefined): string {
  const base = root ?? "/";
  const t = input.trim();
  if (t === "") return base;
  if (t.startsWith("/")) return t;
  return `${base.replace(/\/+$/, "")}/${t.replace(/^\.\/+/, "")}`;
}
