/** Confinement of paths to the configured workspace roots (symlinks resolved). */
import { realpath, stat } from "node:fs/promises";
import path from "node:path";
import type { RelayError } from "../lib/contracts/wire";

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

/** Resolves an agent's working directory; it must be a directory inside a root. */
export async function resolveCwd(requested: string | undefined, roots: string[]): Promise<string | RelayError> {
  const wanted = path.resolve(roots[0]!, requested ?? ".");
  let real: string;
  try {
    real = await realpath(wanted);
    if (!(await stat(real)).isDirectory()) return { code: "bad_cwd", message: `not a directory: ${wanted}` };
  } catch {
    return { code: "bad_cwd", message: `no such directory: ${wanted}` };
  }
  if (!roots.some((root) => isInside(root, real))) {
    return { code: "bad_cwd", message: `cwd is outside the workspace roots: ${wanted}` };
  }
  return real;
}
