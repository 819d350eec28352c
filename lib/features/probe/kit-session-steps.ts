/**
 * Steps for the kit's session and prompt requirements the probe took up last
 * (lib/features/probe/kit-requirements.ts): auth listings, a session never prompted,
 * extra roots, list filters, prompt content kinds, a close during a turn, an unknown delete.
 */
import type { CheckResult } from "../../contracts/requirements";
import type { Frame } from "../../protocol/frame";
import { isObject } from "../../protocol/json";
import { AGENT_METHODS, CLIENT_METHODS } from "../../protocol/methods";
import { needsAuth } from "../connect/handshake";
import { R } from "./requirements";
import {
  answerOf,
  CONVERSATION_UPDATES,
  errorOf,
  framesOf,
  keys,
  messageOf,
  probeDirectory,
  resultOf,
  row,
  type Json,
  type ProbeContext,
  type Reply,
} from "./context";
import { IN_FLIGHT_UPDATES, newSession, paramsFor, sid, STOP_REASONS } from "./shared";

const newParams = (ctx: ProbeContext, extra: Json = {}) => ({ cwd: ctx.options.cwd, mcpServers: [], ...extra });

/** What initialize lists: auth method ids unique, no terminal method unless the client advertised auth.terminal. */
export async function authMethodsListed(ctx: ProbeContext) {
  const methods = (Array.isArray(ctx.init?.authMethods) ? ctx.init.authMethods : []).filter(isObject);
  const ids = methods.map((m) => m.id);
  const twice = ids.filter((id, i) => ids.indexOf(id) !== i);
  const auth = isObject(ctx.clientCapabilities.auth) ? ctx.clientCapabilities.auth : {};
  const terminal = auth.terminal === true ? [] : methods.filter((m) => m.type === "terminal");
  const checks = [
    ctx.check(
      R.authIdsUnique,
      twice.length ? "fail" : "pass",
      twice.length ? `ids listed twice: ${twice.map(String).join(", ")}` : `${ids.length} auth methods, ids distinct`,
    ),
    ctx.check(
      R.authTerminal,
      terminal.length ? "fail" : "pass",
      terminal.length
        ? `terminal auth methods without auth.terminal: ${terminal.map((m) => String(m.id)).join(", ")}`
        : "no terminal auth method beyond what was advertised",
    ),
  ];
  ctx.push(
    {
      check: "authMethods listed by initialize",
      outcome: "answered",
      detail:
        methods.map((m) => `${String(m.id)} (${typeof m.type === "string" ? m.type : "agent"})`).join(", ") || "none",
    },
    checks,
  );
  await Promise.resolve();
}

/**
 * Whether session/new is gated as it may be: not at all when no auth method is listed; not
 * after a successful authenticate with the chosen method (run only with one chosen).
 */
export function authGateChecks(ctx: ProbeContext, created: Reply, authenticate: Reply | undefined): CheckResult[] {
  const err = errorOf(created.frame);
  const refused = err?.code === -32000;
  const listed = Array.isArray(ctx.init?.authMethods) && ctx.init.authMethods.length > 0;
  const frames = framesOf(created);
  const checks: CheckResult[] = [];
  if (listed) ctx.check(R.noAuthNoGate, "skip", "auth methods listed: the rule is for an agent that lists none");
  else
    checks.push(
      ctx.check(
        R.noAuthNoGate,
        refused ? "fail" : "pass",
        refused ? `no auth method listed, yet ${answerOf(created)}` : "no auth method listed, session/new not gated",
        frames,
      ),
    );
  if (!ctx.options.authMethod) ctx.check(R.authThenSession, "skip", "no auth method chosen (--auth-method)");
  else if (!authenticate?.frame || !isObject(resultOf(authenticate.frame)))
    ctx.check(
      R.authThenSession,
      "skip",
      `authenticate did not succeed: ${authenticate ? answerOf(authenticate) : "not sent"}`,
    );
  else
    checks.push(
      ctx.check(
        R.authThenSession,
        refused || (err && needsAuth({ code: Number(err.code), message: String(err.message) })) ? "fail" : "pass",
        `after authenticate: session/new ${answerOf(created)}`,
        [...framesOf(authenticate), ...frames],
      ),
    );
  return checks;
}

