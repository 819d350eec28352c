/**
 * The Socket.IO contract between a browser (or any client) and the relay.
 * Both sides import these types; docs/relay-protocol.md describes them in prose.
 * Every client->server payload is a zod schema here, its type inferred from it; the
 * relay parses with the schema (server/wire/socket-events.ts). The browser imports types
 * only, which keeps zod out of its bundle.
 */
import type { DiffChange } from "./reports";
import type { ClientCapabilities } from "@agentclientprotocol/sdk";
import { z } from "zod";
import { describeIssues, parseWith } from "../protocol/contract";
import type { WireFrame } from "../protocol/frame";
import { DEFAULT_PROTOCOL, forProtocol, type ProtocolName } from "../protocol/protocols";
import { parseIgnorePath } from "./ignore-paths";
import { ANSWERABLE_METHODS, POLICIES, UNKNOWN_METHODS } from "./policies";
import type { ProbeReport } from "./reports";
import { fail, ok, type Failure, type Flat, type Result } from "../protocol/result";
import type { RerunStep } from "./reports";

export interface RelayError {
  code: RelayErrorCode;
  message: string;
  /** process_exited: the requests that will never be answered; request_timeout: the late one. */
  data?: { requests?: PendingRequestInfo[]; code?: number | null; signal?: string | null; start?: StartFailureInfo };
}

/** spawn_failed: why the command did not run, for the doctor (lib/features/connect/doctor.ts). */
export interface StartFailureInfo {
  reason: "not-found" | "not-executable";
  command: string;
  /** not-found: the PATH directories searched (none when the command is a path). */
  searched: string[];
}

export interface PendingRequestInfo {
  id: string;
  method: string;
  seq: number;
  ageMs: number;
}

export type RelayErrorCode =
  | "invalid_payload"
  | "unknown_profile"
  | "bad_cwd"
  | "spawn_failed"
  | "agent_running"
  | "no_agent"
  | "invalid_frame"
  | "frame_too_large"
  | "process_exited"
  | "request_timeout"
  /** A tapped conversation is watched, not driven (until its tab turns injection on). */
  | "read_only"
  /** A team server's person acting on another's tap (lib/contracts/tap-wire.ts's tapRefusal), as the HTTP API's 403. */
  | "not_owner"
  | "internal";

/** An event's answer: the value's fields beside `ok`, or a relay error. */
export type Ack<T extends object = object> = Flat<T, RelayError>;

export interface AgentInfo {
  profile: string;
  /** Set when the agent came from the warm pool: its log starts with the pool's initialize. */
  pooled?: boolean;
  pid: number;
  command: string;
  args: string[];
  cwd: string;
  /** The transcript this agent is being recorded to. */
  transcriptId?: string;
  /** The protocol it speaks; ACP when absent. */
  protocol?: ProtocolName;
}

export interface ProfileSummary {
  name: string;
  command: string;
  args: string[];
  /** Option names the profile accepts in `agent:start`. */
  options: string[];
  description?: string;
  /** The protocol the agent speaks; ACP when absent. */
  protocol?: ProtocolName;
  /** Whether the command resolves on the relay's machine (checked when listed). */
  available: boolean;
  /** What `initialize` should advertise by default for this profile (its config, or the playground's). */
  clientCapabilities?: ClientCapabilities;
  /** Set when the relay knows the agent has no credentials (Gemini): one line saying so, before Connect. */
  credentialsMissing?: string;
  /** Why this profile cannot start now (a replay of a transcript still recording): one line, before Connect. */
  unavailable?: string;
  /** A shipped recording (the demo), not a live agent. */
  demo?: boolean;
  /** A `replay:<id>` profile: the transcript it replays, so pickers can show its title, not its id. */
  replayOf?: { id: string; title: string; kind?: string };
}

export interface ProfileDetails extends ProfileSummary {
  /** Absolute path of the command, when it resolves. */
  resolved?: string;
  /** First line of `command --version`, when it answers. */
  version?: string;
}

export interface RelayInfo {
  version: string;
  /**
   * The configured profiles, then a bounded few `replay:<id>` ones (the demo, the newest
   * transcripts, the one asked for): not one per transcript.
   */
  profiles: ProfileSummary[];
  defaultProfile: string;
  workspaceRoots: string[];
  maxLineBytes: number;
  graceMs: number;
}

export interface RerunResult {
  agent: AgentInfo;
  steps: RerunStep[];
  problems: string[];
  /** `changes`: the structural diff, step by step (absent from relays before it). */
  diff: { equal: boolean; added: number; removed: number; patch: string; changes?: DiffChange[] };
}

