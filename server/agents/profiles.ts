/**
 * Agent profiles: the only way a command line is chosen. The browser names a
 * profile and may pass the options that profile declares; it never sends argv.
 */
import { existsSync, realpathSync, rmSync } from "node:fs";
import path from "node:path";
import { execa } from "execa";
import { fail, ok, type Result } from "../../lib/protocol/result";
import type { ProfileDetails, ProfileSummary, RelayError } from "../../lib/contracts/wire";
import { DEFAULT_CLIENT_CAPABILITIES, REMOTE_CLIENT_CAPABILITIES } from "../../lib/protocol/client-capabilities";
import { optionArgs, optionValueProblem, type OptionSpec } from "../../lib/contracts/agent-options";
import { hasGeminiCredentials, OFFLINE_GEMINI } from "../config";
import { DEMO_TRANSCRIPT_ID, TranscriptStore } from "../transcripts/transcript-store";
import { commandVersion, isInterpreter, resolveCommand } from "../command-lookup";
import { probeStoreBeside } from "../transcripts/probe-store";
import { isInside } from "../workspace";
import { childEnv } from "../process-group";
import type { ProfileConfig, ServerConfig } from "../config";
import type { ProtocolName } from "../../lib/protocol/protocols";
import { UNSTARTED, type TranscriptMeta } from "../../lib/contracts/transcript-meta";
import type { RemoteProfile } from "../remote-profile";
import { nodeScript, PACKAGE_ROOT } from "../runtime";
import { SharedTranscripts, TEAM_COPIES } from "../transcripts/shared-transcripts";
import { OFFLINE_AGENT_COMMANDS, offlineAgentOf, offlineGemini, offlineModel } from "../models/offline-model";

export interface Launch {
  profile: string;
  command: string;
  args: string[];
  env: Record<string, string>;
  /** Set for a URL profile: connect instead of spawning. */
  remote?: RemoteProfile;
  /** A `replay:<id>` agent: its requests are answered from this transcript (`jsonl`, as read when resolved), never carried out. */
  replay?: { id: string; jsonl: string };
  /** The protocol it speaks; ACP when absent. */
  protocol?: ProtocolName;
  /** Folders made for this run alone (the offline model's home, with the agent's conversation): removeScratch when it ends. */
  scratch?: string[];
}

/** Removes a run's scratch folders, once its agent has exited (a failure leaves them to the next start's sweep). */
export function removeScratch(launch: Pick<Launch, "scratch">): void {
  for (const dir of launch.scratch ?? []) {
    try {
      rmSync(dir, { recursive: true, force: true, maxRetries: 2 });
    } catch {
      // An agent's child still writing there: removeLeftoverHomes takes it at a later start.
    }
  }
}

export function geminiCommand(config: Pick<ServerConfig, "geminiBin">): string {
  if (config.geminiBin) return config.geminiBin;
  const local = path.join(PACKAGE_ROOT, "node_modules", ".bin", "gemini");
  return existsSync(local) ? local : "gemini";
}

const acpFlagCache = new Map<string, Promise<string>>();

/** `--acp` on current Gemini CLIs, `--experimental-acp` on releases that lack it. */
export function geminiAcpFlag(command: string): Promise<string> {
  let flag = acpFlagCache.get(command);
  if (!flag) {
    flag = execa(command, ["--help"], {
      reject: false,
      timeout: 20_000,
      stdin: "ignore",
      env: childEnv({ NO_COLOR: "1" }).env,
      extendEnv: false,
    })
      .then((r) => {
        const help = `${String(r.stdout)}\n${String(r.stderr)}`;
        return /(^|\s)--acp\b/m.test(help) || !/--experimental-acp/.test(help) ? "--acp" : "--experimental-acp";
      })
      .catch(() => "--acp");
    acpFlagCache.set(command, flag);
  }
  return flag;
}

const APPROVAL_MODES = ["default", "auto_edit", "yolo", "plan"] as const;

/** Gemini CLI's start options; Qwen Code, a fork, takes the same (see examples/agents.config.json). */
export const GEMINI_OPTIONS: Record<string, OptionSpec> = {
  model: { flag: "--model", type: "string", pattern: /^[\w.:/-]{1,100}$/ },
  approvalMode: { flag: "--approval-mode", type: "enum", values: APPROVAL_MODES },
  skipTrust: { flag: "--skip-trust", type: "boolean" },
};

/**
 * Gemini CLI re-launches itself as a second Node process unless told not to:
 * one process starts faster and takes less memory (docs/agents.md).
 */