/** Updates of a turn: each valid by the schema and naming the session prompted. */
export function promptUpdateChecks(ctx: ProbeContext, frames: readonly Frame[], turn: Reply): CheckResult {
  const updates = frames.filter(
    (f) =>
      f.dir === "from-agent" && f.method === CLIENT_METHODS.session_update && (!turn.frame || f.seq < turn.frame.seq),
  );
  const bad: Array<{ seq: number; why: string }> = [];
  for (const f of updates) {
    const named = messageOf(f)?.params?.sessionId;
    if (named !== ctx.sessionId) bad.push({ seq: f.seq, why: `sessionId ${JSON.stringify(named)}` });
    const issues = ctx.options.schemas?.check(f)?.issues ?? [];
    if (issues.length)
      bad.push({ seq: f.seq, why: issues.map((i) => `${i.path || "value"}: ${i.message}`).join("; ") });
  }
  return ctx.sessionCheck(
    R.promptUpdates,
    bad.length ? "fail" : "pass",
    bad.length
      ? `${bad.length} bad updates: ${bad[0]!.why}`.slice(0, 300)
      : `${updates.length} updates, all valid and for this session${ctx.options.schemas ? "" : " (no schema given)"}`,
    bad.map((b) => b.seq).slice(0, 20),
  );
}

/**
 * A session never prompted, resumed and loaded (the kit's way: Qwen Code answers both -32023
 * for a session with no turn yet, which resuming the prompted session alone never shows).
 */
export async function unpromptedSession(ctx: ProbeContext) {
  if (!ctx.sessionId) return;
  const created = await ctx.request(AGENT_METHODS.session_new, newParams(ctx));
  const checks = newSession(ctx, created);
  const fresh = resultOf(created.frame)?.sessionId;
  if (typeof fresh !== "string") {
    ctx.push(row("a session never prompted", AGENT_METHODS.session_new, created, keys), checks);
    return;
  }
  const resume = await ctx.request(
    AGENT_METHODS.session_resume,
    paramsFor(ctx, AGENT_METHODS.session_resume, { sessionId: fresh, cwd: ctx.options.cwd }),
  );
  checks.push(
    ctx.check(
      R.resume,
      resume.frame && !errorOf(resume.frame) ? "pass" : "fail",
      `session/resume of a session never prompted: ${answerOf(resume)}`,
      framesOf(resume),
    ),
  );
  const load = await ctx.request(AGENT_METHODS.session_load, {
    sessionId: fresh,
    cwd: ctx.options.cwd,
    mcpServers: [],
  });
  const loaded = messageOf(load.frame);
  const object = !!loaded && !loaded.error && isObject(loaded.result);
  checks.push(
    ctx.check(
      R.loadObject,
      object ? "pass" : "fail",
      loaded && !loaded.error
        ? `session/load of a session never prompted answered ${object ? "an object" : JSON.stringify(loaded.result ?? null)}`
        : `session/load of a session never prompted: ${answerOf(load)}`,
      framesOf(load),
    ),
  );
  ctx.push(
    {
      check: "session/resume and session/load of a session never prompted",
      method: AGENT_METHODS.session_resume,
      outcome: resume.frame ? (errorOf(resume.frame) ? "error" : "answered") : "timeout",
      detail: `resume: ${answerOf(resume)}; load: ${answerOf(load)}`,
    },
    checks,
  );
}

/** session/new with an extra root, when the agent advertises additionalDirectories. */
export async function additionalDirectories(ctx: ProbeContext) {
  if (!ctx.sessionId || !ctx.advertised("agentCapabilities.sessionCapabilities.additionalDirectories")) return;
  const reply = await ctx.request(
    AGENT_METHODS.session_new,
    newParams(ctx, { additionalDirectories: [probeDirectory(ctx.options.cwd, "extra")] }),
  );
  const ok = typeof resultOf(reply.frame)?.sessionId === "string";
  ctx.push(row("session/new with an additional directory", AGENT_METHODS.session_new, reply, keys), [
    ctx.check(R.additionalDirs, ok ? "pass" : "fail", answerOf(reply), framesOf(reply)),
    ...newSession(ctx, reply),
  ]);
}

