/**
 * Prompt turns: a text turn, a tool call round trip, and a turn cancelled halfway.
 */
import type { Frame } from "../../protocol/frame";
import { promptUpdateChecks } from "./kit-session-steps";
import { isObject } from "../../protocol/json";
import { AGENT_METHODS, CLIENT_METHODS } from "../../protocol/methods";
import { R } from "./requirements";
import {
  answerOf,
  CONVERSATION_UPDATES,
  errorOf,
  framesOf,
  latencyOf,
  messageOf,
  resultOf,
  row,
  type Json,
  type ProbeContext,
} from "./context";
import { STOP_REASONS, IN_FLIGHT_UPDATES, waitQuiet, lateConversation, sid } from "./shared";

export async function promptTurn(ctx: ProbeContext) {
  const start = ctx.lastSeq();
  const turn = await ctx.request(
    AGENT_METHODS.session_prompt,
    { sessionId: sid(ctx), prompt: [{ type: "text", text: "Reply with the single word OK." }] },
    { timeoutMs: ctx.t * 3 },
  );
  const turnFrames = ctx.parsed(start);
  const chunks = ctx.updates(turnFrames).filter((u) => u.update.sessionUpdate === "agent_message_chunk").length;
  // initialize, session/new and this turn are the basic exchange the schema judges (ACP-SCHEMA-001).
  ctx.basicExchangeEnd = turn.frame?.seq ?? ctx.lastSeq();
  const stopReason = resultOf(turn.frame)?.stopReason;
  const stopped = typeof stopReason === "string" && STOP_REASONS.has(stopReason);
  const check = ctx.sessionCheck(
    R.prompt,
    stopped ? "pass" : "fail",
    turn.frame && !errorOf(turn.frame) ? `stopReason ${JSON.stringify(stopReason ?? null)}` : answerOf(turn),
    framesOf(turn),
  );
  ctx.push(
    row(
      "session/prompt (one text block)",
      AGENT_METHODS.session_prompt,
      turn,
      () => `stopReason ${JSON.stringify(stopReason)}, ${chunks} message chunks`,
    ),
    [check, promptUpdateChecks(ctx, turnFrames, turn)],
  );
  const empty =
    !!turn.frame && !errorOf(turn.frame) && chunks === 0 && (stopReason === undefined || stopReason === null);
  ctx.push(
    {
      check: "empty response (no chunks and no stopReason)",
      outcome: "answered",
      detail: empty ? "EMPTY RESPONSE: the turn ended with nothing (an invalid model?)" : "not empty",
    },
    empty
      ? [ctx.sessionCheck(R.prompt, "fail", "empty response: no chunks and no stopReason", framesOf(turn))]
      : [check],
  );
}

/** Agent requests in `frames` with the probe's answer to each, for the report. */
export function answersIn(frames: readonly Frame[]): Array<{ method: string; answer: string; params?: Json }> {
  const requests = new Map<string, Frame>();
  const out: Array<{ method: string; answer: string; params?: Json }> = [];
  for (const f of frames) {
    if (f.dir === "from-agent" && f.kind === "request" && f.method) requests.set(JSON.stringify(f.id), f);
    if (f.dir !== "to-agent" || f.kind !== "response") continue;
    const req = requests.get(JSON.stringify(f.id));
    if (!req) continue;
    const m = messageOf(f);
    const outcome = isObject(m?.result?.outcome) ? m.result.outcome : undefined;
    const answer = m?.error
      ? `error ${m.error.code}: ${String(m.error.message).slice(0, 80)}`
      : outcome
        ? outcome.outcome === "selected"
          ? `selected ${String(outcome.optionId)}`
          : String(outcome.outcome)
        : "answered";
    out.push({ method: req.method!, answer, ...(m?.error ? {} : { params: messageOf(req)?.params }) });
  }
  return out;
}

