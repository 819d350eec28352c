/**
 * `acp-playground probe-client`: run as the agent command of any ACP client, it plays a
 * scripted agent that exercises the client's side of the protocol, judges each step as a
 * requirement (lib/features/probe/client-probe.ts) and writes the report (JSON and Markdown).
 * stdout is the protocol: everything else goes to stderr or the report.
 */
import { randomBytes } from "node:crypto";
import { mkdirSync, writeFileSync } from "node:fs";
import path from "node:path";
import { parseArgs } from "node:util";
import { PROTOCOL_VERSION } from "@agentclientprotocol/sdk";
import {
  clientAdvertised,
  clientProbeMarkdown,
  clientProbeReport,
  STABLE_UPDATE_SAMPLES,
  type ClientProbeReport,
} from "../../lib/features/probe/client-probe";
import type { Frame } from "../../lib/protocol/frame";
import { isObject } from "../../lib/protocol/json";
import { AGENT_METHODS, CLIENT_METHODS, PROTOCOL_METHODS } from "../../lib/protocol/methods";
import { LineSplitter } from "../../lib/protocol/ndjson";
import { dataDirFor } from "../runtime";
import type { TapEvent } from "../../lib/contracts/tap-wire";
import { DEFAULT_MAX_LINE_BYTES } from "../../lib/protocol/ndjson";
import { secretsFromEnv } from "../../lib/features/library/redact";
import { DiscoveryError, findRelay, type RelayTarget } from "../tap/tap-discovery";
import type { TapSink } from "../tap/tap-sink";
import { VERSION } from "../version";
import { paramsOf, ProbeAgent, SHORT_MS } from "./probe-client-agent";
import { fsChecks, schemaChecks, terminalChecks } from "./probe-client-checks";
import { CliError } from "./cli-error";
import { argumentError, durationMs, outputPath } from "./cli-options";
import { commandUsage } from "./cli-usage";

const LARGE_TEXT = "x".repeat(1024 * 1024);

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

function reportPathFor(option: string | undefined): string {
  if (option) return outputPath(option.replace(/\.(json|md)$/, ""));
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
    process.stderr.write(`acp-playground probe-client: ${argumentError(err)}\n\n${commandUsage("probe-client")}\n`);
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
