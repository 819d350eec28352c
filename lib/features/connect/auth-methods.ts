/**
 * The agent's `authMethods` (from `initialize`) as Connect and the UI use them:
 * parsed defensively (the agent is untrusted), by type — `agent` (call
 * `authenticate`), `env_var` (the agent names environment variables),
 * `terminal` (the agent names a login command: its own program plus args/env).
 * Also the checks for user-supplied variables: only the ones the agent named
 * that look like credentials (an allowlist of name shapes), never loader or
 * runtime variables.
 */
import { isObject } from "../../protocol/json";
import type { Frame } from "../../protocol/frame";
import { AGENT_METHODS } from "../../protocol/methods";
import { checkElicitationUrl } from "../answers/agent-answers";
import { fail, ok, type Result } from "../../protocol/result";

export interface EnvVarSpec {
  name: string;
  label?: string;
  /** Shown masked and never recorded (default true: an auth variable is a credential). */
  secret: boolean;
  optional: boolean;
}

interface MethodBase {
  id: string;
  name: string;
  description?: string;
  /** The agent's `_meta`, as it sent it: shown, never acted on (but for the legacy terminal hints). */
  _meta?: unknown;
}

export type AuthMethodView =
  | (MethodBase & { type: "agent"; terminal?: TerminalSpec })
  | (MethodBase & { type: "env_var"; vars: EnvVarSpec[]; link?: string })
  | (MethodBase & { type: "terminal"; terminal: TerminalSpec });

export interface TerminalSpec {
  /** A command the agent names itself (legacy `_meta["terminal-auth"]`); else the profile's own. */
  command?: string;
  args: string[];
  env: Record<string, string>;
  label?: string;
}

const str = (v: unknown, max = 2_000): string | undefined =>
  typeof v === "string" && v.length > 0 ? v.slice(0, max) : undefined;
const strings = (v: unknown): string[] =>
  Array.isArray(v) ? v.filter((s): s is string => typeof s === "string").slice(0, 64) : [];
function stringMap(v: unknown): Record<string, string> {
  const out: Record<string, string> = {};
  if (!isObject(v)) return out;
  for (const [k, value] of Object.entries(v)) if (typeof value === "string") out[k] = value;
  return out;
}

/** POSIX-portable environment variable names. */
const ENV_NAME = /^[A-Za-z_][A-Za-z0-9_]{0,127}$/;

function envVars(m: Record<string, unknown>): EnvVarSpec[] {
  const out: EnvVarSpec[] = [];
  // The RFD's `vars: [{ name, label, secret, optional }]`, and the earlier single `varName`.
  const raw: unknown[] = Array.isArray(m.vars) ? m.vars : typeof m.varName === "string" ? [{ name: m.varName }] : [];
  for (const v of raw.slice(0, 32)) {
    if (!isObject(v) || typeof v.name !== "string" || !ENV_NAME.test(v.name)) continue;
    out.push({ name: v.name, label: str(v.label, 200), secret: v.secret !== false, optional: v.optional === true });
  }
  return out;
}

/** The terminal login an agent describes, in the schema's fields or the older `_meta` forms. */
function terminalSpec(m: Record<string, unknown>): TerminalSpec | undefined {
  const meta = isObject(m._meta) ? m._meta : {};
  const legacy = isObject(meta["terminal-auth"]) ? meta["terminal-auth"] : meta.type === "terminal" ? meta : undefined;
  if (m.type === "terminal")
    return { args: strings(m.args), env: stringMap(m.env), label: legacy ? str(legacy.label, 200) : undefined };
  if (!legacy) return undefined;
  return {
    command: str(legacy.command, 1_000),
    args: strings(legacy.args),
    env: stringMap(legacy.env),
    label: str(legacy.label, 200),
  };
}

/** The auth methods of an `initialize` result; entries without an id are skipped. */
export function parseAuthMethods(init: unknown): AuthMethodView[] {
  const list = isObject(init) && Array.isArray(init.authMethods) ? init.authMethods : [];
  const out: AuthMethodView[] = [];
  for (const m of list.slice(0, 32)) {
    if (!isObject(m)) continue;
    const id = str(m.id, 200);
    if (!id) continue;
    const base: MethodBase = { id, name: str(m.name, 200) ?? id, description: str(m.description) };
    if (m._meta !== undefined) base._meta = m._meta;
    const terminal = terminalSpec(m);
    // The link is the agent's: shown only when it is an http(s) address (never javascript:, data:...).
    if (m.type === "env_var")
      out.push({ ...base, type: "env_var", vars: envVars(m), link: checkElicitationUrl(m.link).url });
    else if (m.type === "terminal") out.push({ ...base, type: "terminal", terminal: terminal! });
    // No type (or one this client does not know) is `agent`, per the schema.
    else out.push(terminal ? { ...base, type: "agent", terminal } : { ...base, type: "agent" });
  }
  return out;
}

