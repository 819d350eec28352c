/**
 * One side of a comparison once its agent runs: the client handshake in the
 * side's own workspace, then one prompt turn, in the side's protocol (ACP's
 * session/prompt, or a Codex app-server turn: docs/app-server.md). The CLI's
 * `compare` (server/cli/compare-cli.ts) and the browser's /compare
 * (components/compare/run-side.ts) both run it; each starts and stops its
 * agent its own way. The CLI's `record` runs its two halves (openSide, promptSide).
 */
import type { ClientCapabilities } from "@agentclientprotocol/sdk";
import { AGENT_METHODS } from "../protocol/methods";
import type { RequestPort } from "../protocol/request-port";
import { isObject } from "../protocol/json";
import { DEFAULT_PROTOCOL, type ProtocolName } from "../protocol/protocols";
import { runAppServerHandshake, runAppServerTurn } from "./app-server-handshake";
import { outcomeText, runHandshake, type HandshakeEnd } from "./handshake";

/** No fs capabilities by default: Gemini then writes files itself (docs/gemini-quirks.md). */
export const COMPARE_CLIENT_CAPABILITIES: ClientCapabilities = {
  fs: { readTextFile: false, writeTextFile: false },
  terminal: false,
};

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

type SidePort = Pick<RequestPort, "request" | "notify" | "waitForFrame">;

/** The longest an app-server turn may take when the caller sets no limit (its turn always has one). */
const APP_SERVER_TURN_LIMIT_MS = 24 * 60 * 60_000;

export async function runSide(port: SidePort, input: SideInput): Promise<SideEnd> {
  const { step, sessionId, message } = (await openSide(port, input)).progress;
  if (step !== "ready" || !sessionId) return { ok: false, message: message ?? "the handshake failed" };
  return promptSide(port, input, sessionId);
}

/** The handshake of the side's protocol; its sessionId is the app-server's thread id. */
export function openSide(port: SidePort, input: Omit<SideInput, "prompt">): Promise<HandshakeEnd> {
  return appServer(input)
    ? runAppServerHandshake({ port }, { cwd: input.cwd })
    : runHandshake(
        { port },
        { cwd: input.cwd, clientCapabilities: input.clientCapabilities ?? COMPARE_CLIENT_CAPABILITIES },
      );
}

/** One turn in the session (or thread) the handshake opened, until it ends. */
export async function promptSide(port: SidePort, input: SideInput, sessionId: string): Promise<SideEnd> {
  if (appServer(input)) {
    const turn = await runAppServerTurn(
      port,
      sessionId,
      input.prompt,
      input.promptTimeoutMs ?? APP_SERVER_TURN_LIMIT_MS,
    );
    return turn.ok ? { ok: true, stopReason: turn.status } : { ok: false, message: turn.message };
  }
  const turn = await port.request(
    AGENT_METHODS.session_prompt,
    { sessionId, prompt: [{ type: "text", text: input.prompt }] },
    input.promptTimeoutMs === undefined ? {} : { timeoutMs: input.promptTimeoutMs },
  );
  if (turn.kind !== "result") return { ok: false, message: `session/prompt failed: ${outcomeText(turn)}` };
  const stopReason = isObject(turn.result) ? turn.result.stopReason : undefined;
  return { ok: true, stopReason: typeof stopReason === "string" ? stopReason : null };
}

const appServer = (input: { protocol?: ProtocolName }) => (input.protocol ?? DEFAULT_PROTOCOL) === "codex-app-server";
