/**
 * What the probe's steps share (lib/features/probe/steps.ts): the driver they
 * talk through, what earlier steps learnt (the initialize result, the session),
 * and the two things every step adds to: report rows (what the agent did) and
 * checks (whether that meets a requirement, lib/features/probe/requirements.ts).
 */
import type { Frame, JsonRpcId, WireFrame } from "../../protocol/frame";
import type { RpcOutcome } from "../../protocol/jsonrpc";
import type { RequestPort } from "../../protocol/request-port";
import { withMessage } from "../../folds/frame-log";
import type { Policies } from "../answers/policy";
import type { Defs } from "../compose/schema-form";
import { isObject } from "../../protocol/json";
import type { MethodSupport, ProbeRow } from "../../contracts/reports";
import type { CheckResult, CheckStatus, Requirement } from "../../contracts/requirements";
import { CLIENT_METHODS } from "../../protocol/methods";
import { PROBE_REQUIREMENTS } from "./requirements";
import type { ProtocolName } from "../../protocol/protocols";
import type { SchemaSet } from "../../protocol/schema-check";

/** How a call ended: the response frame (its seq, requestSeq, latency) unless none came. */
export type Reply = RpcOutcome;

/**
 * What the probe talks through: the one request port (lib/protocol/request-port.ts),
 * plus what only a probe needs: a line written as is, the log, its own answering policies.
 */
export interface Driver extends RequestPort {
  /** Writes a line as is. */
  raw(line: string): void;
  /** The agent's frames so far, without `message` (parse `raw` where it is needed). */
  frames(): readonly WireFrame[];
  /** From now on, answer the agent's own requests under these policies. */
  answerWith(policies: Policies): void;
  /** What the agent has written to stderr so far (absent: this driver cannot see it). */
  stderr?(): string;
  /**
   * Closes the agent's stdin and resolves whether it exited on its own within `graceMs`
   * (undefined: the agent is not a process here). Nothing may be sent after it.
   */
  endInput?(graceMs: number): Promise<boolean | undefined>;
}

import type { V2Connect } from "../probe-v2/connection";

export interface ProbeOptions {
  /** The throw-away workspace the agent runs in. */
  cwd: string;
  /** What `initialize` advertises (the profile's defaults). */
  clientCapabilities?: Record<string, unknown>;
  /** The SDK's unstable JSON schema `$defs`: params are built from them, result fields checked against them. */
  defs?: Defs;
  timeoutMs?: number;
  /** logout may sign the user out of a real account: off unless asked for. */
  includeLogout?: boolean;
  /** Run the agent's terminal commands (in the throw-away workspace): off unless asked for. */
  terminals?: boolean;
  /** The agent does not run on this machine (a URL profile): its commands are never run here. */
  remote?: boolean;
  /** An advertised auth method to authenticate with before session/new (else an agent that requires one is "blocked by auth"). */
  authMethod?: string;
  /** The protocol the agent speaks (its profile's): which steps run. ACP when absent. */
  protocol?: ProtocolName;
  /** The SDK's schemas (lib/protocol/schema-check.ts): the agent's messages are judged by them. */
  schemas?: SchemaSet;
  /**
   * Opens a fresh agent of the same profile, line by line: a probe that isolates its scenarios one
   * agent each (ACP v2's, as the kit does) runs over these instead of the driver's agent.
   */
  fresh?: V2Connect;
}

/** Directories the probe names inside its workspace (the caller makes them): an extra root, and one no session uses. */
export const PROBE_DIRECTORIES = { extra: "probe-extra", empty: "probe-empty" } as const;
export const probeDirectory = (cwd: string, name: keyof typeof PROBE_DIRECTORIES) =>
  `${cwd.replace(/\/$/, "")}/${PROBE_DIRECTORIES[name]}`;

export type Json = Record<string, unknown>;
export type Message = {
  id?: JsonRpcId;
  method?: string;
  params?: Json;
  result?: Json;
  error?: { code?: number; message?: string; data?: unknown };
};

