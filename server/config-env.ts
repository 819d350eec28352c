/**
 * The numbers the environment sets, read without the config file's loader
 * (zod): the tap stands in for an agent and must start at once (server/cli/tap-cli.ts).
 */
import { statSync } from "node:fs";

export class ConfigError extends Error {}

/** Why the data folder cannot be used, if it cannot: a file by that name (its folders would fail with ENOTDIR). */
export function dataDirProblem(dir: string): string | undefined {
  try {
    if (!statSync(dir).isDirectory())
      return `the data folder ${dir} is a file: --data or ACP_PLAYGROUND_DATA names a folder`;
  } catch {
    // Missing: made at first use.
  }
  return undefined;
}

type Env = Record<string, string | undefined>;

/** How long a stopping agent gets between SIGTERM and SIGKILL, by default. */
export const DEFAULT_KILL_GRACE_MS = 3_000;

/** An integer variable at least `min`, else `fallback` when unset; a ConfigError names a bad value. */
export function intFrom(env: Env, name: string, fallback: number, min = 0): number {
  const raw = env[name];
  if (raw === undefined || raw === "") return fallback;
  const value = Number(raw);
  if (!Number.isInteger(value) || value < min) {
    throw new ConfigError(`${name} must be an integer >= ${min}, got "${raw}"`);
  }
  return value;
}
