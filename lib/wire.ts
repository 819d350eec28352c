/**
 * The Socket.IO contract between a browser (or any client) and the relay.
 * Both sides import these types; docs/relay-protocol.md describes them in prose.
 */
import type { DiffChange } from "./transcript-diff";
import type { ClientCapabilities } from "@agentclientprotocol/sdk";
import type { WireFrame } from "./frame";
import type { Policies } from "./policy";
import { parseIgnorePath } from "./ignore-paths";
import type { ProbeReport } from "./probe";
import type { RerunStep } from "./rerun";

export interface RelayError {
  code: RelayErrorCode;
  message: string;
  /** process_exited: the requests that will never be answered; request_timeout: the late one. */
  data?: { requests?: PendingRequestInfo[]; code?: number | null; signal?: string | null };
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
  | "internal";

export type Ack<T extends object = object> = ({ ok: true } & T) | { ok: false; error: RelayError };

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
}

export interface ProfileSummary {
  name: string;
  command: string;
  args: string[];
  /** Option names the profile accepts in `agent:start`. */
  options: string[];
  description?: string;
  /** Whether the command resolves on the relay's machine (checked when listed). */
  available: boolean;
  /** What `initialize` should advertise by default for this profile (its config, or the playground's). */
  clientCapabilities?: ClientCapabilities;
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
  profiles: ProfileSummary[];
  defaultProfile: string;
  workspaceRoots: string[];
  maxLineBytes: number;
  graceMs: number;
}

export interface StartPayload {
  profile?: string;
  cwd?: string;
  options?: Record<string, unknown>;
  /** Take an already initialized agent from the warm pool when there is one (Connect). */
  pooled?: boolean;
}

export interface SendPayload {
  frame: string | object;
}

export interface RerunPayload extends StartPayload {
  /** The transcript whose client side is sent again. */
  id: string;
  /** Send the recorded `mcpServers` (command lines the agent starts): only after the user saw and confirmed them. */
  recordedMcpServers?: boolean;
  /** Dot paths the diff leaves out (see lib/transcript-diff.ts). */
  ignore?: string[];
}

export interface RerunResult {
  agent: AgentInfo;
  steps: RerunStep[];
  problems: string[];
  /** `changes`: the structural diff, step by step (absent from relays before it). */
  diff: { equal: boolean; added: number; removed: number; patch: string; changes?: DiffChange[] };
}

export interface HandshakeAuth {
  token: string;
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
}

export interface ClientToServerEvents {
  "relay:info": (payload: unknown, ack: (res: Ack<{ info: RelayInfo }>) => void) => void;
  "agent:start": (payload: unknown, ack: (res: Ack<{ agent: AgentInfo }>) => void) => void;
  "agent:send": (payload: unknown, ack: (res: Ack<{ seq: number }>) => void) => void;
  "agent:stop": (payload: unknown, ack: (res: Ack) => void) => void;
  "transcript:rerun": (payload: unknown, ack: (res: Ack<RerunResult>) => void) => void;
  /** Sets how the relay answers the agent's requests, per method. */
  "policy:set": (payload: unknown, ack: (res: Ack<{ policies: Policies }>) => void) => void;
  /** Ask mode: "do it" for a pending fs/ or terminal/ request; the relay answers it. */
  "agent:serve": (payload: unknown, ack: (res: Ack<{ seq: number }>) => void) => void;
  /** Runs the conformance probe against a fresh agent of a profile (in this browser session). */
  "agent:probe": (payload: unknown, ack: (res: Ack<{ report: ProbeReport }>) => void) => void;
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
}

type Parsed<T> = { ok: true; value: T } | { ok: false; error: RelayError };

const invalid = (message: string): { ok: false; error: RelayError } => ({
  ok: false,
  error: { code: "invalid_payload", message },
});

const isPlainObject = (v: unknown): v is Record<string, unknown> =>
  typeof v === "object" && v !== null && !Array.isArray(v);

function checkKeys(payload: Record<string, unknown>, allowed: string[]): string | undefined {
  const extra = Object.keys(payload).filter((k) => !allowed.includes(k));
  return extra.length ? `unknown field${extra.length > 1 ? "s" : ""}: ${extra.join(", ")}` : undefined;
}