export const messageOf = (f?: WireFrame): Message | undefined =>
  f ? (withMessage({ ...f }).message as Message | undefined) : undefined;
export const errorOf = (f?: WireFrame) => messageOf(f)?.error;
export const resultOf = (f?: WireFrame) => messageOf(f)?.result;

/** How the registry's daily matrix classes an answer. */
export function supportOf(reply: Reply): MethodSupport {
  if (!reply.frame) return "other";
  const err = errorOf(reply.frame);
  if (!err) return "supported";
  if (err.code === -32601) return "not found";
  if (err.code === -32602 || err.code === -32002) return "supported";
  if (err.code === -32000 || /auth/i.test(String(err.message))) return "auth required";
  return "other";
}

/** The row for one call: what came back, in a few words. */
export function row(
  check: string,
  method: string | undefined,
  reply: Reply,
  describe: (result: Json | undefined) => string,
): ProbeRow {
  const err = errorOf(reply.frame);
  const base = { check, method, latencyMs: latencyOf(reply) };
  let r: ProbeRow;
  if (!reply.frame) r = { ...base, outcome: "timeout", detail: "no response" };
  else if (err?.code === -32601) r = { ...base, outcome: "-32601", detail: "not supported by this agent (-32601)" };
  else if (err) r = { ...base, outcome: "error", detail: `error ${err.code}: ${String(err.message).slice(0, 160)}` };
  else r = { ...base, outcome: "answered", detail: describe(resultOf(reply.frame)).slice(0, 200) };
  if (method) r.support = supportOf(reply);
  return r;
}

export const keys = (r: Json | undefined) =>
  r ? `result keys: ${Object.keys(r).join(", ") || "(none)"}` : "null result";

/** The reply's latency in whole ms, when a response came. */
export const latencyOf = (reply: Reply): number | undefined =>
  reply.frame ? Math.round(reply.frame.latencyMs ?? 0) : undefined;

/** What a reply was, for a check's detail: `error -32603: No previous sessions`, `no response`. */
export function answerOf(reply: Reply): string {
  if (!reply.frame) return "no response";
  const err = errorOf(reply.frame);
  return err ? `error ${err.code}: ${String(err.message).slice(0, 120)}` : "answered";
}

/** The request and response frames of a reply (seq in the recorded transcript). */
export const framesOf = (reply: Reply): number[] =>
  reply.frame ? [...(reply.frame.requestSeq === undefined ? [] : [reply.frame.requestSeq]), reply.frame.seq] : [];

/** Updates that are the conversation itself (what load replays, what a cancelled turn must not add later). */
export const CONVERSATION_UPDATES = new Set([
  "user_message_chunk",
  "agent_message_chunk",
  "agent_thought_chunk",
  "tool_call",
  "tool_call_update",
  "plan",
]);

const REQUIREMENTS = new Map<string, Requirement>(PROBE_REQUIREMENTS.map((r) => [r.id, r]));

/** Resolves `agentCapabilities.x.y` in the initialize result, `inferred:modes` in the session/new result. */
export function advertisedIn(init: Json | undefined, session: Json | undefined, capability: string): boolean {
  if (capability.startsWith("inferred:")) {
    const field = capability.slice("inferred:".length);
    // modes, configOptions, models: session/new's result; authMethods: initialize's.
    const v = session?.[field] ?? init?.[field];
    return Array.isArray(v) ? v.length > 0 : v !== undefined && v !== null;
  }
  let v: unknown = init;
  for (const key of capability.split(".")) v = isObject(v) ? v[key] : undefined;
  return v !== undefined && v !== null && v !== false;
}

export class ProbeContext {
  readonly rows: ProbeRow[] = [];
  readonly checks: CheckResult[] = [];
  readonly t: number;
  /** The last frame before the probe began: the probe reads only what follows. */
  readonly firstSeq: number;
  /** What the probe advertised in its initialize. */
  clientCapabilities: Json = {};
  /** The oddly-versioned initialize's reply (judged once the real one is known). */
  oddInit?: Reply;
  /** The last seq of the basic exchange (initialize, session/new, the first prompt turn): the schema judges it. */
  basicExchangeEnd?: number;
  init?: Json;
  session?: Json;
  sessionId?: string;
  /** Every sessionId session/new answered on this connection. */
  readonly sessionIds: string[] = [];
  blockedByAuth = false;

