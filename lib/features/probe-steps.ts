/**
 * The probe as a table of steps, run in order against one fresh agent: each
 * makes its calls, adds the rows the report shows and the checks of the
 * requirements it bears on (lib/features/probe-requirements.ts).
 */
import { CLIENT_INFO, notAdvertised } from "../protocol/client-capabilities";
import { ACP_V1, initializeParams, needsAuth, runHandshake, sessionNewParams } from "./handshake";
import { reduceAllFacts } from "../folds/agent-facts";
import { composeMethods, prefillParams } from "./compose-catalog";
import type { Frame, JsonRpcId } from "../protocol/frame";
import { buildForm } from "./schema-form";
import { isObject } from "../protocol/json";
import type { CheckResult } from "../contracts/requirements";
import { AGENT_METHODS, CLIENT_METHODS, LEGACY_AGENT_METHODS } from "../protocol/methods";
import { R, UNSTABLE_CAPABILITIES, unstableId } from "./probe-requirements";
import {
  answerOf,
  CONVERSATION_UPDATES,
  errorOf,
  framesOf,
  keys,
  latencyOf,
  messageOf,
  resultOf,
  row,
  type Json,
  type ProbeContext,
  type Reply,
} from "./probe-context";

export interface ProbeStep {
  name: string;
  run(ctx: ProbeContext): Promise<void>;
}

/** How many per-call timeouts the first request may take: it includes the agent's start-up. */
export const STARTUP_ALLOWANCE = 6;

/** An unknown protocol version: the agent must answer with one it supports. */
const ODD_VERSION = 999;
const STOP_REASONS = new Set(["end_turn", "max_tokens", "max_turn_requests", "refusal", "cancelled"]);
/** Updates that may already be on their way when a cancel arrives. */
const IN_FLIGHT_UPDATES = 3;
/** How long the probe listens after a response for updates that should have come before it. */
const QUIET_MS = 300;

const SET_MODEL = LEGACY_AGENT_METHODS.session_set_model;

const ids = (list: unknown, key: string): string[] =>
  (Array.isArray(list) ? list : [])
    .map((m) => (isObject(m) ? m[key] : undefined))
    .filter((id): id is string => typeof id === "string");

const modesOf = (ctx: ProbeContext) => (isObject(ctx.session?.modes) ? ctx.session.modes : {});
const modelsOf = (ctx: ProbeContext) => (isObject(ctx.session?.models) ? ctx.session.models : {});
const configOptionsOf = (ctx: ProbeContext): Json[] =>
  (Array.isArray(ctx.session?.configOptions) ? ctx.session.configOptions : []).filter(isObject);

/** A select option's values, flat or grouped. */
const selectValues = (option: Json): string[] =>
  (Array.isArray(option.options) ? option.options : []).flatMap((o) =>
    isObject(o) && Array.isArray(o.options)
      ? ids(o.options, "value")
      : isObject(o) && typeof o.value === "string"
        ? [o.value]
        : [],
  );

const waitQuiet = (ctx: ProbeContext) => ctx.waitFor(() => false, QUIET_MS).then(() => undefined);

/** Conversation updates for `sessionId` after `seq` (what should have come before a response). */
const lateConversation = (ctx: ProbeContext, sessionId: string, seq: number) =>
  ctx.updates(ctx.parsed(seq), sessionId).filter((u) => CONVERSATION_UPDATES.has(String(u.update.sessionUpdate)));

/** A plain call whose only check is that it succeeds: pass on a result, fail on an error or silence. */
function succeeds(ctx: ProbeContext, requirement: string, reply: Reply, what: string): CheckResult {
  const err = errorOf(reply.frame);
  return ctx.sessionCheck(
    requirement,
    reply.frame && !err ? "pass" : "fail",
    reply.frame && !err ? `${what}: answered` : `${what}: ${answerOf(reply)}`,
    framesOf(reply),
  );
}

