import type { ClientCapabilities } from "@agentclientprotocol/sdk";
import { isObject } from "./json";
import { CLIENT_METHODS } from "./methods";
import type { RpcError } from "./jsonrpc";

/** Who the client is, in every `initialize` the playground sends (browser, CLI, probe, compare, warm pool). */
export const CLIENT_INFO = { name: "acp-playground", title: "ACP Playground", version: "0.1.0" };

/**
 * What the playground advertises in `initialize` by default. It must match what
 * it really answers: the relay serves fs/ and terminal/ requests (by policy).
 */
export const DEFAULT_CLIENT_CAPABILITIES: ClientCapabilities = {
  fs: { readTextFile: true, writeTextFile: true },
  terminal: true,
};

/**
 * The default for a URL profile: a remote agent may read and write workspace
 * files (by policy) but gets no terminal here unless its profile declares one;
 * its commands would run on this machine for an agent that does not.
 */
export const REMOTE_CLIENT_CAPABILITIES: ClientCapabilities = {
  fs: { readTextFile: true, writeTextFile: true },
  terminal: false,
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

/** The client capability (its path under `clientCapabilities`) each request the relay carries out needs. */
const NEEDED: Readonly<Record<string, string>> = {
  [CLIENT_METHODS.fs_read_text_file]: "fs.readTextFile",
  [CLIENT_METHODS.fs_write_text_file]: "fs.writeTextFile",
  [CLIENT_METHODS.terminal_create]: "terminal",
  [CLIENT_METHODS.terminal_output]: "terminal",
  [CLIENT_METHODS.terminal_wait_for_exit]: "terminal",
  [CLIENT_METHODS.terminal_kill]: "terminal",
  [CLIENT_METHODS.terminal_release]: "terminal",
};

/** The capability `method` needs, as a path under `clientCapabilities`; undefined when it needs none. */
export const capabilityFor = (method: string): string | undefined =>
  Object.hasOwn(NEEDED, method) ? NEEDED[method] : undefined;

/**
 * The error that refuses an agent request for a capability the client did not
 * advertise: `advertised` is the `clientCapabilities` of the client's last
 * `initialize`, undefined before any (nothing advertised). Only `true` counts.
 * -32601, as the SDK's client answers a method it does not implement.
 * Undefined when the request may be carried out.
 */
export function notAdvertised(method: string, advertised: unknown): RpcError | undefined {
  const capability = capabilityFor(method);
  if (capability === undefined) return undefined;
  let value: unknown = advertised;
  for (const key of capability.split(".")) value = isObject(value) ? value[key] : undefined;
  if (value === true) return undefined;
  return {
    code: -32601,
    message: `Method not found: ${method} (the client did not advertise clientCapabilities.${capability} in initialize)`,
    data: { method, capability: `clientCapabilities.${capability}` },
  };
}
