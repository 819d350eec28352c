/**
 * Agents the user configured for another client on this machine: Zed's
 * `agent_servers` (its settings file, JSON with comments), JetBrains'
 * `acp.json` (same key), and entries in the ACP registry's agent.json shape
 * (`distribution`) in either. Pure: the server reads the files
 * (server/agents/found-agents.ts). Everything in them is hostile: any type,
 * any size; a bad entry is skipped with a reason, never a crash.
 */
import { isObject } from "../../protocol/json";
import { fail, ok, type Result } from "../../protocol/result";

export type FoundSource = "zed" | "jetbrains";

export const SOURCE_NAMES: Record<FoundSource, string> = { zed: "Zed", jetbrains: "JetBrains" };

/** A profile as the config file holds it (server/config.ts's command or registry shapes). */
export type FoundProfile =
  | { command: string; args: string[]; env?: Record<string, string>; description: string }
  | { distribution: Record<string, unknown>; name?: string; version?: string; description: string };

export interface FoundAgent {
  source: FoundSource;
  /** Its name in that client's file. */
  name: string;
  /** The profile name it would get here (config.ts's rule: [\w.-]{1,64}). */
  profile: string;
  /** What would be written; absent when it cannot be added (`reason` says why). */
  entry?: FoundProfile;
  reason?: string;
}

/** What the page is sent: never an env value (a found entry may hold an API key). */
export interface FoundAgentView {
  source: FoundSource;
  file: string;
  name: string;
  profile: string;
  command?: string;
  args?: string[];
  /** Names of the variables it sets. */
  env?: string[];
  registry?: boolean;
  /** Why it cannot be added. */
  reason?: string;
  /** The profile that already runs the same command line, if any. */
  configuredAs?: string;
  /** The absolute path its command runs as on this machine (PATH looked up), when it resolves. */
  resolved?: string;
}

/** Entries read from one file at most: a file of thousands is not an editor's config. */
export const MAX_ENTRIES = 100;
const MAX_STRING = 4_096;
const MAX_ARGS = 256;

/**
 * JSON with comments and trailing commas (Zed's settings, VS Code style) as
 * JSON: `//` and `/* *\/` outside strings go, as does a comma before `}` or `]`.
 */
export function parseJsonc(text: string): Result<unknown> {
  let out = "";
  let i = 0;
  const n = text.length;
  while (i < n) {
    const c = text[i]!;
    if (c === '"') {
      let j = i + 1;
      while (j < n && text[j] !== '"') j += text[j] === "\\" ? 2 : 1;
      out += text.slice(i, j + 1);
      i = j + 1;
    } else if (c === "/" && text[i + 1] === "/") {
      while (i < n && text[i] !== "\n") i++;
    } else if (c === "/" && text[i + 1] === "*") {
      const end = text.indexOf("*/", i + 2);
      if (end < 0) return fail("a /* comment is never closed");
      i = end + 2;
    } else if (c === ",") {
      let j = i + 1;
      // Whitespace and comments may sit between a trailing comma and its bracket.
      for (;;) {
        while (j < n && /\s/.test(text[j]!)) j++;
        if (text[j] === "/" && text[j + 1] === "/") while (j < n && text[j] !== "\n") j++;
        else if (text[j] === "/" && text[j + 1] === "*") {
          const end = text.indexOf("*/", j + 2);
          j = end < 0 ? n : end + 2;
        } else break;
      }
      if (text[j] !== "}" && text[j] !== "]") out += c;
      i++;
    } else {
      out += c;
      i++;
    }
  }
  try {
    return ok(JSON.parse(out) as unknown);
  } catch (err) {
    return fail(`not valid JSON (comments allowed): ${(err as Error).message}`);
  }
}

/** A name as a profile may be called: other characters become `-`, at most 64. */
export function profileNameFor(name: string): string {
  const cleaned = name
    .replace(/[^\w.-]+/g, "-")
    .replace(/^-+|-+$/g, "")
    .slice(0, 64);
  return cleaned || "agent";
}

const str = (v: unknown): string | undefined => (typeof v === "string" && v.length <= MAX_STRING ? v : undefined);

/** `/x`, `C:\\x`, `\\\\host\\x`: a path that means the same file from any folder. */
const isAbsolute = (p: string): boolean => p.startsWith("/") || /^[A-Za-z]:[\\/]/.test(p) || p.startsWith("\\\\");

/**
 * A command named by a path that is not absolute (`./codex-acp`, `bin/agent`): the editor
 * resolves it against its own install folder, which is not known here; against the
 * playground's folder it would run a file of the workspace (a repository can plant one).
 * Bare names (`codex-acp`) are looked up on PATH.
 */