/** Params for `method`, built from the schema and what the agent reported, `fallback` on top. */
function paramsFor(ctx: ProbeContext, method: string, fallback: Json): unknown {
  const defs = ctx.options.defs;
  const spec = defs ? composeMethods(defs, [method], [])[0] : undefined;
  if (!spec || !defs) return fallback;
  const built = prefillParams(method, buildForm(defs, spec.def), reduceAllFacts(ctx.parsed()), {
    cwd: ctx.options.cwd,
    protocolVersion: ACP_V1,
  });
  return isObject(built) ? { ...built, ...fallback } : fallback;
}

const sid = (ctx: ProbeContext) => ctx.sessionId ?? "no-session";

async function initializeOddVersion(ctx: ProbeContext) {
  // The first answer also waits for the agent to start (Qwen Code takes 7-15 s on a loaded 2-core machine).
  const odd = await ctx.request(
    AGENT_METHODS.initialize,
    // v2's `info` beside v1's fields, as the kit sends: a router agent reads 999 as "v2 or later".
    { protocolVersion: ODD_VERSION, clientCapabilities: {}, clientInfo: CLIENT_INFO, info: CLIENT_INFO },
    { timeoutMs: ctx.t * STARTUP_ALLOWANCE },
  );
  ctx.oddInit = odd;
  // Judged in the next step, against the version the agent answers for 1.
  ctx.push(
    row(
      `initialize with unsupported protocolVersion ${ODD_VERSION}`,
      AGENT_METHODS.initialize,
      odd,
      (r) => `answered with protocolVersion ${JSON.stringify(r?.protocolVersion)}`,
    ),
  );
}

async function initialize(ctx: ProbeContext) {
  const { options } = ctx;
  ctx.clientCapabilities = {
    ...(options.clientCapabilities ?? { fs: { readTextFile: false, writeTextFile: false } }),
    // Terminals off: not advertised, so any terminal request is refused (server/agents/agent-answerer.ts).
    terminal: ctx.terminals.on,
  };
  const init = await ctx.request(
    AGENT_METHODS.initialize,
    initializeParams({ protocolVersion: ACP_V1, clientCapabilities: ctx.clientCapabilities }),
  );
  const result = resultOf(init.frame);
  ctx.init = result;
  const version = result?.protocolVersion;
  const frames = framesOf(init);
  const checks = [
    ctx.check(
      R.initialize,
      Number.isInteger(version) ? "pass" : "fail",
      Number.isInteger(version)
        ? `protocolVersion ${String(version)}`
        : `${answerOf(init)}, protocolVersion ${JSON.stringify(version)}`,
      frames,
    ),
    ctx.check(
      R.initVersion1,
      version === 1 ? "pass" : "fail",
      `asked for 1, answered ${JSON.stringify(version)}`,
      frames,
    ),
  ];
  const odd = ctx.oddInit!;
  const oddVersion = resultOf(odd.frame)?.protocolVersion;
  const oddOk =
    !errorOf(odd.frame) &&
    Number.isInteger(oddVersion) &&
    oddVersion !== ODD_VERSION &&
    (!Number.isInteger(version) || (oddVersion as number) >= (version as number));
  const oddCheck = ctx.check(
    R.initUnsupported,
    oddOk ? "pass" : "fail",
    odd.frame && !errorOf(odd.frame)
      ? `asked for ${ODD_VERSION}, answered ${JSON.stringify(oddVersion)}`
      : `asked for ${ODD_VERSION}: ${answerOf(odd)}`,
    framesOf(odd),
  );
  // The odd initialize's row is judged now.
  const oddRow = ctx.rows.find((r) => r.check.startsWith(`initialize with unsupported`));
  if (oddRow) {
    ctx.rows.splice(ctx.rows.indexOf(oddRow), 1);
    ctx.push(oddRow, [oddCheck]);
  }
  const info = isObject(result?.agentInfo) ? result.agentInfo : undefined;
  const named = typeof info?.name === "string" && typeof info.version === "string";
  if (init.frame && !errorOf(init.frame))
    checks.push(
      ctx.check(
        R.agentInfo,
        named ? "pass" : "fail",
        named
          ? `agentInfo ${String(info.name)} ${String(info.version)}`
          : info
            ? "agentInfo without a name or version"
            : "no agentInfo",
        frames,
      ),
    );
  ctx.push(
    row(
      "initialize with protocolVersion 1",
      AGENT_METHODS.initialize,
      init,
      (r) =>
        `protocolVersion ${JSON.stringify(r?.protocolVersion)}, agent ${JSON.stringify((r?.agentInfo as Json | undefined)?.name ?? "?")}`,
    ),
    checks,
  );
}

