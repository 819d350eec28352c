/**
 * MCP carried over ACP (`mcp/message`, unstable): each outer frame carries one
 * inner MCP message. An outer request carries an inner request (`serverId`,
 * `requestId`, `method`, `params`); its outer response carries the inner outcome
 * (`result` or `error`); an outer notification carries a message about an
 * active inner request (same `serverId` and `requestId`). This pairs them, fed
 * each frame once in seq order (O(1) per frame), so the inspector can show the
 * inner MCP method on every frame and jump from one to its partner.
 *
 * Agent-sent values are hostile: anything not of the schema's shape is ignored
 * (the frame then shows as a plain `mcp/message`).
 */
import type { Frame } from "../protocol/frame";
import { isObject } from "../protocol/json";
import { CLIENT_METHODS } from "../protocol/methods";

export const MCP_MESSAGE = CLIENT_METHODS.mcp_message;

export interface McpInner {
  role: "request" | "response" | "notification";
  /** The inner MCP method (a response's is its request's). */
  method: string;
  serverId: string;
  /** The inner MCP request id. */
  requestId: string | number;
  /** The seq of the outer frame carrying the inner request, when seen. */
  requestSeq?: number;
  /** A response's inner outcome; "acp error" when the outer ACP call failed (binding or runtime). */
  outcome?: "result" | "error" | "acp error";
}

const MAX_LABEL = 200;

function innerCall(frame: Frame): Omit<McpInner, "role"> | undefined {
  const m = frame.message;
  if (!isObject(m) || !isObject(m.params)) return undefined;
  const { serverId, requestId, method } = m.params;
  if (typeof serverId !== "string" || typeof method !== "string") return undefined;
  if (typeof requestId !== "string" && typeof requestId !== "number") return undefined;
  return { serverId: serverId.slice(0, MAX_LABEL), requestId, method: method.slice(0, MAX_LABEL) };
}

const key = (serverId: string, requestId: string | number) =>
  `${serverId}\u0000${typeof requestId}\u0000${String(requestId)}`;

export class McpPairs {
  private readonly bySeq = new Map<number, McpInner>();
  /** Inner requests by server and inner id -> the outer request's seq (the newest wins). */
  private readonly requests = new Map<string, number>();

  add(frame: Frame): McpInner | undefined {
    if (frame.method !== MCP_MESSAGE) return undefined;
    let inner: McpInner | undefined;
    if (frame.kind === "request" || frame.kind === "notification") {
      const call = innerCall(frame);
      if (!call) return undefined;
      const k = key(call.serverId, call.requestId);
      if (frame.kind === "request") {
        this.requests.set(k, frame.seq);
        inner = { role: "request", ...call, requestSeq: frame.seq };
      } else {
        inner = { role: "notification", ...call, requestSeq: this.requests.get(k) };
      }
    } else if (frame.kind === "response" && frame.requestSeq !== undefined) {
      const request = this.bySeq.get(frame.requestSeq);
      if (!request || request.role !== "request") return undefined;
      const m = frame.message;
      const result = isObject(m) ? m.result : undefined;
      // The schema: receivers prefer `result` when both are present.
      const outcome = isObject(result) ? ("result" in result ? "result" : "error") : "acp error";
      inner = { ...request, role: "response", outcome };
    }
    if (inner) this.bySeq.set(frame.seq, inner);
    return inner;
  }

  /** The inner MCP message of the outer frame with this seq. */
  innerOf(seq: number): McpInner | undefined {
    return this.bySeq.get(seq);
  }

  /** Forgets frames before `firstSeq` (the log dropped them). */
  prune(firstSeq: number): void {
    for (const seq of this.bySeq.keys()) {
      if (seq >= firstSeq) break;
      this.bySeq.delete(seq);
    }
    for (const [k, seq] of this.requests) if (seq < firstSeq) this.requests.delete(k);
  }
}

/** "tools/call" for an inner request, "tools/call → result" for its response. */
export function mcpLabel(inner: McpInner): string {
  if (inner.role === "response") return `${inner.method} → ${inner.outcome}`;
  if (inner.role === "notification") return `${inner.method} (notification)`;
  return inner.method;
}
