/**
 * The conformance probe: a scripted battery of ACP calls against a fresh agent,
 * reporting what the agent actually did for each. Pure: it talks through a
 * Driver that the server or CLI provides.
 */
import { AGENT_METHODS as STABLE_AGENT_METHODS, PROTOCOL_VERSION } from "@agentclientprotocol/sdk";
import { CLIENT_INFO } from "../protocol/client-capabilities";
import { reduceAllFacts } from "../folds/agent-facts";
import { composeMethods, prefillParams } from "./compose-catalog";
import type { Frame, JsonRpcId, WireFrame } from "../protocol/frame";
import { withMessage } from "../folds/frame-log";
import { type Policies } from "./policy";
import { ANSWERABLE_METHODS } from "../contracts/policies";
import { buildForm, type Defs } from "./schema-form";
import { updateUsageOf, turnUsageOf } from "../folds/turn-usage";
import { isObject } from "../protocol/json";
import type { MethodSupport, ProbeFacts, ProbeReport, ProbeRow } from "../contracts/reports";
import { AGENT_METHODS, CLIENT_METHODS, LEGACY_AGENT_METHODS } from "../protocol/methods";

export interface Reply {
  frame?: Frame;
  latencyMs: number;
}

export interface Driver {
  /** Sends a request and waits for its response (frame undefined on timeout). */
  request(method: string, params: unknown, options?: { id?: JsonRpcId; timeoutMs?: number }): Promise<Reply>;
  notify(method: string, params?: unknown): void;
  /** Writes a line as is. */
  raw(line: string): void;
  /** The first frame arriving from now on that satisfies `predicate`; undefined on timeout. */
  waitFor(predicate: (frame: Frame) => boolean, timeoutMs: number): Promise<Frame | undefined>;
  /** The agent's frames so far, without `message` (parse `raw` where it is needed). */
  frames(): readonly WireFrame[];
  /** From now on, answer the agent's own requests under these policies. */
  answerWith(policies: Policies): void;
}

/**
 * The probe's own policy: allow once, and carry out fs/ requests (the server
 * confines them to a throw-away workspace); terminal/ ones only when terminals
 * are on, else they are refused.
 */
export function probePolicies(terminals: boolean): Policies {
  return Object.fromEntries(
    ANSWERABLE_METHODS.map((m) => [m, m.startsWith("terminal/") && !terminals ? "deny" : "auto"]),
  );
}

export interface ProbeOptions {
  /** The throw-away workspace the agent runs in. */
  cwd: string;
  /** What `initialize` advertises (the profile's defaults). */
  clientCapabilities?: Record<string, unknown>;
  /** The SDK's unstable JSON schema `$defs`: params are built from them. */
  defs?: Defs;
  timeoutMs?: number;
  /** logout may sign the user out of a real account: off unless asked for. */
  includeLogout?: boolean;
  /** Run the agent's terminal commands (in the throw-away workspace): off unless asked for. */
  terminals?: boolean;
  /** The agent does not run on this machine (a URL profile): its commands are never run here. */
  remote?: boolean;
}

/**
 * Whether the probe carries out the agent's terminal requests: only when asked
 * for, for an agent that runs on this machine, with a profile that advertises
 * terminals; `why` says so in the report.
 */
export function probeTerminals(options: Pick<ProbeOptions, "terminals" | "remote" | "clientCapabilities">): {
  on: boolean;
  why: string;
} {
  if (!options.terminals) return { on: false, why: "terminals off: not opted in" };
  if (options.remote)
    return { on: false, why: "terminals off: the agent does not run on this machine, its commands never run here" };
  if (options.clientCapabilities && options.clientCapabilities.terminal !== true)
    return { on: false, why: "terminals off: the profile does not advertise clientCapabilities.terminal" };
  return { on: true, why: "terminals on: commands run as this user, in the throw-away workspace" };
}

