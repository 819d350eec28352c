/**
 * The probe's steps for an agent that speaks Codex's app-server protocol (docs/app-server.md), run
 * in order against one fresh server as lib/features/probe/steps.ts's are for ACP: each makes its
 * calls, adds its report rows and the checks of the requirements it bears on
 * (lib/features/protocols/codex-app-server/probe-requirements.ts). The thread plays the part of ACP's session.
 */
import {
  APP_SERVER_CLIENT,
  APP_SERVER_NOTIFICATIONS,
  APP_SERVER_REQUESTS,
  threadIdOf,
  turnIdOf,
} from "../../../protocol/app-server-methods";
import type { Frame } from "../../../protocol/frame";
import type { ProbeFacts, ProbeRow } from "../../../contracts/reports";
import {
  appServerInitializeParams,
  isTurnCompleted,
  threadStartParams,
  turnStartParams,
  turnStatusOf,
} from "./handshake";
import { ASP } from "./probe-requirements";
import {
  errorOf,
  framesOf,
  messageOf,
  resultOf,
  row,
  type Json,
  type ProbeContext,
  type Reply,
} from "../../probe/context";
import { STARTUP_ALLOWANCE, type ProbeStep } from "../../probe/steps";

/** How many per-call timeouts a turn may take (a real model streams for a while). */
const TURN_ALLOWANCE = 6;
/** The approval step's turn: a command that needs more than the sandbox allows. */
const APPROVAL_PROMPT =
  "Run this shell command in the workspace with escalated permissions: echo probe > probe.txt. Then say done.";
const APPROVAL_METHODS = new Set<string>([
  APP_SERVER_REQUESTS.command_approval,
  APP_SERVER_REQUESTS.file_change_approval,
]);
const UNKNOWN_METHOD = "playground/noSuchMethod";
const STRING_ID = "probe-string-id";

const paramsOf = (f: Frame | undefined): Json | undefined => messageOf(f)?.params;
const isNotification = (f: Frame, method: string) =>
  f.dir === "from-agent" && f.kind === "notification" && f.method === method;

/** The first frame after `since` that matches, already seen or still to come. */
function frameAfter(ctx: ProbeContext, since: number, match: (f: Frame) => boolean, timeoutMs: number) {
  const seen = ctx.parsed(since).find(match);
  return seen ? Promise.resolve(seen) : ctx.waitFor(match, timeoutMs);
}

const turnEvent = (method: string, turnId: string) => (f: Frame) =>
  isNotification(f, method) && turnIdOf(paramsOf(f)) === turnId;

/** turn/start with one text input: the reply and the turn id it names. */
async function startTurn(ctx: ProbeContext, text: string): Promise<{ reply: Reply; turnId?: string; since: number }> {
  const since = ctx.lastSeq();
  const reply = await ctx.request(APP_SERVER_CLIENT.turn_start, turnStartParams(ctx.sessionId!, text));
  return { reply, turnId: turnIdOf(resultOf(reply.frame)), since };
}

/** A row and a check for a step that needs the thread, skipped without one. */
function noThread(ctx: ProbeContext, check: string, method: string, requirement: string): boolean {
  if (ctx.sessionId) return false;
  ctx.push({ check, method, outcome: "skipped", detail: "no thread (thread/start failed)" }, [
    ctx.check(requirement, "skip", "no thread"),
  ]);
  return true;
}

async function beforeInitialize(ctx: ProbeContext) {
  // The first answer also waits for the server to start.
  const reply = await ctx.request(APP_SERVER_CLIENT.thread_list, {}, { timeoutMs: ctx.t * STARTUP_ALLOWANCE });
  const refused = reply.frame !== undefined && errorOf(reply.frame) !== undefined;
  ctx.push(
    row("thread/list before initialize", APP_SERVER_CLIENT.thread_list, reply, () => "answered with a result"),
    [
      ctx.check(
        ASP.beforeInitialize,
        refused ? "pass" : "fail",
        refused ? "refused before initialize" : `not refused: ${reply.frame ? "a result" : "no response"}`,
        framesOf(reply),
      ),
    ],
  );
}

async function initialize(ctx: ProbeContext) {
  const reply = await ctx.request(APP_SERVER_CLIENT.initialize, appServerInitializeParams());
  const result = resultOf(reply.frame);
  if (result) ctx.init = result;
  const userAgent = typeof result?.userAgent === "string" ? result.userAgent : undefined;
  const named = userAgent !== undefined;
  ctx.push(
    row("initialize", APP_SERVER_CLIENT.initialize, reply, (r) => `userAgent ${JSON.stringify(r?.userAgent)}`),
    [
      ctx.check(
        ASP.initialize,
        named ? "pass" : "fail",
        named ? `userAgent ${userAgent}` : `no userAgent: ${reply.frame ? "result without it" : "no answer"}`,
        framesOf(reply),
      ),
    ],
  );
  ctx.notify(APP_SERVER_CLIENT.initialized);
}

