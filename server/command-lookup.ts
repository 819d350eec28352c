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

const versions = new Map<string, Promise<string | undefined>>();

/** First line of `command --version` (cached per command; undefined when it fails or hangs). */
export function commandVersion(command: string): Promise<string | undefined> {
  let version = versions.get(command);
  if (!version) {
    version = execa(command, ["--version"], {
      reject: false,
      timeout: 10_000,
      stdin: "ignore",
      env: childEnv({ NO_COLOR: "1" }).env,
      extendEnv: false,
    }).then((r) => (r.exitCode === 0 ? String(r.stdout).trim().split("\n")[0]?.slice(0, 120) || undefined : undefined));
    versions.set(command, version);
  }
  return version;
}
