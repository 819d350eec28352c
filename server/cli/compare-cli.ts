/**
 * `acp-playground compare`: one prompt to two agents (two profiles, or one
 * profile with two sets of options) at once, headless, each in a throw-away
 * workspace of its own, through the same relay code as `record`; prints the
 * comparison report (Markdown, or JSON with --json) for CI.
 */
import { copyFileSync, mkdirSync, mkdtempSync, realpathSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { parseArgs } from "node:util";
import { compareRuns, comparisonToJson, comparisonToMarkdown } from "../../lib/features/compare/compare";
import { sideLabel } from "../../lib/contracts/compare-format";
import type { Frame } from "../../lib/protocol/frame";
import type { ProtocolName } from "../../lib/protocol/protocols";
import { runSide } from "../../lib/features/compare/side";
import type { Policies } from "../../lib/features/answers/policy";
import { AgentDriver } from "../agents/agent-driver";
import { AgentHost } from "../agents/agent-host";
import { findingText, STOPS_THE_AGENT, type Finding } from "../../lib/features/connect/doctor";
import { flagPolicies } from "./cli-policies";
import { ConfigError, loadConfig, type ServerConfig } from "../config";
import { Profiles } from "../agents/profiles";
import { TranscriptStore } from "../transcripts/transcript-store";
import { removedOnExit } from "../removed-on-exit";
import { CliError } from "./cli-error";
import { argumentError, durationMs, outputFormat, outputPath } from "./cli-options";
import { commandUsage } from "./cli-usage";

interface SideSpec {
  key: "A" | "B";
  profile: string;
  options: Record<string, string | boolean>;
  label: string;
}

interface SideResult {
  spec: SideSpec;
  frames: Frame[];
  transcriptId?: string;
  /** The protocol its agent spoke (its profile's): how its frames are read. */
  protocol?: ProtocolName;
  stopReason?: string | null;
  /** Why the side did not run to the end of its turn. */
  failure?: string;
  /** The failure is the user's: an unknown profile or a bad option. */
  badArgument?: boolean;
}

const OPTION = /^(?:(A|B)\.)?([A-Za-z][A-Za-z0-9_-]{0,63})=(.*)$/s;

function parseOptions(values: string[]): Record<"A" | "B", Record<string, string | boolean>> {
  const out: Record<"A" | "B", Record<string, string | boolean>> = { A: {}, B: {} };
  for (const v of values) {
    const m = OPTION.exec(v);
    if (!m) throw new CliError(`--option must be [A.|B.]NAME=VALUE: ${v.slice(0, 100)}`, 2);
    const [, side, name, raw] = m as unknown as [string, "A" | "B" | undefined, string, string];
    // Switches (skipTrust) take true; "false" leaves them off.
    const value = raw === "true" ? true : raw;
    for (const key of side ? [side] : (["A", "B"] as const)) if (raw !== "false") out[key][name] = value;
  }
  return out;
}

/** Starts one side's agent in its own workspace, runs the prompt, stops it. Never throws for the agent's faults. */
async function runCompareSide(
  spec: SideSpec,
  config: ServerConfig,
  profiles: Profiles,
  store: TranscriptStore,
  prompt: string,
  policies: Policies,
  capabilities: { fs: boolean; terminal: boolean },
  timeoutMs: number,
): Promise<SideResult> {
  const workspace = realpathSync(mkdtempSync(path.join(tmpdir(), `acp-compare-${spec.key.toLowerCase()}-`)));
  // Removed also when the command is interrupted (SIGINT, SIGTERM).
  const removeWorkspace = removedOnExit(workspace);
  const session = new AgentHost({ ...config, workspaceRoots: [workspace] }, profiles, store);
  session.answerer.setPolicies(policies);
  // The doctor's findings as they come, as record prints them.
  let stopped: Finding | undefined;
  session.onFinding((f) => {
    if (STOPS_THE_AGENT.has(f.kind)) stopped ??= f;
    process.stderr.write(`acp-playground compare: ${spec.label}: ${findingText(f)}\n`);
  });
  const driver = new AgentDriver(session);
  const result: SideResult = { spec, frames: [] };
  try {
    const started = await session.start({ profile: spec.profile, options: spec.options }, workspace);
    if (!started.ok) {
      // Reported once both sides are done: throwing here would leave the other agent running.
      const badArgument = started.error.code === "unknown_profile" || started.error.code === "invalid_payload";
      return { ...result, failure: started.error.message, badArgument };
    }
    result.transcriptId = started.agent.transcriptId;
    if (started.agent.protocol) result.protocol = started.agent.protocol;
    const end = await runSide(driver, {
      cwd: workspace,
      prompt,
      protocol: started.agent.protocol,
      clientCapabilities: {
        fs: { readTextFile: capabilities.fs, writeTextFile: capabilities.fs },
        terminal: capabilities.terminal,
      },
      promptTimeoutMs: timeoutMs,
    });
    if (end.ok) result.stopReason = end.stopReason;
    // Stopped by the doctor: its finding is the reason, not the echoed error the handshake read.
    else result.failure = stopped ? `the doctor stopped it: ${stopped.title}` : end.message;
    result.frames = session.framesWithMessages();
    return result;
  } finally {
    driver.close();
    await session.stop();
    removeWorkspace();
  }
}

async function compare(argv: string[]): Promise<number> {
  let values: Record<string, string | boolean | string[] | undefined>;
  try {
    ({ values } = parseArgs({
      args: argv,
      options: {
        profile: { type: "string", multiple: true },
        prompt: { type: "string" },
        option: { type: "string", multiple: true },
        json: { type: "boolean" },
        format: { type: "string" },
        output: { type: "string", short: "o" },
        transcripts: { type: "string" },
        "fail-on-diff": { type: "boolean" },
        timeout: { type: "string" },
        permission: { type: "string" },
        fs: { type: "string" },
        terminal: { type: "string" },
      },
      strict: true,
    }));
  } catch (err) {
    throw new CliError(argumentError(err), 2);
  }
  const prompt = values.prompt as string | undefined;
  if (!prompt) throw new CliError("needs --prompt", 2);
  const named = (values.profile as string[] | undefined) ?? [];
  if (named.length === 0 || named.length > 2) throw new CliError("needs one or two --profile", 2);
  const options = parseOptions((values.option as string[] | undefined) ?? []);
  const timeoutMs = durationMs(values.timeout, "--timeout", 600_000);
  const format = outputFormat(values, ["markdown", "json"], "markdown");
  // Checked now, not once both agents have run.
  if (typeof values.output === "string") outputPath(values.output);
  // Off by default, as for record: Gemini then writes files itself (through the client it cannot create one, docs/gemini-quirks.md).
  const checked = flagPolicies(values, ["auto", "deny"], { permission: "auto", fs: "deny", terminal: "deny" });
  if (!checked.ok) throw new CliError(checked.error, 2);

  const specs = (["A", "B"] as const).map((key, i): SideSpec => {
    const profile = named[i] ?? named[0]!;
    return { key, profile, options: options[key], label: sideLabel(profile, options[key]) };
  }) as [SideSpec, SideSpec];
  if (specs[0].label === specs[1].label) for (const s of specs) s.label = `${s.label} (${s.key})`;

  let config: ServerConfig;
  try {
    config = { ...loadConfig(process.env, process.cwd()), graceMs: 0 };
  } catch (err) {
    if (err instanceof ConfigError) throw new CliError(`configuration error: ${err.message}`, 2);
    throw err;
  }
  const scratch = mkdtempSync(path.join(tmpdir(), "acp-compare-data-"));
  const removeScratch = removedOnExit(scratch);
  try {
    const store = new TranscriptStore(scratch);
    const profiles = new Profiles({ ...config, dataDir: scratch }, store);
    const [a, b] = await Promise.all(
      specs.map((s) =>
        runCompareSide(s, config, profiles, store, prompt, checked.value.policies, checked.value.answers, timeoutMs),
      ),
    );
    const sides = [a!, b!];
    const bad = sides.find((s) => s.badArgument);
    if (bad) throw new CliError(`${bad.spec.key}: ${bad.failure}`, 2);
    const kept: Array<string | undefined> = [];
    if (typeof values.transcripts === "string") {
      mkdirSync(values.transcripts, { recursive: true });
      for (const s of sides) {
        const target = s.transcriptId
          ? path.resolve(values.transcripts, `${s.spec.key.toLowerCase()}.jsonl`)
          : undefined;
        if (target) copyFileSync(store.file(s.transcriptId!), target);
        kept.push(target);
      }
    }
    const comparison = compareRuns(
      { label: a!.spec.label, frames: a!.frames, protocol: a!.protocol },
      { label: b!.spec.label, frames: b!.frames, protocol: b!.protocol },
    );
    const asJson =
      format === "json" ||
      (values.format === undefined && typeof values.output === "string" && values.output.endsWith(".json"));
    const report = asJson
      ? comparisonToJson(comparison, {
          prompt,
          sides: sides.map((s, i) => ({
            key: s.spec.key,
            label: s.spec.label,
            profile: s.spec.profile,
            options: s.spec.options,
            stopReason: s.stopReason,
            ...(s.failure ? { failure: s.failure } : {}),
            ...(kept[i] ? { transcript: kept[i] } : {}),
          })),
        })
      : comparisonToMarkdown(comparison) +
        sides
          .filter((s) => s.failure)
          .map((s) => `\n**${s.spec.label} failed:** ${s.failure!.replace(/\r?\n/g, " ")}\n`)
          .join("");
    if (typeof values.output === "string") {
      writeFileSync(values.output, report);
      await write(`${comparison.differences} difference(s); report: ${path.resolve(values.output)}\n`);
    } else await write(report);
    const failed = sides.filter((s) => s.failure);
    for (const s of failed) process.stderr.write(`acp-playground compare: ${s.spec.label}: ${s.failure}\n`);
    if (failed.length) return 3;
    return values["fail-on-diff"] === true && comparison.differences > 0 ? 1 : 0;
  } finally {
    removeScratch();
  }
}

function write(text: string): Promise<void> {
  return new Promise((resolve, reject) => process.stdout.write(text, (err) => (err ? reject(err) : resolve())));
}

/** Exit codes as the other commands': 0 ok, 1 differences with --fail-on-diff, 2 bad arguments, 3 an agent failed to run. */
export async function compareMain(argv: string[]): Promise<number> {
  try {
    return await compare(argv);
  } catch (err) {
    if (!(err instanceof CliError)) throw err;
    process.stderr.write(
      `acp-playground compare: ${err.message}\n${err.exitCode === 2 ? `\n${commandUsage("compare")}\n` : ""}`,
    );
    return err.exitCode;
  }
}
