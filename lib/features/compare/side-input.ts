/**
 * One side of a comparison as a protocol's spec runs it (./side.ts picks the spec): what the side
 * is given, the port it talks through, and how its turn ended. Below the protocols' specs.
 */
import type { ClientCapabilities } from "@agentclientprotocol/sdk";
import type { RequestPort } from "../../protocol/request-port";
import type { ProtocolName } from "../../protocol/protocols";

export interface SideInput {
  /** The side's workspace: the session's (or thread's) cwd. */
  cwd: string;
  prompt: string;
  /** The protocol the side's agent speaks (its profile's); ACP when absent. */
  protocol?: ProtocolName;
  /** ACP only: the app-server handshake declares no capabilities. */
  clientCapabilities?: ClientCapabilities;
  /** How long the turn may take; no limit when absent. */
  promptTimeoutMs?: number;
}

/** stopReason: ACP's, or the app-server turn's final status ("completed", "interrupted", "failed"). */
export type SideEnd = { ok: true; stopReason: string | null } | { ok: false; message: string };

export type SidePort = Pick<RequestPort, "request" | "notify" | "waitForFrame">;
