/**
 * What one ordinary v2 turn shows, judged by the kit's v2 requirement ids (acp-tck v2
 * test_prompt.py, test_patches.py, test_enums.py, test_permission.py): pure functions of a Turn.
 */
import type { CheckResult } from "../../contracts/requirements";
import { isObject } from "../../protocol/json";
import type { Msg } from "./connection";
import { openEnumOk, V2_ENUMS } from "./requirements";
import type { Turn } from "./turn";

const pass = (requirement: string, detail: string): CheckResult => ({ requirement, status: "pass", detail });
const fail = (requirement: string, detail: string): CheckResult => ({ requirement, status: "fail", detail });
const skip = (requirement: string, detail: string): CheckResult => ({ requirement, status: "skip", detail });

const show = (v: unknown) => JSON.stringify(v)?.slice(0, 120) ?? String(v);
const nonEmpty = (v: unknown): v is string => typeof v === "string" && v.length > 0;

/** Many offending values become one check: the first few named. */
function verdict(id: string, seen: number, bad: string[], what: string, none: string): CheckResult {
  if (seen === 0) return skip(id, none);
  if (bad.length) return fail(id, `${bad.slice(0, 3).join("; ")}${bad.length > 3 ? ` (+${bad.length - 3} more)` : ""}`);
  return pass(id, `${seen} ${what}`);
}

/** The turn's own updates (of the prompted session). */
const own = (turn: Turn, sessionId: string) =>
  turn.updates.filter((u) => u.sessionId === sessionId).map((u) => u.update);

/** ACP-STATE-201..203: running, then an idle with a valid stopReason. */
export function stateChecks(turn: Turn, timeoutMs: number): CheckResult[] {
  const stopReason = turn.stopReason;
  const out: CheckResult[] = [];
  if (!turn.idle || stopReason == null) out.push(skip("ACP-STATE-201", "no turn-ending idle observed"));
  else if (turn.running) out.push(pass("ACP-STATE-201", "state running came before the turn-ending idle"));
  else out.push(fail("ACP-STATE-201", `an idle with stopReason ${show(stopReason)} but no state running before it`));
  if (!turn.running) {
    out.push(skip("ACP-STATE-202", "no foreground work observed (no state running)"));
    out.push(skip("ACP-STATE-203", "no foreground work observed (no state running)"));
    return out;
  }
  out.push(
    turn.idle
      ? pass("ACP-STATE-202", "idle followed running")
      : fail("ACP-STATE-202", `no idle state_update within ${timeoutMs} ms of running (turn ended: ${turn.end})`),
  );
  if (!turn.idle) out.push(skip("ACP-STATE-203", "no idle ended the turn"));
  else if (openEnumOk(stopReason, V2_ENUMS.stopReason))
    out.push(pass("ACP-STATE-203", `stopReason ${show(stopReason)}`));
  else
    out.push(fail("ACP-STATE-203", `the ending idle's stopReason is ${show(stopReason)}: neither defined nor \`_\``));
  return out;
}

/** ACP-PERM-201: the permission requests' shape, and the turn still reaching idle. */
export function permissionChecks(turn: Turn): CheckResult[] {
  const asked = turn.requests.filter((r) => r.method === "session/request_permission");
  if (!asked.length) return [skip("ACP-PERM-201", "no permission request during the turn")];
  const bad: string[] = [];
  for (const r of asked) {
    const p: Msg = isObject(r.params) ? r.params : {};
    if (!nonEmpty(p.sessionId)) bad.push("no sessionId");
    if (!nonEmpty(p.title)) bad.push(`title ${show(p.title)}: a non-empty string is required`);
    if (!Array.isArray(p.options) || !p.options.length)
      bad.push(`options ${show(p.options)}: a non-empty array is required`);
    else
      for (const o of p.options)
        for (const f of ["optionId", "name", "kind"])
          if (!isObject(o) || !nonEmpty(o[f])) bad.push(`an option without ${f}: ${show(o)}`);
  }
  if (!turn.idle) bad.push(`answered, the turn never reached idle (${turn.end})`);
  return [verdict("ACP-PERM-201", asked.length, bad, "permission request(s) well formed, the turn reached idle", "")];
}

