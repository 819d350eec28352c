/**
 * Withdrawing a request (`$/cancel_request`, stable in ACP v1, either direction)
 * and the words the page uses when the agent withdraws one of its own or
 * completes an elicitation out of band.
 */
import type { Dismissal } from "../folds/frame-index";
import type { Frame, JsonRpcId } from "../protocol/frame";
import { PROTOCOL_METHODS } from "../protocol/methods";

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
