/**
 * Connect, the newcomer's path from nothing to a session: start the agent
 * (from the warm pool when possible), then the client handshake of the
 * agent's protocol. For ACP (./handshake.ts): initialize it unless the pool
 * already did, authenticate when session/new says it is required (or first,
 * when the user asks) with the method the user chooses, then open a session.
 * For Codex's app-server (./protocols/codex-app-server/handshake.ts): initialize, initialized,
 * thread/start, the thread playing the session. Pure orchestration over
 * injected steps, so it is tested without a relay; the session store provides
 * the real ones.
 */
import type { RpcOutcome } from "../../protocol/jsonrpc";
import type { Result } from "../../protocol/result";
import type { ProtocolName } from "../../protocol/protocols";
import { specOf } from "../protocols/registry";
import {
  type AuthChoice,
  type AuthChoiceRequest,
  DEFAULT_HANDSHAKE_TIMEOUTS,
  type HandshakeInput,
  type HandshakeProgress,
  type HandshakeTimeouts,
  within,
} from "./handshake";
import { seconds } from "../../protocol/request-port";

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
  const end = await specOf(input.protocol).connect(deps, input, limits, { pooled });
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
