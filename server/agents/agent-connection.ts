/**
 * What the relay needs of an agent, however it is reached: lines in, lines out,
 * stderr, an exit. A spawned process (agent-process.ts), a remote agent over
 * HTTP or WebSocket (remote-agent.ts) and an in-memory pair for tests
 * (memory-connection.ts) implement it; the host (agent-host.ts) sees only this.
 */
import type { LineEvent } from "../../lib/protocol/ndjson";
import type { RemoteProfile } from "../remote-profile";

export interface AgentConnectionEvents {
  /** One line the agent sent (or an over-long one dropped, with a preview). */
  onLine(event: LineEvent): void;
  onStderr(text: string): void;
  /** A transport event (HTTP status, stream open or close, reconnect, error) as one line of text. */
  onTransport(text: string): void;
  /** Once, after the last line. */
  onExit(code: number | null, signal: string | null): void;
}

export interface AgentConnection {
  /** The local process's id; 0 when nothing runs here (a remote or in-memory agent). */
  readonly pid: number;
  /** The agent runs elsewhere (a URL profile), while what it asks the client to do runs here. */
  readonly remote: boolean;
  readonly running: boolean;
  /** Writes one line; false when the agent can no longer be written to. */
  write(line: string): boolean;
  /** Ends the connection; resolves once the exit has been reported. */
  stop(): Promise<void>;
  /** Closes the agent's input only, leaving it to exit on its own (a local process; the probe's ACP-SHUTDOWN-001). */
  endInput?(): void;
}

export interface SpawnSpec {
  command: string;
  args: string[];
  cwd: string;
  env: Record<string, string>;
  maxLineBytes: number;
  killGraceMs: number;
}

/** What a start resolves to reach an agent: a command line, or a URL profile's endpoint. */
export type ConnectSpec = SpawnSpec & { remote?: RemoteProfile };

/** Reaches an agent; rejects with a SpawnError (agent-process.ts) when it cannot. */
export type Connector = (spec: ConnectSpec, events: AgentConnectionEvents) => Promise<AgentConnection>;
