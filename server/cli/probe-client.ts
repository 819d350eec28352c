/**
 * `acp-playground probe-client`: run as the agent command of any ACP client, it plays a
 * scripted agent that exercises the client's side of the protocol, judges each step as a
 * requirement (lib/features/client-probe.ts) and writes the report (JSON and Markdown).
 * stdout is the protocol: everything else goes to stderr or the report.
 */
import { randomBytes } from "node:crypto";
import { existsSync, mkdirSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { parseArgs } from "node:util";
import { PROTOCOL_VERSION } from "@agentclientprotocol/sdk";
import type { CheckResult } from "../../lib/contracts/requirements";
import {
  clientAdvertised,
  clientProbeMarkdown,
  clientProbeReport,
  STABLE_UPDATE_SAMPLES,
  type ClientProbeReport,
  type ClientRequirementId,
} from "../../lib/features/client-probe";
import type { Frame } from "../../lib/protocol/frame";
import { FrameSequencer } from "../../lib/protocol/frame-sequencer";
import { isObject } from "../../lib/protocol/json";
import { AGENT_METHODS, CLIENT_METHODS, PROTOCOL_METHODS } from "../../lib/protocol/methods";
import { LineSplitter } from "../../lib/protocol/ndjson";
import { schemaSet } from "../agents/client-services";
import { dataDirFor } from "../runtime";
import type { TapEvent } from "../../lib/contracts/tap-wire";
import { DEFAULT_MAX_LINE_BYTES } from "../../lib/protocol/ndjson";
import { secretsFromEnv } from "../../lib/features/redact";
import { DiscoveryError, findRelay, type RelayTarget } from "../tap/tap-discovery";
import type { TapSink } from "../tap/tap-sink";
import { VERSION } from "../version";
import { CliError } from "./cli-error";
import { durationMs } from "./cli-options";
import { commandUsage } from "./cli-usage";

interface Answer {
  frame: Frame;
  result?: unknown;
  error?: { code?: unknown; message?: unknown };
}

const SHORT_MS = 10_000;
const LARGE_TEXT = "x".repeat(1024 * 1024);

class ProbeAgent {
  private readonly sequencer = new FrameSequencer();
  readonly frames: Frame[] = [];
  private nextId = 1;
  private readonly waiting = new Map<string, (a: Answer | undefined) => void>();
  private readonly requestWaiters: ((f: Frame) => boolean)[] = [];
  readonly checks: CheckResult[] = [];
  /** Client requests the script has not taken yet. */
  private readonly inbox: Frame[] = [];
  ended = false;
  /** Hears every frame, both ways (the recording: a tapped conversation). */
  observe?: (frame: Frame) => void;
  private endWaiters: (() => void)[] = [];
  onCancel?: (frame: Frame) => void;
  onParseError?: (frame: Frame) => void;
  /** How long an answer no person gives may take. */
  shortMs = SHORT_MS;

  constructor(
    private readonly out: NodeJS.WritableStream,
    private readonly log: (s: string) => void,
  ) {}

  check(requirement: ClientRequirementId, status: CheckResult["status"], detail: string, frames: number[] = []): void {
    this.checks.push({ requirement, status, detail, ...(frames.length ? { frames } : {}) });
  }

  /** One line from the client. */
  receive(text: string, base64?: string): void {
    const frame = this.sequencer.line("to-agent", text, base64);
    this.frames.push(frame);
    this.observe?.(frame);
    if (frame.kind === "response" && frame.id !== undefined) {
      const key = JSON.stringify(frame.id);
      const resolve = this.waiting.get(key);
      if (!resolve) return;
      this.waiting.delete(key);
      const m = frame.message as { result?: unknown; error?: Answer["error"] };
      resolve({ frame, result: m.result, error: isObject(m.error) ? m.error : undefined });
      return;
    }
    if (frame.kind === "response" && frame.id === null) this.onParseError?.(frame);
    if (frame.kind === "notification" && frame.method === AGENT_METHODS.session_cancel) this.onCancel?.(frame);
    if (frame.kind !== "request") return;
    const i = this.requestWaiters.findIndex((w) => w(frame));
    if (i >= 0) this.requestWaiters.splice(i, 1);
    else this.inbox.push(frame);
  }

  end(): void {
    this.ended = true;
    for (const resolve of this.waiting.values()) resolve(undefined);
    this.waiting.clear();
    for (const w of this.endWaiters.splice(0)) w();
  }

  write(line: string): Frame {
    this.out.write(`${line}\n`);
    const frame = this.sequencer.line("from-agent", line);
    this.frames.push(frame);
    this.observe?.(frame);
    return frame;
  }

  send(message: Record<string, unknown>): Frame {
    return this.write(JSON.stringify({ jsonrpc: "2.0", ...message }));
  }

  notify(method: string, params: unknown): Frame {
    return this.send({ method, params });
  }

  /** Sends a request; resolves with the answer, or undefined after `timeoutMs` (or when the client left). */
  request(
    method: string,
    params: unknown,
    timeoutMs = this.shortMs,
  ): { frame: Frame; answer: Promise<Answer | undefined> } {
    const id = `probe-${this.nextId++}`;
    const frame = this.send({ id, method, params });
    const answer = new Promise<Answer | undefined>((resolve) => {
      if (this.ended) return resolve(undefined);
      const timer = setTimeout(() => {
        this.waiting.delete(JSON.stringify(id));
        resolve(undefined);
      }, timeoutMs);
      this.waiting.set(JSON.stringify(id), (a) => {
        clearTimeout(timer);
        resolve(a);
      });
    });
    return { frame, answer };
  }

  /** The next client request that `pred` accepts (earlier ones not taken count too). */
  nextRequest(pred: (f: Frame) => boolean, timeoutMs: number): Promise<Frame | undefined> {
    const i = this.inbox.findIndex(pred);
    if (i >= 0) return Promise.resolve(this.inbox.splice(i, 1)[0]);
    if (this.ended) return Promise.resolve(undefined);
    return new Promise((resolve) => {
      const timer = setTimeout(() => {
        const at = this.requestWaiters.indexOf(waiter);
        if (at >= 0) this.requestWaiters.splice(at, 1);
        resolve(undefined);
      }, timeoutMs);
      const waiter = (f: Frame) => {
        if (!pred(f)) return false;
        clearTimeout(timer);
        resolve(f);
        return true;
      };
      this.requestWaiters.push(waiter);
      this.endWaiters.push(() => {
        clearTimeout(timer);
        resolve(undefined);
      });
    });
  }

  /** Takes (and answers with -32601) client requests the script does not serve. */
  take(method: string): Frame | undefined {
    const i = this.inbox.findIndex((f) => f.method === method);
    return i >= 0 ? this.inbox.splice(i, 1)[0] : undefined;
  }

  respond(request: Frame, result: unknown): void {
    this.send({ id: request.id, result });
  }

  refuse(request: Frame, code: number, message: string): void {
    this.send({ id: request.id, error: { code, message } });
  }

  /** Whether the client still answers: an unknown `_` request gets an answer. */
  async alive(): Promise<Answer | undefined> {
    return this.request("_acp_playground/ping", {}).answer;
  }
}

const paramsOf = (f: Frame | undefined): Record<string, unknown> =>
  f && isObject(f.message) && isObject(f.message.params) ? f.message.params : {};

/** The script, step by step; every step judged. Returns the client facts for the report. */
async function script(agent: ProbeAgent, opts: { timeoutMs: number; reportPath: string }) {
  const client: ClientProbeReport["client"] = {};
  const first = await agent.nextRequest(() => true, 120_000);
  if (!first) {
    agent.check("PG-CLIENT-001", "fail", "no request from the client");
    return client;
  }
  const init = first.method === AGENT_METHODS.initialize ? first : undefined;
  if (!init) {
    agent.check("PG-CLIENT-001", "fail", `first request was ${first.method}, not initialize`, [first.seq]);
    agent.refuse(first, -32000, "initialize first");
  } else agent.check("PG-CLIENT-001", "pass", "initialize came first", [init.seq]);
  const initFrame = init ?? (await agent.nextRequest((f) => f.method === AGENT_METHODS.initialize, agent.shortMs));
  if (!initFrame) return client;
  const ip = paramsOf(initFrame);
  client.protocolVersion = ip.protocolVersion;
  client.clientCapabilities = ip.clientCapabilities;
  client.clientInfo = ip.clientInfo;
  const pv = ip.protocolVersion;
  agent.check(
    "PG-CLIENT-002",
    typeof pv === "number" && Number.isInteger(pv) && pv >= 1 ? "pass" : "fail",
    `protocolVersion ${JSON.stringify(pv)}`,
    [initFrame.seq],
  );
  const info = isObject(ip.clientInfo) ? ip.clientInfo : undefined;
  agent.check(
    "PG-CLIENT-003",
    info && typeof info.name === "string" && typeof info.version === "string" ? "pass" : "fail",
    info ? `clientInfo ${JSON.stringify(info).slice(0, 200)}` : "no clientInfo",
    [initFrame.seq],
  );
  agent.respond(initFrame, {
    protocolVersion: PROTOCOL_VERSION,
    agentCapabilities: {
      loadSession: false,
      promptCapabilities: { image: false, audio: false, embeddedContext: false },
    },
    authMethods: [],
    agentInfo: { name: "acp-playground-probe-client", title: "ACP Playground client probe", version: VERSION },
  });

  const created = await agent.nextRequest((f) => f.method === AGENT_METHODS.session_new, 120_000);
  if (!created) return client;
  const cwd = paramsOf(created).cwd;
  client.cwd = typeof cwd === "string" ? cwd : undefined;
  agent.check(
    "PG-CLIENT-004",
    typeof cwd === "string" && path.isAbsolute(cwd) ? "pass" : "fail",
    `cwd ${JSON.stringify(cwd)}`,
    [created.seq],
  );
  const sessionId = `probe-${randomBytes(4).toString("hex")}`;
  agent.respond(created, { sessionId });

  const prompt = await agent.nextRequest((f) => f.method === AGENT_METHODS.session_prompt, 600_000);
  if (!prompt) return client;
  let cancelled: Frame | undefined;
  agent.onCancel = (f) => (cancelled ??= f);
  const say = (text: string) =>
    agent.notify(CLIENT_METHODS.session_update, {
      sessionId,
      update: { sessionUpdate: "agent_message_chunk", content: { type: "text", text } },
    });
  const caps = client.clientCapabilities;

  // Every stable update kind, then: does the client still answer?
  const updates = STABLE_UPDATE_SAMPLES.map((update) =>
    agent.notify(CLIENT_METHODS.session_update, { sessionId, update }),
  );
  const afterUpdates = await agent.alive();
  agent.check(
    "PG-CLIENT-009",
    afterUpdates ? "pass" : "fail",
    afterUpdates
      ? `${updates.length} kinds streamed, the client answered after them`
      : "no answer to the next request after the updates",
    [updates[0]!.seq],
  );
  // An unknown request must be answered, with an error, by its id.
  const unknown = agent.request("_acp_playground/unknown_request", { probe: true });
  const unknownAnswer = await unknown.answer;
  agent.check(
    "PG-CLIENT-007",
    unknownAnswer?.error ? "pass" : "fail",
    unknownAnswer?.error
      ? `answered error ${JSON.stringify(unknownAnswer.error.code)}`
      : unknownAnswer
        ? "answered with a result, not an error"
        : `no answer in ${agent.shortMs} ms`,
    [unknown.frame.seq, ...(unknownAnswer ? [unknownAnswer.frame.seq] : [])],
  );
  const note = agent.notify("_acp_playground/unknown_notification", { probe: true });
  const afterNote = await agent.alive();
  agent.check(
    "PG-CLIENT-008",
    afterNote ? "pass" : "fail",
    afterNote ? "ignored, still answering" : "stopped answering",
    [note.seq],
  );

  // Permission: answered with an offered option (or cancelled)?
  const options = [
    { optionId: "probe-allow", name: "Allow", kind: "allow_once" },
    { optionId: "probe-reject", name: "Reject", kind: "reject_once" },
  ];
  agent.notify(CLIENT_METHODS.session_update, {
    sessionId,
    update: { sessionUpdate: "tool_call", toolCallId: "probe-permission", title: "Probe: may I?", status: "pending" },
  });
  const permission = agent.request(
    CLIENT_METHODS.session_request_permission,
    { sessionId, toolCall: { toolCallId: "probe-permission", title: "Probe: may I?" }, options },
    opts.timeoutMs,
  );
  const permissionAnswer = await permission.answer;
  const outcome = isObject(permissionAnswer?.result) ? permissionAnswer.result.outcome : undefined;
  const chosen = isObject(outcome) ? outcome : undefined;
  const okOutcome =
    chosen?.outcome === "cancelled" ||
    (chosen?.outcome === "selected" && options.some((o) => o.optionId === chosen.optionId));
  agent.check(
    "PG-CLIENT-006",
    okOutcome ? "pass" : "fail",
    !permissionAnswer
      ? `no answer in ${opts.timeoutMs} ms`
      : okOutcome
        ? `outcome ${JSON.stringify(chosen)}`
        : `not an offered option: ${JSON.stringify(permissionAnswer.result ?? permissionAnswer.error).slice(0, 200)}`,
    [permission.frame.seq, ...(permissionAnswer ? [permissionAnswer.frame.seq] : [])],
  );
  agent.notify(CLIENT_METHODS.session_update, {
    sessionId,
    update: { sessionUpdate: "tool_call_update", toolCallId: "probe-permission", status: "completed" },
  });

  // $/cancel_request: the request still gets an answer.
  const held = agent.request(
    CLIENT_METHODS.session_request_permission,
    { sessionId, toolCall: { toolCallId: "probe-permission", title: "Probe: withdrawn" }, options },
    agent.shortMs,
  );
  const cancel = agent.notify(PROTOCOL_METHODS.cancel_request, { requestId: held.frame.id });
  const heldAnswer = await held.answer;
  agent.check(
    "PG-CLIENT-017",
    heldAnswer ? "pass" : "fail",
    heldAnswer
      ? heldAnswer.error
        ? `answered error ${JSON.stringify(heldAnswer.error.code)}`
        : "answered with a result"
      : `no answer in ${agent.shortMs} ms after $/cancel_request`,
    [held.frame.seq, cancel.seq, ...(heldAnswer ? [heldAnswer.frame.seq] : [])],
  );

  await fsChecks(agent, caps, client.cwd, sessionId);
  await terminalChecks(agent, caps, client.cwd, sessionId);

  if (clientAdvertised(caps, "elicitation.form")) {
    const ask = agent.request(
      CLIENT_METHODS.elicitation_create,
      {
        sessionId,
        mode: "form",
        message: "The ACP client probe asks: anything to say?",
        requestedSchema: { type: "object", properties: { answer: { type: "string", title: "Answer" } } },
      },
      opts.timeoutMs,
    );
    const a = await ask.answer;
    const action = isObject(a?.result) ? a.result.action : undefined;
    const fine = action === "accept" || action === "decline" || action === "cancel";
    agent.check(
      "PG-CLIENT-019",
      fine ? "pass" : "fail",
      a ? `answered ${JSON.stringify(a.result ?? a.error).slice(0, 200)}` : `no answer in ${opts.timeoutMs} ms`,
      [ask.frame.seq, ...(a ? [a.frame.seq] : [])],
    );
  }

  // A malformed line and a large message: the client may answer -32700; it must go on.
  let parseError: Frame | undefined;
  agent.onParseError = (f) => (parseError ??= f);
  const malformed = agent.write('{"jsonrpc":"2.0","method":"session/update","params":');
  const afterMalformed = await agent.alive();
  agent.check(
    "PG-CLIENT-010",
    afterMalformed ? "pass" : "fail",
    `${parseError ? "answered -32700" : "no -32700 answer"}; ${afterMalformed ? "still answering" : "stopped answering"}`,
    [malformed.seq, ...(parseError ? [parseError.seq] : [])],
  );
  const large = say(LARGE_TEXT);
  const afterLarge = await agent.alive();
  agent.check(
    "PG-CLIENT-011",
    afterLarge ? "pass" : "fail",
    afterLarge ? "still answering after it" : "stopped answering",
    [large.seq],
  );

  // session/cancel: only the client can send it; if it did, pending permissions must have been cancelled.
  if (cancelled) {
    const pending = agent.request(
      CLIENT_METHODS.session_request_permission,
      { sessionId, toolCall: { toolCallId: "probe-permission", title: "Probe: after cancel" }, options },
      agent.shortMs,
    );
    const a = await pending.answer;
    const o = isObject(a?.result) && isObject(a.result.outcome) ? a.result.outcome.outcome : undefined;
    agent.check(
      "PG-CLIENT-018",
      o === "cancelled" ? "pass" : "fail",
      a ? `answered ${JSON.stringify(a.result ?? a.error).slice(0, 200)}` : "no answer",
      [cancelled.seq, pending.frame.seq],
    );
  } else agent.check("PG-CLIENT-018", "skip", "the client sent no session/cancel during the turn");

  say(`\n\nThe client probe is done: the report is ${opts.reportPath}.json (and .md).`);
  agent.respond(prompt, { stopReason: cancelled ? "cancelled" : "end_turn" });
  return client;
}

async function fsChecks(agent: ProbeAgent, caps: unknown, cwd: string | undefined, sessionId: string): Promise<void> {
  const readable = clientAdvertised(caps, "fs.readTextFile");
  const writable = clientAdvertised(caps, "fs.writeTextFile");
  if (!cwd || !path.isAbsolute(cwd) || (!readable && !writable)) return;
  const tag = randomBytes(4).toString("hex");
  const inside = path.join(cwd, `.acp-probe-client-${tag}.txt`);
  const outsideDir = path.join(tmpdir(), `acp-probe-client-${tag}`);
  const outside = path.join(outsideDir, "outside.txt");
  // The probe runs beside the client: it sees the files the client wrote, and cleans up after.
  const local = existsSync(cwd);
  const content = `written by the ACP client probe ${tag}\n`;
  const outsideNotes: string[] = [];
  const frames: number[] = [];
  try {
    mkdirSync(outsideDir, { recursive: true, mode: 0o700 });
    if (writable) {
      const w = agent.request(CLIENT_METHODS.fs_write_text_file, { sessionId, path: inside, content });
      const a = await w.answer;
      const onDisk = local && existsSync(inside) ? readFileSync(inside, "utf8") : undefined;
      const ok = a !== undefined && a.error === undefined && (!local || onDisk === content);
      agent.check(
        "PG-CLIENT-013",
        ok ? "pass" : "fail",
        !a
          ? `no answer in ${agent.shortMs} ms`
          : a.error
            ? `error ${JSON.stringify(a.error).slice(0, 200)}`
            : !local
              ? "answered (the cwd is not on this machine: the file was not looked at)"
              : onDisk === content
                ? "the file has the content"
                : `the file ${onDisk === undefined ? "does not exist" : "has other content"}`,
        [w.frame.seq, ...(a ? [a.frame.seq] : [])],
      );
      const wo = agent.request(CLIENT_METHODS.fs_write_text_file, { sessionId, path: outside, content });
      const ao = await wo.answer;
      outsideNotes.push(
        `write ${ao?.error ? "refused" : ao ? (existsSync(outside) ? "served" : "answered, no file") : "unanswered"}`,
      );
      frames.push(wo.frame.seq);
    }
    if (readable) {
      if (!writable && local) writeFileSync(inside, content);
      writeFileSync(outside, content);
      const r = agent.request(CLIENT_METHODS.fs_read_text_file, { sessionId, path: inside });
      const a = await r.answer;
      const got = isObject(a?.result) ? a.result.content : undefined;
      const expectable = writable || local;
      agent.check(
        "PG-CLIENT-012",
        got === content ? "pass" : expectable ? "fail" : "skip",
        !a
          ? `no answer in ${agent.shortMs} ms`
          : got === content
            ? "returned the file's content"
            : `returned ${JSON.stringify(a.result ?? a.error).slice(0, 200)}`,
        [r.frame.seq, ...(a ? [a.frame.seq] : [])],
      );
      const ro = agent.request(CLIENT_METHODS.fs_read_text_file, { sessionId, path: outside });
      const ao = await ro.answer;
      const served = isObject(ao?.result) && ao.result.content === content;
      outsideNotes.push(`read ${ao?.error ? "refused" : served ? "served" : ao ? "answered otherwise" : "unanswered"}`);
      frames.push(ro.frame.seq);
    }
    agent.check("PG-CLIENT-014", "pass", `outside the cwd (${outside}): ${outsideNotes.join(", ")}`, frames);
  } finally {
    rmSync(outsideDir, { recursive: true, force: true });
    if (local) rmSync(inside, { force: true });
  }
}

async function terminalChecks(agent: ProbeAgent, caps: unknown, cwd: string | undefined, sessionId: string) {
  if (!clientAdvertised(caps, "terminal")) return;
  const run = async (args: string[]) => {
    const c = agent.request(CLIENT_METHODS.terminal_create, {
      sessionId,
      command: process.execPath,
      args,
      ...(cwd ? { cwd } : {}),
    });
    const a = await c.answer;
    const id = isObject(a?.result) ? a.result.terminalId : undefined;
    return { seq: c.frame.seq, answer: a, id: typeof id === "string" ? id : undefined };
  };
  const call = async (method: string, terminalId: string, timeoutMs = agent.shortMs) => {
    const r = agent.request(method, { sessionId, terminalId }, timeoutMs);
    const a = await r.answer;
    return { seq: r.frame.seq, answer: a, result: isObject(a?.result) ? a.result : undefined };
  };
  const said = "acp-probe-client";
  const first = await run(["-e", `process.stdout.write(${JSON.stringify(said)})`]);
  if (!first.id) {
    agent.check("PG-CLIENT-015", "fail", `terminal/create: ${JSON.stringify(first.answer?.error ?? "no answer")}`, [
      first.seq,
    ]);
  } else {
    const waited = await call(CLIENT_METHODS.terminal_wait_for_exit, first.id);
    const output = await call(CLIENT_METHODS.terminal_output, first.id);
    const released = await call(CLIENT_METHODS.terminal_release, first.id);
    const problems = [
      waited.result?.exitCode === 0
        ? ""
        : `wait_for_exit: ${JSON.stringify(waited.answer?.result ?? waited.answer?.error ?? "no answer")}`,
      typeof output.result?.output === "string" && output.result.output.includes(said)
        ? ""
        : `output: ${JSON.stringify(output.answer?.result ?? output.answer?.error ?? "no answer").slice(0, 200)}`,
      released.answer && !released.answer.error ? "" : "release: not answered with a result",
    ].filter(Boolean);
    agent.check(
      "PG-CLIENT-015",
      problems.length ? "fail" : "pass",
      problems.length ? problems.join("; ") : "exit code 0, output seen, released",
      [first.seq, waited.seq, output.seq, released.seq],
    );
  }
  const second = await run(["-e", "setInterval(() => {}, 1000)"]);
  if (!second.id) {
    agent.check("PG-CLIENT-016", "fail", `terminal/create: ${JSON.stringify(second.answer?.error ?? "no answer")}`, [
      second.seq,
    ]);
    return;
  }
  const killed = await call(CLIENT_METHODS.terminal_kill, second.id);
  const waited = await call(CLIENT_METHODS.terminal_wait_for_exit, second.id);
  const released = await call(CLIENT_METHODS.terminal_release, second.id);
  const ok = killed.answer && !killed.answer.error && waited.result && released.answer && !released.answer.error;
  agent.check(
    "PG-CLIENT-016",
    ok ? "pass" : "fail",
    ok
      ? `killed; exit ${JSON.stringify(waited.result)}`
      : `kill ${JSON.stringify(killed.answer?.error ?? (killed.answer ? "ok" : "unanswered"))}, wait_for_exit ${waited.result ? "returned" : "did not return"}`,
    [second.seq, killed.seq, waited.seq, released.seq],
  );
}

/** Every line the client wrote: valid JSON-RPC, and matching the schema that defines it. */
function schemaChecks(agent: ProbeAgent): void {
  const schemas = schemaSet();
  let judged = 0;
  for (const f of agent.frames) {
    if (f.dir !== "to-agent") continue;
    judged++;
    if (f.kind === "invalid") {
      agent.check("PG-CLIENT-005", "fail", `not an ACP message: ${f.error ?? "invalid"}`, [f.seq]);
      continue;
    }
    const verdict = schemas.check(f);
    if (verdict?.issues.length)
      agent.check(
        "PG-CLIENT-005",
        "fail",
        `${f.method ?? f.kind}: ${verdict.issues.map((i) => `${i.path || "value"}: ${i.message}`).join("; ")}`,
        [f.seq],
      );
  }
  if (!agent.checks.some((c) => c.requirement === "PG-CLIENT-005"))
    agent.check("PG-CLIENT-005", judged ? "pass" : "skip", `${judged} lines from the client`);
}

function reportPathFor(option: string | undefined): string {
  if (option) return path.resolve(option.replace(/\.(json|md)$/, ""));
  const dir = path.join(dataDirFor(process.env), "client-probes");
  mkdirSync(dir, { recursive: true, mode: 0o700 });
  const stamp = new Date().toISOString().replace(/[-:]/g, "").replace("T", "-").slice(0, 15);
  return path.join(dir, `${stamp}-${randomBytes(4).toString("hex")}`);
}

/**
 * The probe's conversation goes where a tap's does (server/tap/tap-sink.ts): to a running
 * playground, as a read-only tab, else into a tapped transcript of its own. Frames wait
 * until the sink is loaded (the socket client loads after the client's first answer).
 */
function recordConversation(argv: string[], log: (s: string) => void) {
  const dataDir = dataDirFor(process.env);
  let relay: RelayTarget | undefined;
  try {
    relay = findRelay(process.env, dataDir);
  } catch (err) {
    if (!(err instanceof DiscoveryError)) throw err;
    log(err.message);
  }
  const waiting: TapEvent[] = [];
  let sink: TapSink | undefined;
  const now = () => performance.timeOrigin + performance.now();
  const open = {
    profile: "probe-client",
    command: "acp-playground",
    args: ["probe-client", ...argv],
    cwd: process.cwd(),
    pid: process.pid,
    startedAt: now(),
  };
  const loaded = import("../tap/tap-sink").then(({ TapSink }) => {
    sink = new TapSink({
      tapId: randomBytes(8).toString("hex"),
      open,
      relay,
      dataDir,
      bufferBytes: 16 * 1024 * 1024,
      maxLineBytes: DEFAULT_MAX_LINE_BYTES,
      flushTimeoutMs: 3_000,
      secrets: secretsFromEnv(process.env),
      report: log,
      inject: () => log("a browser tried to inject a frame: the client probe takes none"),
    });
    for (const e of waiting.splice(0)) sink.push(e);
  });
  const push = (e: TapEvent) => (sink ? sink.push(e) : waiting.push(e));
  return {
    frame: (f: Frame) =>
      push({ t: "line", ts: now(), dir: f.dir, raw: f.raw, ...(f.rawBase64 ? { base64: f.rawBase64 } : {}) }),
    /** The transcript it went to, once the sink knows. */
    transcriptId: () => sink?.transcriptId,
    async close(): Promise<void> {
      await loaded;
      push({ t: "exit", ts: now(), code: 0, signal: null });
      await sink!.close();
    },
  };
}

export async function probeClientMain(argv: string[]): Promise<number> {
  let values;
  let timeoutMs: number;
  try {
    ({ values } = parseArgs({
      args: argv,
      // -o/--output as every other command; --report was its first name.
      options: { output: { type: "string", short: "o" }, report: { type: "string" }, timeout: { type: "string" } },
      strict: true,
    }));
    if (values.output !== undefined && values.report !== undefined)
      throw new CliError("--output and --report are the same option: give one", 2);
    timeoutMs = durationMs(values.timeout, "--timeout", 120_000);
  } catch (err) {
    process.stderr.write(`acp-playground probe-client: ${(err as Error).message}\n\n${commandUsage("probe-client")}\n`);
    return 2;
  }
  const reportPath = reportPathFor(values.output ?? values.report);
  const log = (s: string) => process.stderr.write(`acp-playground probe-client: ${s}\n`);
  const startedAt = Date.now();
  const agent = new ProbeAgent(process.stdout, log);
  agent.shortMs = Math.min(SHORT_MS, timeoutMs);
  const recording = recordConversation(argv, log);
  agent.observe = recording.frame;
  const splitter = new LineSplitter();
  let turns = 0;
  // Requests after the script's turn: prompts get a short answer, the rest -32601.
  const serveRest = () => {
    void agent
      .nextRequest(() => true, 24 * 3600_000)
      .then((f) => {
        if (!f) return;
        if (f.method === AGENT_METHODS.session_prompt) {
          const sessionId = paramsOf(f).sessionId;
          agent.notify(CLIENT_METHODS.session_update, {
            sessionId,
            update: {
              sessionUpdate: "agent_message_chunk",
              content: { type: "text", text: `The client probe ran once; its report is ${reportPath}.json.` },
            },
          });
          agent.respond(f, { stopReason: "end_turn" });
          turns++;
        } else agent.refuse(f, -32601, `Method not found: ${f.method}`);
        serveRest();
      });
  };
  const stdinEnded = new Promise<void>((resolve) => {
    process.stdin.on("data", (chunk: Buffer) => {
      for (const e of splitter.push(chunk)) if (e.type === "line") agent.receive(e.text, e.base64);
    });
    process.stdin.on("end", () => {
      for (const e of splitter.end()) if (e.type === "line") agent.receive(e.text, e.base64);
      agent.end();
      resolve();
    });
  });
  const client = await script(agent, { timeoutMs, reportPath });
  schemaChecks(agent);
  const report = clientProbeReport(
    agent.checks,
    { startedAt, endedAt: Date.now(), client },
    agent.frames.map((f) => ({ seq: f.seq, dir: f.dir, raw: f.raw })),
  );
  writeFileSync(`${reportPath}.json`, `${JSON.stringify(report, null, 2)}\n`);
  writeFileSync(`${reportPath}.md`, clientProbeMarkdown(report));
  log(`${report.verdict}: wrote ${reportPath}.json and ${reportPath}.md`);
  serveRest();
  await stdinEnded;
  void turns;
  await recording.close();
  const transcriptId = recording.transcriptId();
  if (transcriptId) {
    // The report links the conversation it judged (frame seqs are the transcript's).
    writeFileSync(`${reportPath}.json`, `${JSON.stringify({ ...report, transcriptId }, null, 2)}\n`);
    log(`the conversation is transcript ${transcriptId}`);
  }
  return report.verdict === "CONFORMANT" ? 0 : 1;
}