async function unknownMethod(ctx: ProbeContext) {
  const reply = await ctx.request(UNKNOWN_METHOD, {});
  const err = errorOf(reply.frame);
  ctx.push(
    row(`unknown method ${UNKNOWN_METHOD}`, UNKNOWN_METHOD, reply, () => "answered with a result"),
    [
      ctx.check(
        ASP.unknownMethod,
        err ? "pass" : "fail",
        err ? `error ${err.code}` : reply.frame ? "answered with a result" : "no response",
        framesOf(reply),
      ),
    ],
  );
}

async function stringId(ctx: ProbeContext) {
  const reply = await ctx.request(APP_SERVER_CLIENT.thread_list, {}, { id: STRING_ID });
  const echoed = reply.frame?.id === STRING_ID;
  ctx.push(
    row(`thread/list with id "${STRING_ID}"`, APP_SERVER_CLIENT.thread_list, reply, () => "answered"),
    [
      ctx.check(
        ASP.idEcho,
        echoed ? "pass" : "fail",
        echoed ? "id echoed" : reply.frame ? `answered with id ${JSON.stringify(reply.frame.id)}` : "no response",
        framesOf(reply),
      ),
    ],
  );
}

async function threadStart(ctx: ProbeContext) {
  const since = ctx.lastSeq();
  const reply = await ctx.request(APP_SERVER_CLIENT.thread_start, threadStartParams(ctx.options.cwd));
  const result = resultOf(reply.frame);
  const threadId = threadIdOf(result);
  if (threadId) {
    ctx.sessionId = threadId;
    ctx.session = result;
    ctx.sessionIds.push(threadId);
  }
  const started = threadId
    ? await frameAfter(
        ctx,
        since,
        (f) => isNotification(f, APP_SERVER_NOTIFICATIONS.thread_started) && threadIdOf(paramsOf(f)) === threadId,
        ctx.t,
      )
    : undefined;
  const detail = !threadId
    ? reply.frame
      ? "answered without a thread id"
      : "no response"
    : started
      ? `thread ${threadId}, then thread/started`
      : `thread ${threadId}, but no thread/started for it within ${ctx.t} ms`;
  ctx.push(
    row("thread/start", APP_SERVER_CLIENT.thread_start, reply, () => detail),
    [
      ctx.check(ASP.threadStart, threadId && started ? "pass" : "fail", detail, [
        ...framesOf(reply),
        ...(started ? [started.seq] : []),
      ]),
    ],
  );
}

async function turn(ctx: ProbeContext) {
  const check = "turn/start (one text input)";
  if (noThread(ctx, check, APP_SERVER_CLIENT.turn_start, ASP.turn)) return;
  const { reply, turnId, since } = await startTurn(ctx, "Say hello in one short sentence.");
  const status = (resultOf(reply.frame)?.turn as Json | undefined)?.status;
  const completed = turnId
    ? await frameAfter(ctx, since, (f) => isTurnCompleted(f, turnId), ctx.t * TURN_ALLOWANCE)
    : undefined;
  const started = turnId ? ctx.parsed(since).find(turnEvent(APP_SERVER_NOTIFICATIONS.turn_started, turnId)) : undefined;
  const end = completed ? turnStatusOf(completed) : undefined;
  const problems = [
    ...(turnId ? [] : ["no turn id in the answer"]),
    ...(turnId && status !== "inProgress" ? [`answered with status ${JSON.stringify(status)}`] : []),
    ...(turnId && !started ? ["no turn/started"] : []),
    ...(turnId && !completed ? [`no turn/completed within ${ctx.t * TURN_ALLOWANCE} ms`] : []),
    ...(completed && end !== "completed" ? [`ended ${JSON.stringify(end)}`] : []),
  ];
  const detail = problems.length ? problems.join("; ") : "inProgress, turn/started, turn/completed (completed)";
  ctx.push(
    row(check, APP_SERVER_CLIENT.turn_start, reply, () => detail),
    [
      ctx.check(
        ASP.turn,
        reply.frame && problems.length === 0 ? "pass" : "fail",
        reply.frame ? detail : "no response",
        [...framesOf(reply), ...(completed ? [completed.seq] : [])],
      ),
    ],
  );
}

