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

/** How a request ended: a result, a JSON-RPC error, or no answer at all (send refused, agent gone). */
export type RpcOutcome =
  | { kind: "result"; result: unknown; seq: number }
  | { kind: "error"; error: RpcError; seq: number }
  | { kind: "failed"; message: string };

/** The outcome a response frame carries. */
export function outcomeOf(frame: Frame): RpcOutcome {
  const m = isObject(frame.message) ? frame.message : {};
  if ("error" in m) {
    const e = m.error;
    const error =
      isObject(e) && typeof e.code === "number"
        ? (e as unknown as RpcError)
        : { code: -32603, message: JSON.stringify(e) ?? "error" };
    return { kind: "error", error, seq: frame.seq };
  }
  return { kind: "result", result: m.result, seq: frame.seq };
}

/** ACP's "authentication required" error code. */
export const AUTH_REQUIRED = -32000;

export const isAuthRequired = (error: RpcError): boolean => error.code === AUTH_REQUIRED;

/** One line for an error, as the UI shows it. */
export const describeError = (e: RpcError): string => `${e.message} (${e.code})`;
