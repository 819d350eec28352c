/**
 * One side of a comparison once its agent runs: the client handshake in the
 * side's own workspace, then one prompt turn, in the side's protocol (ACP's
 * session/prompt, or a Codex app-server turn: docs/app-server.md). The CLI's
 * `compare` (server/cli/compare-cli.ts) and the browser's /compare
 * (components/compare/run-side.ts) both run it; each starts and stops its
 * agent its own way. The CLI's `record` runs its two halves (openSide, promptSide).
 */
import type { HandshakeEnd } from "../connect/handshake";
import { specOf } from "../protocols/registry";
import type { SideEnd, SideInput, SidePort } from "./side-input";

export { COMPARE_CLIENT_CAPABILITIES } from "../protocols/acp/spec";

export async function runSide(port: SidePort, input: SideInput): Promise<SideEnd> {
  const { step, sessionId, message } = (await openSide(port, input)).progress;
  if (step !== "ready" || !sessionId) return { ok: false, message: message ?? "the handshake failed" };
  return promptSide(port, input, sessionId);
}

/** The handshake of the side's protocol; its sessionId is the app-server's thread id. */
export function openSide(port: SidePort, input: Omit<SideInput, "prompt">): Promise<HandshakeEnd> {
  return specOf(input.protocol).side.open(port, input);
}

/** One turn in the session (or thread) the handshake opened, until it ends. */
export function promptSide(port: SidePort, input: SideInput, sessionId: string): Promise<SideEnd> {
  return specOf(input.protocol).side.turn(port, input, sessionId);
}