async function initializedNotification(ctx: ProbeContext) {
  const before = ctx.lastSeq();
  ctx.notify("initialized", {});
  const complaint = await ctx.waitFor((f) => f.dir === "from-agent" && f.kind === "response" && f.id === null, 1_000);
  const check = ctx.check(
    R.notificationSilence,
    complaint ? "fail" : "pass",
    complaint ? "answered the `initialized` notification" : "`initialized` ignored",
    complaint ? [complaint.seq] : [],
  );
  ctx.push(
    {
      check: "`initialized` notification (not in ACP v1)",
      method: "initialized",
      outcome: complaint ? "error" : "no reply",
      detail: complaint
        ? `answered a notification with an error: ${JSON.stringify(errorOf(complaint))}`
        : `ignored (${ctx.parsed(before).length} frames)`,
    },
    [check],
  );
}

/**
 * session/new through the one client handshake (lib/features/handshake.ts), the
 * initialize result given: it authenticates with the chosen method, if any,
 * first (as the kit's --auth-method does). Its calls are watched for the rows.
 */
async function sessionNew(ctx: ProbeContext) {
  const { authMethod } = ctx.options;
  let created: Reply | undefined;
  const port = {
    request: async (method: string, params: unknown, options?: { id?: JsonRpcId; timeoutMs?: number }) => {
      const reply = await ctx.request(method, params, options);
      if (method === AGENT_METHODS.session_new) created = reply;
      else ctx.push(row(`${method} with ${authMethod ?? "?"} (chosen)`, method, reply, keys));
      return reply;
    },
  };
  const end = await runHandshake(
    {
      port,
      ...(authMethod
        ? { chooseAuth: () => Promise.resolve({ type: AGENT_METHODS.authenticate, methodId: authMethod }) }
        : {}),
    },
    {
      cwd: ctx.options.cwd,
      clientCapabilities: ctx.clientCapabilities,
      initialized: ctx.init ?? {},
      authenticateFirst: !!authMethod,
      timeouts: { authenticate: ctx.t, [AGENT_METHODS.session_new]: ctx.t },
    },
  );
  if (!created) {
    // Stopped before session/new (the chosen method failed or is not listed).
    ctx.push(
      {
        check: "session/new (cwd, no MCP servers)",
        method: AGENT_METHODS.session_new,
        outcome: "skipped",
        detail: String(end.progress.message),
      },
      [ctx.check(R.sessionNew, "fail", `not sent: ${String(end.progress.message)}`)],
    );
    return;
  }
  const session = resultOf(created.frame);
  const err = errorOf(created.frame);
  const authMethods = Array.isArray(ctx.init?.authMethods) ? ctx.init.authMethods : [];
  // Gated behind authentication, and no method was chosen: what needs a session is blocked, not failed.
  ctx.blockedByAuth =
    !!err &&
    !authMethod &&
    authMethods.length > 0 &&
    needsAuth({ code: Number(err.code), message: String(err.message) });
  if (typeof session?.sessionId === "string") {
    ctx.session = session;
    ctx.sessionId = session.sessionId;
    ctx.sessionIds.push(session.sessionId);
  }
  const frames = framesOf(created);
  const checks = [
    ctx.blockedByAuth
      ? ctx.check(R.sessionNew, "skip", `blocked by auth: ${answerOf(created)}`, frames)
      : ctx.check(
          R.sessionNew,
          ctx.sessionId ? "pass" : "fail",
          ctx.sessionId ? "sessionId given" : `no sessionId: ${answerOf(created)}`,
          frames,
        ),
  ];
  if (ctx.sessionId) {
    const modes = modesOf(ctx);
    const available = ids(modes.availableModes, "id");
    if (ctx.advertised("inferred:modes"))
      checks.push(
        ctx.check(
          R.modesValid,
          typeof modes.currentModeId === "string" && available.includes(modes.currentModeId) ? "pass" : "fail",
          `currentModeId ${JSON.stringify(modes.currentModeId)} among ${available.join(", ") || "no modes"}`,
          frames,
        ),
      );
    const options = configOptionsOf(ctx);
    if (options.length) {
      const invalid = options.filter((o) =>
        o.type === "boolean" ? typeof o.currentValue !== "boolean" : !selectValues(o).includes(String(o.currentValue)),
      );
      checks.push(
        ctx.check(
          R.configValid,
          invalid.length ? "fail" : "pass",
          invalid.length
            ? `currentValue not among its values: ${invalid.map((o) => String(o.id)).join(", ")}`
            : `${options.length} options`,
          frames,
        ),
      );
    }
    const booleanAllowed =
      isObject(ctx.clientCapabilities.session) && ctx.clientCapabilities.session.configOptions !== undefined;
    const booleans = options.filter((o) => o.type === "boolean");
    checks.push(
      ctx.check(
        R.configBoolean,
        booleans.length && !booleanAllowed ? "fail" : "pass",
        booleans.length ? `boolean options: ${booleans.map((o) => String(o.id)).join(", ")}` : "no boolean option",
        frames,
      ),
    );
  }
  ctx.push(
    row(
      "session/new (cwd, no MCP servers)",
      AGENT_METHODS.session_new,
      created,
      (r) => `sessionId ${typeof r?.sessionId === "string" ? "given" : "missing"}, ${keys(r)}`,
    ),
    checks,
  );
}