export interface HandshakeAuth {
  /** The relay's access token; a watcher gives `watchLink` instead. */
  token?: string;
  /** A watch link's token: this connection only watches that link's session, read-only. */
  watchLink?: string;
  /** Stable per browser tab (sessionStorage), so a reload re-attaches to its agent. */
  clientId?: string;
  /** The last frame seq this client holds; the relay resends the ones after it. */
  lastSeq?: number;
}

export interface StderrEvent {
  ts: number;
  text: string;
}

export interface TransportEvent {
  ts: number;
  text: string;
}

export interface ExitEvent {
  code: number | null;
  signal: string | null;
}

export interface AttachedEvent {
  agent: AgentInfo | null;
  /** Highest seq of the agent's log; frames after the client's lastSeq follow in `frames`. */
  lastSeq: number;
  /**
   * Frames after the client's lastSeq that the relay no longer holds (its replay
   * buffer is capped in frames and bytes, oldest dropped first): a gap before `firstSeq`.
   */
  missed: number;
  /** The first seq the relay still holds (lastSeq + 1 when it holds none); resent frames start here. */
  firstSeq: number;
  policies: Policies;
  /** A remote agent's transport events the relay still holds (the last 200), oldest first. */
  transport?: TransportEvent[];
}

export interface ServerToClientEvents {
  /** First event on every connection: the clientId to re-attach with after a reload. */
  "relay:hello": (event: { clientId: string }) => void;
  frames: (frames: WireFrame[]) => void;
  "agent:started": (agent: AgentInfo) => void;
  "agent:attached": (event: AttachedEvent) => void;
  "agent:stderr": (event: StderrEvent) => void;
  /** A remote agent's transport event (HTTP status, SSE stream, WebSocket open or close). */
  "agent:transport": (event: TransportEvent) => void;
  "agent:exit": (event: ExitEvent) => void;
  "agent:error": (error: RelayError) => void;
  /** A watch link's stream ended (the owner ended the link, or the session ended): no more events follow. */
  "watch:ended": (event: { message: string }) => void;
  /** A watch link's stream stopped for a while (the instances lost Redis): frames resume after `watch:resumed`. */
  "watch:paused": (event: { message: string }) => void;
  "watch:resumed": (event: { message: string }) => void;
}

// Client -> server payloads. Objects are strict: an unknown field is refused, not ignored.

const startFields = {
  profile: z.string().optional(),
  cwd: z.string().optional(),
  options: z.record(z.string(), z.unknown(), { error: "must be an object" }).optional(),
  /** Take an already initialized agent from the warm pool when there is one (Connect). */
  pooled: z.boolean().optional(),
  /**
   * Values the user typed for an `env_var` auth method. The relay accepts only
   * variables an `env_var` method of this profile's agent named (checkUserEnv),
   * never records them and never sends them back.
   */
  env: z
    .record(z.string(), z.string(), { error: "must map variable names to string values" })
    .refine((env) => Object.keys(env).length <= 32, { error: "at most 32 variables" })
    .optional(),
};

/** No payload, `null` or `{}`. */
const emptyPayloadSchema = z
  .strictObject({})
  .nullish()
  .transform(() => ({}));

/** `profile`: the one a page has chosen, described even when it is a `replay:<id>` the list leaves out. */
export const infoPayloadSchema = z
  .strictObject({ profile: z.string().max(200).optional() })
  .nullish()
  .transform((v) => v ?? {});

export const startPayloadSchema = z
  .strictObject(startFields)
  .nullish()
  .transform((v) => v ?? {});
export type StartPayload = z.output<typeof startPayloadSchema>;

export const probePayloadSchema = z
  .strictObject({
    ...startFields,
    /** Run the agent's terminal commands (in the throw-away workspace; never a URL profile's): off unless asked for. */
    terminals: z.boolean().optional(),
  })
  .nullish()
  .transform((v) => v ?? {});

export const sendPayloadSchema = z.strictObject({
  frame: z.union([z.string(), z.custom<object>((v) => typeof v === "object" && v !== null)], {
    error: "must be a string or an object",
  }),
});
export type SendPayload = z.output<typeof sendPayloadSchema>;