const GEMINI_ENV = { GEMINI_CLI_NO_RELAUNCH: "true" };

/** With fs capabilities Gemini cannot create a new file (docs/gemini-quirks.md): it writes itself after a permission. */
const GEMINI_CLIENT_CAPABILITIES = { fs: { readTextFile: false, writeTextFile: false }, terminal: false };

function checkOptions(
  profile: string,
  specs: Record<string, OptionSpec>,
  options: Record<string, unknown>,
): RelayError | undefined {
  for (const [name, value] of Object.entries(options)) {
    const spec = Object.hasOwn(specs, name) ? specs[name] : undefined;
    if (!spec) return { code: "invalid_payload", message: `profile "${profile}" has no option "${name}"` };
    const problem = optionValueProblem(name, spec, value);
    if (problem) return { code: "invalid_payload", message: problem };
  }
  return undefined;
}

/**
 * Gemini CLI without credentials answers session/new with "-32000 Gemini API key
 * is missing": say so before Connect. The rule (config.ts hasGeminiCredentials):
 * an API key, a base URL, Vertex or Code Assist settings in the server's
 * environment or the profile's `env`, or an OAuth login in ~/.gemini.
 */
const GEMINI_NO_CREDENTIALS =
  "no Gemini credentials: set GEMINI_API_KEY (or GOOGLE_API_KEY, GOOGLE_GEMINI_BASE_URL, Vertex settings) in the server environment or the profile's env, or log in once with `npx gemini`; the gemini-offline profile needs none";

function isGeminiCommand(command: string): boolean {
  return path.basename(command) === "gemini";
}

const REPLAY_PREFIX = "replay:";
/** Replay profiles relay:info lists besides the demo: one per transcript would grow without bound. */
export const LISTED_REPLAYS = 20;
const REPLAY_OPTIONS: Record<string, OptionSpec> = {
  speed: { flag: "--speed", type: "enum", values: ["1", "10", "instant"] },
};

/** Why a transcript cannot be replayed yet, if it cannot. */
function replayable(m: TranscriptMeta): string | undefined {
  if (m.recording)
    return "this transcript is still recording: it can be replayed once its agent stops (Stop agent in the tab that runs it)";
  if (m.frames === 0) return "this transcript has no frames to replay";
  return undefined;
}

/** The playground's own dependencies (its bundled Gemini CLI), links resolved. */
const OWN_MODULES = (() => {
  try {
    return realpathSync(path.join(PACKAGE_ROOT, "node_modules"));
  } catch {
    return path.join(PACKAGE_ROOT, "node_modules");
  }
})();

export class Profiles {
  /** Where `replay:<id>` profiles find their transcripts: this instance's, and the team's (`serve --database`). */
  private readonly library: SharedTranscripts | undefined;

  constructor(
    private readonly config: ServerConfig,
    private readonly transcripts?: TranscriptStore,
    shared?: SharedTranscripts,
  ) {
    this.library = shared ?? (transcripts && new SharedTranscripts(transcripts));
  }

  private configured(name: string): ProfileConfig | undefined {
    return Object.hasOwn(this.config.profiles, name) ? this.config.profiles[name] : undefined;
  }

  private isBuiltinGemini(name: string): boolean {
    return (name === "gemini" || name === OFFLINE_GEMINI) && !this.configured(name);
  }

  names(): string[] {
    const names = Object.keys(this.config.profiles);
    const builtin = ["gemini", OFFLINE_GEMINI].filter((n) => !names.includes(n));
    return [...builtin, ...names];
  }

  list(): ProfileSummary[] {
    return this.names().map((name) => {
      if (this.isBuiltinGemini(name)) {
        const command = geminiCommand(this.config);
        const offline = name === OFFLINE_GEMINI;
        return {
          name,
          command,
          args: ["--acp"],
          options: Object.keys(GEMINI_OPTIONS),
          description: offline
            ? "The real Gemini CLI with the offline model: a scripted model on this machine, no account. Try “write hello.txt saying hi”, “read README.md”, “run ls -la”."
            : "Gemini CLI in ACP mode (built in)",
          available: resolveCommand(command) !== undefined,
          clientCapabilities: GEMINI_CLIENT_CAPABILITIES,
          ...(offline || hasGeminiCredentials(process.env) ? {} : { credentialsMissing: GEMINI_NO_CREDENTIALS }),
        };
      }
      const p = this.configured(name)!;
      return {
        name,
        command: p.command,
        args: p.args,
        options: Object.keys(p.options ?? {}),
        description: p.description,
        ...(p.protocol ? { protocol: p.protocol } : {}),
        // A remote agent is only known to answer once connected.
        available: p.notInstalled === undefined && (p.remote !== undefined || resolveCommand(p.command) !== undefined),
        clientCapabilities:
          p.clientCapabilities ?? (p.remote ? REMOTE_CLIENT_CAPABILITIES : DEFAULT_CLIENT_CAPABILITIES),
        ...(p.remote === undefined &&
        p.model !== "offline" &&
        isGeminiCommand(p.command) &&
        !hasGeminiCredentials({ ...process.env, ...p.env })
          ? { credentialsMissing: GEMINI_NO_CREDENTIALS }
          : {}),
      };
    });
  }