async function approval(ctx: ProbeContext) {
  const check = "approval round trip (a command needing escalation)";
  if (noThread(ctx, check, APP_SERVER_CLIENT.turn_start, ASP.approval)) return;
  const { reply, turnId, since } = await startTurn(ctx, APPROVAL_PROMPT);
  if (!turnId) {
    ctx.push({ ...row(check, APP_SERVER_CLIENT.turn_start, reply, () => "no turn id"), outcome: "inconclusive" }, [
      ctx.check(ASP.approval, "skip", `the turn did not start: ${reply.frame ? "no turn id" : "no response"}`),
    ]);
    return;
  }
  const asked = await frameAfter(
    ctx,
    since,
    (f) =>
      (f.dir === "from-agent" && f.kind === "request" && APPROVAL_METHODS.has(f.method ?? "")) ||
      isTurnCompleted(f, turnId),
    ctx.t * TURN_ALLOWANCE,
  );
  if (!asked || asked.kind !== "request") {
    // Not asked: the model chose otherwise. A turn still running is ended so the next step starts clean.
    if (!asked) await interruptAndWait(ctx, turnId, since);
    ctx.push(
      { check, method: APP_SERVER_CLIENT.turn_start, outcome: "inconclusive", detail: "no approval was asked" },
      [
        ctx.check(
          ASP.approval,
          "skip",
          `no approval was asked ${asked ? "before the turn ended" : `within ${ctx.t * TURN_ALLOWANCE} ms`} (the model decides whether a command needs one)`,
        ),
      ],
    );
    return;
  }
  const params = paramsOf(asked);
  const missing = ["threadId", "turnId", "itemId"].filter((k) => typeof params?.[k] !== "string");
  const answerSince = ctx.lastSeq();
  ctx.driver.raw(JSON.stringify({ id: asked.id, result: { decision: "accept" } }));
  const completed = await frameAfter(ctx, since, (f) => isTurnCompleted(f, turnId), ctx.t * TURN_ALLOWANCE);
  const resolved = ctx
    .parsed(answerSince)
    .find(
      (f) =>
        isNotification(f, APP_SERVER_NOTIFICATIONS.server_request_resolved) &&
        JSON.stringify(paramsOf(f)?.requestId) === JSON.stringify(asked.id),
    );
  const problems = [
    ...(missing.length ? [`the request lacks ${missing.join(", ")}`] : []),
    ...(completed ? [] : [`the turn did not end within ${ctx.t * TURN_ALLOWANCE} ms of the answer`]),
  ];
  const detail = [
    `${asked.method} answered accept`,
    resolved ? "serverRequest/resolved" : "no serverRequest/resolved",
    completed ? `turn ${turnStatusOf(completed)}` : "turn still running",
    ...problems,
  ].join("; ");
  ctx.push({ check, method: asked.method, outcome: "answered", detail }, [
    ctx.check(ASP.approval, problems.length ? "fail" : "pass", detail, [
      asked.seq,
      ...(completed ? [completed.seq] : []),
    ]),
  ]);
}

/** turn/interrupt, then the turn's turn/completed. */
async function interruptAndWait(ctx: ProbeContext, turnId: string, since: number) {
  const reply = await ctx.request(APP_SERVER_CLIENT.turn_interrupt, { threadId: ctx.sessionId, turnId });
  const completed = await frameAfter(ctx, since, (f) => isTurnCompleted(f, turnId), ctx.t * TURN_ALLOWANCE);
  return { reply, completed };
}

async function interrupt(ctx: ProbeContext) {
  const check = "turn/interrupt of a running turn";
  if (noThread(ctx, check, APP_SERVER_CLIENT.turn_interrupt, ASP.interrupt)) return;
  const { turnId, since } = await startTurn(ctx, "Count slowly from 1 to 200, one number per line.");
  if (!turnId) {
    ctx.push(
      { check, method: APP_SERVER_CLIENT.turn_interrupt, outcome: "skipped", detail: "the turn did not start" },
      [ctx.check(ASP.interrupt, "skip", "the turn did not start")],
    );
    return;
  }
  // Interrupted before its turn/started, a turn is not running yet (Codex: "no active turn to interrupt").
  const started = await frameAfter(ctx, since, turnEvent(APP_SERVER_NOTIFICATIONS.turn_started, turnId), ctx.t);
  const endedFirst = ctx.parsed(since).some((f) => isTurnCompleted(f, turnId));
  if (!started || endedFirst) {
    const why = started ? "the turn ended before the interrupt was sent" : `no turn/started within ${ctx.t} ms`;
    ctx.push({ check, method: APP_SERVER_CLIENT.turn_interrupt, outcome: "inconclusive", detail: why }, [
      ctx.check(ASP.interrupt, started ? "skip" : "fail", why),
    ]);
    return;
  }
  const { reply, completed } = await interruptAndWait(ctx, turnId, since);
  const end = completed ? turnStatusOf(completed) : undefined;
  const err = errorOf(reply.frame);
  const detail = completed
    ? `answered ${err ? `error ${err.code}` : "with a result"}; turn ${end}`
    : "the turn did not end";
  // A turn that completed on its own while the interrupt travelled was not running any more.
  const raced = end === "completed" && err !== undefined;
  const ok = reply.frame !== undefined && !err && end === "interrupted";
  ctx.push(
    row(check, APP_SERVER_CLIENT.turn_interrupt, reply, () => detail),
    [
      ctx.check(ASP.interrupt, ok ? "pass" : raced ? "skip" : "fail", raced ? `${detail}: it ended first` : detail, [
        ...framesOf(reply),
        ...(completed ? [completed.seq] : []),
      ]),
    ],
  );
}

