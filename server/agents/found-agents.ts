/**
 * "Found on this machine": agents configured for Zed (`agent_servers` in its
 * settings file) and JetBrains IDEs (`~/.jetbrains/acp.json`), read as
 * profiles (lib/features/connect/found-agents.ts), and added to this playground's
 * config file with one click. Those files are someone else's and hostile: read
 * only when regular files under MAX_FILE_BYTES, never followed into a FIFO.
 */
import {
  closeSync,
  constants,
  fstatSync,
  openSync,
  readFileSync,
  renameSync,
  rmSync,
  statSync,
  writeFileSync,
} from "node:fs";
import { homedir } from "node:os";
import path from "node:path";
import {
  agentServersOf,
  freeName,
  parseJsonc,
  viewOf,
  type FoundAgent,
  type FoundAgentView,
  type FoundSource,
} from "../../lib/features/connect/found-agents";
import { isObject } from "../../lib/protocol/json";
import { fail, ok, type Result } from "../../lib/protocol/result";
import { ConfigError, parseProfile, type ProfileConfig, type ServerConfig } from "../config";
import { resolveCommand } from "../command-lookup";

/** An editor's settings file is kilobytes; anything past this is not read. */
export const MAX_FILE_BYTES = 1024 * 1024;

type Env = Record<string, string | undefined>;

/** Where each client keeps its agents, for this user. */
export function foundFiles(env: Env = process.env): Array<{ source: FoundSource; file: string }> {
  const home = env.HOME || homedir();
  const config = env.XDG_CONFIG_HOME || path.join(home, ".config");
  return [
    // Zed keeps its settings here on Linux and macOS alike.
    { source: "zed", file: path.join(config, "zed", "settings.json") },
    { source: "jetbrains", file: path.join(home, ".jetbrains", "acp.json") },
  ];
}

/** A file's text when it is a regular file of at most MAX_FILE_BYTES; undefined when absent. */
function readSmallFile(file: string): Result<string | undefined> {
  let fd: number;
  try {
    // O_NONBLOCK: a FIFO put there never blocks the relay; fstat then refuses it.
    fd = openSync(file, constants.O_RDONLY | constants.O_NONBLOCK);
  } catch (err) {
    const code = (err as NodeJS.ErrnoException).code;
    return code === "ENOENT" || code === "ENOTDIR" ? ok(undefined) : fail(`cannot be read: ${code ?? "error"}`);
  }
  try {
    const stat = fstatSync(fd);
    if (!stat.isFile()) return fail("is not a regular file");
    if (stat.size > MAX_FILE_BYTES) return fail(`is larger than ${MAX_FILE_BYTES} bytes: not read`);
    return ok(readFileSync(fd, "utf8"));
  } catch (err) {
    return fail(`cannot be read: ${(err as Error).message}`);
  } finally {
    closeSync(fd);
  }
}

export interface Found {
  agents: Array<FoundAgent & { file: string }>;
  /** Files that exist but could not be used, and why. */
  problems: Array<{ file: string; message: string }>;
}

export function findAgents(env: Env = process.env): Found {
  const found: Found = { agents: [], problems: [] };
  for (const { source, file } of foundFiles(env)) {
    const text = readSmallFile(file);
    if (!text.ok) {
      found.problems.push({ file, message: `${file} ${text.error}` });
      continue;
    }
    if (text.value === undefined) continue;
    const doc = parseJsonc(text.value);
    const agents = doc.ok ? agentServersOf(source, doc.value) : doc;
    if (!agents.ok) found.problems.push({ file, message: `${file}: ${agents.error}` });
    else found.agents.push(...agents.value.map((a) => ({ ...a, file })));
  }
  return found;
}

/** The configured profile that already runs this command line, if any. */
function configuredAs(agent: FoundAgent, profiles: Record<string, ProfileConfig>): string | undefined {
  const e = agent.entry;
  if (!e || !("command" in e)) return undefined;
  return Object.entries(profiles).find(
    ([, p]) => p.command === e.command && JSON.stringify(p.args) === JSON.stringify(e.args),
  )?.[0];
}