/**
 * The auth methods an agent's answer to `initialize` lists (none when it failed);
 * undefined for any other frame. What a later start's `env` may set is checked against them.
 */
export function initializeAuthMethods(frame: Frame): AuthMethodView[] | undefined {
  if (frame.kind !== "response" || frame.dir !== "from-agent" || frame.method !== AGENT_METHODS.initialize)
    return undefined;
  return parseAuthMethods(isObject(frame.message) ? frame.message.result : undefined);
}

/** Whether `authenticate` may be called with a method: the schema forbids it for `terminal`. */
export const canAuthenticate = (m: AuthMethodView): boolean => m.type !== "terminal";

/**
 * What a variable typed for an `env_var` method may be named: a credential, by
 * the last word of its name (GEMINI_API_KEY, OPENAI_API_KEY, GITHUB_TOKEN,
 * AWS_SECRET_ACCESS_KEY, AWS_ACCESS_KEY_ID, GOOGLE_APPLICATION_CREDENTIALS,
 * PGPASSWORD, ...), in capitals. This decides: a name an agent declares that
 * does not look like one (EDITOR, GIT_CONFIG_KEY_0, OPENSSL_CONF, ...) is
 * refused, however it would be used.
 */
export const CREDENTIAL_ENV_NAME =
  /^(?:[A-Z][A-Z0-9_]*)?(?:API_?KEY|KEY|KEY_ID|TOKEN|SECRET|PASSWORD|PASSWD|PASSPHRASE|CREDENTIALS?|LOGIN)$/;

/**
 * Variables the loader, runtime or tools the agent runs read: never settable from
 * the page, whatever an agent names (an agent naming NODE_OPTIONS, EDITOR or
 * GIT_CONFIG_KEY_0 would be asking for code execution). Defence in depth: the
 * allowlist above already refuses all of them but a few credential-shaped ones.
 */
const FORBIDDEN_EXACT = new Set([
  "PATH",
  "HOME",
  "USER",
  "SHELL",
  "PWD",
  "TMPDIR",
  "IFS",
  "ENV",
  "BASH_ENV",
  "PS4",
  "PROMPT_COMMAND",
  "EDITOR",
  "VISUAL",
  "PAGER",
  "MANPAGER",
  "BROWSER",
  "LESSOPEN",
  "LESSCLOSE",
  "OPENSSL_CONF",
  "OPENSSL_ENGINES",
  "OPENSSL_MODULES",
  "GLIBC_TUNABLES",
  "ESBUILD_BINARY_PATH",
  "SSH_ASKPASS",
  "SUDO_ASKPASS",
  "PERL5LIB",
  "PERL5OPT",
  "RUBYOPT",
  "RUBYLIB",
  "JAVA_TOOL_OPTIONS",
  "_JAVA_OPTIONS",
  "SSL_CERT_FILE",
  "SSL_CERT_DIR",
  "HTTP_PROXY",
  "HTTPS_PROXY",
  "ALL_PROXY",
  "NO_PROXY",
  "ACP_PLAYGROUND_TOKEN",
]);
const FORBIDDEN_PREFIXES = [
  "LD_",
  "DYLD_",
  "NODE_",
  "NPM_",
  "BUN_",
  "DENO_",
  "ELECTRON_",
  "GCONV_",
  "MALLOC_",
  "ACP_PLAYGROUND_",
  // GIT_CONFIG_COUNT/KEY_n/VALUE_n set any option (core.fsmonitor runs a command), GIT_SSH_COMMAND, GIT_ASKPASS, ...
  "GIT_",
  "PYTHON", // PYTHONPATH, PYTHONHOME, PYTHONSTARTUP, ...
  "XDG_", // XDG_CONFIG_HOME: where every tool reads its configuration
];

/** A loader or runtime variable (NODE_OPTIONS, LD_PRELOAD, PATH, ...), case-insensitively. */
export function isProtectedEnvName(name: string): boolean {
  const upper = name.toUpperCase();
  return FORBIDDEN_EXACT.has(upper) || FORBIDDEN_PREFIXES.some((p) => upper.startsWith(p));
}

/**
 * Why a typed variable may not be set (undefined when it may): not a valid name,
 * a loader or runtime variable, or a name that does not look like a credential.
 * Whether the agent named it is checked by checkUserEnv.
 */
