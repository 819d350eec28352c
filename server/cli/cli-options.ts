/**
 * Options spelled the same way by every command (server/cli/cli-usage.ts): `--json` and
 * `--format`, a duration for `--timeout`, and one wording for what parseArgs refuses.
 */
import { accessSync, constants, statSync } from "node:fs";
import path from "node:path";
import { CliError } from "./cli-error";

/**
 * parseArgs' refusal in this CLI's words. Its own advice for an unknown option, to put it after
 * `--`, is wrong here: what follows `--` is an agent's command line (serve, tap).
 */
export function argumentError(err: unknown): string {
  const { code, message } = err as NodeJS.ErrnoException;
  const option = /'(?:-\w, )?(--?[\w-]+)/.exec(message)?.[1];
  if (option === undefined) return message;
  if (code === "ERR_PARSE_ARGS_UNKNOWN_OPTION") return `unknown option ${option}`;
  if (code === "ERR_PARSE_ARGS_INVALID_OPTION_VALUE" && message.endsWith("argument missing"))
    return `${option} needs a value`;
  if (code === "ERR_PARSE_ARGS_INVALID_OPTION_VALUE" && message.endsWith("does not take an argument"))
    return `${option} takes no value`;
  return message;
}

/**
 * The output format from `--format F` and `--json` (the same as `--format json`): one spelling
 * works wherever JSON is offered. Both given and disagreeing is refused.
 */
export function outputFormat<F extends string>(
  values: { format?: string | boolean | (string | boolean)[]; json?: string | boolean | (string | boolean)[] },
  allowed: readonly F[],
  fallback: F,
): F {
  const format = values.format === undefined ? undefined : String(values.format);
  if (format !== undefined && !allowed.includes(format as F))
    throw new CliError(`--format must be ${allowed.slice(0, -1).join(", ")} or ${allowed.at(-1)}, not "${format}"`, 2);
  if (values.json === true) {
    if (format !== undefined && format !== "json") throw new CliError(`--json and --format ${format} disagree`, 2);
    return "json" as F;
  }
  return (format as F | undefined) ?? fallback;
}

const UNITS: Record<string, number> = { ms: 1, s: 1000, m: 60_000 };

/** `--timeout` in milliseconds: a number of seconds, or with a unit (1500ms, 90s, 10m). */
export function durationMs(
  value: string | boolean | (string | boolean)[] | undefined,
  flag: string,
  fallbackMs: number,
): number {
  if (value === undefined) return fallbackMs;
  const m = /^(\d+(?:\.\d+)?)(ms|s|m)?$/.exec(String(value).trim());
  const ms = m ? Number(m[1]) * UNITS[m[2] ?? "s"]! : NaN;
  if (!Number.isFinite(ms) || ms <= 0)
    throw new CliError(`${flag} must be a duration: seconds (90), or 90s, 1500ms, 10m; not "${String(value)}"`, 2);
  return ms;
}

/**
 * The file a command writes when it is done (-o), checked before anything runs: a recorded turn or
 * a comparison is not lost at the end for a folder that is missing.
 */
export function outputPath(file: string): string {
  const out = path.resolve(file);
  const dir = path.dirname(out);
  const kind = (p: string) => {
    try {
      return statSync(p).isDirectory() ? "folder" : "file";
    } catch {
      return undefined;
    }
  };
  if (kind(dir) !== "folder") throw new CliError(`-o ${file}: there is no folder ${dir}`, 2);
  if (kind(out) === "folder") throw new CliError(`-o ${file}: a folder, not a file`, 2);
  try {
    accessSync(dir, constants.W_OK);
  } catch {
    throw new CliError(`-o ${file}: the folder ${dir} is not writable`, 2);
  }
  return out;
}
