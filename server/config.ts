/**
 * Server configuration: environment variables plus the optional JSON config
 * file named by ACP_PLAYGROUND_CONFIG. Validated once at start; a bad file is
 * a clear error, not a half-configured relay.
 */
import { randomBytes } from "node:crypto";
import { existsSync, readFileSync, realpathSync } from "node:fs";
import path from "node:path";
import type { ClientCapabilities } from "@agentclientprotocol/sdk";
import { FLAG_PATTERN, type OptionSpec } from "../lib/agent-options";
import { DEFAULT_MAX_LINE_BYTES } from "../lib/ndjson";
import { parseRemoteProfile, RemoteProfileError, type RemoteProfile } from "./remote-profile";
import { resolveCommand } from "./command-lookup";
import { isObject } from "../lib/json";

export interface ProfileConfig {
  command: string;
  args: string[];
  env: Record<string, string>;
  description?: string;
  /** A URL profile: the agent is reached over HTTP or WebSocket; `command` holds the URL. */
  remote?: RemoteProfile;
  /** Start options the browser may set, each a declared flag and value rule. */
  options?: Record<string, OptionSpec>;
  /** What `initialize` advertises by default; the playground's defaults when absent. */
  clientCapabilities?: ClientCapabilities;
}

export interface ServerConfig {
  host: string;
  port: number;
  token: string;
  /** Origins besides the server's own that may open a socket. */
  allowedOrigins: string[];
  profiles: Record<string, ProfileConfig>;
  defaultProfile: string;
  /** Real paths; an agent's cwd must lie inside one of them. */
  workspaceRoots: string[];
  /** How long an agent outlives its disconnected browser session. */
  graceMs: number;
  /** How long a stopping agent gets between SIGTERM and SIGKILL. */
  killGraceMs: number;
  maxLineBytes: number;
  /** A request to the agent unanswered this long is reported (not cancelled); session/prompt excepted. */
  requestTimeoutMs: number;
  /** Frames kept per agent for re-attaching clients. */
  replayFrames: number;
  /** Bytes of frames (raw lines) kept per agent for re-attaching clients, and queued for its socket. */
  replayBytes: number;
  /** Bytes of stderr kept per agent for re-attaching clients. */
  stderrBytes: number;
  /** The most one fs/read_text_file returns. */
  maxReadBytes: number;
  /** Terminal output kept when the agent asks for none or more. */
  terminalOutputBytes: number;
  /** Warm agents kept per profile (ACP_PLAYGROUND_POOL="gemini=1", or "pool" in the file). */
  pool: Record<string, number>;
  /** Where transcripts are kept (ACP_PLAYGROUND_DATA). */
  dataDir: string;
  /** Explicit gemini binary (GEMINI_BIN or the config file's geminiBin). */
  geminiBin?: string;
}

export class ConfigError extends Error {}

type Env = Record<string, string | undefined>;

const MIB = 1024 * 1024;

function intFrom(env: Env, name: string, fallback: number, min = 0): number {
  const raw = env[name];
  if (raw === undefined || raw === "") return fallback;
  const value = Number(raw);
  if (!Number.isInteger(value) || value < min) {
    throw new ConfigError(`${name} must be an integer >= ${min}, got "${raw}"`);
  }
  return value;
}

function readConfigFile(file: string): Record<string, unknown> {
  let text: string;
  try {
    text = readFileSync(file, "utf8");
  } catch (err) {
    throw new ConfigError(`cannot read config file ${file}: ${(err as Error).message}`);
  }
  let parsed: unknown;
  try {
    parsed = JSON.parse(text);
  } catch (err) {
    throw new ConfigError(`config file ${file} is not valid JSON: ${(err as Error).message}`);
  }
  if (typeof parsed !== "object" || parsed === null || Array.isArray(parsed)) {
    throw new ConfigError(`config file ${file} must hold a JSON object`);
  }
  return parsed as Record<string, unknown>;
}

const isStringArray = (v: unknown): v is string[] => Array.isArray(v) && v.every((s) => typeof s === "string");

const isStringMap = (v: unknown): v is Record<string, string> =>
  isObject(v) && Object.values(v).every((x) => typeof x === "string");