const MESSAGE_KINDS = [
  "user_message",
  "user_message_chunk",
  "agent_message",
  "agent_message_chunk",
  "agent_thought",
  "agent_thought_chunk",
];

/** ACP-PATCH-201, 204..209: the upsert keys and their rules. */
export function patchChecks(turn: Turn, sessionId: string): CheckResult[] {
  const updates = turn.updates.map((u) => u.update);
  const of = (kind: string) => updates.filter((u) => u.sessionUpdate === kind);
  const out: CheckResult[] = [];

  const messages = updates.filter((u) => MESSAGE_KINDS.includes(String(u.sessionUpdate)));
  out.push(
    verdict(
      "ACP-PATCH-201",
      messages.length,
      messages.filter((u) => !nonEmpty(u.messageId)).map((u) => `${show(u.sessionUpdate)} without a messageId`),
      "message update(s) carry a messageId",
      "no message update during the turn",
    ),
  );

  const tools = of("tool_call_update");
  const chunks = of("tool_call_content_chunk");
  out.push(
    verdict(
      "ACP-PATCH-204",
      tools.length + chunks.length,
      [
        ...tools.filter((u) => !nonEmpty(u.toolCallId)).map(() => "a tool_call_update without a toolCallId"),
        ...chunks.filter((u) => !nonEmpty(u.toolCallId)).map(() => "a tool_call_content_chunk without a toolCallId"),
        ...chunks.filter((u) => u.content == null).map(() => "a tool_call_content_chunk without content"),
      ],
      "tool call update(s) keyed by toolCallId",
      "no tool_call_update or tool_call_content_chunk during the turn",
    ),
  );

  const plans = of("plan_update");
  out.push(
    verdict(
      "ACP-PATCH-205",
      plans.length,
      plans
        .filter((u) => !isObject(u.plan) || !nonEmpty(u.plan.planId))
        .map((u) => `a plan without planId: ${show(u.plan)}`),
      "plan update(s) carry a planId",
      "no plan_update during the turn",
    ),
  );

  const terminals = of("terminal_update");
  const cwdOf = new Map<string, string>();
  const badCwd: string[] = [];
  for (const u of terminals) {
    if (!nonEmpty(u.terminalId)) badCwd.push("a terminal_update without a terminalId");
    if (u.cwd == null) continue;
    // Absolute on POSIX or Windows (the agent's machine may be either).
    if (typeof u.cwd !== "string" || !/^(\/|[A-Za-z]:[\\/]|\\\\)/.test(u.cwd))
      badCwd.push(`terminal_update.cwd ${show(u.cwd)} is not absolute`);
    else if (nonEmpty(u.terminalId)) {
      const first = cwdOf.get(u.terminalId);
      if (first === undefined) cwdOf.set(u.terminalId, u.cwd);
      else if (first !== u.cwd) badCwd.push(`terminal ${u.terminalId} seen with cwd ${show(first)} and ${show(u.cwd)}`);
    }
  }
  out.push(
    verdict("ACP-PATCH-206", terminals.length, badCwd, "terminal update(s)", "no terminal_update during the turn"),
  );

  const data = [
    ...of("terminal_output_chunk").map((u) => u.data),
    ...terminals.filter((u) => isObject(u.output)).map((u) => (u.output as Msg).data),
  ];
  out.push(
    verdict(
      "ACP-PATCH-207",
      data.length,
      data.filter((d) => !isBase64(d)).map((d) => `${show(d)} is not standalone base64`),
      "terminal output(s) decode as base64",
      "no terminal output during the turn",
    ),
  );

  const firstSeen = new Set<string>();
  const names = new Map<string, unknown>();
  const badTitle: string[] = [];
  for (const u of tools) {
    if (!nonEmpty(u.toolCallId)) continue;
    if (!firstSeen.has(u.toolCallId)) {
      firstSeen.add(u.toolCallId);
      if (!nonEmpty(u.title)) badTitle.push(`the first update of ${u.toolCallId} has no title`);
    }
    if (u.name == null) continue;
    const before = names.get(u.toolCallId);
    if (before !== undefined && before !== u.name)
      badTitle.push(`${u.toolCallId}'s name changed from ${show(before)} to ${show(u.name)}`);
    else names.set(u.toolCallId, u.name);
  }
  out.push(
    verdict("ACP-PATCH-208", tools.length, badTitle, "tool call update(s)", "no tool_call_update during the turn"),
  );

  out.push(requiresActionCheck(turn, own(turn, sessionId)));
  return out;
}