export async function toolCall(ctx: ProbeContext) {
  const start = ctx.lastSeq();
  const turn = await ctx.request(
    AGENT_METHODS.session_prompt,
    {
      sessionId: sid(ctx),
      prompt: [
        { type: "text", text: "Create a file named probe.txt in the current directory containing the word OK." },
      ],
    },
    { timeoutMs: ctx.t * 3 },
  );
  const frames = ctx.parsed(start);
  const tools = ctx
    .updates(frames)
    .filter((u) => u.update.sessionUpdate === "tool_call" || u.update.sessionUpdate === "tool_call_update");
  const answers = answersIn(frames);
  const finalStatus = tools
    .map((u) => u.update.status)
    .filter((s): s is string => typeof s === "string")
    .at(-1);
  const stopReason = resultOf(turn.frame)?.stopReason;
  const checks = [
    ctx.sessionCheck(
      R.prompt,
      typeof stopReason === "string" && STOP_REASONS.has(stopReason) ? "pass" : "fail",
      `tool turn: ${turn.frame && !errorOf(turn.frame) ? `stopReason ${JSON.stringify(stopReason ?? null)}` : answerOf(turn)}`,
      framesOf(turn),
    ),
  ];
  if (tools.length === 0 && answers.length === 0) {
    checks.push(ctx.sessionCheck(R.toolStatus, "skip", "the agent made no tool call for this prompt", framesOf(turn)));
    ctx.push(
      {
        check: "tool call round trip",
        method: AGENT_METHODS.session_prompt,
        outcome: turn.frame ? "inconclusive" : "timeout",
        detail: turn.frame ? "the agent made no tool call for this prompt" : "no response",
      },
      checks,
    );
    return;
  }
  const ended = finalStatus === "completed" || finalStatus === "failed";
  checks.push(
    ctx.sessionCheck(
      R.toolStatus,
      !!turn.frame && ended ? "pass" : "fail",
      `last tool call status ${JSON.stringify(finalStatus ?? null)}`,
      [...tools.map((u) => u.seq).slice(-1), ...framesOf(turn)],
    ),
  );
  ctx.push(
    {
      check: "tool call round trip",
      method: AGENT_METHODS.session_prompt,
      outcome: turn.frame ? "answered" : "timeout",
      latencyMs: latencyOf(turn),
      detail: [
        `${tools.length} tool call updates`,
        ...answers.map((a) => `${a.method} → ${a.answer}`),
        `last status ${JSON.stringify(finalStatus ?? null)}`,
        `stopReason ${JSON.stringify(stopReason ?? null)}`,
      ]
        .join(", ")
        .slice(0, 300),
    },
    checks,
  );
}

export async function cancel(ctx: ProbeContext) {
  const cancelId = "probe-cancel-turn";
  const turn = ctx.request(
    AGENT_METHODS.session_prompt,
    { sessionId: sid(ctx), prompt: [{ type: "text", text: "Count slowly from 1 to 200, one number per line." }] },
    { timeoutMs: ctx.t * 3, id: cancelId },
  );
  const startSeq = ctx.lastSeq();
  await ctx.waitFor(
    (f) =>
      f.dir === "from-agent" && f.seq > startSeq && (f.method === CLIENT_METHODS.session_update || f.id === cancelId),
    3_000,
  );
  const endedFirst = ctx.driver
    .frames()
    .some((f) => f.dir === "from-agent" && f.kind === "response" && f.id === cancelId && f.seq > startSeq);
  const cancelSeq = ctx.lastSeq();
  ctx.notify(AGENT_METHODS.session_cancel, { sessionId: sid(ctx) });
  const cancelled = await turn;
  const reason = resultOf(cancelled.frame)?.stopReason;
  // The race the kit skips too: a turn that ends normally with at most a few updates (already
  // in the pipe) after the cancel was already ending when it arrived; one that streamed on did not cancel.
  const streamedAfter = cancelled.frame
    ? ctx
        .updates(ctx.parsed(cancelSeq), ctx.sessionId)
        .filter((u) => u.seq < cancelled.frame.seq && CONVERSATION_UPDATES.has(String(u.update.sessionUpdate))).length
    : 0;
  const raced =
    !!cancelled.frame && !errorOf(cancelled.frame) && reason !== "cancelled" && streamedAfter <= IN_FLIGHT_UPDATES;
  const base = row(
    "session/cancel during a turn",
    AGENT_METHODS.session_cancel,
    cancelled,
    () => `turn ended with stopReason ${JSON.stringify(reason)}`,
  );
  delete base.support;
  if (endedFirst || raced) {
    const why = endedFirst
      ? `the turn ended (stopReason ${JSON.stringify(reason ?? null)}) before the cancel was sent`
      : `the turn ended (stopReason ${JSON.stringify(reason ?? null)}) right after the cancel (${streamedAfter} updates between): it was already ending`;
    ctx.push({ ...base, outcome: "inconclusive", detail: why }, [
      ctx.sessionCheck(R.cancel, "skip", `cancellation not exercised: ${why}`, framesOf(cancelled)),
      ctx.sessionCheck(R.cancelNoLateUpdates, "skip", "cancellation not exercised", framesOf(cancelled)),
    ]);
    return;
  }
  const checks = [
    ctx.sessionCheck(
      R.cancel,
      reason === "cancelled" ? "pass" : "fail",
      cancelled.frame && !errorOf(cancelled.frame)
        ? `stopReason ${JSON.stringify(reason ?? null)}`
        : answerOf(cancelled),
      framesOf(cancelled),
    ),
  ];
  if (cancelled.frame && ctx.sessionId) {
    await waitQuiet(ctx);
    const late = lateConversation(ctx, ctx.sessionId, cancelled.frame.seq);
    checks.push(
      ctx.check(
        R.cancelNoLateUpdates,
        late.length ? "fail" : "pass",
        late.length ? `${late.length} content or tool call updates after the response` : "none after the response",
        [...framesOf(cancelled), ...late.map((u) => u.seq)],
      ),
    );
  }
  ctx.push(base, checks);
}
