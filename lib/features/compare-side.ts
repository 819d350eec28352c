/**
 * One side of a comparison once its agent runs: the client handshake in the
 * side's own workspace, then one prompt turn. The CLI's `compare`
 * (server/cli/compare-cli.ts) and the browser's /compare
 * (components/compare/run-side.ts) both run it; each starts and stops its
 * agent its own way.
 */
import type { ClientCapabilities } from "@agentclientprotocol/sdk";
import { AGENT_METHODS } from "../protocol/methods";
import type { RequestPort } from "../protocol/request-port";
import { isObject } from "../protocol/json";
import { outcomeText, runHandshake } from "./handshake";

/** No fs capabilities by default: Gemini then writes files itself (docs/gemini-quirks.md). */
export const COMPARE_CLIENT_CAPABILITIES: ClientCapabilities = {
  fs: { readTextFile: false, writeTextFile: false },
  terminal: false,
};

export interface SideInput {
  /** The side's workspace: the session's cwd. */
  cwd: string;
  prompt: string;
  clientCapabilities?: ClientCapabilities;
  /** How long the turn may take; no limit when absent. */
  promptTimeoutMs?: number;
}

export type SideEnd = { ok: true; stopReason: string | null } | { ok: false; message: string };

export async function runSide(port: Pick<RequestPort, "request">, input: SideInput): Promise<SideEnd> {
  const handshake = await runHandshake(
    { port },
    { cwd: input.cwd, clientCapabilities: input.clientCapabilities ?? COMPARE_CLIENT_CAPABILITIES },
  );
  const { step, sessionId, message } = handshake.progress;
  if (step !== "ready" || !sessionId) return { ok: false, message: message ?? "the handshake failed" };
  const turn = await port.request(
    AGENT_METHODS.session_prompt,
    { sessionId, prompt: [{ type: "text", text: input.prompt }] },
    input.promptTimeoutMs === undefined ? {} : { timeoutMs: input.promptTimeoutMs },
  );
  if (turn.kind !== "result") return { ok: false, message: `session/prompt failed: ${outcomeText(turn)}` };
  const stopReason = isObject(turn.result) ? turn.result.stopReason : undefined;
  return { ok: true, stopReason: typeof stopReason === "string" ? stopReason : null };
}
