/**
 * `acp-playground <command>`: serve, record, replay, probe, export. The same relay
 * code as the browser playground, driven from the command line.
 */
import { copyFileSync, existsSync, mkdtempSync, readFileSync, realpathSync, statSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { openSide, promptSide } from "../../lib/features/compare/side";
import { MessageText } from "../../lib/folds/message-text";
import path from "node:path";
import { parseArgs } from "node:util";
import { type Policies } from "../../lib/features/answers/policy";
import { POLICIES } from "../../lib/contracts/policies";
import { descriptorOf, protocolOf } from "../../lib/protocol/protocols";
import { formatReport } from "../../lib/features/probe/probe";
import { type ProbeReport } from "../../lib/contracts/reports";
import { buildMatrix, matrixToJson, matrixToMarkdown } from "../../lib/features/probe/matrix";
import { parseIgnorePath } from "../../lib/contracts/ignore-paths";
import { secretsFromEnv } from "../../lib/features/library/redact";
import { findingText, STOPS_THE_AGENT, type Finding } from "../../lib/features/connect/doctor";
import { parseTranscript, TranscriptError, type Transcript } from "../../lib/contracts/transcript";
import { AgentDriver } from "../agents/agent-driver";
import { AgentHost } from "../agents/agent-host";
import { flagPolicies } from "./cli-policies";
import { ConfigError, loadConfig, OFFLINE_GEMINI, type CommandLineAgent, type ServerConfig } from "../config";
import { Profiles } from "../agents/profiles";
import { ProbeStore } from "../transcripts/probe-store";
import { probeAgent, rerunTranscript } from "../agents/session-tasks";
import { TranscriptStore } from "../transcripts/transcript-store";
import { dataDirFor } from "../runtime";
import { removedOnExit } from "../removed-on-exit";
import { commandUsage, helpFor } from "./cli-usage";
import { argumentError, outputFormat, outputPath } from "./cli-options";
import { CliError, readErrorText } from "./cli-error";
import { openInput, type Source } from "./transcript-source";

type Options = NonNullable<NonNullable<Parameters<typeof parseArgs>[0]>["options"]>;

function parse(command: string, argv: string[], options: Options) {
  try {
    return parseArgs({ args: argv, options, allowPositionals: true, strict: true });
  } catch (err) {
    throw new CliError(`${argumentError(err)}\n\n${commandUsage(command)}`, 2);
  }
}

function workspace(dir: string | undefined): string {
  const cwd = path.resolve(dir ?? process.cwd());
  if (!existsSync(cwd) || !statSync(cwd).isDirectory()) throw new CliError(`--cwd is not a directory: ${cwd}`, 2);
  return realpathSync(cwd);
}

interface Cli {
  host: AgentHost;
  store: TranscriptStore;
  config: ServerConfig;
  /** The doctor's findings so far, printed as they came. */
  findings: Finding[];
}

function open(cwd: string, dataDir?: string): Cli {
  let config: ServerConfig;
  try {
    config = { ...loadConfig(process.env, cwd), workspaceRoots: [cwd], graceMs: 0 };
  } catch (err) {
    if (err instanceof ConfigError) throw new CliError(`configuration error: ${err.message}`, 2);
    throw err;
  }
  config.dataDir = dataDir ?? dataDirFor(process.env, process.cwd());
  const store = new TranscriptStore(config.dataDir);
  const host = new AgentHost(config, new Profiles(config, store), store);
  // The doctor says what it is certain of the moment it sees it, not when a request times out.
  const findings: Finding[] = [];
  host.onFinding((f) => {
    findings.push(f);
    process.stderr.write(`acp-playground: the agent: ${findingText(f)}\n`);
  });
  return { host, store, config, findings };
}

/** A handshake's failure, with the way on when it is the Gemini CLI asking for an account this machine has not. */
function handshakeFailure(profile: string, message: string): string {
  if (profile !== "gemini" || !/authentication/i.test(message)) return message;
  return `${message}\n(no Gemini account here? --profile ${OFFLINE_GEMINI} runs the same Gemini CLI against the offline model)`;
}

async function start(cli: Cli, profile: string | undefined, policies: Policies = {}) {
  cli.host.answerer.setPolicies(policies);
  const started = await cli.host.start({ profile });
  if (!started.ok) throw new CliError(started.error.message, started.error.code === "unknown_profile" ? 2 : 3);
  return started.agent;
}

/** The text of a transcript named on the command line (transcript-source.ts), or exit 4 saying why it cannot be read. */
function readInput(source: Source): string {
  try {
    return readFileSync(source.file, "utf8");
  } catch (err) {
    throw new CliError(`cannot read ${source.name}: ${readErrorText(err)}`, 4);
  }
}

async function readTranscript(arg: string): Promise<Transcript> {
  const source = await openInput(arg);
  try {
    return parseTranscript(readInput(source));
  } catch (err) {
    if (err instanceof TranscriptError) throw new CliError(`${source.name}: ${err.message}`, 4);
    throw err;
  } finally {
    source.close();
  }
}

async function record(argv: string[]): Promise<number> {
  const { values } = parse("record", argv, {
    profile: { type: "string" },
    prompt: { type: "string" },
    cwd: { type: "string" },
    output: { type: "string", short: "o" },
    permission: { type: "string" },
    fs: { type: "string" },
    terminal: { type: "string" },
  });
  if (!values.prompt) throw new CliError(`record needs --prompt\n\n${commandUsage("record")}`, 2);
  const output = outputPath((values.output as string | undefined) ?? "run.jsonl");
  const cwd = workspace(values.cwd as string | undefined);
  const checked = flagPolicies(values, POLICIES, { permission: "auto" });
  if (!checked.ok) throw new CliError(checked.error, 2);

  const scratch = mkdtempSync(path.join(tmpdir(), "acp-record-"));
  // Removed also when the command is interrupted (SIGINT, SIGTERM).
  const removeScratch = removedOnExit(scratch);
  const cli = open(cwd, scratch);
  const driver = new AgentDriver(cli.host);
  try {
    const agent = await start(cli, values.profile as string | undefined, checked.value.policies);
    // In the agent's protocol (Codex's app-server: docs/app-server.md; the thread id is the session).
    const side = {
      cwd,
      prompt: values.prompt as string,
      protocol: agent.protocol,
      // Advertise only what the flags make the relay really answer.
      clientCapabilities: {
        fs: { readTextFile: checked.value.answers.fs, writeTextFile: checked.value.answers.fs },
        terminal: checked.value.answers.terminal,
      },
      promptTimeoutMs: 600_000,
    };
    const handshake = await openSide(driver, side);
    const { sessionId } = handshake.progress;
    if (!sessionId) {
      // Stopped by the doctor: its finding, printed above, is the reason (the handshake's error would be the echo's).
      const stopped = cli.findings.some((f) => STOPS_THE_AGENT.has(f.kind));
      throw new CliError(
        stopped
          ? "no session: the doctor stopped the agent (above)"
          : handshakeFailure(agent.profile, handshake.progress.message ?? "the handshake failed"),
        3,
      );
    }
    // Message boundaries kept (lib/folds/message-text.ts): a tool call between two messages is a new paragraph.
    const reply = new MessageText();
    const unsubscribe = cli.host.onFrame((f) => {
      const shown = reply.push(f);
      if (shown) process.stdout.write(shown);
    });
    const end = await promptSide(driver, side, sessionId);
    const ending = end.ok
      ? `${descriptorOf(protocolOf(agent)).turnEndField}: ${JSON.stringify(end.stopReason)}`
      : `failed: ${end.message}`;
    unsubscribe();
    await cli.host.stop();
    copyFileSync(cli.store.file(agent.transcriptId!), output);
    process.stdout.write(
      `${reply.text === "" || reply.text.endsWith("\n") ? "" : "\n"}${ending}\ntranscript: ${output}\n`,
    );
    return 0;
  } finally {
    driver.close();
    await cli.host.stop();
    removeScratch();
  }
}

async function replay(argv: string[]): Promise<number> {
  const { values, positionals } = parse("replay", argv, {
    // --against was its first name; --profile is every other command's.
    profile: { type: "string" },
    against: { type: "string" },
    cwd: { type: "string" },
    ignore: { type: "string", multiple: true },
  });
  if (values.profile !== undefined && values.against !== undefined)
    throw new CliError("replay: --profile and --against are the same option: give one", 2);
  const ignore = (values.ignore as string[] | undefined) ?? [];
  for (const p of ignore) if (!parseIgnorePath(p)) throw new CliError(`--ignore: not a dot path: ${p}`, 2);
  const file = positionals[0];
  if (!file) throw new CliError(`replay needs a transcript file\n\n${commandUsage("replay")}`, 2);
  const transcript = await readTranscript(file);
  const cwd = workspace(values.cwd as string | undefined);
  const recordedCwd = transcript.header.agent.cwd;
  // The agent is live: its own tools read and write in cwd, so a recording from elsewhere says so.
  if (recordedCwd && recordedCwd !== cwd)
    process.stderr.write(
      `acp-playground replay: recorded in ${recordedCwd}${existsSync(recordedCwd) ? "" : " (not on this machine)"}; ` +
        `the agent runs in ${cwd} and its reads and writes happen there. ` +
        `The diff maps ${recordedCwd} to ${cwd} in paths; to replay where it was recorded: --cwd ${recordedCwd}\n`,
    );
  const scratch = mkdtempSync(path.join(tmpdir(), "acp-replay-"));
  const removeScratch = removedOnExit(scratch);
  const cli = open(cwd, scratch);
  try {
    const profile =
      (values.profile as string | undefined) ??
      (values.against as string | undefined) ??
      transcript.header.agent.profile;
    const result = await rerunTranscript(cli.host, transcript, { profile, ignore });
    if (!result.ok) throw new CliError(result.error.message, result.error.code === "unknown_profile" ? 2 : 3);
    for (const step of result.steps)
      process.stdout.write(
        `${step.outcome.padEnd(9)} ${step.method}${step.latencyMs === undefined ? "" : ` (${step.latencyMs} ms)`}\n`,
      );
    for (const problem of result.problems) process.stdout.write(`problem: ${problem}\n`);
    if (result.diff.equal) {
      process.stdout.write(`no difference: ${profile} behaved as recorded\n`);
      return 0;
    }
    process.stdout.write(
      `${result.diff.patch}\n${result.diff.removed} recorded entries differ from ${result.diff.added} new ones\n`,
    );
    return 1;
  } finally {
    await cli.host.stop();
    removeScratch();
  }
}

async function probe(argv: string[]): Promise<number> {
  const { values } = parse("probe", argv, {
    profile: { type: "string", multiple: true },
    all: { type: "boolean" },
    json: { type: "boolean" },
    format: { type: "string" },
    // Kept for old scripts: the agent now runs in a throw-away workspace.
    cwd: { type: "string" },
    "include-logout": { type: "boolean" },
    terminals: { type: "boolean" },
    "auth-method": { type: "string" },
  });
  const json = outputFormat(values, ["text", "json"], "text") === "json";
  const cwd = workspace(values.cwd as string | undefined);
  const cli = open(cwd);
  const store = new ProbeStore(cli.config.dataDir);
  const profiles = new Profiles(cli.config, cli.store);
  const named = (values.profile as string[] | undefined) ?? [];
  const names = values.all ? profiles.names() : named.length ? named : [cli.config.defaultProfile];
  const reports: ProbeReport[] = [];
  try {
    for (const profile of names) {
      const result = await probeAgent(
        cli.host,
        { profile },
        {
          includeLogout: values["include-logout"] === true,
          clientCapabilities: profiles.clientCapabilities(profile),
          terminals: values.terminals === true,
          authMethod: values["auth-method"] as string | undefined,
          store,
        },
      );
      if (!result.ok) {
        // One agent that does not start must not lose the others' columns.
        if (names.length === 1 || result.error.code === "unknown_profile")
          throw new CliError(result.error.message, result.error.code === "unknown_profile" ? 2 : 3);
        process.stderr.write(`acp-playground: ${profile}: ${result.error.message}\n`);
        continue;
      }
      reports.push(result.report);
    }
    if (reports.length === 0) throw new CliError("no agent could be probed", 3);
    if (names.length === 1) {
      const [report] = reports as [ProbeReport];
      await write(
        json
          ? `${JSON.stringify(report, null, 2)}\n`
          : `${formatReport(report)}\n\ntranscript: ${report.transcriptId}\nreport: ${store.dir}/${report.id}.json\n`,
      );
    } else {
      await write(json ? matrixToJson(reports) : matrixToMarkdown(buildMatrix(reports)));
    }
    // A gate for CI: any agent NOT CONFORMANT fails the run (one that did not start is reported above).
    const failing = reports.filter((r) => r.conformance?.verdict === "NOT CONFORMANT");
    for (const r of failing)
      process.stderr.write(
        `acp-playground: ${r.profile}: NOT CONFORMANT (${r.conformance!.parts.flatMap((p) => (p.decides ? p.reasons : [])).join(", ")})\n`,
      );
    return failing.length ? 1 : 0;
  } finally {
    await cli.host.stop();
  }
}

async function exportCommand(argv: string[]): Promise<number> {
  if (argv.some((a) => a.startsWith("--otlp"))) return (await import("./otel-cli")).otlpExportMain(argv);
  const { values, positionals } = parse("export", argv, {
    output: { type: "string", short: "o" },
    viewer: { type: "boolean" },
  });
  if (values.viewer) {
    if (positionals.length)
      throw new CliError(`export --viewer takes no transcript file\n\n${commandUsage("export")}`, 2);
    const out = typeof values.output === "string" ? values.output : "viewer.html";
    outputPath(out);
    const { viewerHtml } = await import("../transcripts/export");
    const { html } = await viewerHtml();
    writeFileSync(out, html);
    process.stdout.write(`wrote ${out}: open it in a browser and drop a transcript (.jsonl) on it\n`);
    return 0;
  }
  const file = positionals[0];
  if (positionals.length !== 1 || !file)
    throw new CliError(`export needs one transcript file\n\n${commandUsage("export")}`, 2);
  const source = await openInput(file);
  const out = typeof values.output === "string" ? values.output : `${source.stem}.html`;
  const { exportHtml } = await import("../transcripts/export");
  let result: Awaited<ReturnType<typeof exportHtml>>;
  try {
    outputPath(out);
    result = await exportHtml(readInput(source), secretsFromEnv(process.env));
  } catch (err) {
    if (err instanceof TranscriptError) throw new CliError(`${source.name}: ${err.message}`, 4);
    throw err;
  } finally {
    source.close();
  }
  writeFileSync(out, result.html);
  const kb = (Buffer.byteLength(result.html) / 1024).toFixed(0);
  process.stdout.write(`wrote ${out} (${kb} KiB, ${result.redactions} secrets redacted at export)\n`);
  return 0;
}

/**
 * Serves the playground: options become the variables `npm start` reads
 * (README "Configuration"); agents after `--` or in `--agent` become profiles.
 */
async function serveCommand(all: string[]): Promise<number> {
  const argv = all.some((a) => a.startsWith("--otlp")) ? (await import("./otel-cli")).takeServeOtlpFlags(all) : all;
  const split = argv.indexOf("--");
  const own = split < 0 ? argv : argv.slice(0, split);
  const trailing = split < 0 ? [] : argv.slice(split + 1);
  const { values: flags, positionals } = parse("serve", own, {
    port: { type: "string" },
    config: { type: "string" },
    data: { type: "string" },
    database: { type: "string" },
    redis: { type: "string" },
    // Read by serve itself (server/cli/open-browser.ts), listed here so that it parses.
    "no-open": { type: "boolean" },
    agent: { type: "string", multiple: true },
  });
  const values = flags as {
    port?: string;
    config?: string;
    data?: string;
    database?: string;
    redis?: string;
    agent?: string[];
  };
  if (positionals.length)
    throw new CliError(`serve: unexpected argument ${positionals[0]} (an agent command goes after --)`, 2);
  const agents: CommandLineAgent[] = [];
  for (const spec of values.agent ?? []) {
    const eq = spec.indexOf("=");
    const [command, ...args] = spec
      .slice(eq + 1)
      .trim()
      .split(/\s+/);
    if (eq < 1 || !command) throw new CliError(`--agent: expected NAME=COMMAND, got "${spec}"`, 2);
    agents.push({ name: spec.slice(0, eq), command, args });
  }
  if (trailing.length) {
    const [command, ...args] = trailing;
    agents.unshift({ name: path.basename(command!).replace(/\.[cm]?js$/, "") || "agent", command: command!, args });
  }
  const names = agents.map((a) => a.name);
  const twice = names.find((n, i) => names.indexOf(n) !== i);
  if (twice) throw new CliError(`two agents named "${twice}": name them with --agent NAME=COMMAND`, 2);
  if (values.port !== undefined) process.env.PORT = values.port;
  if (values.config !== undefined) process.env.ACP_PLAYGROUND_CONFIG = path.resolve(values.config);
  if (values.data !== undefined) process.env.ACP_PLAYGROUND_DATA = path.resolve(values.data);
  if (values.database !== undefined) process.env.ACP_PLAYGROUND_DATABASE_URL = values.database;
  if (values.redis !== undefined) process.env.ACP_PLAYGROUND_REDIS_URL = values.redis;
  const { serve } = await import("./serve");
  try {
    await serve(agents, true);
  } catch (err) {
    if (err instanceof ConfigError) throw new CliError(`configuration error: ${err.message}`, 2);
    throw err;
  }
  return -1; // keeps running
}

/** Writes and waits until the text is handed to the OS: process.exit would cut a pipe's buffer short. */
function write(text: string): Promise<void> {
  return new Promise((resolve, reject) => process.stdout.write(text, (err) => (err ? reject(err) : resolve())));
}

async function main(argv: string[]): Promise<number> {
  const help = helpFor(argv);
  if (help !== undefined) {
    await write(`${help}\n`);
    return 0;
  }
  const [command, ...rest] = argv;
  switch (command) {
    case "serve":
      return serveCommand(rest);
    case "record":
      return record(rest);
    case "replay":
      return replay(rest);
    case "probe":
      return probe(rest);
    case "tap":
      return (await import("./tap-cli")).tapMain(rest);
    case "export":
      return exportCommand(rest);
    case "compare":
      return (await import("./compare-cli")).compareMain(rest);
    case "validate":
      return (await import("./validate-cli")).validateMain(rest);
    case "probe-client":
      return (await import("./probe-client")).probeClientMain(rest);
    case "mcp": {
      const { values, positionals } = parse("mcp", rest, { data: { type: "string" } });
      if (positionals.length)
        throw new CliError(`mcp: unexpected argument ${positionals[0]}\n\n${commandUsage("mcp")}`, 2);
      return (await import("./mcp-server")).mcpMain(values.data === undefined ? [] : ["--data", values.data as string]);
    }
    case "publish":
      return (await import("./publish-cli")).publishMain(rest);
    default:
      // No command, or only serve's options: serve this folder.
      if (command === undefined || command.startsWith("-")) return serveCommand(argv);
      throw new CliError(`unknown command: ${command}\n\n${commandUsage("")}`, 2);
  }
}

/** Exits once stdout and stderr have drained (a pipe's buffer is written asynchronously). */
function exit(code: number): void {
  let open = 2;
  const done = () => {
    if (--open === 0) process.exit(code);
  };
  process.stdout.write("", done);
  process.stderr.write("", done);
}

main(process.argv.slice(2)).then(
  (code) => {
    if (code >= 0) exit(code);
  },
  (err: Error) => {
    process.stderr.write(`acp-playground: ${err.message}\n`);
    exit(err instanceof CliError ? err.exitCode : 1);
  },
);