  /** What `initialize` advertises for a profile by default (Connect, the probe). */
  clientCapabilities(name: string): Record<string, unknown> {
    return this.list().find((p) => p.name === name)?.clientCapabilities ?? DEFAULT_CLIENT_CAPABILITIES;
  }

  /**
   * The list with resolved paths and versions, for the profiles page. The
   * version is the command's `--version` (not asked of interpreters such as
   * node, whose version is not the agent's), else the `agentInfo` of the
   * newest kept probe report of the profile.
   */
  async details(): Promise<ProfileDetails[]> {
    const probed = new Map<string, string>();
    if (this.transcripts)
      for (const r of probeStoreBeside(this.transcripts).list())
        if (r.agent?.version && !probed.has(r.profile)) probed.set(r.profile, r.agent.version);
    return Promise.all(
      this.list().map(async (p) => {
        const resolved = resolveCommand(p.command);
        const env = this.isBuiltinGemini(p.name) ? GEMINI_ENV : (this.configured(p.name)?.env ?? {});
        const own =
          // A relative command (`./agent`) names a file of whatever folder it is looked up from: never run to learn.
          resolved &&
          !isInterpreter(resolved) &&
          !(p.command.includes("/") && !path.isAbsolute(p.command)) &&
          this.runnableToLearn(resolved)
            ? await commandVersion(resolved, env)
            : undefined;
        return { ...p, resolved, version: own ?? probed.get(p.name) };
      }),
    );
  }

  /**
   * Whether a command may be run just to learn something about it (`--version`,
   * `--help`): never one that lies in a workspace root, links resolved (a
   * repository can plant a file named like an agent). Starting it is another
   * matter: the user asks for that. The playground's own node_modules is
   * exempt (its code runs already, even when the workspace is its checkout).
   */
  private runnableToLearn(resolved: string): boolean {
    let real: string;
    try {
      real = realpathSync(resolved);
    } catch {
      return false;
    }
    if (isInside(OWN_MODULES, real)) return true;
    return !this.config.workspaceRoots.some((root) => isInside(root, real) || isInside(root, resolved));
  }

  /**
   * `replay:<id>` profiles, a bounded few: the shipped demo, the newest
   * LISTED_REPLAYS transcripts that have frames, and `wanted` when it names one
   * (the profile a page has chosen from the Transcripts page's "Replay as mock
   * agent"). Any stored transcript's name works wherever a profile name does
   * (CLI, links); pickers show only the chosen one, by its title (`replayOf`).
   */
  async replays(wanted?: string): Promise<ProfileSummary[]> {
    if (!this.library) return [];
    const library = this.library;
    const chosen = wanted?.startsWith(REPLAY_PREFIX) ? wanted.slice(REPLAY_PREFIX.length) : undefined;
    const newest = await library.newest(LISTED_REPLAYS);
    const besides = async (id: string | undefined) =>
      id !== undefined && TranscriptStore.isId(id) && !newest.some((m) => m.id === id)
        ? // One the database cannot be asked about now is left out, not the whole answer.
          [await library.meta(id).catch(() => undefined)]
        : [];
    const demo = await besides(DEMO_TRANSCRIPT_ID);
    const metas = [...demo, ...newest, ...(chosen === DEMO_TRANSCRIPT_ID ? [] : await besides(chosen))];
    return (
      metas
        // A session that never got a turn (a failed Connect) has nothing to replay worth a profile.
        .filter(
          (m): m is TranscriptMeta =>
            m !== undefined && (m.id === chosen || (replayable(m) === undefined && m.kind !== UNSTARTED)),
        )
        .map((m) => ({
          name: `${REPLAY_PREFIX}${m.id}`,
          command: "(replay)",
          args: [],
          options: Object.keys(REPLAY_OPTIONS),
          description:
            m.id === DEMO_TRANSCRIPT_ID
              ? `A recording of a real Gemini CLI session (the shipped demo), replayed: not a live agent`
              : `Mock agent replaying "${m.title}"; its requests are answered from the recording, never carried out`,
          ...(m.protocol ? { protocol: m.protocol } : {}),
          available: replayable(m) === undefined,
          ...(replayable(m) === undefined ? {} : { unavailable: replayable(m) }),
          ...(m.id === DEMO_TRANSCRIPT_ID ? { demo: true } : {}),
          replayOf: { id: m.id, title: m.title, ...(m.kind ? { kind: m.kind } : {}) },
        }))
    );
  }

