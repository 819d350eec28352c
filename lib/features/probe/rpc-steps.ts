/**
 * JSON-RPC itself: unknown methods and notifications, a malformed line, a string id, two
 * requests in flight.
 */
import { sessionNewParams } from "../connect/handshake";
import { AGENT_METHODS } from "../../protocol/methods";
import { R } from "./requirements";
import { newSession } from "./shared";
import { answerOf, errorOf, framesOf, keys, messageOf, row, type ProbeContext } from "./context";

export async function unknownMethod(ctx: ProbeContext) {
  const reply = await ctx.request("acp_playground/no_such_method", {});
  const code = errorOf(reply.frame)?.code;
  ctx.push(row("unknown method", "acp_playground/no_such_method", reply, keys), [
    ctx.check(R.unknownMethod, code === -32601 ? "pass" : "fail", answerOf(reply), framesOf(reply)),
  ]);
  const ext = await ctx.request("_acp_playground/no_such_method", {});
  ctx.push(row("unknown `_` extension method", "_acp_playground/no_such_method", ext, keys), [
    ctx.check(R.extRequest, ext.frame ? "pass" : "fail", answerOf(ext), framesOf(ext)),
  ]);
}

export async function unknownNotification(ctx: ProbeContext) {
  const before = ctx.lastSeq();
  ctx.notify("acp_playground/no_such_notification", {});
  const noisy = await ctx.waitFor((f) => f.dir === "from-agent" && f.seq > before && f.kind === "response", 500);
  ctx.push(
    {
      check: "unknown notification",
      method: "acp_playground/no_such_notification",
      outcome: noisy ? "error" : "no reply",
      detail: noisy ? "answered a notification" : "ignored",
    },
    [
      ctx.check(
        R.notificationSilence,
        noisy ? "fail" : "pass",
        noisy ? "answered an unknown notification" : "unknown notification ignored",
        noisy ? [noisy.seq] : [],
      ),
    ],
  );
}

export async function malformedLine(ctx: ProbeContext) {
  ctx.driver.raw("{this is not json");
  // The line has no id to echo, so the answer to it carries none (or null).
  const parseError = await ctx.waitFor((f) => {
    if (f.dir !== "from-agent") return false;
    const m = messageOf(f);
    return m?.error?.code === -32700 && (m.id === undefined || m.id === null);
  }, 1_500);
  // Still usable afterwards? (session/new: every agent has it)
  const after = await ctx.request(AGENT_METHODS.session_new, sessionNewParams(ctx.options.cwd));
  const usable = after.frame ? "the connection stays usable" : "no answer to the next request";
  const detail = parseError
    ? `answered -32700 Parse error; ${usable}`
    : `silent (ACP v1 requires no answer); ${usable}`;
  ctx.push(
    {
      check: "malformed line",
      outcome: parseError ? "error" : "no reply",
      detail: parseError ? "answered -32700 Parse error" : "no -32700 response (ACP v1 requires none)",
    },
    [ctx.check(R.parseError, "pass", detail, [...(parseError ? [parseError.seq] : []), ...framesOf(after)])],
  );
}

export async function stringId(ctx: ProbeContext) {
  const reply = await ctx.request(
    AGENT_METHODS.session_new,
    { cwd: ctx.options.cwd, mcpServers: [] },
    { id: "probe-string-id" },
  );
  const checks = [
    ctx.check(
      R.idEcho,
      reply.frame?.id === "probe-string-id" ? "pass" : "fail",
      reply.frame ? `response id ${JSON.stringify(reply.frame.id)}` : "no response",
      framesOf(reply),
    ),
  ];
  checks.push(...newSession(ctx, reply));
  ctx.push(
    {
      ...row("request with a string id", AGENT_METHODS.session_new, reply, keys),
      detail: reply.frame ? `response id ${JSON.stringify(reply.frame.id)}` : "no response",
    },
    checks,
  );
}

export async function inFlight(ctx: ProbeContext) {
  const [a, b] = await Promise.all([
    ctx.request(AGENT_METHODS.session_list, {}),
    ctx.request(AGENT_METHODS.session_new, { cwd: ctx.options.cwd, mcpServers: [] }),
  ]);
  const checks = [
    ctx.check(
      R.everyRequestAnswered,
      a.frame && b.frame ? "pass" : "fail",
      `session/list ${a.frame ? "answered" : "missing"}, session/new ${b.frame ? "answered" : "missing"}`,
      [...framesOf(a), ...framesOf(b)],
    ),
  ];
  checks.push(...newSession(ctx, b));
  ctx.push(
    {
      check: "two requests in flight at once",
      outcome: a.frame && b.frame ? "answered" : "timeout",
      detail: `session/list ${a.frame ? "answered" : "missing"}, session/new ${b.frame ? "answered" : "missing"}`,
    },
    checks,
  );
}
