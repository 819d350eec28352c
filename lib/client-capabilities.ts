import type { ClientCapabilities } from "@agentclientprotocol/sdk";

/**
 * What the playground advertises in `initialize` by default. It must match what
 * it really answers: the relay serves fs/ and terminal/ requests (by policy).
 */
export const DEFAULT_CLIENT_CAPABILITIES: ClientCapabilities = {
  fs: { readTextFile: true, writeTextFile: true },
  terminal: true,
};

/**
 * The `_meta` flag by which a client says it can run an agent's terminal login;
 * agents list their `terminal` auth methods only when it is set (Claude's ACP
 * adapter then offers "Log in with Claude"). The playground "runs" it by
 * showing the exact command with a Retry (lib/auth-methods terminalAuthCommand).
 */
export const TERMINAL_AUTH_META = "terminal-auth";

/** The capabilities with the terminal-auth flag set or cleared, other `_meta` keys kept. */
export function withTerminalAuth(caps: ClientCapabilities, on: boolean): ClientCapabilities {
  const meta: Record<string, unknown> = { ...caps._meta };
  if (on) meta[TERMINAL_AUTH_META] = true;
  else delete meta[TERMINAL_AUTH_META];
  const { _meta: _, ...rest } = caps;
  return Object.keys(meta).length ? { ...rest, _meta: meta } : rest;
}
