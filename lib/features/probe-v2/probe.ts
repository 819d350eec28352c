/**
 * The v2 probe: the kit's v2 requirement ids (requirements.ts) checked over fresh connections,
 * one per scenario as the kit isolates them (a batch may crash an agent; a cancelled session
 * must not leak into the next check). Pure: the caller opens the connections (V2Connect).
 */
import { judge, type CheckResult, type Conformance } from "../../contracts/requirements";
import { isObject } from "../../protocol/json";
import { messagesOf, updateOf, withConnection, type Msg, type V2Connect } from "./connection";
import { SESSION_CAPABILITY, V2_ENUMS, V2_REQUIREMENTS } from "./requirements";
import {
  distinctMessageIds,
  enumChecks,
  fail,
  pass,
  patchChecks,
  permissionChecks,
  show,
  skip,
  stateChecks,
} from "./turn-checks";
import { textPrompt, runTurn, type Turn } from "./turn";
import { resumeChecks } from "./resume-checks";
import { initialize, openSession, type Ctx } from "./setup";
import { batchChecks } from "./batch-checks";

export interface V2ProbeOptions {
  /** The absolute directory sessions are opened in. */
  cwd: string;
  /** How long one answer or one turn may take (default 10 s; the kit's --timeout). */
  timeoutMs?: number;
  /** How long silence must last to conclude nothing more comes (default as the kit: timeout/10, 0.5..2 s). */
  quietMs?: number;
  /** What the probe calls itself in initialize. */
  clientInfo?: { name: string; version: string };
}

export interface V2ProbeResult {
  checks: CheckResult[];
  conformance: Conformance;
  /** The initialize result of the first connection. */
  init?: Msg;
  agent?: { name?: string; version?: string };
  /** Why nothing was exercised (no v2 negotiated), when so. */
  mismatch?: string;
}

const RECORD_ONLY: Array<[string, string]> = [
  ["ACP-CANCEL-204", "not observable from a client: nothing on the wire tells 'as soon as possible' from 'eventually'"],
  ["ACP-BATCH-206", "not observable: concurrent and sequential processing of a batch look the same"],
  ["ACP-BATCH-207", "a client cannot make an agent send a batch of its own"],
  ["ACP-BATCH-208", "a property of the sender; the probe never batches lifecycle messages"],
];

const PROMPT = textPrompt("Hello from the ACP Playground probe.");

/** The ordinary turn, then a second prompt on the same session. */
async function turnScenario(ctx: Ctx): Promise<CheckResult[]> {
  return withConnection(ctx.connect, async (conn) => {
    const sessionId = await openSession(ctx, conn);
    if (!sessionId) return [skip("ACP-STATE-201", "session/new failed: no turn to watch")];
    const turn = await runTurn(conn, sessionId, PROMPT, { timeoutMs: ctx.timeoutMs });
    const checks = [
      ...stateChecks(turn, ctx.timeoutMs),
      ...permissionChecks(turn),
      ...patchChecks(turn, sessionId),
      ...enumChecks(turn),
    ];
    if (turn.end !== "idle") return [...checks, skip("ACP-PATCH-203", "the first turn never ended")];
    const second = await runTurn(conn, sessionId, PROMPT, { timeoutMs: ctx.timeoutMs });
    return [...checks, distinctMessageIds(turn, second)];
  });
}

/** ACP-ENUM-203: a `_` permission outcome is survived. */
async function unknownOutcomeScenario(ctx: Ctx): Promise<CheckResult[]> {
  const id = "ACP-ENUM-203";
  return withConnection(ctx.connect, async (conn) => {
    const sessionId = await openSession(ctx, conn);
    if (!sessionId) return [skip(id, "session/new failed")];
    const turn = await runTurn(conn, sessionId, PROMPT, {
      timeoutMs: ctx.timeoutMs,
      permission: () => ({ outcome: { outcome: "_playground/unknown" } }),
    });
    if (!turn.requests.some((r) => r.method === "session/request_permission"))
      return [skip(id, "no permission request during the turn")];
    if (isObject(turn.response?.error) && turn.response.error.code === -32602)
      return [fail(id, "the prompt was answered -32602 after a `_` outcome")];
    if (turn.end !== "idle")
      return [fail(id, `after a \`_\` permission outcome the turn never reached idle (${turn.end})`)];
    return [pass(id, "a `_` permission outcome: the turn still reached idle")];
  });
}