/** The absolute path a found agent's command runs as here, when it resolves (nothing is run to learn it). */
function resolvedPath(agent: FoundAgent & { file: string }, env: Env): string | undefined {
  if (!agent.entry) return undefined;
  try {
    // Relative commands are refused already (lib/features/connect/found-agents.ts): the base is never used.
    const parsed = parseProfile(agent.profile, agent.entry, agent.file, path.dirname(agent.file));
    return parsed.notInstalled ? undefined : resolveCommand(parsed.command, env);
  } catch {
    return undefined;
  }
}

/** What the page lists: each found agent without env values, whether it is configured already, and where it resolves. */
export function foundViews(config: Pick<ServerConfig, "profiles">, env: Env = process.env) {
  const { agents, problems } = findAgents(env);
  return {
    agents: agents.map((a): FoundAgentView =>
      viewOf(a, a.file, configuredAs(a, config.profiles), resolvedPath(a, env)),
    ),
    problems,
  };
}

export interface Added {
  profile: string;
  /** The config file it was written to; absent when the server has none (added for this run only). */
  configFile?: string;
  /** What to put in a config file to keep it, when there is none. */
  snippet?: string;
}

/**
 * Adds a found agent as a profile: checked by the config loader's own rules,
 * written into the server's config file (the file re-read, so edits made since
 * the start are kept; replaced atomically, its mode kept), and live at once.
 * The browser names the agent (source and name); the command line comes from
 * the file, read again here.
 */
export function addFoundAgent(
  config: Pick<ServerConfig, "profiles" | "configFile">,
  source: FoundSource,
  name: string,
  env: Env = process.env,
): Result<Added> {
  const agent = findAgents(env).agents.find((a) => a.source === source && a.name === name);
  if (!agent) return fail(`no agent "${name.slice(0, 200)}" found in ${source}'s settings`);
  if (!agent.entry) return fail(`"${agent.name}" cannot be added: ${agent.reason ?? "unknown reason"}`);
  const taken = (n: string) => n === "gemini" || n.startsWith("replay:") || Object.hasOwn(config.profiles, n);
  const profile = freeName(agent.profile, taken);
  const file = config.configFile;
  let parsed: ProfileConfig;
  try {
    parsed = parseProfile(profile, agent.entry, file ?? "found agent", file ? path.dirname(file) : process.cwd());
  } catch (err) {
    if (err instanceof ConfigError) return fail(err.message);
    throw err;
  }
  if (!file) {
    config.profiles[profile] = parsed;
    return ok({ profile, snippet: JSON.stringify({ profiles: { [profile]: agent.entry } }, null, 2) });
  }
  const text = readSmallFile(file);
  if (!text.ok || text.value === undefined) return fail(`the config file ${file} ${text.ok ? "is gone" : text.error}`);
  let doc: unknown;
  try {
    doc = JSON.parse(text.value);
  } catch (err) {
    return fail(`the config file ${file} is not valid JSON now: ${(err as Error).message}`);
  }
  if (!isObject(doc)) return fail(`the config file ${file} is not a JSON object`);
  if (doc.profiles !== undefined && !isObject(doc.profiles)) return fail(`${file}: "profiles" is not an object`);
  const profiles = { ...(doc.profiles ?? {}) };
  if (Object.hasOwn(profiles, profile)) return fail(`${file} has a profile "${profile}" already: restart to load it`);
  profiles[profile] = agent.entry;
  const temp = `${file}.${process.pid}.tmp`;
  try {
    writeFileSync(temp, `${JSON.stringify({ ...doc, profiles }, null, 2)}\n`, { mode: statSync(file).mode & 0o777 });
    renameSync(temp, file);
  } catch (err) {
    rmSync(temp, { force: true });
    return fail(`cannot write the config file ${file}: ${(err as Error).message}`);
  }
  config.profiles[profile] = parsed;
  return ok({ profile, configFile: file });
}