/** A command line as a shell would read it back: `sh -c 'id > f'`. */
export function commandLine(command: string, args: readonly unknown[] = []): string {
  return [command, ...args.map(String)]
    .map((a) => (/^[\w@%+=:,./-]+$/.test(a) ? a : `'${a.replace(/'/g, "'\\''")}'`))
    .join(" ");
}

const STABLE = new Set<string>(Object.values(STABLE_AGENT_METHODS));
export const UNSTABLE_METHODS = Object.values(AGENT_METHODS).filter((m) => !STABLE.has(m));

type Json = Record<string, unknown>;
type Message = {
  id?: JsonRpcId;
  method?: string;
  params?: Json;
  result?: Json;
  error?: { code?: number; message?: string };
};
const messageOf = (f?: Frame): Message | undefined =>
  f ? (withMessage({ ...f }).message as Message | undefined) : undefined;
const errorOf = (f?: Frame) => messageOf(f)?.error;
const resultOf = (f?: Frame) => messageOf(f)?.result;

/** How the registry's daily matrix classes an answer. */
export function supportOf(reply: Reply): MethodSupport {
  if (!reply.frame) return "other";
  const err = errorOf(reply.frame);
  if (!err) return "supported";
  if (err.code === -32601) return "not found";
  if (err.code === -32602 || err.code === -32002) return "supported";
  if (err.code === -32000 || /auth/i.test(String(err.message))) return "auth required";
  return "other";
}

function row(
  check: string,
  method: string | undefined,
  reply: Reply,
  describe: (result: Json | undefined) => string,
  conforms?: (r: Reply) => boolean,
): ProbeRow {
  const err = errorOf(reply.frame);
  const base = { check, method, latencyMs: reply.frame ? Math.round(reply.latencyMs) : undefined };
  let r: ProbeRow;
  if (!reply.frame) r = { ...base, outcome: "timeout", detail: "no response" };
  else if (err?.code === -32601) r = { ...base, outcome: "-32601", detail: "not supported by this agent (-32601)" };
  else if (err) r = { ...base, outcome: "error", detail: `error ${err.code}: ${String(err.message).slice(0, 160)}` };
  else r = { ...base, outcome: "answered", detail: describe(resultOf(reply.frame)).slice(0, 200) };
  if (conforms) r.conforms = conforms(reply);
  if (method) r.support = supportOf(reply);
  return r;
}

const notApplicable = (check: string, method: string, why: string): ProbeRow => ({
  check,
  method,
  outcome: "not applicable",
  detail: why,
});

const keys = (r: Json | undefined) => (r ? `result keys: ${Object.keys(r).join(", ") || "(none)"}` : "null result");

const SET_MODEL = LEGACY_AGENT_METHODS.session_set_model;

const after = (seq: number) => (f: Frame) => f.seq > seq;
const updatesOf = (frames: readonly Frame[]) =>
  frames
    .filter((f) => f.dir === "from-agent" && f.method === CLIENT_METHODS.session_update)
    .map((f) => messageOf(f)?.params?.update)
    .filter(isObject);