export function parseStartPayload(payload: unknown): Parsed<StartPayload> {
  if (payload === undefined || payload === null) return { ok: true, value: {} };
  if (!isPlainObject(payload)) return invalid("agent:start expects an object");
  const extra = checkKeys(payload, ["profile", "cwd", "options", "pooled"]);
  if (extra) return invalid(`agent:start: ${extra}`);
  const { profile, cwd, options, pooled } = payload;
  if (pooled !== undefined && typeof pooled !== "boolean") return invalid("pooled must be a boolean");
  if (profile !== undefined && typeof profile !== "string") return invalid("profile must be a string");
  if (cwd !== undefined && typeof cwd !== "string") return invalid("cwd must be a string");
  if (options !== undefined && !isPlainObject(options)) return invalid("options must be an object");
  return { ok: true, value: { profile, cwd, options, pooled } };
}

export function parseRerunPayload(payload: unknown): Parsed<RerunPayload> {
  if (!isPlainObject(payload))
    return invalid("transcript:rerun expects an object { id, profile?, cwd?, options?, recordedMcpServers?, ignore? }");
  const { id, recordedMcpServers, ignore, ...start } = payload;
  if (typeof id !== "string" || id === "") return invalid("id must be a transcript id");
  if (recordedMcpServers !== undefined && typeof recordedMcpServers !== "boolean")
    return invalid("recordedMcpServers must be a boolean");
  if (
    ignore !== undefined &&
    (!Array.isArray(ignore) || ignore.length > 100 || !ignore.every((p) => typeof p === "string" && parseIgnorePath(p)))
  )
    return invalid("ignore must be a list of dot paths (at most 100)");
  const parsed = parseStartPayload(start);
  return parsed.ok
    ? {
        ok: true,
        value: { id, ...parsed.value, recordedMcpServers, ...(ignore ? { ignore: ignore as string[] } : {}) },
      }
    : parsed;
}

/** Turns a send payload into the exact line to write (without its newline). */
export function parseSendPayload(payload: unknown, maxLineBytes: number): Parsed<string> {
  if (!isPlainObject(payload)) return invalid("agent:send expects an object { frame }");
  const extra = checkKeys(payload, ["frame"]);
  if (extra) return invalid(`agent:send: ${extra}`);
  const { frame } = payload;
  let line: string;
  if (typeof frame === "string") {
    line = frame;
  } else if (typeof frame === "object" && frame !== null) {
    try {
      line = JSON.stringify(frame);
    } catch (err) {
      return invalid(`frame cannot be serialised: ${(err as Error).message}`);
    }
  } else {
    return invalid("frame must be a string or an object");
  }
  if (line.length === 0) return { ok: false, error: { code: "invalid_frame", message: "frame is empty" } };
  if (/[\r\n]/.test(line)) {
    return {
      ok: false,
      error: { code: "invalid_frame", message: "a frame is one line: it must not contain a newline" },
    };
  }
  if (line.length > maxLineBytes) {
    return {
      ok: false,
      error: { code: "frame_too_large", message: `frame exceeds the maximum line length of ${maxLineBytes} bytes` },
    };
  }
  return { ok: true, value: line };
}

export function parseServePayload(payload: unknown): Parsed<{ id: string | number }> {
  if (!isPlainObject(payload)) return invalid("agent:serve expects an object { id }");
  const extra = checkKeys(payload, ["id"]);
  if (extra) return invalid(`agent:serve: ${extra}`);
  const { id } = payload;
  if (typeof id !== "string" && typeof id !== "number") return invalid("id must be the id of a pending agent request");
  return { ok: true, value: { id } };
}

export function parseEmptyPayload(event: string, payload: unknown): Parsed<Record<string, never>> {
  if (payload === undefined || payload === null) return { ok: true, value: {} };
  if (!isPlainObject(payload)) return invalid(`${event} expects an object`);
  const extra = checkKeys(payload, []);
  return extra ? invalid(`${event}: ${extra}`) : { ok: true, value: {} };
}