/** Cancel (bare, or with _meta) or close a running turn. */
async function interruptedTurn(
  ctx: Ctx,
  how: "cancel" | "cancel-meta" | "close",
): Promise<{ turn?: Turn; after: Msg[]; sessionId?: string }> {
  return withConnection(ctx.connect, async (conn) => {
    const sessionId = await openSession(ctx, conn);
    if (!sessionId) return { after: [] };
    const turn = await runTurn(conn, sessionId, PROMPT, {
      timeoutMs: ctx.timeoutMs,
      trigger: () => {
        if (how === "close") return conn.request("session/close", { sessionId });
        conn.notify("session/cancel", how === "cancel" ? { sessionId } : { sessionId, _meta: { playground: true } });
        return undefined;
      },
    });
    const after = (await conn.drain(ctx.quietMs)).flatMap(messagesOf);
    return { turn, after, sessionId };
  });
}

/**
 * The kit's race gate: the cancel was never sent, or the turn ended with a defined, non-cancelled
 * stopReason within the quiet period after it (it finished on its own first): not exercised.
 */
function raceSkipped(turn: Turn, quietMs: number): string | undefined {
  if (turn.triggeredAt === undefined) return "the turn ended before the cancel could be sent";
  if (!turn.idle) return undefined;
  const r = turn.stopReason;
  if (r === "cancelled" || typeof r !== "string" || !(V2_ENUMS.stopReason as readonly string[]).includes(r))
    return undefined;
  const ms = turn.idle.at - turn.triggeredAt;
  return ms < quietMs
    ? `the turn ended ${show(r)} ${Math.round(ms)} ms after the cancel: it finished first`
    : undefined;
}

async function cancelScenarios(ctx: Ctx): Promise<CheckResult[]> {
  const out: CheckResult[] = [];
  const bare = await interruptedTurn(ctx, "cancel");
  const { turn } = bare;
  if (!turn) return [skip("ACP-CANCEL-201", "session/new failed")];
  const race = raceSkipped(turn, ctx.quietMs);
  const cancelled = (ids: string[]) =>
    ids.map((id) =>
      race
        ? skip(id, race)
        : !turn.idle
          ? skip(id, `the turn did not end with an idle (${turn.end}): see ACP-CANCEL-203`)
          : turn.stopReason === "cancelled"
            ? pass(id, "the cancel ended the turn: idle, stopReason cancelled")
            : fail(id, `after session/cancel the idle's stopReason is ${show(turn.stopReason)}, not "cancelled"`),
    );
  out.push(...cancelled(["ACP-CANCEL-201", "ACP-CANCEL-207"]));

  // 202: nothing more of this session's state after the cancelled idle.
  if (race || turn.stopReason !== "cancelled") out.push(skip("ACP-CANCEL-202", race ?? "no cancelled idle observed"));
  else {
    const more = bare.after.filter((m) => {
      const u = updateOf(m);
      return u && u.sessionId === bare.sessionId && u.update.sessionUpdate === "state_update";
    });
    out.push(
      more.length
        ? fail("ACP-CANCEL-202", `a state_update after the cancelled idle: ${show(more[0])}`)
        : pass("ACP-CANCEL-202", `no state_update within ${ctx.quietMs} ms of the cancelled idle`),
    );
  }

  // 203: never a generic failure.
  if (race) out.push(skip("ACP-CANCEL-203", race));
  else if (turn.end === "error")
    out.push(fail("ACP-CANCEL-203", `the prompt was answered with an error: ${show(turn.response?.error)}`));
  else if (
    turn.idle &&
    turn.stopReason !== "cancelled" &&
    (V2_ENUMS.stopReason as readonly string[]).includes(String(turn.stopReason))
  )
    out.push(fail("ACP-CANCEL-203", `the cancelled turn ended ${show(turn.stopReason)}`));
  else if (!turn.idle) out.push(fail("ACP-CANCEL-203", `after session/cancel the turn never ended (${turn.end})`));
  else out.push(pass("ACP-CANCEL-203", "no error, no other defined stopReason"));

  // 205: no response to the notification (the prompt's receipt aside).
  if (turn.triggeredAt === undefined) out.push(skip("ACP-CANCEL-205", "the cancel was never sent"));
  else {
    const stray = [...turn.strayResponses, ...bare.after.filter((m) => !("method" in m) && m.id !== turn.promptId)];
    out.push(
      stray.length
        ? fail("ACP-CANCEL-205", `a response the cancel notification got: ${show(stray[0])}`)
        : pass("ACP-CANCEL-205", "the cancel notification got no response"),
    );
  }

  // 206: a cancel with _meta.
  const meta = await interruptedTurn(ctx, "cancel-meta");
  const mt = meta.turn;
  const metaRace = mt ? raceSkipped(mt, ctx.quietMs) : "session/new failed";
  out.push(
    metaRace
      ? skip("ACP-CANCEL-206", metaRace)
      : !mt?.idle
        ? skip("ACP-CANCEL-206", "the turn did not end with an idle: see ACP-CANCEL-203")
        : mt.stopReason === "cancelled"
          ? pass("ACP-CANCEL-206", "a cancel carrying _meta ended the turn cancelled")
          : fail("ACP-CANCEL-206", `after a cancel carrying _meta the stopReason is ${show(mt.stopReason)}`),
  );

  // 208: session/close cancels first.
  const closed = await interruptedTurn(ctx, "close");
  const ct = closed.turn;
  const closeRace = ct ? raceSkipped(ct, ctx.quietMs) : "session/new failed";
  out.push(
    closeRace
      ? skip("ACP-CANCEL-208", closeRace.replace("cancel", "close"))
      : !ct?.idle
        ? skip("ACP-CANCEL-208", `the turn did not end with an idle (${ct?.end})`)
        : ct.stopReason === "cancelled"
          ? pass("ACP-CANCEL-208", "session/close ended the running turn cancelled")
          : fail("ACP-CANCEL-208", `after session/close the running turn ended ${show(ct.stopReason)}`),
  );
  out.push(skip(...RECORD_ONLY[0]!));
  return out;
}

