/**
 * Server configuration: environment variables plus the optional JSON config
 * file named by ACP_PLAYGROUND_CONFIG. Validated once at start; a bad file is
 * a clear error, not a half-configured relay.
 */
import { randomBytes } from "node:crypto";
import { existsSync, readFileSync, realpathSync } from "node:fs";
import path from "node:path";
import type { ClientCapabilities } from "@agentclientprotocol/sdk";
import { FLAG_PATTERN, type OptionSpec } from "../lib/contracts/agent-options";
import { DEFAULT_MAX_LINE_BYTES } from "../lib/protocol/ndjson";
import { z } from "zod";
import { describeIssues } from "../lib/protocol/contract";
import { isObject } from "../lib/protocol/json";
import { PROTOCOL_NAMES, type ProtocolName } from "../lib/protocol/protocols";
import { OWNER_NAME } from "../lib/contracts/transcript-meta";
import { clientCapabilitiesSchema } from "./profile-capabilities";
import { remoteProfileSchema, type RemoteProfile } from "./remote-profile";
import { installedCommand } from "./command-lookup";
import { dataDirFor } from "./runtime";
import { OFFLINE_AGENT_COMMANDS, offlineAgentOf } from "./models/offline-model";
import { ConfigError, DEFAULT_KILL_GRACE_MS, dataDirProblem, intFrom } from "./config-env";

function usableDataDir(dir: string): string {
  const problem = dataDirProblem(dir);
  if (problem) throw new ConfigError(problem);
  return dir;
}

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
  /** The protocol the agent speaks; ACP when absent (lib/protocol/protocols.ts). */
  protocol?: ProtocolName;
  /** A registry profile whose npm package is not installed: why it cannot start (it is never fetched). */
  notInstalled?: string;
  /** "offline": the agent talks to the offline model this process serves, in its API (server/models/offline-model.ts). */
  model?: "offline";
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
  /** The library's search index (ACP_PLAYGROUND_SEARCH_INDEX=0 turns it off; on when absent). */
  searchIndex?: boolean;
  /** A team library on PostgreSQL (`serve --database`, ACP_PLAYGROUND_DATABASE_URL; docs/scaling.md). */
  database?: string;
  /** Live events shared across instances through Redis (`serve --redis`, ACP_PLAYGROUND_REDIS_URL; docs/scaling.md). */
  redis?: string;
  /** An instance's lease on the database (ACP_PLAYGROUND_DATABASE_LEASE_MS): its recordings are marked crashed this long after it dies. */
  databaseLeaseMs?: number;
  /** Bytes of recordings waiting for the database kept from local retention (ACP_PLAYGROUND_DATABASE_BACKLOG_BYTES). */
  databaseBacklogBytes?: number;
  /** Terminal output kept when the agent asks for none or more. */
  terminalOutputBytes: number;
  /** Warm agents kept per profile (ACP_PLAYGROUND_POOL="gemini=1", or "pool" in the file). */
  pool: Record<string, number>;
  /** Where transcripts are kept (ACP_PLAYGROUND_DATA). */
  dataDir: string;
  /** Explicit gemini binary (GEMINI_BIN or the config file's geminiBin). */
  geminiBin?: string;
  /** The config file read at start (absolute), where profiles added from the page are written. */
  configFile?: string;
  /** Named tokens, one per person (the config file's "tokens"): name -> token. Read again when the file changes. */
  tokens?: Record<string, string>;
}

export { ConfigError };

type Env = Record<string, string | undefined>;

const MIB = 1024 * 1024;

function readConfigFile(file: string): unknown {
  let text: string;
  try {
    text = readFileSync(file, "utf8");
  } catch (err) {
    throw new ConfigError(`cannot read config file ${file}: ${(err as Error).message}`);
  }
  try {
    return JSON.parse(text);
  } catch (err) {
    throw new ConfigError(`config file ${file} is not valid JSON: ${(err as Error).message}`);
  }
}

const stringMap = z.record(z.string(), z.string());

/** A start option the browser may set: a declared flag and one value rule. */
const optionSchema = z
  .strictObject({
    flag: z
      .string({ error: 'needs a "flag" such as "--model"' })
      .regex(FLAG_PATTERN, 'needs a "flag" such as "--model"'),
    type: z.literal("boolean").optional(),
    values: z
      .array(z.string().refine((v) => !v.startsWith("-"), 'values must be strings that do not start with "-"'))
      .min(1)
      .optional(),
    pattern: z.string().optional(),
  })
  .transform((o, ctx): OptionSpec => {
    if (o.type === "boolean") return { flag: o.flag, type: "boolean" };
    if (o.values) return { flag: o.flag, type: "enum", values: o.values };
    if (o.pattern === undefined) {
      ctx.addIssue({ code: "custom", message: 'needs "values", a "pattern" or "type": "boolean"' });
      return z.NEVER;
    }
    try {
      // Anchored whole: a pattern without ^...$ must not pass a longer value.
      return { flag: o.flag, type: "string", pattern: new RegExp(`^(?:${o.pattern})$`) };
    } catch (err) {
      ctx.addIssue({ code: "custom", path: ["pattern"], message: `bad pattern: ${(err as Error).message}` });
      return z.NEVER;
    }
  });

