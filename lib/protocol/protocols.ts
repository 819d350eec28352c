/**
 * The protocols the playground speaks with an agent, both line-delimited JSON-RPC on stdio: the
 * Agent Client Protocol (the default), and the App Server Protocol of OpenAI's Codex
 * (`codex app-server`), thread- and turn-oriented, whose messages leave out the `"jsonrpc"` member
 * (docs/app-server.md). A profile names its protocol; frames, transcripts and every view follow it.
 */

export const PROTOCOLS = {
  acp: { label: "ACP", jsonrpcMember: true, turnMethod: "session/prompt" },
  "codex-app-server": { label: "Codex app-server", jsonrpcMember: false, turnMethod: "turn/start" },
} as const;

export type ProtocolName = keyof typeof PROTOCOLS;

export const PROTOCOL_NAMES = Object.keys(PROTOCOLS) as ProtocolName[];

export const DEFAULT_PROTOCOL: ProtocolName = "acp";

/** A record's protocol: absent means ACP (everything recorded before a second protocol existed). */
export const protocolOf = (holder: { protocol?: ProtocolName } | undefined | null): ProtocolName =>
  holder?.protocol ?? DEFAULT_PROTOCOL;

/** Whether a frame is the client's request that starts a turn in this protocol (what a transcript's `turns` counts). */
export const isTurnStart = (protocol: ProtocolName, f: { dir: string; kind: string; method?: string }): boolean =>
  f.dir === "to-agent" && f.kind === "request" && f.method === PROTOCOLS[protocol].turnMethod;

/**
 * A message as this protocol writes it: the playground builds every message with `"jsonrpc": "2.0"`
 * and leaves it out here for a protocol that does not send it (Codex accepts it, but its own clients
 * never send it: what the playground sends should look like what they send).
 */
export function forProtocol<T extends object>(protocol: ProtocolName, message: T): T {
  if (PROTOCOLS[protocol].jsonrpcMember || !("jsonrpc" in message)) return message;
  const { jsonrpc: _jsonrpc, ...rest } = message as T & { jsonrpc?: unknown };
  return rest as T;
}
