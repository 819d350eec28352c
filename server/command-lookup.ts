/** Where a profile's command resolves on this machine, and its version when `--version` answers. */
import { execa } from "execa";
import { accessSync, constants, statSync } from "node:fs";
import path from "node:path";
import { childEnv } from "./process-group";

function executable(file: string): boolean {
  try {
    accessSync(file, constants.X_OK);
    return statSync(file).isFile();
  } catch {
    return false;
  }
}

/** The absolute path a command runs as, like `which`; undefined when it does not resolve. */
export function resolveCommand(
  command: string,
  env: Record<string, string | undefined> = process.env,
): string | undefined {
  if (command.includes("/")) return executable(path.resolve(command)) ? path.resolve(command) : undefined;
  for (const dir of (env.PATH ?? "").split(path.delimiter)) {
    if (!dir) continue;
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
