import type { ClientCapabilities } from "@agentclientprotocol/sdk";

/**
 * What the playground advertises in `initialize` by default. It must match what
 * it really answers: the relay serves fs/ and terminal/ requests (by policy).
 */
export const DEFAULT_CLIENT_CAPABILITIES: ClientCapabilities = {
  fs: { readTextFile: true, writeTextFile: true },
  terminal: true,
};