async function promptTurn(ctx: ProbeContext) {
  const start = ctx.lastSeq();
  const turn = await ctx.request(
    AGENT_METHODS.session_prompt,
    { sessionId: sid(ctx), prompt: [{ type: "text", text: "Reply with the single word OK." }] },
    { timeoutMs: ctx.t * 3 },
  );
  const chunks = ctx.updates(ctx.parsed(start)).filter((u) => u.update.sessionUpdate === "agent_message_chunk").length;
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
    [check],
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

async function toolCall(ctx: ProbeContext) {
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

async function authenticateUnknown(ctx: ProbeContext) {
  const reply = await ctx.request(AGENT_METHODS.authenticate, { methodId: "acp-playground-probe-no-such-method" });
  ctx.push(row("authenticate with an unknown methodId", AGENT_METHODS.authenticate, reply, keys), [
    ctx.check(R.authUnknown, reply.frame ? "pass" : "fail", answerOf(reply), framesOf(reply)),
  ]);
}

async function sessionList(ctx: ProbeContext) {
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

async function sessionLoad(ctx: ProbeContext) {
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
  }
  ctx.push(row("session/load of the probe's session", method, reply, keys), checks);
}

async function sessionResume(ctx: ProbeContext) {
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

/**
 * Switches to another advertised value and back (setting the current one proves
 * nothing: Gemini refuses `autoEdit` in an untrusted folder, which only a real
 * switch shows). Tries the others in order until one is accepted.
 */
async function switchAndBack(
  ctx: ProbeContext,
  current: string,
  others: readonly string[],
  call: (value: string) => Promise<Reply>,
): Promise<{ to?: string; there?: Reply; back?: Reply; refused: Array<{ value: string; reply: Reply }> }> {
  const refused: Array<{ value: string; reply: Reply }> = [];
  for (const value of others) {
    const there = await call(value);
    if (!there.frame || errorOf(there.frame)) {
      refused.push({ value, reply: there });
      continue;
    }
    return { to: value, there, back: await call(current), refused };
  }
  return { refused };
}

const refusals = (refused: Array<{ value: string; reply: Reply }>) =>
  refused.map((r) => `${r.value} refused (${answerOf(r.reply)})`);

async function setMode(ctx: ProbeContext) {
  const method = AGENT_METHODS.session_set_mode;
  const modes = modesOf(ctx);
  const available = ids(modes.availableModes, "id");
  const current = typeof modes.currentModeId === "string" ? modes.currentModeId : available[0];
  if (!current) {
    ctx.push({ check: method, method, outcome: "not applicable", detail: "the agent listed no modes" });
    return;
  }
  const others = available.filter((m) => m !== current);
  if (!others.length) {
    // Nothing to switch to: the current one at least must be accepted.
    const same = await ctx.request(method, { sessionId: sid(ctx), modeId: current });
    ctx.push(row(`session/set_mode to the current mode (the only one)`, method, same, keys), [
      ctx.sessionCheck(R.modeSwitch, "skip", `only one mode listed (${current})`, framesOf(same)),
    ]);
    return;
  }
  const r = await switchAndBack(ctx, current, others, (modeId) => ctx.request(method, { sessionId: sid(ctx), modeId }));
  const ok = !!r.back?.frame && !errorOf(r.back.frame);
  const detail = [
    ...refusals(r.refused),
    ...(r.to
      ? [`${current} → ${r.to} accepted`, `back to ${current} ${ok ? "accepted" : `: ${answerOf(r.back!)}`}`]
      : []),
  ].join(", ");
  const frames = [
    ...r.refused.flatMap((x) => framesOf(x.reply)),
    ...(r.there ? framesOf(r.there) : []),
    ...(r.back ? framesOf(r.back) : []),
  ];
  const shown = r.there ?? r.refused.at(-1)!.reply;
  ctx.push({ ...row(`session/set_mode to another mode and back`, method, shown, keys), detail: detail.slice(0, 300) }, [
    ctx.sessionCheck(R.modeSwitch, r.to && ok ? "pass" : "fail", detail, frames),
  ]);
}

async function setModel(ctx: ProbeContext) {
  const models = modelsOf(ctx);
  const available = ids(models.availableModels, "modelId");
  const current = typeof models.currentModelId === "string" ? models.currentModelId : available[0];
  if (!current) {
    ctx.push({
      check: `${SET_MODEL} (removed from the spec)`,
      method: SET_MODEL,
      outcome: "not applicable",
      detail: "the agent listed no models",
    });
    return;
  }
  const others = available.filter((m) => m !== current);
  const call = (modelId: string) => ctx.request(SET_MODEL, { sessionId: sid(ctx), modelId });
  if (!others.length) {
    const same = await call(current);
    ctx.push(row(`${SET_MODEL} (removed from the spec) to the current model`, SET_MODEL, same, keys), [
      ctx.sessionCheck(R.setModel, "skip", `only one model listed (${current}); ${answerOf(same)}`, framesOf(same)),
    ]);
    return;
  }
  const r = await switchAndBack(ctx, current, others, call);
  const detail = [
    ...refusals(r.refused),
    ...(r.to ? [`${current} → ${r.to} → ${current}: ${answerOf(r.back!)}`] : []),
  ].join(", ");
  const shown = r.there ?? r.refused.at(-1)!.reply;
  ctx.push(
    {
      ...row(`${SET_MODEL} (removed from the spec) to another model and back`, SET_MODEL, shown, keys),
      detail: detail.slice(0, 300),
    },
    [
      ctx.sessionCheck(R.setModel, "pass", detail, [
        ...(r.there ? framesOf(r.there) : []),
        ...(r.back ? framesOf(r.back) : []),
      ]),
    ],
  );
}

async function setConfigOption(ctx: ProbeContext) {
  const method = AGENT_METHODS.session_set_config_option;
  const options = configOptionsOf(ctx);
  if (!options.length) {
    ctx.push({ check: method, method, outcome: "not applicable", detail: "the agent listed no config options" });
    return;
  }
  const target = options.find((o) => o.type !== "boolean" && selectValues(o).some((v) => v !== o.currentValue));
  if (!target) {
    ctx.push({ check: method, method, outcome: "not applicable", detail: "no select option with another value" }, [
      ctx.sessionCheck(R.configSwitch, "skip", "no select option with another value"),
    ]);
    return;
  }
  const configId = String(target.id);
  const current = String(target.currentValue);
  const others = selectValues(target).filter((v) => v !== current);
  const call = (value: string) => ctx.request(method, paramsFor(ctx, method, { sessionId: sid(ctx), configId, value }));
  const r = await switchAndBack(ctx, current, others, call);
  let status: "pass" | "fail" = "fail";
  const notes = refusals(r.refused);
  if (r.there) {
    const list = (
      Array.isArray(resultOf(r.there.frame)?.configOptions) ? resultOf(r.there.frame)!.configOptions : []
    ) as unknown[];
    const answered = list.filter(isObject);
    const missing = options.map((o) => String(o.id)).filter((id) => !answered.some((o) => o.id === id));
    const applied = answered.find((o) => o.id === configId)?.currentValue === r.to;
    const backOk = !!r.back?.frame && !errorOf(r.back.frame);
    status = !missing.length && applied && backOk ? "pass" : "fail";
    notes.push(
      `${configId}: ${current} → ${r.to}`,
      missing.length ? `answer lacks ${missing.join(", ")}` : "complete list answered",
      applied ? "new value applied" : "new value not in the answer",
      `back ${backOk ? "accepted" : answerOf(r.back!)}`,
    );
  }
  const detail = notes.join(", ");
  const shown = r.there ?? r.refused.at(-1)!.reply;
  ctx.push({ ...row(`${method} to another value and back`, method, shown, keys), detail: detail.slice(0, 300) }, [
    ctx.sessionCheck(R.configSwitch, status, detail, [
      ...r.refused.flatMap((x) => framesOf(x.reply)),
      ...(r.there ? framesOf(r.there) : []),
      ...(r.back ? framesOf(r.back) : []),
    ]),
  ]);
}

async function logout(ctx: ProbeContext) {
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

async function unstableMethods(ctx: ProbeContext) {
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

async function unknownMethod(ctx: ProbeContext) {
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

async function unknownNotification(ctx: ProbeContext) {
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

async function malformedLine(ctx: ProbeContext) {
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

/** A session/new answered again: its sessionId must be one not answered before (none when it named none). */
function newSession(ctx: ProbeContext, reply: Reply): CheckResult[] {
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

async function stringId(ctx: ProbeContext) {
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

async function inFlight(ctx: ProbeContext) {
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

async function cancel(ctx: ProbeContext) {
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

async function closeAndDelete(ctx: ProbeContext) {
  for (const [method, requirement] of [
    [AGENT_METHODS.session_close, R.close],
    [AGENT_METHODS.session_delete, R.delete],
  ] as const) {
    const reply = await ctx.request(method, { sessionId: sid(ctx) });
    ctx.push(row(method, method, reply, keys), [succeeds(ctx, requirement, reply, method)]);
  }
}

/** Allowed root keys of the result `method` answers, from the schema (undefined: no schema for it). */
function resultKeys(ctx: ProbeContext, method: string): Set<string> | undefined {
  const defs = ctx.options.defs;
  if (!defs) return undefined;
  const entry = Object.entries(defs).find(
    ([name, d]) => name.endsWith("Response") && isObject(d) && d["x-method"] === method,
  );
  if (!entry) return undefined;
  const out = new Set<string>();
  const visit = (d: unknown, depth: number) => {
    if (!isObject(d) || depth > 8) return;
    if (isObject(d.properties)) for (const k of Object.keys(d.properties)) out.add(k);
    if (typeof d.$ref === "string") visit(defs[d.$ref.replace("#/$defs/", "")], depth + 1);
    for (const k of ["allOf", "anyOf", "oneOf"])
      if (Array.isArray(d[k])) for (const x of d[k] as unknown[]) visit(x, depth + 1);
  };
  visit(entry[1], 0);
  return out;
}

/** Checks over every frame of the run: framing, response shape, capabilities used, root fields. */
async function wholeRun(ctx: ProbeContext) {
  const all = ctx.parsed();
  const fromAgent = all.filter((f) => f.dir === "from-agent");
  const invalid = fromAgent.filter((f) => f.kind === "invalid");
  ctx.check(
    R.transportLines,
    invalid.length ? "fail" : "pass",
    invalid.length
      ? `${invalid.length} lines that are not JSON-RPC (${invalid[0]!.error ?? "invalid"})`
      : `${fromAgent.length} lines, all JSON-RPC`,
    invalid.map((f) => f.seq).slice(0, 20),
  );
  const badShape = fromAgent.filter((f) => {
    if (f.kind !== "response") return false;
    const m = messageOf(f) as Json | undefined;
    if (!m) return false;
    if ("result" in m === "error" in m) return true;
    const e = m.error;
    return "error" in m && !(isObject(e) && Number.isInteger(e.code) && typeof e.message === "string");
  });
  ctx.check(
    R.responseShape,
    badShape.length ? "fail" : "pass",
    badShape.length
      ? `${badShape.length} malformed responses`
      : "every response has one of result or error, errors with code and message",
    badShape.map((f) => f.seq).slice(0, 20),
  );
  const agentRequests = fromAgent.filter((f) => f.kind === "request" && f.method);
  const unadvertised = (prefix: string) =>
    agentRequests.filter(
      (f) => f.method!.startsWith(prefix) && notAdvertised(f.method!, ctx.clientCapabilities) !== undefined,
    );
  for (const [requirement, prefix] of [
    [R.clientFs, "fs/"],
    [R.clientTerminal, "terminal/"],
  ] as const) {
    const bad = unadvertised(prefix);
    ctx.check(
      requirement,
      bad.length ? "fail" : "pass",
      bad.length
        ? `${bad.length} requests not advertised: ${[...new Set(bad.map((f) => f.method))].join(", ")}`
        : `no ${prefix}* request beyond what was advertised`,
      bad.map((f) => f.seq).slice(0, 20),
    );
  }
  const elicit =
    ctx.clientCapabilities.elicitation === undefined
      ? agentRequests.filter((f) => f.method === CLIENT_METHODS.elicitation_create)
      : [];
  ctx.check(
    R.clientElicitation,
    elicit.length ? "fail" : "pass",
    elicit.length
      ? `${elicit.length} elicitation/create without the capability`
      : "no elicitation beyond what was advertised",
    elicit.map((f) => f.seq),
  );
  const extra: Array<{ seq: number; method: string; keys: string[] }> = [];
  for (const f of fromAgent) {
    if (f.kind !== "response" || !f.method) continue;
    const result = resultOf(f);
    const allowed = resultKeys(ctx, f.method);
    if (!allowed || !isObject(result)) continue;
    const unknown = Object.keys(result).filter((k) => !allowed.has(k));
    if (unknown.length) extra.push({ seq: f.seq, method: f.method, keys: unknown });
  }
  if (ctx.options.defs)
    ctx.check(
      R.rootFields,
      extra.length ? "fail" : "pass",
      extra.length
        ? [...new Map(extra.map((e) => [`${e.method}: ${e.keys.join(", ")}`, e])).keys()].join("; ").slice(0, 300)
        : "no custom root fields in results",
      extra.map((e) => e.seq).slice(0, 20),
    );
  await Promise.resolve();
}

/** The steps in order; the session is closed and deleted last. */
export const STEPS: readonly ProbeStep[] = [
  { name: "initialize with an unsupported version", run: initializeOddVersion },
  { name: "initialize", run: initialize },
  { name: "`initialized` notification", run: initializedNotification },
  { name: "session/new", run: sessionNew },
  { name: "prompt turn", run: promptTurn },
  { name: "tool call", run: toolCall },
  { name: "authenticate with an unknown method", run: authenticateUnknown },
  { name: "session/list", run: sessionList },
  { name: "session/load", run: sessionLoad },
  { name: "session/resume", run: sessionResume },
  { name: "session/set_mode", run: setMode },
  { name: "session/set_model", run: setModel },
  { name: "session/set_config_option", run: setConfigOption },
  { name: "logout", run: logout },
  { name: "unstable methods", run: unstableMethods },
  { name: "unknown method", run: unknownMethod },
  { name: "unknown notification", run: unknownNotification },
  { name: "malformed line", run: malformedLine },
  { name: "string id", run: stringId },
  { name: "two requests in flight", run: inFlight },
  { name: "session/cancel", run: cancel },
  { name: "session/close and session/delete", run: closeAndDelete },
  { name: "the whole run", run: wholeRun },
];