function relativeCommand(command: string): string | undefined {
  return /[\\/]/.test(command) && !isAbsolute(command)
    ? `its command ${command} is a relative path (relative to where the editor installed it, which the playground does not know; it would run a file of the workspace): add it by its absolute path`
    : undefined;
}

/** Why a registry entry's commands (every platform's binary, the npx command) cannot be added, if they cannot. */
function relativeDistribution(distribution: Record<string, unknown>): string | undefined {
  const commands: unknown[] = [];
  if (isObject(distribution.binary))
    for (const binary of Object.values(distribution.binary)) if (isObject(binary)) commands.push(binary.cmd);
  if (isObject(distribution.npx)) commands.push(distribution.npx.cmd);
  for (const cmd of commands) {
    const why = typeof cmd === "string" ? relativeCommand(cmd) : undefined;
    if (why) return why;
  }
  return undefined;
}

/** One `agent_servers` entry: a command line, an agent.json entry, or why it is neither. */
function readEntry(source: FoundSource, name: string, raw: unknown): FoundAgent {
  const profile = profileNameFor(name);
  const base = { source, name: name.slice(0, 200), profile };
  const from = SOURCE_NAMES[source];
  if (!isObject(raw)) return { ...base, reason: "not an object" };
  if (isObject(raw.distribution)) {
    const relative = relativeDistribution(raw.distribution);
    if (relative) return { ...base, reason: relative };
    return {
      ...base,
      entry: {
        distribution: raw.distribution,
        ...(str(raw.name) ? { name: str(raw.name) } : {}),
        ...(str(raw.version) ? { version: str(raw.version) } : {}),
        description: `${str(raw.name) ?? name} (ACP registry entry, from ${from})`,
      },
    };
  }
  if (raw.type === "registry" || (raw.command === undefined && raw.type !== "custom"))
    return {
      ...base,
      reason: `${from} installs and runs this agent itself (${raw.type === "registry" ? "from the ACP registry" : "built in or from an extension"}): no command line to add; paste its agent.json from the registry as a profile`,
    };
  const command = str(raw.command);
  if (!command) return { ...base, reason: '"command" is not a string' };
  const relative = relativeCommand(command);
  if (relative) return { ...base, reason: relative };
  let args: string[] = [];
  if (raw.args !== undefined) {
    if (!Array.isArray(raw.args) || raw.args.length > MAX_ARGS || !raw.args.every((a) => str(a) !== undefined))
      return { ...base, reason: '"args" is not a list of strings' };
    args = raw.args as string[];
  }
  let env: Record<string, string> | undefined;
  if (raw.env !== undefined && raw.env !== null) {
    if (!isObject(raw.env)) return { ...base, reason: '"env" is not an object of strings' };
    const entries = Object.entries(raw.env);
    if (entries.length > MAX_ARGS || !entries.every(([, v]) => str(v) !== undefined))
      return { ...base, reason: '"env" is not an object of strings' };
    if (entries.length) env = Object.fromEntries(entries) as Record<string, string>;
  }
  return {
    ...base,
    entry: { command, args, ...(env ? { env } : {}), description: `${name.slice(0, 200)} (from ${from})` },
  };
}

/** The agents in a Zed settings file or a JetBrains acp.json, parsed already. */
export function agentServersOf(source: FoundSource, doc: unknown): Result<FoundAgent[]> {
  if (!isObject(doc)) return fail("the file is not a JSON object");
  const servers = doc.agent_servers;
  if (servers === undefined) return ok([]);
  if (!isObject(servers)) return fail('"agent_servers" is not an object');
  const names = Object.keys(servers);
  const agents = names.slice(0, MAX_ENTRIES).map((name) => readEntry(source, name, servers[name]));
  return ok(agents);
}

/** What the page sees of a found agent: the command line and env names, never env values. */
export function viewOf(agent: FoundAgent, file: string, configuredAs?: string, resolved?: string): FoundAgentView {
  const e = agent.entry;
  return {
    source: agent.source,
    file,
    name: agent.name,
    profile: agent.profile,
    ...(e && "command" in e ? { command: e.command, args: e.args, env: Object.keys(e.env ?? {}) } : {}),
    ...(e && "distribution" in e ? { registry: true } : {}),
    ...(agent.reason ? { reason: agent.reason } : {}),
    ...(configuredAs ? { configuredAs } : {}),
    ...(resolved ? { resolved } : {}),
  };
}

/** A profile name not yet taken: `name`, else `name-2`, `name-3`... */
export function freeName(name: string, taken: (n: string) => boolean): string {
  if (!taken(name)) return name;
  for (let i = 2; ; i++) {
    const candidate = `${name.slice(0, 60)}-${i}`;
    if (!taken(candidate)) return candidate;
  }
}