  constructor(
    readonly driver: Driver,
    readonly options: ProbeOptions,
    readonly terminals: { on: boolean; why: string },
  ) {
    this.t = options.timeoutMs ?? 10_000;
    this.firstSeq = driver.frames().at(-1)?.seq ?? 0;
  }

  request(method: string, params: unknown, options: { id?: JsonRpcId; timeoutMs?: number } = {}): Promise<Reply> {
    return this.driver.request(method, params, { timeoutMs: this.t, ...options });
  }

  notify(method: string, params?: unknown): void {
    void this.driver.notify(method, params);
  }

  waitFor(match: (frame: Frame) => boolean, timeoutMs: number): Promise<Frame | undefined> {
    return this.driver.waitForFrame(match, timeoutMs);
  }

  lastSeq(): number {
    return this.driver.frames().at(-1)?.seq ?? 0;
  }

  /** The frames since the probe began, parsed (copies: the driver's log stays lean). */
  parsed(after = this.firstSeq): Frame[] {
    return this.driver
      .frames()
      .filter((f) => f.seq > after)
      .map((f) => withMessage({ ...f }));
  }

  /** The `session/update` payloads from the agent in `frames` (optionally for one session), with their seq. */
  updates(frames: readonly Frame[], sessionId?: string): Array<{ seq: number; update: Json }> {
    return frames.flatMap((f) => {
      if (f.dir !== "from-agent" || f.method !== CLIENT_METHODS.session_update) return [];
      const params = messageOf(f)?.params;
      if (sessionId !== undefined && params?.sessionId !== sessionId) return [];
      return isObject(params?.update) ? [{ seq: f.seq, update: params.update }] : [];
    });
  }

  advertised(capability: string): boolean {
    return advertisedIn(this.init, this.session, capability);
  }

  /** Adds a check of one requirement; a step with no session to work on skips (auth, or session/new failed). */
  check(requirement: string, status: CheckStatus, detail: string, frames: number[] = []): CheckResult {
    if (!REQUIREMENTS.has(requirement)) throw new Error(`no such requirement: ${requirement}`);
    const c: CheckResult = { requirement, status, detail, ...(frames.length ? { frames } : {}) };
    this.checks.push(c);
    return c;
  }

  /** A check that needs the probe's session: skipped without one. */
  sessionCheck(requirement: string, status: CheckStatus, detail: string, frames: number[] = []): CheckResult {
    if (!this.sessionId)
      return this.check(requirement, "skip", this.blockedByAuth ? "blocked by auth: no session" : "no session", frames);
    return this.check(requirement, status, detail, frames);
  }

  /**
   * Adds a report row with the requirements its checks bear on. Its mark is the
   * worst of the checks that can decide the verdict (MANDATORY, CAPABILITY when
   * advertised), else of its ADVISORY ones; INFORMATIONAL never marks a row.
   */
  push(r: ProbeRow, checks: readonly CheckResult[] = []): ProbeRow {
    const ids = [...new Set(checks.map((c) => c.requirement))];
    if (ids.length) r.requirements = ids;
    const applicable = checks.filter((c) => {
      const req = REQUIREMENTS.get(c.requirement)!;
      return req.tier !== "INFORMATIONAL" && !(req.capability && !this.advertised(req.capability));
    });
    const deciding = applicable.filter((c) => REQUIREMENTS.get(c.requirement)!.tier !== "ADVISORY");
    const counted = deciding.some((c) => c.status !== "skip") ? deciding : applicable;
    if (counted.some((c) => c.status === "fail")) r.conforms = false;
    else if (counted.some((c) => c.status === "pass")) r.conforms = true;
    this.rows.push(r);
    return r;
  }
}
