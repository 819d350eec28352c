/**
 * How the playground answers the agent's own requests (the client side of ACP),
 * per method: ask the user, answer automatically, or deny with an error.
 */
import type { RequestPermissionRequest, RequestPermissionResponse } from "@agentclientprotocol/sdk";
import type { RpcError } from "../../protocol/jsonrpc";
import { CLIENT_METHODS } from "../../protocol/methods";
import { descriptorOf, type ProtocolName } from "../../protocol/protocols";
import { ANSWERABLE_METHODS, UNKNOWN_METHODS } from "../../contracts/policies";
import type { Policies } from "../../contracts/wire";

export type { Policies } from "../../contracts/wire";

export const denied = (method: string): RpcError => ({
  code: -32000,
  message: `${method} was denied by the playground's policy`,
});

const KNOWN_METHODS: ReadonlySet<string> = new Set([...Object.values(CLIENT_METHODS), ...ANSWERABLE_METHODS]);

/**
 * A request method no client is expected to know: not in the ACP client methods, not an
 * app-server request the playground answers, and not an extension.
 */
export const isUnknownMethod = (method: string): boolean => !KNOWN_METHODS.has(method) && !method.startsWith("_");

/**
 * Unknown to an agent speaking `protocol`: unknown to every client, or a request that only another
 * protocol's client answers (an ACP agent asking for a Codex approval is answered as any stranger).
 */
export const isUnknownMethodIn = (protocol: ProtocolName, method: string): boolean =>
  isUnknownMethod(method) ||
  (ANSWERABLE_METHODS.includes(method) && !descriptorOf(protocol).answerable.includes(method));

export const methodNotFound = (method: string): RpcError => ({
  code: -32601,
  message: `Method not found: ${method} (the playground answers methods outside ACP by its "${UNKNOWN_METHODS}" policy)`,
});

/**
 * Everything the user can answer starts as "ask"; unknown methods are refused
 * (an agent waiting on one would otherwise hang forever).
 */
export function defaultPolicies(): Policies {
  return { ...Object.fromEntries(ANSWERABLE_METHODS.map((m) => [m, "ask"])), [UNKNOWN_METHODS]: "deny" };
}

/**
 * Auto policy for permissions: the first allow option, preferring "allow once"
 * (least privilege; Gemini also fails "allow always" in an untrusted folder),
 * else the request is cancelled.
 */
export function autoPermission(
  params: Pick<RequestPermissionRequest, "options"> | undefined,
): RequestPermissionResponse {
  const options = params?.options ?? [];
  const option = options.find((o) => o.kind === "allow_once") ?? options.find((o) => o.kind === "allow_always");
  return option
    ? { outcome: { outcome: "selected", optionId: option.optionId } }
    : { outcome: { outcome: "cancelled" } };
}

/** `fs/read_text_file` line/limit: 1-based first line, at most `limit` lines. */
export function sliceLines(text: string, line?: number | null, limit?: number | null): string {
  if ((line === undefined || line === null) && (limit === undefined || limit === null)) return text;
  const lines = text.split("\n");
  const start = Math.max(0, (line ?? 1) - 1);
  const end = limit === undefined || limit === null ? lines.length : start + Math.max(0, limit);
  return lines.slice(start, end).join("\n");
}

/** Keeps the last `limit` bytes of output, cut at a character boundary. */
export function truncateOutput(
  output: string,
  limit: number | null | undefined,
): { output: string; truncated: boolean } {
  if (limit === undefined || limit === null) return { output, truncated: false };
  const bytes = new TextEncoder().encode(output);
  if (bytes.length <= limit) return { output, truncated: false };
  let start = bytes.length - limit;
  // Skip UTF-8 continuation bytes so the kept text starts on a character.
  while (start < bytes.length && (bytes[start]! & 0xc0) === 0x80) start++;
  return { output: new TextDecoder().decode(bytes.subarray(start)), truncated: true };
}
