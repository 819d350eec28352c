/**
 * The session methods beside the turn: authenticate, list, load, resume, logout, the unstable
 * methods, close and delete.
 */
import { AGENT_METHODS } from "../../protocol/methods";
import { R, UNSTABLE_CAPABILITIES, unstableId } from "./requirements";
import { answerOf, errorOf, framesOf, keys, resultOf, row, type ProbeContext } from "./context";
import { waitQuiet, lateConversation, succeeds, paramsFor, sid } from "./shared";

export async function authenticateUnknown(ctx: ProbeContext) {
  const reply = await ctx.request(AGENT_METHODS.authenticate, { methodId: "acp-playground-probe-no-such-method" });
  ctx.push(row("authenticate with an unknown methodId", AGENT_METHODS.authenticate, reply, keys), [
    ctx.check(R.authUnknown, reply.frame ? "pass" : "fail", answerOf(reply), framesOf(reply)),
  ]);
}

export async function sessionList(ctx: ProbeContext) {
  const reply = await ctx.request(AGENT_METHODS.session_list, {});
  const sessions = resultOf(reply.frame)?.sessions;
  ctx.push(row(AGENT_METHODS.session_list, AGENT_METHODS.session_list, reply, keys), [
    ctx.check(
      R.list,
      Array.isArray(sessions) ? "pass" : "fail",
      Array.isArray(sessions)
        ? `${sessions.length} sessions`
        : reply.frame && !errorOf(reply.frame)
          ? "no sessions array"
          : answerOf(reply),
      framesOf(reply),
    ),
  ]);
}

export async function sessionLoad(ctx: ProbeContext) {
  const start = ctx.lastSeq();
  const method = AGENT_METHODS.session_load;
  const reply = await ctx.request(
    method,
    paramsFor(ctx, method, { sessionId: sid(ctx), cwd: ctx.options.cwd, mcpServers: [] }),
  );
  const checks = [succeeds(ctx, R.load, reply, "session/load of the session just used")];
  if (reply.frame && !errorOf(reply.frame) && ctx.sessionId) {
    await waitQuiet(ctx);
    const before = ctx.updates(ctx.parsed(start), ctx.sessionId).filter((u) => u.seq < reply.frame.seq);
    const late = lateConversation(ctx, ctx.sessionId, reply.frame.seq);
    checks.push(
      ctx.check(
        R.loadReplayFirst,
        late.length ? "fail" : "pass",
        late.length
          ? `${late.length} conversation updates after the response (${late.map((u) => String(u.update.sessionUpdate)).join(", ")})`
          : `${before.length} updates replayed before the response, no conversation update after it`,
        [...framesOf(reply), ...late.map((u) => u.seq)],
      ),
    );
  } else if (ctx.sessionId)
    // "MUST replay the entire conversation": a load that fails replays none of it (the kit fails it too).
    checks.push(
      ctx.check(R.loadReplayFirst, "fail", `nothing replayed: session/load ${answerOf(reply)}`, framesOf(reply)),
    );
  ctx.push(row("session/load of the probe's session", method, reply, keys), checks);
}

export async function sessionResume(ctx: ProbeContext) {
  const start = ctx.lastSeq();
  const method = AGENT_METHODS.session_resume;
  const reply = await ctx.request(
    method,
    paramsFor(ctx, method, { sessionId: sid(ctx), cwd: ctx.options.cwd, mcpServers: [] }),
  );
  const checks = [succeeds(ctx, R.resume, reply, "session/resume of the session just used")];
  if (reply.frame && !errorOf(reply.frame) && ctx.sessionId) {
    const history = ctx
      .updates(ctx.parsed(start), ctx.sessionId)
      .filter(
        (u) =>
          u.seq < reply.frame.seq &&
          /^(user|agent)_message_chunk$|^agent_thought_chunk$/.test(String(u.update.sessionUpdate)),
      );
    checks.push(
      ctx.check(
        R.resumeNoReplay,
        history.length ? "fail" : "pass",
        history.length ? `${history.length} history updates before the response` : "no history replayed",
        [...framesOf(reply), ...history.map((u) => u.seq)],
      ),
    );
  }
  ctx.push(row("session/resume of the probe's session", method, reply, keys), checks);
}

export async function logout(ctx: ProbeContext) {
  const method = AGENT_METHODS.logout;
  if (!ctx.options.includeLogout) {
    ctx.push(
      {
        check: method,
        method,
        outcome: "skipped",
        detail: "skipped: it may sign the user out (--include-logout to run it)",
      },
      [ctx.check(R.logout, "skip", "not run: it may sign the user out (--include-logout)")],
    );
    return;
  }
  const reply = await ctx.request(method, {});
  ctx.push(row(method, method, reply, keys), [
    ctx.check(R.logout, reply.frame && !errorOf(reply.frame) ? "pass" : "fail", answerOf(reply), framesOf(reply)),
  ]);
}

export async function unstableMethods(ctx: ProbeContext) {
  // close and delete come last: they end the session.
  for (const method of Object.keys(UNSTABLE_CAPABILITIES)) {
    const params = paramsFor(
      ctx,
      method,
      method === AGENT_METHODS.session_fork ? { sessionId: sid(ctx), cwd: ctx.options.cwd } : { sessionId: sid(ctx) },
    );
    const reply = await ctx.request(method, params);
    const err = errorOf(reply.frame);
    // Params built from the schema may not fit what this agent holds: -32602 proves nothing either way.
    const status = reply.frame && !err ? "pass" : err?.code === -32602 ? "skip" : "fail";
    ctx.push(row(`${method} (unstable)`, method, reply, keys), [
      ctx.check(unstableId(method), status, answerOf(reply), framesOf(reply)),
    ]);
  }
}

export async function closeAndDelete(ctx: ProbeContext) {
  for (const [method, requirement] of [
    [AGENT_METHODS.session_close, R.close],
    [AGENT_METHODS.session_delete, R.delete],
  ] as const) {
    const reply = await ctx.request(method, { sessionId: sid(ctx) });
    ctx.push(row(method, method, reply, keys), [succeeds(ctx, requirement, reply, method)]);
  }
}
