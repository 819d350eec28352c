/**
 * The protocols the playground speaks with an agent, both line-delimited JSON-RPC on stdio: the
 * Agent Client Protocol (the default), and the App Server Protocol of OpenAI's Codex
 * (`codex app-server`), thread- and turn-oriented, whose messages leave out the `"jsonrpc"` member
 * (docs/app-server.md). A profile names its protocol; frames, transcripts and every view follow it.
 *
 * This is the thin half of a protocol's spec: the wire facts every lib/ layer may read (frames,
 * contracts and folds sit below lib/features and cannot import the registry). The rest of a
 * protocol's spec (handshake, prompt client, probe, answers, compose rules...) is its `ProtocolSpec`
 * in lib/features/protocols/registry.ts, which requires one for every name here
 * (docs/architecture.md, "Adding a protocol").
 */
import { APP_SERVER_REQUESTS } from "./app-server-methods";
import { CLIENT_METHODS } from "./methods";

/** What lower layers (frames, policies, recording rules, the relay) need to know of a protocol. */
export interface ProtocolDescriptor {
  /** Its name for people ("ACP"). */
  label: string;
  /** Whether its messages carry `"jsonrpc": "2.0"` (checked on every frame, written by forProtocol). */
  jsonrpcMember: boolean;
  /** The client's request that starts a turn (what a transcript's `turns` counts). */
  turnMethod: string;
  /** What it calls one conversation ("Session", "Thread"). */
  conversation: string;
  /** The field a turn's end is told by ("stopReason", "status"). */
  turnEndField: string;
  /** Connect's requests, for people ("initialize, session/new"). */
  connectSteps: string;
  /** The agent->client requests the playground can answer (notifications excluded), in listed order. */
  answerable: readonly string[];
  /**
   * Whether ACP v1's session rules judge its recordings (lib/folds/recording-rules.ts: message shapes
   * by ACP's method tables, sessions named only once made, tool calls finished by the turn's end).
   */
  sessionRules: boolean;
  /** Which schema judges its frames (a key of the schema loaders in server/ and components/). */
  schema: "acpSdk" | "appServer";
  /** Which turn reader folds its waterfall (lib/folds/waterfall.ts: ACP's prompt turns, or the app-server's threads' turns). */
  turnReader: "acp" | "appServer";
  /** Whether a JSON-RPC batch (an array on one line) carries its messages: one frame, its parts paired (lib/folds/acp-v2/batches.ts). */
  batches: boolean;
  /** The agent's name when it gives none (otel spans); undefined: the profile's. */
  agentName?: string;
}

/** ACP's agent->client requests the playground can answer. */
const ACP_ANSWERABLE: readonly string[] = [
  CLIENT_METHODS.session_request_permission,
  CLIENT_METHODS.fs_read_text_file,
  CLIENT_METHODS.fs_write_text_file,
  CLIENT_METHODS.terminal_create,
  CLIENT_METHODS.terminal_output,
  CLIENT_METHODS.terminal_wait_for_exit,
  CLIENT_METHODS.terminal_kill,
  CLIENT_METHODS.terminal_release,
  CLIENT_METHODS.elicitation_create,
];

export const PROTOCOLS = {
  acp: {
    label: "ACP",
    jsonrpcMember: true,
    turnMethod: "session/prompt",
    conversation: "Session",
    turnEndField: "stopReason",
    connectSteps: "initialize, session/new",
    answerable: ACP_ANSWERABLE,
    sessionRules: true,
    schema: "acpSdk",
    turnReader: "acp",
    batches: false,
  },
  // ACP v2 (the draft): its own protocol, since the wire differs from v1's (a prompt answered by a
  // receipt, the turn ended by state_update idle, no client fs/* or terminal/*, batches).
  "acp-v2": {
    label: "ACP v2",
    jsonrpcMember: true,
    turnMethod: "session/prompt",
    conversation: "Session",
    turnEndField: "state",
    connectSteps: "initialize (protocolVersion 2), session/new",
    answerable: [CLIENT_METHODS.session_request_permission, CLIENT_METHODS.elicitation_create],
    sessionRules: true,
    // The SDK's schema set: once initialize negotiated 2, v2's schema judges first (lib/protocol/schema-check.ts).
    schema: "acpSdk",
    // ACP's turn reader ends a v2 turn at state_update idle too.
    turnReader: "acp",
    batches: true,
  },
  "codex-app-server": {
    label: "Codex app-server",
    jsonrpcMember: false,
    turnMethod: "turn/start",
    conversation: "Thread",
    turnEndField: "status",
    connectSteps: "initialize, initialized, thread/start",
    // Approvals ("auto" accepts, "deny" declines) and the model's questions.
    answerable: Object.values(APP_SERVER_REQUESTS),
    sessionRules: false,
    schema: "appServer",
    turnReader: "appServer",
    batches: false,
    agentName: "codex",
  },
} as const satisfies Record<string, ProtocolDescriptor>;

export type ProtocolName = keyof typeof PROTOCOLS;

export const PROTOCOL_NAMES = Object.keys(PROTOCOLS) as ProtocolName[];

export const DEFAULT_PROTOCOL: ProtocolName = "acp";

/** A protocol's descriptor, read through the interface (so no caller leans on one protocol's literal values). */
export const descriptorOf = (protocol: ProtocolName): ProtocolDescriptor => PROTOCOLS[protocol];

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
