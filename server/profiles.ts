/**
 * Agent profiles: the only way a command line is chosen. The browser names a
 * profile and may pass the options that profile declares; it never sends argv.
 */
import { existsSync } from "node:fs";
import path from "node:path";
import { fileURLToPath } from "node:url";
import { execa } from "execa";
import { optionArg } from "../lib/agent-options";
import type { ProfileDetails, ProfileSummary, RelayError } from "../lib/wire";
import { commandVersion, resolveCommand } from "./command-lookup";
import { childEnv } from "./process-group";
import type { ProfileConfig, ServerConfig } from "./config";
import type { RemoteProfile } from "./remote-profile";
import type { TranscriptStore } from "./transcript-store";

export interface Launch {
  profile: string;
  command: string;
  args: string[];
  env: Record<string, string>;
  /** Set for a URL profile: connect instead of spawning. */
  remote?: RemoteProfile;
}

const projectRoot = path.resolve(path.dirname(fileURLToPath(import.meta.url)), "..");

export function geminiCommand(config: Pick<ServerConfig, "geminiBin">): string {
  if (config.geminiBin) return config.geminiBin;
  const local = path.join(projectRoot, "node_modules", ".bin", "gemini");
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

type OptionSpec =
  { type: "string"; pattern: RegExp } | { type: "enum"; values: readonly string[] } | { type: "boolean" };

const GEMINI_OPTIONS: Record<string, OptionSpec> = {
  model: { type: "string", pattern: /^[\w.:/-]{1,100}$/ },
  approvalMode: { type: "enum", values: APPROVAL_MODES },
  skipTrust: { type: "boolean" },
};

function geminiOptionArgs(options: Record<string, unknown>): string[] | RelayError {
  const args: string[] = [];
  for (const [name, flag] of [
    ["model", "model"],
    ["approvalMode", "approval-mode"],
  ] as const) {
    const value = options[name];
    if (typeof value !== "string") continue;
    const arg = optionArg(flag, value);
    if (!arg.ok) return { code: "invalid_payload", message: arg.message };
    args.push(arg.arg);
  }
  if (options.skipTrust === true) args.push("--skip-trust");
  return args;
}

function checkOptions(
  profile: string,
  specs: Record<string, OptionSpec>,
  options: Record<string, unknown>,
): RelayError | undefined {
  for (const [name, value] of Object.entries(options)) {
    const spec = specs[name];
    if (!spec) return { code: "invalid_payload", message: `profile "${profile}" has no option "${name}"` };
    const ok =
      spec.type === "boolean"
        ? typeof value === "boolean"
        : spec.type === "enum"
          ? typeof value === "string" && spec.values.includes(value)
          : typeof value === "string" && spec.pattern.test(value);
    if (!ok) return { code: "invalid_payload", message: `option "${name}" has a bad value` };
  }
  return undefined;
}

const REPLAY_PREFIX = "replay:";
const REPLAY_OPTIONS: Record<string, OptionSpec> = { speed: { type: "enum", values: ["1", "10", "instant"] } };
const tsxLoader = import.meta.resolve("tsx");
const replayAgentScript = path.join(projectRoot, "server", "replay-agent.ts");

export class Profiles {
  constructor(
    private readonly config: ServerConfig,
    /** Where `replay:<id>` profiles find their transcripts. */
    private readonly transcripts?: TranscriptStore,
  ) {}

  private configured(name: string): ProfileConfig | undefined {
    return Object.hasOwn(this.config.profiles, name) ? this.config.profiles[name] : undefined;
  }

  private isBuiltinGemini(name: string): boolean {
    return name === "gemini" && !this.configured(name);
  }

  names(): string[] {
    const names = Object.keys(this.config.profiles);
    return names.includes("gemini") ? names : ["gemini", ...names];
  }

  list(): ProfileSummary[] {
    return this.names().map((name) => {
      if (this.isBuiltinGemini(name)) {
        const command = geminiCommand(this.config);
        return {
          name,
          command,
          args: ["--acp"],
          options: Object.keys(GEMINI_OPTIONS),
          description: "Gemini CLI in ACP mode (built in)",
          available: resolveCommand(command) !== undefined,
        };
      }
      const p = this.configured(name)!;
      return {
        name,
        command: p.command,
        args: p.args,
        options: [],
        description: p.description,
        // A remote agent is only known to answer once connected.
        available: p.remote !== undefined || resolveCommand(p.command) !== undefined,
      };
    });
  }

  /** The list with resolved paths and versions, for the profiles page. */
  async details(): Promise<ProfileDetails[]> {
    return Promise.all(
      this.list().map(async (p) => {
        const resolved = resolveCommand(p.command);
        return { ...p, resolved, version: resolved ? await commandVersion(resolved) : undefined };
      }),
    );
  }

  /** `replay:<id>` profiles: one per stored transcript that has frames. */
  replays(): ProfileSummary[] {
    if (!this.transcripts) return [];
    return this.transcripts
      .list()
      .filter((m) => m.frames > 0 && !m.recording)
      .map((m) => ({
        name: `${REPLAY_PREFIX}${m.id}`,
        command: "(replay)",
        args: [],
        options: Object.keys(REPLAY_OPTIONS),
        description: `Mock agent replaying "${m.title}"`,
        available: true,
      }));
  }

  /** Warms the `--acp` probe so the first Start does not wait for it; resolves when done. */
  prime(): Promise<void> {
    if (!this.isBuiltinGemini("gemini")) return Promise.resolve();
    return geminiAcpFlag(geminiCommand(this.config)).then(() => undefined);
  }

  async resolve(name: string, options: Record<string, unknown> = {}): Promise<Launch | RelayError> {
    if (name.startsWith(REPLAY_PREFIX) && this.transcripts && !this.configured(name)) {
      const id = name.slice(REPLAY_PREFIX.length);
      if (!this.transcripts.exists(id))
        return { code: "unknown_profile", message: `unknown profile: ${name} (no such transcript)` };
      const bad = checkOptions(name, REPLAY_OPTIONS, options);
      if (bad) return bad;
      const speed = typeof options.speed === "string" ? options.speed : "10";
      return {
        profile: name,
        command: process.execPath,
        args: ["--import", tsxLoader, replayAgentScript, this.transcripts.file(id), "--speed", speed],
        env: {},
      };
    }
    if (this.isBuiltinGemini(name)) {
      const bad = checkOptions(name, GEMINI_OPTIONS, options);
      if (bad) return bad;
      const command = geminiCommand(this.config);
      const optionArgs = geminiOptionArgs(options);
      if (!Array.isArray(optionArgs)) return optionArgs;
      const flag = await geminiAcpFlag(command);
      return { profile: name, command, args: [flag, ...optionArgs], env: {} };
    }
    const p = this.configured(name);
    if (!p) return { code: "unknown_profile", message: `unknown profile: ${name}` };
    const bad = checkOptions(name, {}, options);
    if (bad) return bad;
    return { profile: name, command: p.command, args: [...p.args], env: { ...p.env }, remote: p.remote };
  }
}