export function refusedEnvName(name: string): string | undefined {
  if (!ENV_NAME.test(name)) return `"${name.slice(0, 80)}" is not a variable name`;
  if (isProtectedEnvName(name)) return `${name} is a loader or runtime variable: never set`;
  if (!CREDENTIAL_ENV_NAME.test(name))
    return `${name} does not look like a credential (capitals ending in _API_KEY, _KEY, _TOKEN, _SECRET, _PASSWORD, _CREDENTIALS, ...): only credentials are set`;
  return undefined;
}

/**
 * The required variables of an `env_var` method that neither the profile's `env`
 * nor the server's environment provide (names only: values never reach lib/).
 */
export function missingEnvVars(method: AuthMethodView, providedNames: Iterable<string>): EnvVarSpec[] {
  if (method.type !== "env_var") return [];
  const have = new Set(providedNames);
  return method.vars.filter((v) => !v.optional && !have.has(v.name));
}

/**
 * Validates variables a user typed for an `env_var` method: each must be one the
 * method names, a valid name, not a loader/runtime variable, a single-line value;
 * each one set must look like a credential (CREDENTIAL_ENV_NAME: an empty value
 * sets nothing); every required one must be there.
 */
export function checkUserEnv(method: AuthMethodView, values: Record<string, string>): Result<Record<string, string>> {
  if (method.type !== "env_var") return fail(`auth method "${method.id}" takes no variables`);
  const named = new Map(method.vars.map((v) => [v.name, v]));
  const env: Record<string, string> = {};
  for (const [name, value] of Object.entries(values)) {
    if (!ENV_NAME.test(name)) return fail(`"${name.slice(0, 80)}" is not a variable name`);
    if (isProtectedEnvName(name)) return fail(`${name} is a loader or runtime variable: never set`);
    if (!named.has(name)) return fail(`${name} is not a variable "${method.name}" names`);
    if (typeof value !== "string" || /[\0\r\n]/.test(value)) return fail(`${name}: the value must be one line of text`);
    if (value.length > 8_192) return fail(`${name}: the value is too long`);
    if (value === "") continue;
    const refused = refusedEnvName(name);
    if (refused) return fail(refused);
    env[name] = value;
  }
  const missing = method.vars.filter((v) => !v.optional && !(v.name in env)).map((v) => v.name);
  if (missing.length) return fail(`missing ${missing.join(", ")}`);
  return ok(env);
}

/** Quotes one word for a POSIX shell, only when it needs it. */
export function shellQuote(word: string): string {
  return /^[\w@%+=:,./-]+$/.test(word) ? word : `'${word.replace(/'/g, `'\\''`)}'`;
}

export interface TerminalCommand {
  argv: string[];
  env: Record<string, string>;
  /** One line to copy into a terminal on the relay's machine: `VAR=value cmd args`. */
  line: string;
}

/**
 * The exact login command of a `terminal` method (or an `agent` method's legacy
 * terminal hint): the agent's own program and args from its profile plus the
 * method's args and env, unless the agent named a command itself.
 */
export function terminalAuthCommand(
  method: AuthMethodView,
  profile: { command: string; args: string[] },
): TerminalCommand | undefined {
  const t = method.type === "env_var" ? undefined : method.terminal;
  if (!t) return undefined;
  const argv = t.command ? [t.command, ...t.args] : [profile.command, ...profile.args, ...t.args];
  const env = Object.fromEntries(Object.entries(t.env).filter(([k]) => ENV_NAME.test(k)));
  const line = [...Object.entries(env).map(([k, v]) => `${k}=${shellQuote(v)}`), ...argv.map(shellQuote)].join(" ");
  return { argv, env, line };
}

/** What a method of the agent's or the terminal's kind needs of the user. */
const NEEDS = { agent: "the agent authenticates itself", terminal: "run a login command" } as const;

/**
 * The methods for an error's one line: an env_var method each with its variables, methods of the
 * agent's or the terminal's kind together, so that what they need is said once (Gemini offers four
 * methods of type agent).
 */
export function describeAuthMethods(methods: readonly AuthMethodView[]): string {
  const named = (m: AuthMethodView) => `${m.name} (${m.id})`;
  const parts: string[] = [];
  for (const type of ["agent", "env_var", "terminal"] as const) {
    const of = methods.filter((m) => m.type === type);
    if (!of.length) continue;
    if (type === "env_var" || of.length === 1) parts.push(...of.map(describeAuthMethod));
    else parts.push(`${of.map(named).join(", ")} — ${type}: ${NEEDS[type]}`);
  }
  return parts.join("; ");
}

/** One line per method for a chooser or an error: its name, type and what it needs. */
export function describeAuthMethod(m: AuthMethodView): string {
  const what =
    m.type === "env_var"
      ? `env_var: set ${m.vars.map((v) => v.name).join(", ") || "(no variable named)"}`
      : `${m.type}: ${NEEDS[m.type]}`;
  return `${m.name} (${m.id}) — ${what}`;
}
