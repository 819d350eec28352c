/** JSON-RPC frames the playground sends, and what came back for a request. */
import type { Frame, JsonRpcId } from "./frame";
import { isObject } from "./json";

/** A JSON-RPC error object, as any side sends it. */
export interface RpcError {
  code: number;
  message: string;
  data?: unknown;
}

export const requestFrame = (id: JsonRpcId, method: string, params: unknown) => ({
  jsonrpc: "2.0" as const,
  id,
  method,
  params,
});
export const notificationFrame = (method: string, params: unknown) => ({ jsonrpc: "2.0" as const, method, params });
export const resultFrame = (id: JsonRpcId, result: unknown) => ({ jsonrpc: "2.0" as const, id, result });
export const errorFrame = (id: JsonRpcId, error: RpcError) => ({ jsonrpc: "2.0" as const, id, error });

/**
 * How a request ended: a result, a JSON-RPC error (both with the response
 * frame: its seq, id, latency), or no answer at all: not sent, none in time,
 * or the agent gone. The one result shape of a request, in lib/, server/ and
 * the browser (lib/protocol/request-port.ts).
 */
export type RpcOutcome =
  | { kind: "result"; result: unknown; frame: Frame }
  | { kind: "error"; error: RpcError; frame: Frame }
  | { kind: "failed"; reason: "unsent" | "timeout" | "gone"; message: string; frame?: undefined };

/** The outcome a response frame carries. */
export function outcomeOf(frame: Frame): RpcOutcome {
  const m = isObject(frame.message) ? frame.message : {};
  if ("error" in m) {
    const e = m.error;
    const error =
      isObject(e) && typeof e.code === "number"
        ? (e as unknown as RpcError)
        : { code: -32603, message: JSON.stringify(e) ?? "error" };
    return { kind: "error", error, frame };
  }
  return { kind: "result", result: m.result, frame };
}

/** ACP's "authentication required" error code. */
export const AUTH_REQUIRED = -32000;

export const isAuthRequired = (error: RpcError): boolean => error.code === AUTH_REQUIRED;

/** One line for an error, as the UI shows it. */
export const describeError = (e: RpcError): string => `${e.message} (${e.code})`;