/** session/list filtered by a directory no session uses: an empty array. */
export async function listUnmatched(ctx: ProbeContext) {
  const reply = await ctx.request(AGENT_METHODS.session_list, { cwd: probeDirectory(ctx.options.cwd, "empty") });
  const sessions = resultOf(reply.frame)?.sessions;
  const empty = Array.isArray(sessions) && sessions.length === 0;
  ctx.push(row("session/list of a directory no session uses", AGENT_METHODS.session_list, reply, keys), [
    ctx.check(
      R.listUnmatched,
      empty ? "pass" : "fail",
      reply.frame && !errorOf(reply.frame)
        ? `sessions ${JSON.stringify(sessions ?? null).slice(0, 120)}`
        : answerOf(reply),
      framesOf(reply),
    ),
  ]);
}

/** A 1×1 PNG and a short silent WAV: the smallest content of each kind. */
const PNG = "iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mP8z8DwHwAFBQIAX8jx0gAAAABJRU5ErkJggg==";
const WAV = "UklGRiQAAABXQVZFZm10IBAAAAABAAEAQB8AAEAfAAABAAgAZGF0YQAAAAA=";

/** Prompts with each content kind beside text (the kit's), and one carrying _meta. */
export async function promptContent(ctx: ProbeContext) {
  if (!ctx.sessionId) return;
  const text = { type: "text", text: "Reply with the single word OK." };
  const cap = (name: string) => `agentCapabilities.promptCapabilities.${name}`;
  const kinds: Array<{ requirement: string; what: string; block?: Json; meta?: Json; capability?: string }> = [
    {
      requirement: R.resourceLink,
      what: "a resource_link block",
      block: {
        type: "resource_link",
        uri: `file://${probeDirectory(ctx.options.cwd, "extra")}/note.txt`,
        name: "note.txt",
      },
    },
    {
      requirement: R.image,
      what: "an image block",
      block: { type: "image", data: PNG, mimeType: "image/png" },
      capability: cap("image"),
    },
    {
      requirement: R.audio,
      what: "an audio block",
      block: { type: "audio", data: WAV, mimeType: "audio/wav" },
      capability: cap("audio"),
    },
    {
      requirement: R.embedded,
      what: "an embedded resource",
      block: { type: "resource", resource: { uri: "file:///probe/note.txt", mimeType: "text/plain", text: "A note." } },
      capability: cap("embeddedContext"),
    },
    {
      requirement: R.meta,
      what: "_meta (a traceparent)",
      meta: { traceparent: "00-0af7651916cd43dd8448eb211c80319c-b7ad6b7169203331-01", acpPlayground: true },
    },
  ];
  for (const kind of kinds) {
    // Not advertised: "not applicable" whatever it would answer, so it is not sent.
    if (kind.capability && !ctx.advertised(kind.capability)) continue;
    const turn = await ctx.request(
      AGENT_METHODS.session_prompt,
      {
        sessionId: sid(ctx),
        prompt: kind.block ? [text, kind.block] : [text],
        ...(kind.meta ? { _meta: kind.meta } : {}),
      },
      { timeoutMs: ctx.t * 3 },
    );
    const stopReason = resultOf(turn.frame)?.stopReason;
    const stopped = typeof stopReason === "string" && STOP_REASONS.has(stopReason);
    ctx.push(
      row(
        `session/prompt with ${kind.what}`,
        AGENT_METHODS.session_prompt,
        turn,
        () => `stopReason ${JSON.stringify(stopReason)}`,
      ),
      [
        ctx.sessionCheck(
          kind.requirement,
          stopped ? "pass" : "fail",
          turn.frame && !errorOf(turn.frame) ? `stopReason ${JSON.stringify(stopReason ?? null)}` : answerOf(turn),
          framesOf(turn),
        ),
      ],
    );
  }
}

/** A session/update of this session that is the conversation itself (the agent is in the turn). */
function streamsConversation(f: Frame, sessionId: string): boolean {
  if (f.method !== CLIENT_METHODS.session_update || !isObject(f.message)) return false;
  const params = f.message.params;
  if (!isObject(params) || params.sessionId !== sessionId || !isObject(params.update)) return false;
  return CONVERSATION_UPDATES.has(String(params.update.sessionUpdate));
}