/** What every local profile may add to its command line. */
const profileExtras = {
  protocol: z.enum(PROTOCOL_NAMES).optional(),
  env: stringMap.optional(),
  description: z.string().optional(),
  options: z.record(z.string().regex(/^[A-Za-z][\w-]{0,63}$/, "bad option name"), optionSchema).optional(),
  clientCapabilities: clientCapabilitiesSchema.optional(),
  model: z.literal("offline", { error: 'must be "offline" (the only model a profile can name)' }).optional(),
};

const commandProfileSchema = z.strictObject({
  command: z.string({ error: 'needs a "command" string' }).min(1, 'needs a "command" string'),
  args: z.array(z.string()).optional(),
  // Kept from a registry entry turned into a command profile: they only name it.
  name: z.string().optional(),
  version: z.string().optional(),
  ...profileExtras,
});

const distributionEntry = { args: z.array(z.string()).optional(), env: stringMap.optional() };

/**
 * An ACP registry entry (agent.json) pasted as a profile. Loose: the registry's
 * other fields (id, authors, icon, other distributions...) are allowed and unused.
 */
const registryProfileSchema = z.looseObject({
  name: z.string().optional(),
  version: z.string().optional(),
  distribution: z.looseObject({
    binary: z
      .record(z.string(), z.looseObject({ cmd: z.string().min(1, 'needs a "cmd"'), ...distributionEntry }))
      .optional(),
    npx: z
      .looseObject({
        package: z.string({ error: 'needs a "package"' }).min(1, 'needs a "package"'),
        cmd: z.string().optional(),
        ...distributionEntry,
      })
      .optional(),
  }),
  ...profileExtras,
});

/** The config file named by ACP_PLAYGROUND_CONFIG (README "Configuration"). */
export const configFileSchema = z.strictObject({
  // Profiles come in three shapes; each is checked by its own schema (parseProfile).
  profiles: z.record(z.string().regex(/^[\w.-]{1,64}$/, "bad profile name"), z.unknown()).optional(),
  workspaceRoots: z.array(z.string()).min(1, "must be a non-empty array of paths").optional(),
  defaultProfile: z.string().min(1).optional(),
  geminiBin: z.string().min(1).optional(),
  pool: z.record(z.string(), z.unknown()).optional(),
  tokens: z.unknown().optional(),
});
export type ConfigFile = z.input<typeof configFileSchema>;

const poolSize = z
  .int("must be an integer 0..32")
  .min(0, "must be an integer 0..32")
  .max(32, "must be an integer 0..32");

/** Parses with `schema` or throws a ConfigError naming the file and the field (under `at`). */
function parseOrThrow<S extends z.ZodType>(schema: S, value: unknown, where: string, at: string[] = []): z.output<S> {
  const parsed = schema.safeParse(value);
  if (parsed.success) return parsed.data;
  const issues = parsed.error.issues.map((i) => ({ ...i, path: [...at, ...i.path] }));
  throw new ConfigError(`${where}: ${describeIssues(new z.ZodError(issues))}`);
}

/** The ACP registry's platform key for this machine (`linux-x86_64`, `darwin-aarch64`, ...). */
export function registryPlatform(platform = process.platform, arch = process.arch): string {
  const os = platform === "win32" ? "windows" : platform;
  return `${os}-${arch === "x64" ? "x86_64" : arch === "arm64" ? "aarch64" : arch}`;
}

/**
 * A command line from an ACP registry entry (`distribution`, agent.json):
 * this platform's `binary` (its `cmd` relative to the config file, already
 * unpacked: nothing is downloaded), else `npx`: the package's command when it
 * is installed (installedCommand: found without npx, which would ask the
 * registry), else `notInstalled` says so and the profile cannot start.
 */
function fromDistribution(
  dist: z.output<typeof registryProfileSchema>["distribution"],
  where: string,
  base: string,
): { command: string; args: string[]; env: Record<string, string>; notInstalled?: string } {
  const binary = dist.binary?.[registryPlatform()];
  if (binary) {
    const command = binary.cmd.includes("/") ? path.resolve(base, binary.cmd) : binary.cmd;
    return { command, args: binary.args ?? [], env: binary.env ?? {} };
  }
  const npx = dist.npx;
  if (!npx)
    throw new ConfigError(`${where}: distribution has no "npx" entry and no "binary" entry for ${registryPlatform()}`);
  const args = npx.args ?? [];
  const env = npx.env ?? {};
  const installed = installedCommand(npx.package, npx.cmd);
  if (installed.ok) return { command: installed.value.command, args: [...installed.value.args, ...args], env };
  // Named for the page ("missing: claude-agent-acp"); never run.
  return { command: npx.cmd ?? npx.package, args, env, notInstalled: installed.error };
}

