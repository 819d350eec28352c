/**
 * Test harness: an AgentHost on code alone (no relay, no sockets) over a
 * throw-away data directory, with the profiles a test gives (the first is the
 * default), no grace period and quick stops. `connect` replaces spawning (an
 * in-memory agent: server/agents/memory-connection.ts).
 */
import path from "node:path";
import type { Connector } from "../server/agents/agent-connection";
import { AgentHost } from "../server/agents/agent-host";
import { Profiles } from "../server/agents/profiles";
import { loadConfig, type ProfileConfig, type ServerConfig } from "../server/config";
import { TranscriptStore } from "../server/transcripts/transcript-store";

export function testHost(
  /** The folder the test owns: the workspace root, with the data directory inside. */
  base: string,
  profiles: Record<string, ProfileConfig>,
  options: { connect?: Connector; config?: Partial<ServerConfig> } = {},
) {
  const config: ServerConfig = {
    ...loadConfig({}, base),
    dataDir: path.join(base, "data"),
    workspaceRoots: [base],
    graceMs: 0,
    killGraceMs: 500,
    ...options.config,
    profiles,
    defaultProfile: Object.keys(profiles)[0]!,
  };
  const store = new TranscriptStore(config.dataDir, {});
  const host = new AgentHost(config, new Profiles(config, store), store, options.connect);
  return { host, config, store };
}
