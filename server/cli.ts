/**
 * `acp-playground <command>`: serve, record, replay, probe, export. The same relay
 * code as the browser playground, driven from the command line.
 */
import {
  copyFileSync,
  existsSync,
  mkdtempSync,
  readFileSync,
  realpathSync,
  rmSync,
  statSync,
  writeFileSync,
} from "node:fs";
import { homedir, tmpdir } from "node:os";
import { CLIENT_INFO } from "../lib/protocol/client-capabilities";
import path from "node:path";
import { parseArgs } from "node:util";
import { PROTOCOL_VERSION } from "@agentclientprotocol/sdk";
import { type Policies } from "../lib/features/policy";
import { POLICIES } from "../lib/contracts/policies";
import { formatReport } from "../lib/features/probe";
import { type ProbeReport } from "../lib/contracts/reports";
import { buildMatrix, matrixToJson, matrixToMarkdown } from "../lib/features/probe-matrix";
import { parseIgnorePath } from "../lib/contracts/ignore-paths";
import { secretsFromEnv } from "../lib/features/redact";
import { parseTranscript, TranscriptError, type Transcript } from "../lib/contracts/transcript";
import { AgentDriver } from "./agent-driver";
import { BrowserSession } from "./browser-session";
import { flagPolicies } from "./cli-policies";
import { ConfigError, loadConfig, type ServerConfig } from "./config";
import { Profiles } from "./profiles";
import { ProbeStore } from "./probe-store";
import { probeAgent, rerunTranscript } from "./session-tasks";
import { TranscriptStore } from "./transcript-store";
import { AGENT_METHODS, CLIENT_METHODS } from "../lib/protocol/methods";

const USAGE = `usage: acp-playground <command> [options]

commands:
  serve                                   start the playground (what npm start runs)
  record --prompt TEXT [-o run.jsonl]     start an agent, prompt it once, write the transcript
         [--profile NAME] [--cwd DIR] [--permission ask|auto|deny] [--fs auto|deny] [--terminal auto|deny]
  replay FILE [--against PROFILE] [--cwd DIR] [--ignore PATH]...
                                          re-run a transcript's client side against a fresh agent,
                                          print the diff; exit 1 when the agent behaved differently
                                          (--ignore result._meta.x leaves a path out; * any key, ** any depth)
  probe [--profile NAME]... [--all] [--json] [--include-logout] [--terminals]
                                          run the conformance battery, each agent in a throw-away
                                          workspace; print the report, or with several profiles
                                          (or --all) the protocol matrix (Markdown; --json for JSON).
                                          Reports are kept in the data directory. --terminals runs the
                                          agent's terminal commands there (never a URL profile's; the
                                          report lists them); without it terminals are not advertised
  tap [--profile NAME | -- COMMAND ARGS...]
                                          stand in for an agent in any ACP client (docs/tap.md): start the
                                          real agent, pass its stdio through untouched, copy every frame to
                                          the running playground (or record it); exits with the agent's code
  compare --profile A [--profile B] --prompt TEXT [--option A.model=x] [--json] [-o report.md] [--fail-on-diff]
                                          run one prompt on two agents at once, each in a throw-away workspace;
                                          print the comparison report (exit 1 on differences only with --fail-on-diff)
  export FILE [-o run.html]               write the transcript as one self-contained HTML file
                                          (redacted, opens offline; default: FILE with .html)

exit codes: 0 ok, 1 difference found, 2 bad arguments, 3 agent failed to start, 4 unreadable or invalid file`;

class CliError extends Error {
  constructor(
    message: string,
    readonly exitCode: number,
  ) {
    super(message);
  }
}

type Options = NonNullable<NonNullable<Parameters<typeof parseArgs>[0]>["options"]>;

function parse(argv: string[], options: Options) {
  try {
    return parseArgs({ args: argv, options, allowPositionals: true, strict: true });
  } catch (err) {
    throw new CliError(`${(err as Error).message}\n\n${USAGE}`, 2);
  }
}

function workspace(dir: string | undefined): string {
  const cwd = path.resolve(dir ?? process.cwd());
  if (!existsSync(cwd) || !statSync(cwd).isDirectory()) throw new CliError(`--cwd is not a directory: ${cwd}`, 2);
  return realpathSync(cwd);
}

interface Cli {
  session: BrowserSession;
  store: TranscriptStore;
  config: ServerConfig;
}

/**
 * The data directory: ACP_PLAYGROUND_DATA, else `data/` where the command runs
 * (as `serve` has it), but never inside the agent's workspace: there, the
 * user's data home.
 */
