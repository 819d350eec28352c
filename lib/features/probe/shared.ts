/**
 * What the probe's steps share: limits, the session's modes and options, and small checks.
 */
import { ACP_V1 } from "../connect/handshake";
import { reduceAllFacts } from "../../folds/agent-facts";
import { composeMethods, prefillParams } from "../compose/catalog";
import { buildForm } from "../compose/schema-form";
import { isObject } from "../../protocol/json";
import type { CheckResult } from "../../contracts/requirements";
import { LEGACY_AGENT_METHODS } from "../../protocol/methods";
import { R } from "./requirements";
import {
  answerOf,
  CONVERSATION_UPDATES,
  errorOf,
  framesOf,
  resultOf,
  type Json,
  type ProbeContext,
  type Reply,
} from "./context";

export interface ProbeStep {
  name: string;
  run(ctx: ProbeContext): Promise<void>;
}

/** How many per-call timeouts the first request may take: it includes the agent's start-up. */
export const STARTUP_ALLOWANCE = 6;

/** An unknown protocol version: the agent must answer with one it supports. */
export const ODD_VERSION = 999;

export const STOP_REASONS = new Set(["end_turn", "max_tokens", "max_turn_requests", "refusal", "cancelled"]);

/** Updates that may already be on their way when a cancel arrives. */
export const IN_FLIGHT_UPDATES = 3;

/** How long the probe listens after a response for updates that should have come before it. */
export const QUIET_MS = 300;

export const SET_MODEL = LEGACY_AGENT_METHODS.session_set_model;

export const ids = (list: unknown, key: string): string[] =>
  (Array.isArray(list) ? list : [])
    .map((m) => (isObject(m) ? m[key] : undefined))
    .filter((id): id is string => typeof id === "string");

export const modesOf = (ctx: ProbeContext) => (isObject(ctx.session?.modes) ? ctx.session.modes : {});

export const modelsOf = (ctx: ProbeContext) => (isObject(ctx.session?.models) ? ctx.session.models : {});

export const configOptionsOf = (ctx: ProbeContext): Json[] =>
  (Array.isArray(ctx.session?.configOptions) ? ctx.session.configOptions : []).filter(isObject);

/** A select option's values, flat or grouped. */
export const selectValues = (option: Json): string[] =>
  (Array.isArray(option.options) ? option.options : []).flatMap((o) =>
    isObject(o) && Array.isArray(o.options)
      ? ids(o.options, "value")
      : isObject(o) && typeof o.value === "string"
        ? [o.value]
        : [],
  );

export const waitQuiet = (ctx: ProbeContext) => ctx.waitFor(() => false, QUIET_MS).then(() => undefined);

/** Conversation updates for `sessionId` after `seq` (what should have come before a response). */
export const lateConversation = (ctx: ProbeContext, sessionId: string, seq: number) =>
  ctx.updates(ctx.parsed(seq), sessionId).filter((u) => CONVERSATION_UPDATES.has(String(u.update.sessionUpdate)));

/** A plain call whose only check is that it succeeds: pass on a result, fail on an error or silence. */
export function succeeds(ctx: ProbeContext, requirement: string, reply: Reply, what: string): CheckResult {
  const err = errorOf(reply.frame);
  return ctx.sessionCheck(
    requirement,
    reply.frame && !err ? "pass" : "fail",
    reply.frame && !err ? `${what}: answered` : `${what}: ${answerOf(reply)}`,
    framesOf(reply),
  );
}

/** Params for `method`, built from the schema and what the agent reported, `fallback` on top. */
export function paramsFor(ctx: ProbeContext, method: string, fallback: Json): unknown {
  const defs = ctx.options.defs;
  const spec = defs ? composeMethods(defs, [method], [])[0] : undefined;
  if (!spec || !defs) return fallback;
  const built = prefillParams(method, buildForm(defs, spec.def), reduceAllFacts(ctx.parsed()), {
    cwd: ctx.options.cwd,
    protocolVersion: ACP_V1,
  });
  return isObject(built) ? { ...built, ...fallback } : fallback;
}

export const sid = (ctx: ProbeContext) => ctx.sessionId ?? "no-session";

/** A session/new answered again: its sessionId must be one not answered before (none when it named none). */
export function newSession(ctx: ProbeContext, reply: Reply): CheckResult[] {
  const other = resultOf(reply.frame)?.sessionId;
  if (typeof other !== "string" || !ctx.sessionId) return [];
  const again = ctx.sessionIds.includes(other);
  ctx.sessionIds.push(other);
  return [
    ctx.check(
      R.sessionIdsDistinct,
      again ? "fail" : "pass",
      again ? `sessionId ${other} answered twice` : "a new sessionId",
      framesOf(reply),
    ),
  ];
}