function parseOptions(raw: unknown, where: string): Record<string, OptionSpec> {
  if (raw === undefined) return {};
  if (!isObject(raw)) throw new ConfigError(`${where}: "options" must be an object`);
  const out: Record<string, OptionSpec> = {};
  for (const [name, o] of Object.entries(raw)) {
    const at = `${where}: option "${name}"`;
    if (!/^[A-Za-z][\w-]{0,63}$/.test(name)) throw new ConfigError(`${where}: bad option name "${name}"`);
    if (!isObject(o) || typeof o.flag !== "string" || !FLAG_PATTERN.test(o.flag))
      throw new ConfigError(`${at} needs a "flag" such as "--model"`);
    if (o.type === "boolean") out[name] = { flag: o.flag, type: "boolean" };
    else if (o.values !== undefined) {
      if (!isStringArray(o.values) || o.values.length === 0 || o.values.some((v) => v.startsWith("-")))
        throw new ConfigError(`${at}: "values" must be strings that do not start with "-"`);
      out[name] = { flag: o.flag, type: "enum", values: o.values };
    } else {
      if (typeof o.pattern !== "string")
        throw new ConfigError(`${at} needs "values", a "pattern" or "type": "boolean"`);
      let pattern: RegExp;
      try {
        // Anchored whole: a pattern without ^...$ must not pass a longer value.
        pattern = new RegExp(`^(?:${o.pattern})$`);
      } catch (err) {
        throw new ConfigError(`${at}: bad pattern: ${(err as Error).message}`);
      }
      out[name] = { flag: o.flag, type: "string", pattern };
    }
  }
  return out;
}

function parseClientCapabilities(raw: unknown, where: string): ClientCapabilities | undefined {
  if (raw === undefined) return undefined;
  const bad = () =>
    new ConfigError(
      `${where}: "clientCapabilities" must be { fs?: { readTextFile?, writeTextFile? }, terminal?, _meta? }`,
    );
  if (!isObject(raw)) throw bad();
  const fs = raw.fs ?? {};
  if (!isObject(fs) || !Object.values(fs).every((v) => typeof v === "boolean")) throw bad();
  if (raw.terminal !== undefined && typeof raw.terminal !== "boolean") throw bad();
  if (raw._meta !== undefined && !isObject(raw._meta)) throw bad();
  return {
    fs: { readTextFile: fs.readTextFile === true, writeTextFile: fs.writeTextFile === true },
    terminal: raw.terminal === true,
    ...(raw._meta ? { _meta: raw._meta } : {}),
  };
}

/** The ACP registry's platform key for this machine (`linux-x86_64`, `darwin-aarch64`, ...). */
export function registryPlatform(platform = process.platform, arch = process.arch): string {
  const os = platform === "win32" ? "windows" : platform;
  return `${os}-${arch === "x64" ? "x86_64" : arch === "arm64" ? "aarch64" : arch}`;
}

const projectBin = path.resolve(path.dirname(new URL(import.meta.url).pathname), "..", "node_modules", ".bin");

/**
 * A command line from an ACP registry entry (`distribution`, agent.json):
 * this platform's `binary` (its `cmd` relative to the config file, already
 * unpacked: nothing is downloaded), else `npx`: the package's command when it
 * is installed, else `npx --no` (which runs an installed package, never fetches).
 */
function fromDistribution(
  dist: unknown,
  where: string,
  base: string,
): { command: string; args: string[]; env: Record<string, string> } {
  if (!isObject(dist)) throw new ConfigError(`${where}: "distribution" must be an object`);
  const entry = (d: unknown, kind: string) => {
    if (!isObject(d)) throw new ConfigError(`${where}: distribution.${kind} must be an object`);
    if (d.args !== undefined && !isStringArray(d.args))
      throw new ConfigError(`${where}: distribution.${kind}.args must be an array of strings`);
    if (d.env !== undefined && !isStringMap(d.env))
      throw new ConfigError(`${where}: distribution.${kind}.env must map names to strings`);
    return { args: (d.args as string[] | undefined) ?? [], env: (d.env as Record<string, string> | undefined) ?? {} };
  };
  const binaries = dist.binary;
  if (binaries !== undefined && !isObject(binaries))
    throw new ConfigError(`${where}: distribution.binary must be an object`);
  const binary = binaries?.[registryPlatform()];
  if (isObject(binary)) {
    if (typeof binary.cmd !== "string" || binary.cmd === "")
      throw new ConfigError(`${where}: distribution.binary.${registryPlatform()} needs a "cmd"`);
    const command = binary.cmd.includes("/") ? path.resolve(base, binary.cmd) : binary.cmd;
    return { command, ...entry(binary, "binary") };
  }
  const npx = dist.npx;
  if (npx === undefined)
    throw new ConfigError(`${where}: distribution has no "npx" entry and no "binary" entry for ${registryPlatform()}`);
  if (!isObject(npx) || typeof npx.package !== "string" || npx.package === "")
    throw new ConfigError(`${where}: distribution.npx needs a "package"`);
  const { args, env } = entry(npx, "npx");
  const cmd = typeof npx.cmd === "string" && npx.cmd !== "" ? npx.cmd : undefined;
  if (cmd) {
    const local = path.join(projectBin, cmd);
    if (resolveCommand(local)) return { command: local, args, env };
    if (resolveCommand(cmd)) return { command: cmd, args, env };
    return { command: "npx", args: ["--no", "--package", npx.package, cmd, ...args], env };
  }
  return { command: "npx", args: ["--no", npx.package, ...args], env };
}

