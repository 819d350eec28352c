/** Confinement of paths to the configured workspace roots (symlinks resolved). */
import { realpathSync } from "node:fs";
import { realpath, stat } from "node:fs/promises";
import path from "node:path";
import type { RelayError } from "../lib/contracts/wire";
import { isObject } from "../lib/protocol/json";
import { AGENT_METHODS } from "../lib/protocol/methods";
import { readJsonLine } from "../lib/protocol/json-readings";
import { namedDirectories } from "../lib/features/connect/named-directories";

/** The session requests whose recorded `additionalDirectories` a re-run filters. */
const SESSION_METHODS: ReadonlySet<string> = new Set([
  AGENT_METHODS.session_new,
  AGENT_METHODS.session_load,
  AGENT_METHODS.session_resume,
  AGENT_METHODS.session_fork,
]);

export function isInside(root: string, target: string): boolean {
  const rel = path.relative(root, target);
  // `..x` is a name inside; only `..` itself or `../...` leaves.
  return rel === "" || (rel !== ".." && !rel.startsWith(`..${path.sep}`) && !path.isAbsolute(rel));
}

/**
 * Whether a path is inside the playground's data directory (its token,
 * transcripts, probe reports): never served to an agent, wherever it lies.
 * `target` should be a real path; the directory is compared as configured and
 * as its real path (links on its way resolved, even before it is created).
 */
export async function isInsideDataDir(dataDir: string, target: string): Promise<boolean> {
  const configured = path.resolve(dataDir);
  // Not created yet: its nearest existing ancestor's real path, plus the rest.
  let existing = configured;
  let real: string | undefined;
  for (;;) {
    try {
      real = path.join(await realpath(existing), path.relative(existing, configured));
      break;
    } catch {
      const up = path.dirname(existing);
      if (up === existing) break;
      existing = up;
    }
  }
  return isInside(configured, target) || (real !== undefined && isInside(real, target));
}

/**
 * The one working-directory rule, for every path that sets an agent's directory
 * or names a place it acts on (the spawn's cwd; the fields of
 * lib/features/connect/named-directories.ts): the path's real location (symlinks
 * resolved; for one not created yet, its nearest existing ancestor's) lies
 * inside a workspace root. A refusal names the settings that decide the roots.
 */
function outside(what: string, wanted: string, roots: string[]): RelayError {
  return {
    code: "bad_cwd",
    message:
      `${what} is outside the workspace roots: ${wanted} (roots: ${roots.join(", ")}). ` +
      `To work there, start the playground in a folder that holds it (the folder it starts in is the workspace), ` +
      `or list it in "workspaceRoots" in the config file (--config FILE or ACP_PLAYGROUND_CONFIG)`,
  };
}

/**
 * Where a path really lies: its real path, or its nearest existing ancestor's plus the rest. The
 * system's realpath, on the path as given: `link/..` is the parent of the link's target, as for the
 * kernel (a chdir, Codex's sandbox), where path.resolve and node's realpath would say the link's folder.
 */
function realLocation(target: string): string {
  let existing = target;
  for (;;) {
    try {
      return path.join(realpathSync.native(existing), path.relative(existing, target));
    } catch {
      const up = path.dirname(existing);
      if (up === existing) return target;
      existing = up;
    }
  }
}

/** Whether `dir` (absolute) lies inside a root; the refusal when it does not. */
export function checkDirectory(what: string, dir: string, roots: string[]): RelayError | undefined {
  if (!path.isAbsolute(dir)) return { code: "bad_cwd", message: `${what} must be an absolute path: ${dir}` };
  // No path holds a NUL; a reader in C would cut it there (`/etc\0/../root` is its /etc).
  if (dir.includes("\0"))
    return { code: "bad_cwd", message: `${what} contains a NUL character: ${JSON.stringify(dir)}` };
  return roots.some((root) => isInside(root, realLocation(dir))) ? undefined : outside(what, dir, roots);
}

/**
 * The rule applied to a line the client sends the agent: every place a request in it names
 * (lib/features/connect/named-directories.ts: session/new's `cwd`, app-server's thread/start, `fs/*`
 * paths...), read as any agent's JSON reader could read the line: escapes decoded, batches
 * and several values opened, every copy of a repeated key. A line no reader accepts passes
 * untouched (the Raw tab sends malformed frames on purpose); values read before the point
 * where it stops being JSON are still judged (a streaming reader acts on them).
 */
export function checkFrameDirectories(line: string, roots: string[]): RelayError | undefined {
  return checkMessageDirectories(readJsonLine(line).values, roots);
}

/** The rule for messages already parsed (a re-run's recorded requests; a batch as an array). */
export function checkMessageDirectories(message: unknown, roots: string[]): RelayError | undefined {
  for (const named of namedDirectories(message)) {
    const refused = checkDirectory(`${named.method}'s ${named.field}`, named.path, roots);
    if (refused) return refused;
  }
  return undefined;
}

/**
 * A recorded request as a re-run may send it: the `additionalDirectories`
 * entries outside the roots left out (a transcript comes from anyone), each
 * named in `dropped`. Its `cwd` is the live agent's already (lib/features/library/rerun.ts).
 */
export function keepDirectoriesInside(message: object, roots: string[], dropped: string[]): object {
  const m = message as { method?: unknown; params?: unknown };
  if (typeof m.method !== "string" || !SESSION_METHODS.has(m.method) || !isObject(m.params)) return message;
  const dirs = m.params.additionalDirectories;
  if (!Array.isArray(dirs)) return message;
  const method = m.method;
  const kept = dirs.filter((dir) => {
    const refused = typeof dir === "string" ? checkDirectory("dir", dir, roots) : undefined;
    if (refused)
      dropped.push(
        `${method}: the recorded additionalDirectories entry ${dir} was left out (outside the workspace roots)`,
      );
    return !refused;
  });
  return { ...message, params: { ...m.params, additionalDirectories: kept } };
}

/** Resolves an agent's working directory for its spawn; it must be a directory inside a root. */
export async function resolveCwd(requested: string | undefined, roots: string[]): Promise<string | RelayError> {
  const wanted = path.resolve(roots[0]!, requested ?? ".");
  let real: string;
  try {
    real = await realpath(wanted);
    if (!(await stat(real)).isDirectory()) return { code: "bad_cwd", message: `not a directory: ${wanted}` };
  } catch {
    return { code: "bad_cwd", message: `no such directory: ${wanted}` };
  }
  return checkDirectory("cwd", real, roots) ? outside("cwd", wanted, roots) : real;
}