async function malformed(ctx: ProbeContext) {
  const since = ctx.lastSeq();
  ctx.driver.raw('{"id": "probe-malformed", "method":');
  const reply = await ctx.request(APP_SERVER_CLIENT.thread_list, {});
  const parseError = ctx
    .parsed(since)
    .find((f) => f.dir === "from-agent" && f.kind === "response" && errorOf(f)?.code === -32700);
  const detail = `${reply.frame ? "the next request was answered" : "the next request got no answer"}; ${parseError ? "the line got -32700" : "the line got no answer"}`;
  ctx.push({ ...row("a malformed line, then thread/list", undefined, reply, () => detail), detail }, [
    ctx.check(ASP.malformed, reply.frame ? "pass" : "fail", detail, framesOf(reply)),
  ]);
}

function transportLines(ctx: ProbeContext): Promise<void> {
  const invalid = ctx.parsed().filter((f) => f.dir === "from-agent" && f.kind === "invalid");
  const detail = invalid.length
    ? `${invalid.length} line${invalid.length === 1 ? "" : "s"} not a message: ${String(invalid[0]!.error)}`
    : "every line a message";
  const r: ProbeRow = { check: "stdout lines", outcome: "answered", detail };
  ctx.push(r, [
    ctx.check(
      ASP.transportLines,
      invalid.length ? "fail" : "pass",
      detail,
      invalid.slice(0, 5).map((f) => f.seq),
    ),
  ]);
  return Promise.resolve();
}

export const APP_SERVER_STEPS: readonly ProbeStep[] = [
  { name: "before initialize", run: beforeInitialize },
  { name: "initialize", run: initialize },
  { name: "unknown method", run: unknownMethod },
  { name: "string id", run: stringId },
  { name: "thread/start", run: threadStart },
  { name: "turn", run: turn },
  { name: "approval", run: approval },
  { name: "interrupt", run: interrupt },
  { name: "malformed line", run: malformed },
  { name: "stdout lines", run: transportLines },
];

/** What the matrix shows besides the rows, for an app-server agent. */
export function appServerFacts(ctx: ProbeContext): ProbeFacts {
  const frames = ctx.parsed();
  const asked = new Map<string, Frame>();
  const answered: ProbeFacts["answered"] = [];
  for (const f of frames) {
    if (f.dir === "from-agent" && f.kind === "request" && f.method) asked.set(JSON.stringify(f.id), f);
    if (f.dir !== "to-agent" || f.kind !== "response") continue;
    const request = asked.get(JSON.stringify(f.id));
    const m = messageOf(f);
    if (request)
      answered.push({
        method: request.method!,
        answer: m?.error
          ? `error ${m.error.code}`
          : typeof m?.result?.decision === "string"
            ? m.result.decision
            : "answered",
      });
  }
  const model = ctx.session?.model;
  return {
    authMethods: [],
    sessionCapabilities: [],
    modes: [],
    models: typeof model === "string" ? [model] : [],
    usage: frames.some((f) => isNotification(f, APP_SERVER_NOTIFICATIONS.thread_token_usage_updated))
      ? [APP_SERVER_NOTIFICATIONS.thread_token_usage_updated]
      : [],
    answered,
  };
}

/** The server's name and version, from initialize's userAgent (`<client>/<version> (<platform>) ...`). */
export function appServerAgent(init: Json | undefined): { name: string; version?: string } | undefined {
  const ua = typeof init?.userAgent === "string" ? init.userAgent : undefined;
  const version = ua?.match(/^[^/\s]+\/(\S+)/)?.[1];
  return ua ? { name: "codex app-server", ...(version ? { version } : {}) } : undefined;
}