function parseProfiles(raw: unknown, file: string): Record<string, ProfileConfig> {
  if (raw === undefined) return {};
  if (!isObject(raw)) {
    throw new ConfigError(`${file}: "profiles" must be an object`);
  }
  const base = file ? path.dirname(path.resolve(file)) : process.cwd();
  const profiles: Record<string, ProfileConfig> = {};
  for (const [name, value] of Object.entries(raw)) {
    if (!/^[\w.-]{1,64}$/.test(name)) throw new ConfigError(`${file}: bad profile name "${name}"`);
    const where = `${file}: profile "${name}"`;
    const p = value as Record<string, unknown>;
    if (typeof p === "object" && p !== null && "url" in p) {
      profiles[name] = remoteProfile(name, p, file);
      continue;
    }
    if (!isObject(p)) throw new ConfigError(`${file}: profile "${name}" needs a "command" string`);
    let launch: { command: string; args: string[]; env: Record<string, string> };
    if (p.distribution !== undefined && p.command === undefined) {
      launch = fromDistribution(p.distribution, where, base);
    } else {
      if (typeof p.command !== "string" || p.command === "") {
        throw new ConfigError(`${file}: profile "${name}" needs a "command" string`);
      }
      if (p.args !== undefined && !isStringArray(p.args)) {
        throw new ConfigError(`${where}: "args" must be an array of strings`);
      }
      launch = { command: p.command, args: (p.args as string[]) ?? [], env: {} };
    }
    const env = p.env ?? {};
    if (!isStringMap(env)) {
      throw new ConfigError(`${where}: "env" must map names to strings`);
    }
    if (p.description !== undefined && typeof p.description !== "string") {
      throw new ConfigError(`${where}: "description" must be a string`);
    }
    const description =
      p.description ??
      (typeof p.name === "string" ? `${p.name}${typeof p.version === "string" ? ` ${p.version}` : ""}` : undefined);
    const clientCapabilities = parseClientCapabilities(p.clientCapabilities, where);
    profiles[name] = {
      command: launch.command,
      args: launch.args,
      env: { ...launch.env, ...env },
      description,
      options: parseOptions(p.options, where),
      ...(clientCapabilities ? { clientCapabilities } : {}),
    };
  }
  return profiles;
}

function remoteProfile(name: string, p: Record<string, unknown>, file: string): ProfileConfig {
  try {
    const remote = parseRemoteProfile(p);
    if (p.description !== undefined && typeof p.description !== "string")
      throw new RemoteProfileError(`"description" must be a string`);
    return { command: remote.url, args: [], env: {}, description: p.description, remote };
  } catch (err) {
    if (err instanceof RemoteProfileError) throw new ConfigError(`${file}: profile "${name}": ${err.message}`);
    throw err;
  }
}

function realRoot(root: string, base: string): string {
  try {
    return realpathSync(path.resolve(base, root));
  } catch {
    throw new ConfigError(`workspace root does not exist: ${root}`);
  }
}

function parsePool(
  fromEnv: string | undefined,
  fromFile: unknown,
  defaultProfile: string,
  file: string,
): Record<string, number> {
  const pool: Record<string, number> = {};
  const add = (name: string, size: unknown, where: string) => {
    if (!Number.isInteger(size) || (size as number) < 0 || (size as number) > 32)
      throw new ConfigError(`${where}: pool size of "${name}" must be an integer 0..32`);
    pool[name] = size as number;
  };
  if (fromEnv !== undefined) {
    for (const entry of fromEnv
      .split(",")
      .map((s) => s.trim())
      .filter(Boolean)) {
      const [name, size] = entry.split("=");
      add(name ?? "", Number(size), "ACP_PLAYGROUND_POOL");
    }
    return pool;
  }
  if (fromFile !== undefined) {
    if (typeof fromFile !== "object" || fromFile === null || Array.isArray(fromFile))
      throw new ConfigError(`${file}: "pool" must map profile names to sizes`);
    for (const [name, size] of Object.entries(fromFile)) add(name, size, file);
    return pool;
  }
  // One warm agent for a real default agent; a replay starts instantly anyway.
  return defaultProfile.startsWith("replay:") ? {} : { [defaultProfile]: 1 };
}

