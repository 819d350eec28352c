/**
 * The SDK-free part of lib/policy.ts: policy names and the deny error. The
 * browser imports these; importing any value from the SDK would pull its zod
 * validators (~250 kB) into the page.
 */
export type Policy = "ask" | "auto" | "deny";
export const POLICIES: readonly Policy[] = ["ask", "auto", "deny"];

export interface JsonRpcErrorBody {
  code: number;
  message: string;
  data?: unknown;
}

export const denied = (method: string): JsonRpcErrorBody => ({
  code: -32000,
  message: `${method} was denied by the playground's policy`,
});