/** Agent requests in `frames` with the probe's answer to each, for the report. */
function answersIn(frames: readonly Frame[]): Array<{ method: string; answer: string; params?: Json }> {
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

/** How many per-call timeouts the first request may take: it includes the agent's start-up. */
export const STARTUP_ALLOWANCE = 6;

export async function runProbe(
  driver: Driver,
  options: ProbeOptions,
): Promise<{ rows: ProbeRow[]; facts: ProbeFacts }> {
  const t = options.timeoutMs ?? 10_000;
  const rows: ProbeRow[] = [];
  const req = (method: string, params: unknown, id?: JsonRpcId) => driver.request(method, params, { timeoutMs: t, id });
  const terminals = probeTerminals(options);
  driver.answerWith(probePolicies(terminals.on));
  const firstSeq = driver.frames().at(-1)?.seq ?? 0;

  // 1. initialize: an unsupported version first, then the real one. The first answer also waits
  // for the agent to start (Qwen Code takes 7-15 s on a loaded 2-core machine): not a timeout.
  const odd = await driver.request(
    AGENT_METHODS.initialize,
    { protocolVersion: 999, clientCapabilities: {} },
    { timeoutMs: t * STARTUP_ALLOWANCE },
  );
  rows.push(
    row(
      "initialize with unsupported protocolVersion 999",
      AGENT_METHODS.initialize,
      odd,
      (r) => `answered with protocolVersion ${JSON.stringify(r?.protocolVersion)}`,
      (r) => {
        const v = resultOf(r.frame)?.protocolVersion;
        return !!errorOf(r.frame) || (typeof v === "number" && v !== 999);
      },
    ),
  );
  const init = await req(AGENT_METHODS.initialize, {
    protocolVersion: PROTOCOL_VERSION,
    // Terminals off: not advertised, so any terminal request is refused (server/agents/agent-answerer.ts).
    clientCapabilities: {
      ...(options.clientCapabilities ?? { fs: { readTextFile: false, writeTextFile: false } }),
      terminal: terminals.on,
    },
    clientInfo: CLIENT_INFO,
  });
  rows.push(
    row(
      "initialize with protocolVersion 1",
      AGENT_METHODS.initialize,
      init,
      (r) =>
        `protocolVersion ${JSON.stringify(r?.protocolVersion)}, agent ${JSON.stringify((r?.agentInfo as Json | undefined)?.name ?? "?")}`,
      (r) => resultOf(r.frame)?.protocolVersion === 1,
    ),
  );
  const initResult = resultOf(init.frame);
  const agentCaps = isObject(initResult?.agentCapabilities) ? initResult.agentCapabilities : undefined;
  const sessionCaps = isObject(agentCaps?.sessionCapabilities) ? agentCaps.sessionCapabilities : {};

  // 2. `initialized` (not part of ACP v1): does the agent complain?
  const before = driver.frames().length;
  driver.notify("initialized", {});
  const complaint = await driver.waitFor(
    (f) => f.dir === "from-agent" && f.kind === "response" && f.id === null,
    1_000,
  );
  rows.push({
    check: "`initialized` notification (not in ACP v1)",
    method: "initialized",
    outcome: complaint ? "error" : "no reply",
    detail: complaint
      ? `answered a notification with an error: ${JSON.stringify(errorOf(complaint))}`
      : `ignored (${driver.frames().length - before} frames)`,
    conforms: !complaint,
  });

  // 3. session/new, needed by the rest.
  const created = await req(AGENT_METHODS.session_new, { cwd: options.cwd, mcpServers: [] });
  const session = resultOf(created.frame);
  const sessionId = typeof session?.sessionId === "string" ? session.sessionId : "no-session";
  rows.push(
    row(
      "session/new (cwd, no MCP servers)",
      AGENT_METHODS.session_new,
      created,
      (r) => `sessionId ${typeof r?.sessionId === "string" ? "given" : "missing"}, ${keys(r)}`,
      (r) => typeof resultOf(r.frame)?.sessionId === "string",
    ),
  );
  const modes = isObject(session?.modes) ? session.modes : {};
  const modeIds = (Array.isArray(modes.availableModes) ? modes.availableModes : [])
    .map((m) => (isObject(m) ? m.id : undefined))
    .filter((id): id is string => typeof id === "string");
  const models = isObject(session?.models) ? session.models : {};
  const modelIds = (Array.isArray(models.availableModels) ? models.availableModels : [])
    .map((m) => (isObject(m) ? m.modelId : undefined))
    .filter((id): id is string => typeof id === "string");
  const configOptions = (session?.configOptions as Array<{ id: string; currentValue?: unknown }> | undefined) ?? [];

  // 4. A prompt turn, and the empty-response check.
  const turn = await driver.request(
    AGENT_METHODS.session_prompt,
    { sessionId, prompt: [{ type: "text", text: "Reply with the single word OK." }] },
    { timeoutMs: t * 3 },
  );
  const turnFrames = parsedFrames(driver).filter(after(created.frame?.seq ?? 0));
  const chunks = updatesOf(turnFrames).filter((u) => u.sessionUpdate === "agent_message_chunk").length;
  const stopReason = resultOf(turn.frame)?.stopReason;
  rows.push(
    row(
      "session/prompt (one text block)",
      AGENT_METHODS.session_prompt,
      turn,
      () => `stopReason ${JSON.stringify(stopReason)}, ${chunks} message chunks`,
      (r) => typeof resultOf(r.frame)?.stopReason === "string",
    ),
  );
  const empty =
    !!turn.frame && !errorOf(turn.frame) && chunks === 0 && (stopReason === undefined || stopReason === null);
  rows.push({
    check: "empty response (no chunks and no stopReason)",
    outcome: "answered",
    detail: empty ? "EMPTY RESPONSE: the turn ended with nothing (an invalid model?)" : "not empty",
    conforms: !empty,
  });

  // 5. A tool call round trip: the agent asks, the probe allows once, the tool ends.
  const toolStart = driver.frames().at(-1)?.seq ?? 0;
  const toolTurn = await driver.request(
    AGENT_METHODS.session_prompt,
    {
      sessionId,
      prompt: [
        { type: "text", text: "Create a file named probe.txt in the current directory containing the word OK." },
      ],
    },
    { timeoutMs: t * 3 },
  );
  const toolFrames = parsedFrames(driver).filter(after(toolStart));
  const toolUpdates = updatesOf(toolFrames).filter(
    (u) => u.sessionUpdate === "tool_call" || u.sessionUpdate === "tool_call_update",
  );
  const toolAnswers = answersIn(toolFrames);
  const finalStatus = toolUpdates
    .map((u) => u.status)
    .filter((s): s is string => typeof s === "string")
    .at(-1);
  if (toolUpdates.length === 0 && toolAnswers.length === 0) {
    rows.push({
      check: "tool call round trip",
      method: AGENT_METHODS.session_prompt,
      outcome: toolTurn.frame ? "inconclusive" : "timeout",
      detail: toolTurn.frame ? "the agent made no tool call for this prompt" : "no response",
    });
  } else {
    rows.push({
      check: "tool call round trip",
      method: AGENT_METHODS.session_prompt,
      outcome: toolTurn.frame ? "answered" : "timeout",
      latencyMs: toolTurn.frame ? Math.round(toolTurn.latencyMs) : undefined,
      detail: [
        `${toolUpdates.length} tool call updates`,
        ...toolAnswers.map((a) => `${a.method} → ${a.answer}`),
        `last status ${JSON.stringify(finalStatus ?? null)}`,
        `stopReason ${JSON.stringify(resultOf(toolTurn.frame)?.stopReason ?? null)}`,
      ]
        .join(", ")
        .slice(0, 300),
      conforms: !!toolTurn.frame && (finalStatus === "completed" || finalStatus === "failed"),
    });
  }

  // 6. The other stable methods, with params built from the schema and what the agent reported.
  const facts = reduceAllFacts(parsedFrames(driver));
  const paramsFor = (method: string, fallback: Json): unknown => {
    const spec = options.defs ? composeMethods(options.defs, [method], [])[0] : undefined;
    if (!spec || !options.defs) return fallback;
    const built = prefillParams(method, buildForm(options.defs, spec.def), facts, {
      cwd: options.cwd,
      protocolVersion: PROTOCOL_VERSION,
    });
    return isObject(built) ? { ...built, ...fallback } : fallback;
  };
  rows.push(
    row(
      "authenticate with an unknown methodId",
      AGENT_METHODS.authenticate,
      await req(AGENT_METHODS.authenticate, { methodId: "acp-playground-probe-no-such-method" }),
      keys,
    ),
  );
  rows.push(
    row(AGENT_METHODS.session_list, AGENT_METHODS.session_list, await req(AGENT_METHODS.session_list, {}), keys),
  );
  for (const [method, check] of [
    [AGENT_METHODS.session_load, "session/load of the probe's session"],
    [AGENT_METHODS.session_resume, "session/resume of the probe's session"],
  ] as const)
    rows.push(
      row(check, method, await req(method, paramsFor(method, { sessionId, cwd: options.cwd, mcpServers: [] })), keys),
    );
  const modeId = typeof modes.currentModeId === "string" ? modes.currentModeId : modeIds[0];
  rows.push(
    modeId
      ? row(
          "session/set_mode to the current mode",
          AGENT_METHODS.session_set_mode,
          await req(AGENT_METHODS.session_set_mode, { sessionId, modeId }),
          keys,
        )
      : notApplicable(AGENT_METHODS.session_set_mode, AGENT_METHODS.session_set_mode, "the agent listed no modes"),
  );
  const modelId = typeof models.currentModelId === "string" ? models.currentModelId : modelIds[0];
  rows.push(
    modelId
      ? row("session/set_model to the current model", SET_MODEL, await req(SET_MODEL, { sessionId, modelId }), keys)
      : notApplicable(SET_MODEL, SET_MODEL, "the agent listed no models"),
  );
  rows.push(
    configOptions.length
      ? row(
          "session/set_config_option to its current value",
          AGENT_METHODS.session_set_config_option,
          await req(
            AGENT_METHODS.session_set_config_option,
            paramsFor(AGENT_METHODS.session_set_config_option, {
              sessionId,
              configId: configOptions[0]!.id,
              value: configOptions[0]!.currentValue ?? "",
            }),
          ),
          keys,
        )
      : notApplicable(
          AGENT_METHODS.session_set_config_option,
          AGENT_METHODS.session_set_config_option,
          "the agent listed no config options",
        ),
  );
  rows.push(
    options.includeLogout
      ? row(AGENT_METHODS.logout, AGENT_METHODS.logout, await req(AGENT_METHODS.logout, {}), keys)
      : {
          check: AGENT_METHODS.logout,
          method: AGENT_METHODS.logout,
          outcome: "skipped",
          detail: "skipped: it may sign the user out (--include-logout to run it)",
        },
  );

  // 7. Unstable methods (close and delete come last: they end the session).
  const closing: string[] = [AGENT_METHODS.session_close, AGENT_METHODS.session_delete];
  for (const method of UNSTABLE_METHODS.filter((m) => !closing.includes(m))) {
    const params = paramsFor(
      method,
      method === AGENT_METHODS.session_fork ? { sessionId, cwd: options.cwd } : { sessionId },
    );
    rows.push(row(`${method} (unstable)`, method, await req(method, params), keys));
  }

  // 8. Protocol hygiene.
  rows.push(
    row(
      "unknown method",
      "acp_playground/no_such_method",
      await req("acp_playground/no_such_method", {}),
      keys,
      (r) => errorOf(r.frame)?.code === -32601,
    ),
  );
  const beforeUnknown = driver.frames().at(-1)?.seq ?? 0;
  driver.notify("acp_playground/no_such_notification", {});
  const noisy = await driver.waitFor(
    (f) => f.dir === "from-agent" && f.seq > beforeUnknown && f.kind === "response",
    500,
  );
  rows.push({
    check: "unknown notification",
    method: "acp_playground/no_such_notification",
    outcome: noisy ? "error" : "no reply",
    detail: noisy ? "answered a notification" : "ignored",
    conforms: !noisy,
  });
  driver.raw("{this is not json");
  // The line has no id to echo, so the answer to it carries none (or null).
  const parseError = await driver.waitFor((f) => {
    if (f.dir !== "from-agent") return false;
    const m = messageOf(f);
    return m?.error?.code === -32700 && (m.id === undefined || m.id === null);
  }, 1_500);
  rows.push({
    check: "malformed line",
    outcome: parseError ? "error" : "no reply",
    detail: parseError ? "answered -32700 Parse error" : "no -32700 response",
    conforms: !!parseError,
  });
  const stringId = await req(AGENT_METHODS.session_new, { cwd: options.cwd, mcpServers: [] }, "probe-string-id");
  rows.push({
    ...row("request with a string id", AGENT_METHODS.session_new, stringId, keys),
    detail: stringId.frame ? `response id ${JSON.stringify(stringId.frame.id)}` : "no response",
    conforms: stringId.frame?.id === "probe-string-id",
  });
  const [a, b] = await Promise.all([
    req(AGENT_METHODS.session_list, {}),
    req(AGENT_METHODS.session_new, { cwd: options.cwd, mcpServers: [] }),
  ]);
  rows.push({
    check: "two requests in flight at once",
    outcome: a.frame && b.frame ? "answered" : "timeout",
    detail: `session/list ${a.frame ? "answered" : "missing"}, session/new ${b.frame ? "answered" : "missing"}`,
    conforms: !!a.frame && !!b.frame,
  });

  // 9. session/cancel in the middle of a turn.
  const cancelId = "probe-cancel-turn";
  const cancelTurn = driver.request(
    AGENT_METHODS.session_prompt,
    { sessionId, prompt: [{ type: "text", text: "Count slowly from 1 to 200, one number per line." }] },
    { timeoutMs: t * 3, id: cancelId },
  );
  const startSeq = driver.frames().at(-1)?.seq ?? 0;
  await driver.waitFor(
    (f) =>
      f.dir === "from-agent" && f.seq > startSeq && (f.method === CLIENT_METHODS.session_update || f.id === cancelId),
    3_000,
  );
  const endedFirst = driver
    .frames()
    .some((f) => f.dir === "from-agent" && f.kind === "response" && f.id === cancelId && f.seq > startSeq);
  driver.notify(AGENT_METHODS.session_cancel, { sessionId });
  const cancelled = await cancelTurn;
  const reason = resultOf(cancelled.frame)?.stopReason;
  const cancelRow = row(
    "session/cancel during a turn",
    AGENT_METHODS.session_cancel,
    cancelled,
    () => `turn ended with stopReason ${JSON.stringify(reason)}`,
    () => reason === "cancelled",
  );
  delete cancelRow.support;
  rows.push(
    endedFirst
      ? {
          ...cancelRow,
          outcome: "inconclusive",
          detail: `the turn ended (stopReason ${JSON.stringify(reason ?? null)}) before the cancel was sent`,
          conforms: undefined,
        }
      : cancelRow,
  );

  // Last: closing and deleting the session.
  rows.push(
    row(
      AGENT_METHODS.session_close,
      AGENT_METHODS.session_close,
      await req(AGENT_METHODS.session_close, { sessionId }),
      keys,
    ),
  );
  rows.push(
    row(
      AGENT_METHODS.session_delete,
      AGENT_METHODS.session_delete,
      await req(AGENT_METHODS.session_delete, { sessionId }),
      keys,
    ),
  );

  const all = parsedFrames(driver).filter(after(firstSeq));
  const usage = new Set<string>();
  for (const f of all) {
    if (f.dir !== "from-agent") continue;
    const m = messageOf(f);
    if (f.kind === "response" && m?.result) {
      const u = turnUsageOf(m.result);
      if (u) usage.add(u.source);
    }
    if (f.method === CLIENT_METHODS.session_update) {
      const u = updateUsageOf(m?.params?.update);
      if (u) usage.add(u.source);
    }
  }
  const answers = answersIn(all);
  const answered = answers.map(({ method, answer }) => ({ method, answer }));
  // What ran on this machine for the agent: every terminal/create the probe carried out.
  const commands = answers
    .filter((a) => a.method === CLIENT_METHODS.terminal_create && a.params)
    .map((a) => {
      const p = a.params!;
      const line = commandLine(String(p.command), Array.isArray(p.args) ? p.args : []);
      return typeof p.cwd === "string" ? `${line} (in ${p.cwd})` : line;
    });
  const refused = answered.filter((a) => a.method === CLIENT_METHODS.terminal_create && a.answer.startsWith("error"));
  rows.push({
    check: "terminal commands run by the probe",
    method: CLIENT_METHODS.terminal_create,
    outcome: terminals.on ? "answered" : "skipped",
    detail: [
      terminals.why,
      commands.length ? `ran ${commands.length}: ${commands.join("; ")}` : "ran none",
      ...(refused.length ? [`refused ${refused.length}`] : []),
    ]
      .join(", ")
      .slice(0, 1_000),
  });
  if (answered.length) {
    const byMethod = new Map<string, string[]>();
    for (const a of answered) byMethod.set(a.method, [...(byMethod.get(a.method) ?? []), a.answer]);
    for (const [method, answers] of byMethod)
      rows.push({
        check: `agent request ${method}, answered by the probe`,
        method,
        outcome: "answered",
        detail: `${answers.length}×: ${[...new Set(answers)].join("; ")}`.slice(0, 200),
      });
  }
  return {
    rows,
    facts: {
      protocolVersion: initResult?.protocolVersion,
      authMethods: (Array.isArray(initResult?.authMethods) ? initResult.authMethods : [])
        .filter(isObject)
        .map((m) => ({ id: String(m.id), type: typeof m.type === "string" ? m.type : "agent" })),
      agentCapabilities: agentCaps,
      sessionCapabilities: Object.keys(sessionCaps).filter((k) => k !== "_meta" && sessionCaps[k] != null),
      modes: modeIds,
      models: modelIds,
      usage: [...usage],
      answered,
      terminals,
      commands,
    },
  };
}

/** A plain-text table of a report (CLI output, export). */
export function formatReport(report: ProbeReport): string {
  const head = `Probe of ${report.profile}${report.agent?.name ? ` (${report.agent.name} ${report.agent.version ?? ""})` : ""}, ${report.rows.length} checks in ${(report.durationMs / 1000).toFixed(1)} s`;
  const lines = report.rows.map((r) => {
    const mark = r.conforms === undefined ? " " : r.conforms ? "✓" : "✗";
    const latency = r.latencyMs === undefined ? "" : `${r.latencyMs} ms`;
    return `${mark} ${r.check.padEnd(52)} ${r.outcome.padEnd(9)} ${latency.padStart(8)}  ${r.detail}`;
  });
  return [head, "", ...lines].join("\n");
}

/**
 * A detail without what differs on every run: UUIDs, session and tool call
 * ids, generated tokens, timestamps and durations (by shape, not by key).
 */
export function stableDetail(detail: string): string {
  return detail
    .replace(/[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}/gi, "<uuid>")
    .replace(/\d{4}-\d{2}-\d{2}T[\d:.]+(Z|[+-]\d{2}:?\d{2})?/g, "<time>")
    .replace(/\b\d+(\.\d+)?\s?(ms|s)\b/g, "<duration>")
    .replace(/\b(?=[\w-]*\d)(?=[\w-]*[a-z])[\w-]{12,}\b/gi, "<id>")
    .replace(/\b[0-9a-f]{8,}\b/gi, "<id>");
}

export interface ReportDifference {
  check: string;
  a?: ProbeRow;
  b?: ProbeRow;
  same: boolean;
  /** What differs: "missing", "outcome", "conforms", "support", "detail". */
  differs: string[];
}

/** Side-by-side comparison of two reports, by check, ignoring values that change on every run. */
export function compareReports(a: ProbeReport, b: ProbeReport): ReportDifference[] {
  const names = [...new Set([...a.rows.map((r) => r.check), ...b.rows.map((r) => r.check)])];
  return names.map((check) => {
    const ra = a.rows.find((r) => r.check === check);
    const rb = b.rows.find((r) => r.check === check);
    const differs: string[] = [];
    if (!ra || !rb) differs.push("missing");
    else {
      if (ra.outcome !== rb.outcome) differs.push("outcome");
      if (ra.conforms !== rb.conforms) differs.push("conforms");
      if (ra.support !== rb.support) differs.push("support");
      if (stableDetail(ra.detail) !== stableDetail(rb.detail)) differs.push("detail");
    }
    return { check, a: ra, b: rb, same: differs.length === 0, differs };
  });
}

/** The driver's frames with their messages parsed (copies: the driver's log stays lean). */
function parsedFrames(driver: Driver): Frame[] {
  return driver.frames().map((f) => withMessage({ ...f }));
}