/** Whether the Gemini CLI could authenticate; without, the default agent is the offline demo replay. */
export function hasGeminiCredentials(env: Env): boolean {
  if (
    env.GEMINI_API_KEY ||
    env.GOOGLE_API_KEY ||
    env.GOOGLE_GEMINI_BASE_URL ||
    env.GOOGLE_GENAI_USE_VERTEXAI ||
    env.GOOGLE_GENAI_USE_GCA
  ) {
    return true;
  }
  const home = env.GEMINI_CLI_HOME || env.HOME;
  return !!home && existsSync(path.join(home, ".gemini", "oauth_creds.json"));
}

export function loadConfig(env: Env = process.env, cwd = process.cwd()): ServerConfig {
  const file = env.ACP_PLAYGROUND_CONFIG;
  const fileConfig = file ? readConfigFile(file) : {};
  const fileDir = file ? path.dirname(path.resolve(cwd, file)) : cwd;

  const profiles = parseProfiles(fileConfig.profiles, file ?? "");
  const roots = fileConfig.workspaceRoots;
  if (roots !== undefined && (!isStringArray(roots) || roots.length === 0)) {
    throw new ConfigError(`${file}: "workspaceRoots" must be a non-empty array of paths`);
  }
  const workspaceRoots = (roots ?? [cwd]).map((r) => realRoot(r, fileDir));

  const defaultProfile =
    (fileConfig.defaultProfile as string | undefined) ?? (hasGeminiCredentials(env) ? "gemini" : "replay:demo-gemini");
  const geminiBin = env.GEMINI_BIN || (fileConfig.geminiBin as string | undefined);

  const pool = parsePool(env.ACP_PLAYGROUND_POOL, fileConfig.pool, defaultProfile, file ?? "");

  const port = intFrom(env, "PORT", 3000);
  if (port > 65535) throw new ConfigError(`PORT must be <= 65535`);
  return {
    host: env.HOST || "127.0.0.1",
    port,
    token: env.ACP_PLAYGROUND_TOKEN || randomBytes(24).toString("base64url"),
    allowedOrigins: (env.ALLOWED_ORIGINS ?? "")
      .split(",")
      .map((s) => s.trim())
      .filter(Boolean),
    profiles,
    defaultProfile,
    workspaceRoots,
    graceMs: intFrom(env, "ACP_PLAYGROUND_GRACE_MS", 60_000),
    killGraceMs: intFrom(env, "ACP_PLAYGROUND_KILL_GRACE_MS", 3_000),
    maxLineBytes: intFrom(env, "ACP_PLAYGROUND_MAX_LINE_BYTES", DEFAULT_MAX_LINE_BYTES, 1024),
    replayFrames: intFrom(env, "ACP_PLAYGROUND_REPLAY_FRAMES", 100_000, 1),
    replayBytes: intFrom(env, "ACP_PLAYGROUND_REPLAY_BYTES", 64 * MIB, 1024),
    stderrBytes: intFrom(env, "ACP_PLAYGROUND_STDERR_BYTES", 1 * MIB, 1024),
    maxReadBytes: intFrom(env, "ACP_PLAYGROUND_MAX_READ_BYTES", 10 * MIB, 1),
    terminalOutputBytes: intFrom(env, "ACP_PLAYGROUND_TERMINAL_OUTPUT_BYTES", 1 * MIB, 1),
    requestTimeoutMs: intFrom(env, "ACP_PLAYGROUND_REQUEST_TIMEOUT_MS", 30_000, 1),
    pool,
    dataDir: path.resolve(cwd, env.ACP_PLAYGROUND_DATA || "data"),
    geminiBin,
  };
}

/** Disk limits of the transcript store (README "Configuration"); 0 turns the total and count limits off. */
export interface TranscriptLimits {
  /** One transcript's bytes: a recording stops writing there and notes why. */
  fileBytes: number;
  /** All transcripts' bytes, and their number: the oldest are dropped first (shared, renamed and uploaded ones never). */
  totalBytes: number;
  count: number;
  /** An uploaded transcript's bytes. */
  uploadBytes: number;
}

export function transcriptLimits(env: Env = process.env): TranscriptLimits {
  return {
    fileBytes: intFrom(env, "ACP_PLAYGROUND_TRANSCRIPT_MAX_BYTES", 64 * 1024 * 1024, 4096),
    totalBytes: intFrom(env, "ACP_PLAYGROUND_TRANSCRIPTS_MAX_BYTES", 1024 * 1024 * 1024),
    count: intFrom(env, "ACP_PLAYGROUND_TRANSCRIPTS_MAX_COUNT", 500),
    uploadBytes: intFrom(env, "ACP_PLAYGROUND_UPLOAD_MAX_BYTES", 256 * 1024 * 1024, 1),
  };
}
