/**
 * What Connect runs over (./flow.ts): its steps and progress, the steps the caller injects, and
 * its time limits. Below the protocols' specs, which implement Connect's handshake over them,
 * and below the flow, which picks a spec from the registry.
 */
import type { RpcOutcome } from "../../protocol/jsonrpc";
import type { Result } from "../../protocol/result";
import type { ProtocolName } from "../../protocol/protocols";
import {
  type AuthChoice,
  type AuthChoiceRequest,
  DEFAULT_HANDSHAKE_TIMEOUTS,
  type HandshakeInput,
  type HandshakeProgress,
  type HandshakeTimeouts,
} from "./handshake";

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
