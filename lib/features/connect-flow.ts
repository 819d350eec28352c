/**
 * Connect, the newcomer's path from nothing to a session: start the agent
 * (from the warm pool when possible), then the client handshake of the
 * agent's protocol. For ACP (./handshake.ts): initialize it unless the pool
 * already did, authenticate when session/new says it is required (or first,
 * when the user asks) with the method the user chooses, then open a session.
 * For Codex's app-server (./app-server-handshake.ts): initialize, initialized,
 * thread/start, the thread playing the session. Pure orchestration over
 * injected steps, so it is tested without a relay; the session store provides
 * the real ones.
 */
import type { RpcOutcome } from "../protocol/jsonrpc";
import type { ProtocolName } from "../protocol/protocols";
import { fail, type Result } from "../protocol/result";
import { runAppServerHandshake } from "./app-server-handshake";
import {
  type AuthChoice,
  type AuthChoiceRequest,
  DEFAULT_HANDSHAKE_TIMEOUTS,
  type HandshakeEnd,
  type HandshakeInput,
  type HandshakeProgress,
  type HandshakeTimeouts,
  runHandshake,
  within,
} from "./handshake";
import { seconds } from "../protocol/request-port";
import { AGENT_METHODS } from "../protocol/methods";

export type ConnectStep = "start" | HandshakeProgress["step"];

export interface ConnectProgress extends Omit<HandshakeProgress, "step"> {
  step: ConnectStep;
  /** The agent came from the warm pool, already initialized. */
  pooled?: boolean;
}

export interface ConnectDeps {
  /** agent:start (pooled); policies must be in place once it resolves. */
  start(): Promise<Result<{ pooled: boolean }>>;
  /** A pooled agent's initialize result, read from its log (undefined if not there). */
  pooledInitialize(): Promise<Record<string, unknown> | undefined>;
  request(method: string, params: unknown): Promise<RpcOutcome>;
  /** Sends a notification (the app-server's `initialized`): its seq, or why it was not sent. ACP's handshake sends none. */
  notify?(method: string, params?: unknown): Promise<Result<number>>;
  progress(p: ConnectProgress): void;
  /** Asks the user which auth method to use; without it, Connect fails listing the methods. */
  chooseAuth?(request: AuthChoiceRequest): Promise<AuthChoice>;
}

export interface ConnectTimeouts extends HandshakeTimeouts {
  start: number;
}

export const DEFAULT_CONNECT_TIMEOUTS: ConnectTimeouts = { start: 30_000, ...DEFAULT_HANDSHAKE_TIMEOUTS };

export interface ConnectInput extends Omit<HandshakeInput, "initialized" | "timeouts"> {
  timeouts?: Partial<ConnectTimeouts>;
  /** The agent's protocol (the profile's); ACP when absent. */
  protocol?: ProtocolName;
}

type Handshake = (
  deps: ConnectDeps,
  input: ConnectInput,
  limits: ConnectTimeouts,
  started: { pooled: boolean },
) => Promise<HandshakeEnd>;

/** The client handshake of each protocol, once the agent runs. */
const HANDSHAKES: Record<ProtocolName, Handshake> = {
  acp: async (deps, input, limits, { pooled }) => {
    const initialized = pooled ? await deps.pooledInitialize() : undefined;
    return runHandshake(
      {
        port: { request: (method, params) => deps.request(method, params) },
        progress: (p) => deps.progress({ ...p, pooled }),
        ...(deps.chooseAuth ? { chooseAuth: (r) => deps.chooseAuth!(r) } : {}),
      },
      { ...input, timeouts: limits, ...(initialized ? { initialized } : {}) },
    );
  },
  // No auth step and no warm pool: Codex reads its credentials (or a custom provider) from its config.
  "codex-app-server": (deps, input, limits) =>
    runAppServerHandshake(
      {
        port: {
          request: (method, params) => deps.request(method, params),
          notify: (m, p) => deps.notify?.(m, p) ?? Promise.resolve(fail("this Connect cannot send notifications")),
        },
        progress: (p) => deps.progress(p),
      },
      { cwd: input.cwd, timeouts: { initialize: limits.initialize, thread: limits[AGENT_METHODS.session_new] } },
    ),
};

export async function runConnect(deps: ConnectDeps, input: ConnectInput): Promise<ConnectProgress> {
  const limits = { ...DEFAULT_CONNECT_TIMEOUTS, ...input.timeouts };
  deps.progress({ step: "start" });
  const started = await within(deps.start(), limits.start);
  const failed = (message: string): ConnectProgress => {
    const p: ConnectProgress = { step: "failed", message };
    deps.progress(p);
    return p;
  };
  if (!started.ok) return failed(`start timed out after ${seconds(limits.start)}`);
  if (!started.value.ok) return failed(started.value.error);
  const pooled = started.value.value.pooled;
  const end = await HANDSHAKES[input.protocol ?? "acp"](deps, input, limits, { pooled });
  return { ...end.progress, pooled };
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