/** One profile: a URL (remote), a registry entry (`distribution` without `command`), or a command line. */
export function parseProfile(name: string, raw: unknown, file: string, base: string): ProfileConfig {
  const where = `${file}: profiles.${name}`;
  const at = ["profiles", name];
  const entry = isObject(raw) ? raw : {};
  if ("url" in entry) {
    const remote = parseOrThrow(remoteProfileSchema, raw, file, at);
    const description = typeof entry.description === "string" ? entry.description : undefined;
    return {
      command: remote.url,
      args: [],
      env: {},
      description,
      remote,
      ...(remote.clientCapabilities ? { clientCapabilities: remote.clientCapabilities } : {}),
    };
  }
  let p: z.output<typeof commandProfileSchema> | z.output<typeof registryProfileSchema>;
  let launch: { command: string; args: string[]; env: Record<string, string>; notInstalled?: string };
  if (entry.distribution !== undefined && entry.command === undefined) {
    const registry = parseOrThrow(registryProfileSchema, raw, file, at);
    launch = fromDistribution(registry.distribution, where, base);
    p = registry;
  } else {
    const command = parseOrThrow(commandProfileSchema, raw, file, at);
    // `./agent` is the config file's (as a registry `cmd` is): spawned as given, it would be the file of
    // the folder the agent starts in, which a repository there can plant.
    const cmd = command.command;
    launch = { command: cmd.includes("/") ? path.resolve(base, cmd) : cmd, args: command.args ?? [], env: {} };
    p = command;
  }
  const description = p.description ?? (p.name ? `${p.name}${p.version ? ` ${p.version}` : ""}` : undefined);
  if (p.model === "offline" && !offlineAgentOf(launch.command, launch.args))
    throw new ConfigError(
      `${where}: "model": "offline" serves ${OFFLINE_AGENT_COMMANDS}; "${launch.command}" is none of them`,
    );
  return {
    command: launch.command,
    args: launch.args,
    env: { ...launch.env, ...p.env },
    description,
    options: p.options ?? {},
    ...(p.clientCapabilities ? { clientCapabilities: p.clientCapabilities } : {}),
    ...(p.protocol ? { protocol: p.protocol } : {}),
    ...(launch.notInstalled ? { notInstalled: launch.notInstalled } : {}),
    ...(p.model ? { model: p.model } : {}),
  };
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
  fromFile: Record<string, unknown> | undefined,
  defaultProfile: string,
  file: string,
): Record<string, number> {
  const pool: Record<string, number> = {};
  const add = (name: string, size: unknown, where: string) => {
    pool[name] = parseOrThrow(poolSize, size, `${where}: pool size of "${name}"`);
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
    for (const [name, size] of Object.entries(fromFile)) add(name, size, file);
    return pool;
  }
  // One warm agent for a real default agent; a replay starts instantly anyway.
  return defaultProfile.startsWith("replay:") ? {} : { [defaultProfile]: 1 };
}

/**
 * The built-in Gemini CLI pointed at the offline model (server/models/): the
 * real agent, its real permission requests, files and commands, with a scripted
 * model on this machine instead of an account. The default without credentials.
 */
export const OFFLINE_GEMINI = "gemini-offline";

/** Whether the Gemini CLI could authenticate; without, the default agent is Gemini CLI with the offline model. */
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

/** An agent named on the command line (`acp-playground -- my-agent --acp`, `--agent NAME=COMMAND`). */
export interface CommandLineAgent {
  name: string;
  command: string;
  args: string[];
}

/**
 * `agents`: typed by the user in their own terminal, so trusted like the config
 * file; each becomes a profile for this run, the first the default.
 */
