/**
 * Withdrawing a request (`$/cancel_request`, stable in ACP v1, either direction)
 * and the words the page uses when the agent withdraws one of its own or
 * completes an elicitation out of band.
 */
import type { Dismissal } from "../../folds/frame-index";
import type { Frame, JsonRpcId } from "../../protocol/frame";
import { PROTOCOL_METHODS } from "../../protocol/methods";
import { isObject } from "../../protocol/json";

/** The notification that withdraws the client's request with this id. */
export function cancelRequestFrame(requestId: JsonRpcId) {
  return { jsonrpc: "2.0" as const, method: PROTOCOL_METHODS.cancel_request, params: { requestId } };
}

/** True for a request the client may still withdraw: sent to the agent, with an id, not answered. */
export function canWithdraw(frame: Frame, unanswered: boolean): boolean {
  return (
    frame.kind === "request" && frame.dir === "to-agent" && frame.id !== undefined && frame.id !== null && unanswered
  );
}

const MAX_SHOWN = 80;
const shown = (v: unknown) => {
  const s = JSON.stringify(v) ?? String(v);
  return s.length > MAX_SHOWN ? `${s.slice(0, MAX_SHOWN - 3)}...` : s;
};

/** "The agent cancelled fs/read_text_file (id 4): its card was closed." */
export function describeDismissal(d: Dismissal): string {
  if (d.reason === "cancelled") {
    const r = d.request!;
    return `The agent cancelled ${r.method ?? "its request"} (id ${shown(r.id)}) with $/cancel_request: its card was closed.`;
  }
  const id = shown(d.elicitationId);
  return d.request
    ? `The agent completed elicitation ${id} (elicitation/complete): its card was closed.`
    : `The agent completed elicitation ${id} (elicitation/complete).`;
}

/**
 * What `agentCapabilities.auth` advertises (ACP: `{}` supports, omitted or null
 * does not): `logout` (stable) and `auth/status` (unstable).
 */
export function advertisedAuth(initializeResult: unknown): { logout: boolean; status: boolean } {
  const caps = isObject(initializeResult) ? initializeResult.agentCapabilities : undefined;
  const auth = isObject(caps) ? caps.auth : undefined;
  return { logout: isObject(auth) && isObject(auth.logout), status: isObject(auth) && isObject(auth.status) };
}

const AUTH_STATES = new Set(["authenticated", "unauthenticated", "not_required", "unknown"]);

/** `auth/status`'s answer in words; a state this page does not know is "unknown", as the schema asks. */
export function describeAuthStatus(result: unknown): string {
  const state = isObject(result) ? result.state : undefined;
  const known = typeof state === "string" && AUTH_STATES.has(state) ? state : "unknown";
  const accounts = isObject(result) && Array.isArray(result.accounts) ? result.accounts.length : 0;
  return `${known.replace("_", " ")}${accounts ? ` · ${accounts} account${accounts === 1 ? "" : "s"}` : ""}`;
}
