/**
 * Connect: start (pooled), initialize unless the pool did, authenticate if
 * session/new asks for it, session/new (lib/connect-flow.ts runs the steps).
 * Advertises DEFAULT_CLIENT_CAPABILITIES, which the relay really answers (by policy).
 */
import { DEFAULT_CLIENT_CAPABILITIES } from "@/lib/client-capabilities";
import { CLIENT_INFO } from "@/lib/compose-catalog";
import { runConnect, type ConnectProgress } from "@/lib/connect-flow";
import { isObject } from "@/lib/json";
import { outcomeOf } from "@/lib/jsonrpc";
import type { SessionStore } from "./session-store";

export async function connectAgent(
  store: SessionStore,
  opts: { profile?: string; options?: Record<string, unknown>; cwd: string },
  progress: (handshake: ConnectProgress) => void,
): Promise<ConnectProgress> {
  // Loaded on demand: a value import of the SDK would put its validators in the page.
  const sdk = import("@agentclientprotocol/sdk");
  return runConnect(
    {
      start: async () => {
        const res = await store.startAgent(opts.profile, undefined, { options: opts.options, pooled: true });
        return res.ok ? { ok: true, pooled: res.agent.pooled === true } : { ok: false, message: res.error.message };
      },
      pooledInitialize: async () => {
        const frame = await store.waitForFrame(
          (f) => f.dir === "from-agent" && f.kind === "response" && f.method === "initialize",
          5_000,
        );
        const outcome = frame ? outcomeOf(frame) : undefined;
        return outcome?.kind === "result" && isObject(outcome.result) ? outcome.result : undefined;
      },
      request: (method, params) => store.request(method, params),
      progress,
    },
    {
      cwd: opts.cwd,
      protocolVersion: (await sdk).PROTOCOL_VERSION,
      clientCapabilities: DEFAULT_CLIENT_CAPABILITIES,
      clientInfo: CLIENT_INFO,
    },
  );
}