export const rerunPayloadSchema = z.strictObject({
  ...startFields,
  /** The transcript whose client side is sent again. */
  id: z.string().min(1, { error: "must be a transcript id" }),
  /** Send the recorded `mcpServers` (command lines the agent starts): only after the user saw and confirmed them. */
  recordedMcpServers: z.boolean().optional(),
  /** Dot paths the diff leaves out (see lib/features/compare/transcript-diff.ts). */
  ignore: z
    .array(z.string().refine((p) => parseIgnorePath(p) !== undefined, { error: "must be a dot path" }))
    .max(100)
    .optional(),
});
export type RerunPayload = z.output<typeof rerunPayloadSchema>;

export const servePayloadSchema = z.strictObject({
  id: z.union([z.string(), z.number()], { error: "must be the id of a pending agent request" }),
});

/** How the relay answers the agent's requests, per method (lib/features/answers/policy.ts). */
export const policiesSchema = z
  .record(z.string(), z.enum(POLICIES, { error: "policy must be ask, auto or deny" }), {
    error: "expected an object { method: policy }",
  })
  .superRefine((policies, ctx) => {
    for (const method of Object.keys(policies))
      if (!ANSWERABLE_METHODS.includes(method) && method !== UNKNOWN_METHODS)
        ctx.addIssue({ code: "custom", message: `no policy for ${method}` });
  });

export const policySetPayloadSchema = z.strictObject({ policies: policiesSchema });

/** Every client -> server event's payload, and what its ack carries. */
export const clientEventSchemas = {
  "relay:info": infoPayloadSchema,
  "agent:start": startPayloadSchema,
  "agent:send": sendPayloadSchema,
  "agent:stop": emptyPayloadSchema,
  "transcript:rerun": rerunPayloadSchema,
  "policy:set": policySetPayloadSchema,
  "agent:serve": servePayloadSchema,
  "agent:probe": probePayloadSchema,
} as const;

export type ClientEvent = keyof typeof clientEventSchemas;
export type ClientPayload<E extends ClientEvent> = z.output<(typeof clientEventSchemas)[E]>;

interface ClientAcks {
  "relay:info": { info: RelayInfo };
  "agent:start": { agent: AgentInfo };
  "agent:send": { seq: number };
  "agent:stop": object;
  "transcript:rerun": RerunResult;
  /** Sets how the relay answers the agent's requests, per method. */
  "policy:set": { policies: Policies };
  /** Ask mode: "do it" for a pending fs/ or terminal/ request; the relay answers it. */
  "agent:serve": { seq: number };
  /** Runs the conformance probe against a fresh agent of a profile (in this browser session). */
  "agent:probe": { report: ProbeReport };
}
export type ClientAck<E extends ClientEvent> = ClientAcks[E];

export type ClientToServerEvents = {
  [E in ClientEvent]: (
    payload: z.input<(typeof clientEventSchemas)[E]>,
    ack: (res: Ack<ClientAcks[E]>) => void,
  ) => void;
};

export type Policies = z.output<typeof policiesSchema>;

/** The relay's refusal of a payload its schema does not accept. */
export const invalidPayload = (message: string): Failure<RelayError> => fail({ code: "invalid_payload", message });

export function parsePayload<E extends ClientEvent>(event: E, payload: unknown): Result<ClientPayload<E>, RelayError> {
  const parsed = clientEventSchemas[event].safeParse(payload);
  return parsed.success
    ? ok(parsed.data as ClientPayload<E>)
    : invalidPayload(`${event}: ${describeIssues(parsed.error)}`);
}

/** Policies from anywhere (a payload, a CLI flag): only answerable methods, only known policies. */
export const parsePolicies = (value: unknown): Result<Policies> => parseWith(policiesSchema, value);

/** Turns a send payload's frame into the exact line to write (without its newline). */
/** A frame given as an object is written in the agent's protocol (Codex's app-server leaves out "jsonrpc"). */
export function frameLine(
  frame: SendPayload["frame"],
  maxLineBytes: number,
  protocol: ProtocolName = DEFAULT_PROTOCOL,
): Result<string, RelayError> {
  let line: string;
  if (typeof frame === "string") line = frame;
  else {
    try {
      line = JSON.stringify(forProtocol(protocol, frame));
    } catch (err) {
      return invalidPayload(`frame cannot be serialised: ${(err as Error).message}`);
    }
  }
  if (line.length === 0) return fail({ code: "invalid_frame", message: "frame is empty" });
  if (/[\r\n]/.test(line))
    return fail({ code: "invalid_frame", message: "a frame is one line: it must not contain a newline" });
  if (line.length > maxLineBytes)
    return fail({
      code: "frame_too_large",
      message: `frame exceeds the maximum line length of ${maxLineBytes} bytes`,
    });
  return ok(line);
}