function cliDataDir(env: NodeJS.ProcessEnv, runDir: string, workspace: string): string {
  if (env.ACP_PLAYGROUND_DATA) return path.resolve(runDir, env.ACP_PLAYGROUND_DATA);
  const local = path.resolve(runDir, "data");
  const rel = path.relative(workspace, local);
  if (rel.startsWith("..") || path.isAbsolute(rel)) return local;
  return path.join(env.XDG_DATA_HOME || path.join(homedir(), ".local", "share"), "acp-playground");
}

function open(cwd: string, dataDir?: string): Cli {
  let config: ServerConfig;
  try {
    config = { ...loadConfig(process.env, cwd), workspaceRoots: [cwd], graceMs: 0 };
  } catch (err) {
    if (err instanceof ConfigError) throw new CliError(`configuration error: ${err.message}`, 2);
    throw err;
  }
  config.dataDir = dataDir ?? cliDataDir(process.env, process.cwd(), cwd);
  const store = new TranscriptStore(config.dataDir);
  const session = new BrowserSession("cli", config, new Profiles(config, store), store, () => {});
  return { session, store, config };
}

async function start(cli: Cli, profile: string | undefined, policies: Policies = {}) {
  cli.session.answerer.setPolicies(policies);
  const started = await cli.session.start({ profile });
  if (!started.ok) throw new CliError(started.error.message, started.error.code === "unknown_profile" ? 2 : 3);
  return started.agent;
}

/** A file named on the command line, or exit 4 saying why it cannot be read. */
function readInput(file: string): string {
  try {
    return readFileSync(file, "utf8");
  } catch (err) {
    throw new CliError(`cannot read ${file}: ${(err as NodeJS.ErrnoException).code ?? (err as Error).message}`, 4);
  }
}

function readTranscript(file: string): Transcript {
  const text = readInput(file);
  try {
    return parseTranscript(text);
  } catch (err) {
    if (err instanceof TranscriptError) throw new CliError(`${file}: ${err.message}`, 4);
    throw err;
  }
}

async function record(argv: string[]): Promise<number> {
  const { values } = parse(argv, {
    profile: { type: "string" },
    prompt: { type: "string" },
    cwd: { type: "string" },
    output: { type: "string", short: "o" },
    permission: { type: "string" },
    fs: { type: "string" },
    terminal: { type: "string" },
  });
  if (!values.prompt) throw new CliError(`record needs --prompt\n\n${USAGE}`, 2);
  const output = path.resolve((values.output as string | undefined) ?? "run.jsonl");
  const cwd = workspace(values.cwd as string | undefined);
  const checked = flagPolicies(values, POLICIES, { permission: "auto" });
  if (!checked.ok) throw new CliError(checked.error, 2);

  const scratch = mkdtempSync(path.join(tmpdir(), "acp-record-"));
  const cli = open(cwd, scratch);
  const driver = new AgentDriver(cli.session);
  try {
    const agent = await start(cli, values.profile as string | undefined, checked.value.policies);
    const init = await driver.request(AGENT_METHODS.initialize, {
      protocolVersion: PROTOCOL_VERSION,
      // Advertise only what the flags make the relay really answer.
      clientCapabilities: {
        fs: { readTextFile: checked.value.answers.fs, writeTextFile: checked.value.answers.fs },
        terminal: checked.value.answers.terminal,
      },
      clientInfo: CLIENT_INFO,
    });
    if (!init.frame || "error" in (init.frame.message as object))
      throw new CliError(`initialize failed: ${init.frame?.raw ?? "no answer"}`, 3);
    const created = await driver.request(AGENT_METHODS.session_new, { cwd, mcpServers: [] });
    const sessionId = (created.frame?.message as { result?: { sessionId?: string } } | undefined)?.result?.sessionId;
    if (!sessionId) throw new CliError(`session/new failed: ${created.frame?.raw ?? "no answer"}`, 3);
    let text = "";
    const unsubscribe = cli.session.onFrame((f) => {
      const update = (f.message as UpdateMessage | undefined)?.params?.update;
      if (
        f.method === CLIENT_METHODS.session_update &&
        update?.sessionUpdate === "agent_message_chunk" &&
        update.content?.type === "text"
      ) {
        text += update.content.text;
        process.stdout.write(update.content.text);
      }
    });
    const turn = await driver.request(
      AGENT_METHODS.session_prompt,
      { sessionId, prompt: [{ type: "text", text: values.prompt }] },
      { timeoutMs: 600_000 },
    );
    unsubscribe();
    const stopReason = (turn.frame?.message as { result?: { stopReason?: string } } | undefined)?.result?.stopReason;
    await cli.session.stop();
    copyFileSync(cli.store.file(agent.transcriptId!), output);
    process.stdout.write(
      `${text.endsWith("\n") ? "" : "\n"}stopReason: ${JSON.stringify(stopReason ?? null)}\ntranscript: ${output}\n`,
    );
    return 0;
  } finally {
    driver.close();
    await cli.session.stop();
    rmSync(scratch, { recursive: true, force: true });
  }
}