export function loadConfig(env: Env = process.env, cwd = process.cwd(), agents: CommandLineAgent[] = []): ServerConfig {
  const file = env.ACP_PLAYGROUND_CONFIG;
  const fileConfig = file ? parseOrThrow(configFileSchema, readConfigFile(file), `config file ${file}`) : {};
  const fileDir = file ? path.dirname(path.resolve(cwd, file)) : cwd;

  const base = fileDir;
  const profiles = Object.fromEntries(
    Object.entries(fileConfig.profiles ?? {}).map(([name, raw]) => [name, parseProfile(name, raw, file ?? "", base)]),
  );
  for (const agent of agents) {
    profiles[agent.name] = parseProfile(agent.name, { command: agent.command, args: agent.args }, "command line", cwd);
  }
  const workspaceRoots = (fileConfig.workspaceRoots ?? [cwd]).map((r) => realRoot(r, fileDir));

  const defaultProfile =
    agents[0]?.name ?? fileConfig.defaultProfile ?? (hasGeminiCredentials(env) ? "gemini" : OFFLINE_GEMINI);
  const geminiBin = env.GEMINI_BIN || fileConfig.geminiBin;

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
    killGraceMs: intFrom(env, "ACP_PLAYGROUND_KILL_GRACE_MS", DEFAULT_KILL_GRACE_MS),
    maxLineBytes: intFrom(env, "ACP_PLAYGROUND_MAX_LINE_BYTES", DEFAULT_MAX_LINE_BYTES, 1024),
    replayFrames: intFrom(env, "ACP_PLAYGROUND_REPLAY_FRAMES", 100_000, 1),
    replayBytes: intFrom(env, "ACP_PLAYGROUND_REPLAY_BYTES", 64 * MIB, 1024),
    stderrBytes: intFrom(env, "ACP_PLAYGROUND_STDERR_BYTES", 1 * MIB, 1024),
    maxReadBytes: intFrom(env, "ACP_PLAYGROUND_MAX_READ_BYTES", 10 * MIB, 1),
    terminalOutputBytes: intFrom(env, "ACP_PLAYGROUND_TERMINAL_OUTPUT_BYTES", 1 * MIB, 1),
    requestTimeoutMs: intFrom(env, "ACP_PLAYGROUND_REQUEST_TIMEOUT_MS", 30_000, 1),
    pool,
    searchIndex: env.ACP_PLAYGROUND_SEARCH_INDEX !== "0",
    ...databaseFrom(env),
    ...redisFrom(env),
    dataDir: usableDataDir(dataDirFor(env, cwd)),
    geminiBin,
    // As it was read (relative to the process, as readConfigFile opened it).
    ...(file ? { configFile: path.resolve(file) } : {}),
    ...(fileConfig.tokens !== undefined ? { tokens: parseTokens(fileConfig.tokens, file ?? "") } : {}),
  };
}

const tokensSchema = z.record(
  z.string().regex(OWNER_NAME, "a token's name is 1..64 letters, digits and . _ @ -"),
  z.string().min(16, "a token must be at least 16 characters").max(512).regex(/^\S+$/, "a token has no spaces"),
);

/** The config file's named tokens, checked: one token per name, no token shared by two names. */
export function parseTokens(raw: unknown, file: string): Record<string, string> {
  const tokens = parseOrThrow(tokensSchema, raw, `config file ${file}`, ["tokens"]);
  const seen = new Map<string, string>();
  for (const [name, token] of Object.entries(tokens)) {
    const other = seen.get(token);
    if (other) throw new ConfigError(`config file ${file}: tokens: "${other}" and "${name}" have the same token`);
    seen.set(token, name);
  }
  return tokens;
}

/** The named tokens of the config file as it is now (read again when it changes: server/http/identities.ts). */
export function readTokens(file: string): Record<string, string> {
  const raw = readConfigFile(file);
  return isObject(raw) && raw.tokens !== undefined ? parseTokens(raw.tokens, file) : {};
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

/** ACP_PLAYGROUND_DATABASE_URL, when set: a postgres:// URL (the URL itself is never shown, it may hold a password). */
function databaseFrom(env: Env): { database?: string; databaseLeaseMs?: number; databaseBacklogBytes?: number } {
  const url = env.ACP_PLAYGROUND_DATABASE_URL?.trim();
  if (!url) return {};
  if (!/^postgres(ql)?:\/\//.test(url))
    throw new ConfigError("ACP_PLAYGROUND_DATABASE_URL (--database) must be a postgres:// or postgresql:// URL");
  const leaseMs = intFrom(env, "ACP_PLAYGROUND_DATABASE_LEASE_MS", 0, 300);
  const backlog = intFrom(env, "ACP_PLAYGROUND_DATABASE_BACKLOG_BYTES", 0, 1);
  return {
    database: url,
    ...(leaseMs ? { databaseLeaseMs: leaseMs } : {}),
    ...(backlog ? { databaseBacklogBytes: backlog } : {}),
  };
}

/** ACP_PLAYGROUND_REDIS_URL, when set: a redis:// or rediss:// URL (never shown: it may hold a password). */
function redisFrom(env: Env): { redis?: string } {
  const url = env.ACP_PLAYGROUND_REDIS_URL?.trim();
  if (!url) return {};
  if (!/^rediss?:\/\//.test(url))
    throw new ConfigError("ACP_PLAYGROUND_REDIS_URL (--redis) must be a redis:// or rediss:// URL");
  return { redis: url };
}