  /** Gemini's ACP flag, from its `--help` unless it resolves nowhere or into a workspace root (then `--acp`). */
  private acpFlag(command: string): Promise<string> {
    const resolved = resolveCommand(command);
    return resolved && this.runnableToLearn(resolved) ? geminiAcpFlag(resolved) : Promise.resolve("--acp");
  }

  /** Warms the `--acp` probe so the first Start does not wait for it; resolves when done. */
  prime(): Promise<void> {
    if (!this.isBuiltinGemini("gemini") && !this.isBuiltinGemini(OFFLINE_GEMINI)) return Promise.resolve();
    return this.acpFlag(geminiCommand(this.config)).then(() => undefined);
  }

  async resolve(name: string, options: Record<string, unknown> = {}): Promise<Result<Launch, RelayError>> {
    if (name.startsWith(REPLAY_PREFIX) && this.transcripts && !this.configured(name)) {
      const id = name.slice(REPLAY_PREFIX.length);
      const meta = await this.library!.meta(id);
      if (!meta) return fail({ code: "unknown_profile", message: `unknown profile: ${name} (no such transcript)` });
      const why = replayable(meta);
      if (why) return fail({ code: "spawn_failed", message: `${name}: ${why}` });
      const bad = checkOptions(name, REPLAY_OPTIONS, options);
      if (bad) return fail(bad);
      const speed = typeof options.speed === "string" ? options.speed : "10";
      // One recorded on another instance is read from the database into a file of this run's own.
      const source = await this.library!.file(id, path.join(this.config.dataDir, TEAM_COPIES));
      if (!source) return fail({ code: "unknown_profile", message: `unknown profile: ${name} (no such transcript)` });
      return ok({
        profile: name,
        command: process.execPath,
        // replay-agent.ts reads `--speed VALUE`; the value is one of a fixed list.
        args: [...nodeScript("replay-agent"), source.file, "--speed", speed],
        env: {},
        replay: { id, jsonl: source.jsonl },
        ...(source.scratch ? { scratch: [source.scratch] } : {}),
        // The replay speaks its recording's protocol: the relay reads its frames by it.
        ...(meta?.protocol ? { protocol: meta.protocol } : {}),
      });
    }
    if (this.isBuiltinGemini(name)) {
      const bad = checkOptions(name, GEMINI_OPTIONS, options);
      if (bad) return fail(bad);
      const command = geminiCommand(this.config);
      const [flag, offline] = await Promise.all([
        this.acpFlag(command),
        name === OFFLINE_GEMINI ? offlineGemini(this.config.dataDir) : undefined,
      ]);
      return ok({
        profile: name,
        command,
        args: [flag, ...optionArgs(GEMINI_OPTIONS, options)],
        env: { ...GEMINI_ENV, ...offline?.env },
        ...(offline ? { scratch: [offline.home] } : {}),
      });
    }
    const p = this.configured(name);
    if (!p) return fail({ code: "unknown_profile", message: `unknown profile: ${name}` });
    if (p.notInstalled) return fail({ code: "spawn_failed", message: `profile "${name}": ${p.notInstalled}` });
    const bad = checkOptions(name, p.options ?? {}, options);
    if (bad) return fail(bad);
    const offline = p.model === "offline" ? offlineAgentOf(p.command, p.args) : undefined;
    if (p.model === "offline" && !offline)
      return fail({
        code: "spawn_failed",
        message: `profile "${name}": "model": "offline" serves ${OFFLINE_AGENT_COMMANDS}; "${p.command}" is none of them`,
      });
    const model = offline ? await offlineModel(offline, this.config.dataDir) : undefined;
    return ok({
      profile: name,
      command: p.command,
      args: [...p.args, ...optionArgs(p.options ?? {}, options)],
      // The offline model's variables win: they are what "model": "offline" asks for.
      env: { ...p.env, ...model?.env },
      remote: p.remote,
      ...(p.protocol ? { protocol: p.protocol } : {}),
      ...(model ? { scratch: [model.home] } : {}),
    });
  }
}