function requiresActionCheck(turn: Turn, updates: Msg[]): CheckResult {
  const id = "ACP-PATCH-209";
  if (!turn.requests.some((r) => r.method === "session/request_permission"))
    return skip(id, "no permission request during the turn");
  const states = updates.filter((u) => u.sessionUpdate === "state_update").map((u) => u.state);
  const last = states.lastIndexOf("requires_action");
  if (last < 0) return fail(id, `a permission request, but no state requires_action (states: ${show(states)})`);
  if (turn.stopReason === "refusal" || turn.stopReason === "cancelled")
    return skip(id, `the turn ended ${show(turn.stopReason)}: it never resumed`);
  if (!states.slice(last + 1).includes("running"))
    return fail(id, `no state running after requires_action (states: ${show(states)})`);
  return pass(id, "requires_action while asking, running again after");
}

/** Values seen at open-enum sites, and those neither defined nor `_`. */
function sites() {
  const s = { seen: 0, bad: [] as string[] };
  const at = (where: string, value: unknown, defined: readonly string[]) => {
    s.seen++;
    if (!openEnumOk(value, defined)) s.bad.push(`${where} ${show(value)}`);
  };
  return { s, at };
}

/** ACP-ENUM-201/202: values at open-enum sites are defined or `_`. */
export function enumChecks(turn: Turn): CheckResult[] {
  const updates = turn.updates.map((u) => u.update);
  const e201 = sites();
  const e202 = sites();
  for (const u of updates) {
    if (u.sessionUpdate === "tool_call_update") {
      if (u.kind != null) e201.at("tool_call_update.kind", u.kind, V2_ENUMS.toolKind);
      if (u.status != null) e201.at("tool_call_update.status", u.status, V2_ENUMS.toolCallStatus);
    }
    if (u.sessionUpdate === "plan_update" && isObject(u.plan) && Array.isArray(u.plan.entries))
      for (const e of u.plan.entries.filter(isObject)) {
        if ("priority" in e) e201.at("plan entry priority", e.priority, V2_ENUMS.planEntryPriority);
        if ("status" in e) e201.at("plan entry status", e.status, V2_ENUMS.planEntryStatus);
      }
    if (u.sessionUpdate == null) continue;
    e202.at("sessionUpdate", u.sessionUpdate, V2_ENUMS.sessionUpdate);
    if (u.sessionUpdate === "state_update" && "state" in u) e202.at("state", u.state, V2_ENUMS.state);
    if (u.sessionUpdate === "tool_call_update" || u.sessionUpdate === "tool_call_content_chunk") {
      const blocks = Array.isArray(u.content) ? u.content : [];
      for (const b of blocks.filter(isObject))
        if ("type" in b) e202.at("tool call content type", b.type, V2_ENUMS.toolCallContent);
    }
  }
  return [
    verdict(
      "ACP-ENUM-201",
      e201.s.seen,
      e201.s.bad,
      "value(s) defined or `_`",
      "no tool kind/status or plan entry priority/status",
    ),
    verdict("ACP-ENUM-202", e202.s.seen, e202.s.bad, "value(s) defined or `_`", "no session/update during the turn"),
  ];
}

/** ACP-PATCH-203: two prompts, two messageIds. */
export function distinctMessageIds(first: Turn, second: Turn): CheckResult {
  const id = "ACP-PATCH-203";
  if (!nonEmpty(first.messageId) || !nonEmpty(second.messageId))
    return fail(
      id,
      `a session/prompt response without a messageId (${show(first.response)}, ${show(second.response)})`,
    );
  if (first.messageId === second.messageId) return fail(id, `both prompts got messageId ${show(first.messageId)}`);
  return pass(id, "two prompts, two messageIds");
}

/** Standalone RFC 4648 base64 (padding included), as Python's b64decode(validate=True) reads it. */
export function isBase64(value: unknown): boolean {
  return typeof value === "string" && value.length % 4 === 0 && /^[A-Za-z0-9+/]*={0,2}$/.test(value);
}

export { pass, fail, skip, show };
