/**
 * The conformance probe: a scripted battery of ACP calls against a fresh agent,
 * reporting what the agent actually did for each. Pure: it talks through a
 * Driver that the server or CLI provides.
 */
import { AGENT_METHODS, PROTOCOL_VERSION } from "@agentclientprotocol/sdk";
import { AGENT_METHODS as UNSTABLE_AGENT_METHODS } from "@agentclientprotocol/sdk/unstable";
import type { Frame, JsonRpcId, WireFrame } from "./frame";
import { withMessage } from "./frame-log";

export type ProbeOutcome = "answered" | "-32601" | "error" | "timeout" | "no reply" | "skipped";

export interface ProbeRow {
  check: string;
  method?: string;
  outcome: ProbeOutcome;
  latencyMs?: number;
  /** What the agent said or did, in a few words. */
  detail: string;
  /** True where the outcome is what the protocol asks for. */
  conforms?: boolean;
}

export interface ProbeReport {
  profile: string;
  agent?: { name?: string; version?: string };
  startedAt: string;
  durationMs: number;
  rows: ProbeRow[];
  transcriptId?: string;
}

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
}

export interface ProbeOptions {
  cwd: string;
  timeoutMs?: number;
  /** logout may sign the user out of a real account: off unless asked for. */
  includeLogout?: boolean;
}

const STABLE = new Set(Object.values(AGENT_METHODS));
export const UNSTABLE_METHODS = Object.values(UNSTABLE_AGENT_METHODS).filter((m) => !STABLE.has(m as never));

type Json = Record<string, unknown>;
const errorOf = (f?: Frame) => (f?.message as { error?: { code?: number; message?: string } } | undefined)?.error;
const resultOf = (f?: Frame) => (f?.message as { result?: Json } | undefined)?.result;

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
  return r;
}

const keys = (r: Json | undefined) => (r ? `result keys: ${Object.keys(r).join(", ") || "(none)"}` : "null result");