/** session/close during a turn, in a session of its own: the turn must end cancelled. */
export async function closeInFlight(ctx: ProbeContext) {
  if (!ctx.sessionId || !ctx.advertised("agentCapabilities.sessionCapabilities.close")) return;
  const created = await ctx.request(AGENT_METHODS.session_new, newParams(ctx));
  const sessionId = resultOf(created.frame)?.sessionId;
  const checks = newSession(ctx, created);
  if (typeof sessionId !== "string") {
    ctx.push(row("session/close during a turn", AGENT_METHODS.session_new, created, keys), [
      ...checks,
      ctx.check(R.closeInFlight, "skip", `no session to close: ${answerOf(created)}`, framesOf(created)),
    ]);
    return;
  }
  const turnId = "probe-close-turn";
  const startSeq = ctx.lastSeq();
  const turn = ctx.request(
    AGENT_METHODS.session_prompt,
    { sessionId, prompt: [{ type: "text", text: "Count slowly from 1 to 200, one number per line." }] },
    { timeoutMs: ctx.t * 3, id: turnId },
  );
  await ctx.waitFor(
    (f) => f.dir === "from-agent" && f.seq > startSeq && (f.id === turnId || streamsConversation(f, sessionId)),
    // Until the turn streams (or a whole call's time): a close sent before the agent is in the turn tests nothing.
    // Not any update: Claude's adapter sends its commands after session/new, before the turn has begun, and a
    // close at that moment fails the prompt with -32603 (a race of the probe's, not the agent's conformance).
    ctx.t,
  );
  const endedFirst = ctx.driver
    .frames()
    .some((f) => f.dir === "from-agent" && f.kind === "response" && f.id === turnId && f.seq > startSeq);
  const closeSeq = ctx.lastSeq();
  const [close, ended] = await Promise.all([ctx.request(AGENT_METHODS.session_close, { sessionId }), turn]);
  const reason = resultOf(ended.frame)?.stopReason;
  const streamedAfter = ended.frame
    ? ctx
        .updates(ctx.parsed(closeSeq), sessionId)
        .filter((u) => u.seq < ended.frame.seq && CONVERSATION_UPDATES.has(String(u.update.sessionUpdate))).length
    : 0;
  const frames = [...framesOf(close), ...framesOf(ended)];
  let check: CheckResult;
  if (endedFirst)
    check = ctx.check(R.closeInFlight, "skip", "not exercised: the turn ended before the close was sent", frames);
  else if (!close.frame || errorOf(close.frame))
    check = ctx.check(
      R.closeInFlight,
      "skip",
      `session/close did not succeed (ACP-CLOSE-001's finding): ${answerOf(close)}`,
      frames,
    );
  else if (ended.frame && !errorOf(ended.frame) && reason !== "cancelled" && streamedAfter <= IN_FLIGHT_UPDATES)
    check = ctx.check(
      R.closeInFlight,
      "skip",
      `not exercised: the turn ended ${JSON.stringify(reason ?? null)} right after the close`,
      frames,
    );
  else
    check = ctx.check(
      R.closeInFlight,
      reason === "cancelled" ? "pass" : "fail",
      ended.frame && !errorOf(ended.frame)
        ? `turn ended with stopReason ${JSON.stringify(reason ?? null)}`
        : `turn: ${answerOf(ended)}`,
      frames,
    );
  ctx.push(
    {
      check: "session/close during a turn",
      method: AGENT_METHODS.session_close,
      outcome: check.status === "skip" ? "inconclusive" : "answered",
      detail: check.detail,
    },
    [...checks, check],
  );
}

/** session/delete of a sessionId never created: SHOULD succeed silently. */
export async function deleteUnknown(ctx: ProbeContext) {
  if (!ctx.advertised("agentCapabilities.sessionCapabilities.delete")) return;
  const reply = await ctx.request(AGENT_METHODS.session_delete, { sessionId: "acp-playground-never-created" });
  ctx.push(row("session/delete of a session never created", AGENT_METHODS.session_delete, reply, keys), [
    ctx.check(
      R.deleteUnknown,
      reply.frame && !errorOf(reply.frame) ? "pass" : "fail",
      answerOf(reply),
      framesOf(reply),
    ),
  ]);
}
