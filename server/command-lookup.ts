/** Where a profile's command resolves on this machine, and its version when `--version` answers. */
import { execa } from "execa";
import { accessSync, constants, readFileSync, realpathSync, statSync } from "node:fs";
import path from "node:path";
import { fail, ok, type Result } from "../lib/protocol/result";
import { childEnv } from "./process-group";
import { PACKAGE_ROOT } from "./runtime";

function executable(file: string): boolean {
  try {
    accessSync(file, constants.X_OK);
    return statSync(file).isFile();
  } catch {
    return false;
  }
}

/**
 * The absolute path a command runs as, like `which`; undefined when it does not resolve.
 * Only absolute PATH entries are searched: `.`, an empty entry or `bin` would find a file
 * of whatever folder the lookup runs in (the workspace), as the relay's spawns do too
 * (process-group.ts childEnv drops them).
 */
export function resolveCommand(
  command: string,
  env: Record<string, string | undefined> = process.env,
): string | undefined {
  if (command.includes("/")) return executable(path.resolve(command)) ? path.resolve(command) : undefined;
  for (const dir of (env.PATH ?? "").split(path.delimiter)) {
    if (!path.isAbsolute(dir)) continue;
    const candidate = path.join(dir, command);
    if (executable(candidate)) return candidate;
  }
  return undefined;
}

/** Runtimes and launchers: their `--version` is their own, not the agent's they run. */
const INTERPRETERS = /^(node|nodejs|bun|deno|python\d*(\.\d+)?|npx|uvx|uv|pnpm|yarn|npm|sh|bash)$/;

export function isInterpreter(command: string): boolean {
  return INTERPRETERS.test(path.basename(command)) || path.resolve(command) === process.execPath;
}

const versions = new Map<string, Promise<string | undefined>>();

/**
 * First line of `command --version` (cached per command and environment;
 * undefined when it fails or hangs). `env`: the profile's own, e.g. Gemini's
 * GEMINI_CLI_NO_RELAUNCH, which halves the work.
 */
export function commandVersion(command: string, env: Record<string, string> = {}): Promise<string | undefined> {
  const key = `${command}\0${JSON.stringify(env)}`;
  let version = versions.get(key);
  if (!version) {
    version = execa(command, ["--version"], {
      reject: false,
      // As long as the --acp probe of --help: a loaded machine starts Gemini slowly.
      timeout: 20_000,
      stdin: "ignore",
      env: childEnv({ ...env, NO_COLOR: "1" }).env,
      extendEnv: false,
    }).then((r) => (r.exitCode === 0 ? String(r.stdout).trim().split("\n")[0]?.slice(0, 120) || undefined : undefined));
    versions.set(key, version);
  }
  return version;
}

const projectModules = path.join(PACKAGE_ROOT, "node_modules");

/**
 * Where installed npm packages are looked for: the playground's own
 * node_modules, then the global install prefix's (`npm_config_prefix`, else
 * the prefix of the running node, as `npm install -g` uses by default).
 */
export function nodeModulesDirs(env: Record<string, string | undefined> = process.env): string[] {
  const prefix = env.npm_config_prefix || env.NPM_CONFIG_PREFIX || path.dirname(path.dirname(process.execPath));
  const global =
    process.platform === "win32" ? path.join(prefix, "node_modules") : path.join(prefix, "lib", "node_modules");
  return [...new Set([projectModules, global])];
}

// npm's package name rule (lower case, optionally scoped): nothing that could climb out of node_modules.
const PACKAGE_NAME = /^(@[a-z0-9~-][a-z0-9._~-]*\/)?[a-z0-9~-][a-z0-9._~-]*$/i;
const EXACT_VERSION = /^\d+\.\d+\.\d+(-[0-9A-Za-z.-]+)?(\+[0-9A-Za-z.-]+)?$/;

/** `@scope/name@1.2.3` -> name and version (a range or tag is kept as written). */
export function parsePackageSpec(spec: string): { name: string; version?: string } {
  const at = spec.indexOf("@", 1);
  return at < 0 ? { name: spec } : { name: spec.slice(0, at), version: spec.slice(at + 1) || undefined };
}

interface PackageJson {
  version?: unknown;
  bin?: unknown;
}

/** The bin `cmd` of a package (without `cmd`: its only bin, or the one named after it, as npx picks). */
function binOf(pkg: PackageJson, name: string, cmd: string | undefined): string | undefined {
  const own = name.split("/").at(-1)!;
  if (typeof pkg.bin === "string") return cmd === undefined || cmd === own ? pkg.bin : undefined;
  if (typeof pkg.bin !== "object" || pkg.bin === null) return undefined;
  const bins = pkg.bin as Record<string, unknown>;
  const keys = Object.keys(bins);
  const key = cmd ?? (keys.length === 1 ? keys[0] : own);
  const file = key !== undefined && Object.hasOwn(bins, key) ? bins[key] : undefined;
  return typeof file === "string" ? file : undefined;
}

/**
 * An npm package's command as installed on this machine, found without npx
 * (which asks the registry about a package it does not find, `--no` or not):
 * the `bin` of `<dir>/<name>/package.json` under each of `dirs`, then `cmd` on
 * PATH. An exact version in the spec must be the installed one. The error says
 * the package is not installed and where it was looked for.
 */
export function installedCommand(
  spec: string,
  cmd: string | undefined,
  dirs: string[] = nodeModulesDirs(),
  env: Record<string, string | undefined> = process.env,
): Result<{ command: string; args: string[] }> {
  const { name, version } = parsePackageSpec(spec);
  const found: string[] = [];
  if (PACKAGE_NAME.test(name)) {
    for (const dir of dirs) {
      const root = path.join(dir, name);
      let pkg: PackageJson;
      try {
        pkg = JSON.parse(readFileSync(path.join(root, "package.json"), "utf8")) as PackageJson;
      } catch {
        continue;
      }
      if (version && EXACT_VERSION.test(version) && pkg.version !== version) {
        found.push(`${String(pkg.version)} in ${dir}`);
        continue;
      }
      const bin = binOf(pkg, name, cmd);
      if (!bin) continue;
      let file: string;
      try {
        file = realpathSync(path.resolve(root, bin));
      } catch {
        continue;
      }
      // A bin outside its own package is not the package's command.
      if (!file.startsWith(realpathSync(root) + path.sep)) continue;
      // npm makes bins executable; a copy that lost the mode still runs as a script.
      if (executable(file)) return ok({ command: file, args: [] });
      if (/\.[cm]?js$/.test(file) || !path.extname(file)) return ok({ command: process.execPath, args: [file] });
    }
  }
  const onPath = cmd ? resolveCommand(cmd, env) : undefined;
  if (onPath) return ok({ command: onPath, args: [] });
  const other = found.length ? ` (found ${found.join(", ")})` : "";
  return fail(
    `${spec} is not installed${other}: looked in ${dirs.join(" and ")}${cmd ? ` and for ${cmd} on PATH` : ""}. ` +
      `Install it (npm install -g ${name}${version ? `@${version}` : ""}); the relay does not run npx, which would fetch it`,
  );
}