async function replay(argv: string[]): Promise<number> {
  const { values, positionals } = parse(argv, {
    against: { type: "string" },
    cwd: { type: "string" },
    ignore: { type: "string", multiple: true },
  });
  const ignore = (values.ignore as string[] | undefined) ?? [];
  for (const p of ignore) if (!parseIgnorePath(p)) throw new CliError(`--ignore: not a dot path: ${p}`, 2);
  const file = positionals[0];
  if (!file) throw new CliError(`replay needs a transcript file\n\n${USAGE}`, 2);
  const transcript = readTranscript(file);
  const cwd = workspace(values.cwd as string | undefined);
  const scratch = mkdtempSync(path.join(tmpdir(), "acp-replay-"));
  const cli = open(cwd, scratch);
  try {
    const profile = (values.against as string | undefined) ?? transcript.header.agent.profile;
    const result = await rerunTranscript(cli.session, transcript, { profile, ignore });
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
    await cli.session.stop();
    rmSync(scratch, { recursive: true, force: true });
  }
}

async function probe(argv: string[]): Promise<number> {
  const { values } = parse(argv, {
    profile: { type: "string", multiple: true },
    all: { type: "boolean" },
    json: { type: "boolean" },
    // Kept for old scripts: the agent now runs in a throw-away workspace.
    cwd: { type: "string" },
    "include-logout": { type: "boolean" },
    terminals: { type: "boolean" },
  });
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
        cli.session,
        { profile },
        {
          includeLogout: values["include-logout"] === true,
          clientCapabilities: profiles.clientCapabilities(profile),
          terminals: values.terminals === true,
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
        values.json
          ? `${JSON.stringify(report, null, 2)}\n`
          : `${formatReport(report)}\n\ntranscript: ${report.transcriptId}\nreport: ${store.dir}/${report.id}.json\n`,
      );
    } else {
      await write(values.json ? matrixToJson(reports) : matrixToMarkdown(buildMatrix(reports)));
    }
    return 0;
  } finally {
    await cli.session.stop();
  }
}

async function exportCommand(argv: string[]): Promise<number> {
  const { values, positionals } = parse(argv, { output: { type: "string", short: "o" } });
  const file = positionals[0];
  if (positionals.length !== 1 || !file) throw new CliError(`export needs one transcript file\n\n${USAGE}`, 2);
  const out = typeof values.output === "string" ? values.output : file.replace(/(\.jsonl)?$/, ".html");
  const text = readInput(file);
  const { exportHtml } = await import("./export");
  let result: Awaited<ReturnType<typeof exportHtml>>;
  try {
    result = await exportHtml(text, secretsFromEnv(process.env));
  } catch (err) {
    if (err instanceof TranscriptError) throw new CliError(`${file}: ${err.message}`, 4);
    throw err;
  }
  writeFileSync(out, result.html);
  const kb = (Buffer.byteLength(result.html) / 1024).toFixed(0);
  process.stdout.write(`wrote ${out} (${kb} KiB, ${result.redactions} secrets redacted at export)\n`);
  return 0;
}

/** Writes and waits until the text is handed to the OS: process.exit would cut a pipe's buffer short. */
function write(text: string): Promise<void> {
  return new Promise((resolve, reject) => process.stdout.write(text, (err) => (err ? reject(err) : resolve())));
}

async function main(argv: string[]): Promise<number> {
  const [command, ...rest] = argv;
  switch (command) {
    case "serve": {
      const { serve } = await import("./index");
      await serve();
      return -1; // keeps running
    }
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
    case undefined:
    case "help":
    case "--help":
    case "-h":
      process.stdout.write(`${USAGE}\n`);
      return command === undefined ? 2 : 0;
    default:
      throw new CliError(`unknown command: ${command}\n\n${USAGE}`, 2);
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

type UpdateMessage = { params?: { update?: { sessionUpdate?: string; content?: { type?: string; text: string } } } };