/** Runs every scenario and judges the checks with the kit's tiers. */
export async function runV2Probe(connect: V2Connect, options: V2ProbeOptions): Promise<V2ProbeResult> {
  const timeoutMs = options.timeoutMs ?? 10_000;
  const ctx: Ctx = {
    connect,
    cwd: options.cwd,
    timeoutMs,
    quietMs: options.quietMs ?? Math.max(500, Math.min(2000, timeoutMs / 10)),
    clientInfo: options.clientInfo ?? { name: "acp-playground-probe", version: "1" },
  };
  const first = await withConnection(connect, (conn) => initialize(ctx, conn));
  const advertised = (capability: string) =>
    capability === SESSION_CAPABILITY &&
    isObject(first.init?.capabilities) &&
    isObject(first.init.capabilities.session);
  let checks: CheckResult[];
  if (first.mismatch) {
    checks = V2_REQUIREMENTS.map((r) => skip(r.id, `not exercised: ${first.mismatch}`));
  } else {
    checks = [...(await batchChecks(ctx)), ...RECORD_ONLY.slice(1).map(([id, why]) => skip(id, why))];
    if (advertised(SESSION_CAPABILITY)) {
      checks.push(...(await turnScenario(ctx)));
      checks.push(...(await unknownOutcomeScenario(ctx)));
      checks.push(...(await cancelScenarios(ctx)));
      checks.push(...(await resumeChecks(ctx)));
    } else checks.push(skip(RECORD_ONLY[0]![0], RECORD_ONLY[0]![1]));
  }
  const info = isObject(first.init?.info) ? first.init.info : undefined;
  const judged = judge(V2_REQUIREMENTS, checks, { advertised, blockedByAuth: false });
  return {
    checks,
    // An agent that does not speak v2 is not v2-conformant, whatever was skipped.
    conformance: first.mismatch
      ? { ...judged, verdict: "NOT CONFORMANT", reasons: [`v2 not negotiated: ${first.mismatch}`] }
      : judged,
    ...(first.init ? { init: first.init } : {}),
    ...(info
      ? {
          agent: {
            ...(typeof info.name === "string" ? { name: info.name } : {}),
            ...(typeof info.version === "string" ? { version: info.version } : {}),
          },
        }
      : {}),
    ...(first.mismatch ? { mismatch: first.mismatch } : {}),
  };
}
