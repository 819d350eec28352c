/**
 * One v2 turn for compare and `record` (the spec's `side.turn`): the session/prompt response is
 * only a receipt, so the turn runs on until a `state_update` idle for the session that carries a
 * stopReason or follows a running (the kit's rule, lib/features/probe-v2/turn.ts), or an error
 * answers the prompt.
 */
import { isObject, str } from "../../../protocol/json";
import type { Frame } from "../../../protocol/frame";
import { AGENT_METHODS, CLIENT_METHODS } from "../../../protocol/methods";
import type { SideEnd, SideInput, SidePort } from "../../compare/side-input";
import { outcomeText } from "../../connect/handshake";

/** The longest a turn may take when the caller sets no limit (waiting needs one). */
const TURN_LIMIT_MS = 24 * 60 * 60_000;

/** The session's `state_update`, when the frame is one. */
function stateUpdate(f: Frame, sessionId: string): { state?: string; stopReason?: string } | undefined {
  if (f.dir !== "from-agent" || f.method !== CLIENT_METHODS.session_update || !isObject(f.message)) return undefined;
  const p = f.message.params;
  if (!isObject(p) || p.sessionId !== sessionId || !isObject(p.update)) return undefined;
  const u = p.update;
  return u.sessionUpdate === "state_update" ? { state: str(u.state), stopReason: str(u.stopReason) } : undefined;
}

export async function runV2SideTurn(port: SidePort, input: SideInput, sessionId: string): Promise<SideEnd> {
  const limit = input.promptTimeoutMs ?? TURN_LIMIT_MS;
  let running = false;
  // Watched before the prompt goes out: the idle may come in the same batch as the receipt.
  const idle = port.waitForFrame((f) => {
    const u = stateUpdate(f, sessionId);
    if (u?.state === "running") running = true;
    return u?.state === "idle" && (running || u.stopReason !== undefined);
  }, limit);
  const receipt = await port.request(
    AGENT_METHODS.session_prompt,
    { sessionId, prompt: [{ type: "text", text: input.prompt }] },
    { timeoutMs: limit },
  );
  if (receipt.kind !== "result") return { ok: false, message: `session/prompt failed: ${outcomeText(receipt)}` };
  const end = await idle;
  if (!end)
    return { ok: false, message: `the turn did not reach state_update idle within ${Math.round(limit / 1000)} s` };
  return { ok: true, stopReason: stateUpdate(end, sessionId)?.stopReason ?? null };
}