export async function runProbe(driver: Driver, options: ProbeOptions): Promise<ProbeRow[]> {
  const t = options.timeoutMs ?? 10_000;
  const rows: ProbeRow[] = [];
  const req = (method: string, params: unknown, id?: JsonRpcId) => driver.request(method, params, { timeoutMs: t, id });

  // 1. initialize: an unsupported version first, then the real one.
  const odd = await req(AGENT_METHODS.initialize, { protocolVersion: 999, clientCapabilities: {} });
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
    clientCapabilities: { fs: { readTextFile: false, writeTextFile: false }, terminal: false },
    clientInfo: { name: "acp-playground-probe", version: "1" },
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
      (r) => `sessionId ${String(r?.sessionId).slice(0, 12)}…, ${keys(r)}`,
      (r) => typeof resultOf(r.frame)?.sessionId === "string",
    ),
  );
  const modes = session?.modes as { currentModeId?: string; availableModes?: Array<{ id: string }> } | undefined;
  const configOptions = (session?.configOptions as Array<{ id: string; currentValue?: unknown }> | undefined) ?? [];

  // 4. A prompt turn, and the empty-response check.
  const turn = await driver.request(
    AGENT_METHODS.session_prompt,
    { sessionId, prompt: [{ type: "text", text: "Reply with the single word OK." }] },
    { timeoutMs: t * 3 },
  );
  const chunks = driver
    .frames()
    .filter((f) => f.dir === "from-agent" && f.method === "session/update" && f.seq > (created.frame?.seq ?? 0))
    .filter(
      (f) =>
        (withMessage({ ...f }).message as UpdateMessage | undefined)?.params?.update?.sessionUpdate ===
        "agent_message_chunk",
    ).length;
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

  // 5. The other stable methods with minimal valid params.
  const stableCalls: Array<[string, unknown, string]> = [
    [
      AGENT_METHODS.authenticate,
      { methodId: "acp-playground-probe-no-such-method" },
      "authenticate with an unknown methodId",
    ],
    [AGENT_METHODS.session_list, {}, "session/list"],
    [
      AGENT_METHODS.session_load,
      { sessionId, cwd: options.cwd, mcpServers: [] },
      "session/load of the probe's session",
    ],
    [
      AGENT_METHODS.session_resume,
      { sessionId, cwd: options.cwd, mcpServers: [] },
      "session/resume of the probe's session",
    ],
    [
      AGENT_METHODS.session_set_mode,
      { sessionId, modeId: modes?.currentModeId ?? modes?.availableModes?.[0]?.id ?? "default" },
      "session/set_mode to the current mode",
    ],
    [
      AGENT_METHODS.session_set_config_option,
      {
        sessionId,
        configId: configOptions[0]?.id ?? "acp-playground-probe",
        value: configOptions[0]?.currentValue ?? "x",
      },
      configOptions.length
        ? "session/set_config_option to its current value"
        : "session/set_config_option (agent reported none)",
    ],
  ];
  for (const [method, params, check] of stableCalls) rows.push(row(check, method, await req(method, params), keys));
  rows.push(
    options.includeLogout
      ? row("logout", AGENT_METHODS.logout, await req(AGENT_METHODS.logout, {}), keys)
      : {
          check: "logout",
          method: AGENT_METHODS.logout,
          outcome: "skipped",
          detail: "skipped: it may sign the user out (--include-logout to run it)",
        },
  );

  // 6. Unstable methods: minimal params.
  for (const method of UNSTABLE_METHODS) {
    rows.push(row(`${method} (unstable)`, method, await req(method, { sessionId }), keys));
  }

  // 7. Protocol hygiene.
  rows.push(
    row(
      "unknown method",
      "acp_playground/no_such_method",
      await req("acp_playground/no_such_method", {}),
      keys,
      (r) => errorOf(r.frame)?.code === -32601,
    ),
  );
  const beforeUnknown = driver.frames().length;
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
  const parseError = await driver.waitFor(
    (f) => f.dir === "from-agent" && f.kind === "response" && errorOf(f)?.code === -32700,
    1_500,
  );
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

  // 8. session/cancel in the middle of a turn.
  const cancelTurn = driver.request(
    AGENT_METHODS.session_prompt,
    { sessionId, prompt: [{ type: "text", text: "Count slowly from 1 to 200, one number per line." }] },
    { timeoutMs: t * 3 },
  );
  const startSeq = driver.frames().at(-1)?.seq ?? 0;
  await driver.waitFor((f) => f.dir === "from-agent" && f.seq > startSeq && f.method === "session/update", 3_000);
  driver.notify(AGENT_METHODS.session_cancel, { sessionId });
  const cancelled = await cancelTurn;
  const reason = resultOf(cancelled.frame)?.stopReason;
  rows.push(
    row(
      "session/cancel during a turn",
      AGENT_METHODS.session_cancel,
      cancelled,
      () => `turn ended with stopReason ${JSON.stringify(reason)}`,
      () => reason === "cancelled",
    ),
  );

  // Last: closing and deleting the session.
  rows.push(
    row("session/close", AGENT_METHODS.session_close, await req(AGENT_METHODS.session_close, { sessionId }), keys),
  );
  rows.push(
    row("session/delete", AGENT_METHODS.session_delete, await req(AGENT_METHODS.session_delete, { sessionId }), keys),
  );
  return rows;
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

/** Side-by-side comparison of two reports, by check name. */
export function compareReports(
  a: ProbeReport,
  b: ProbeReport,
): Array<{ check: string; a?: ProbeRow; b?: ProbeRow; same: boolean }> {
  const names = [...new Set([...a.rows.map((r) => r.check), ...b.rows.map((r) => r.check)])];
  return names.map((check) => {
    const ra = a.rows.find((r) => r.check === check);
    const rb = b.rows.find((r) => r.check === check);
    return { check, a: ra, b: rb, same: ra?.outcome === rb?.outcome && ra?.detail === rb?.detail };
  });
}

type UpdateMessage = { params?: { update?: { sessionUpdate?: string } } };
