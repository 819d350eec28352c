/**
 * The opening steps: initialize (with an unsupported version first, then version 1), the
 * `initialized` notification, and session/new through the one client handshake.
 */
import { authGateChecks } from "./kit-session-steps";
import { CLIENT_INFO } from "../../protocol/client-capabilities";
import { ACP_V1, initializeParams, needsAuth, runHandshake } from "../connect/handshake";
import type { JsonRpcId } from "../../protocol/frame";
import { isObject } from "../../protocol/json";
import { AGENT_METHODS } from "../../protocol/methods";
import { R } from "./requirements";
import { answerOf, errorOf, framesOf, keys, resultOf, row, type Json, type ProbeContext, type Reply } from "./context";
import { STARTUP_ALLOWANCE, ODD_VERSION, ids, modesOf, configOptionsOf, selectValues } from "./shared";

export async function initializeOddVersion(ctx: ProbeContext) {
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

export async function initialize(ctx: ProbeContext) {
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

export async function initializedNotification(ctx: ProbeContext) {
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
 * session/new through the one client handshake (lib/features/connect/handshake.ts), the
 * initialize result given: it authenticates with the chosen method, if any,
 * first (as the kit's --auth-method does). Its calls are watched for the rows.
 */
export async function sessionNew(ctx: ProbeContext) {
  const { authMethod } = ctx.options;
  let created: Reply | undefined;
  let authenticated: Reply | undefined;
  const port = {
    request: async (method: string, params: unknown, options?: { id?: JsonRpcId; timeoutMs?: number }) => {
      const reply = await ctx.request(method, params, options);
      if (method === AGENT_METHODS.session_new) created = reply;
      else if (method === AGENT_METHODS.authenticate) authenticated = reply;
      if (method !== AGENT_METHODS.session_new)
        ctx.push(row(`${method} with ${authMethod ?? "?"} (chosen)`, method, reply, keys));
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
    ctx.check(R.authThenSession, "skip", `no session/new after authenticate: ${String(end.progress.message)}`);
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
    ...authGateChecks(ctx, created, authenticated),
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
