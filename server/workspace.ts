/** Confinement of paths to the configured workspace roots (symlinks resolved). */
import { realpath, stat } from "node:fs/promises";
import path from "node:path";
import type { RelayError } from "../lib/wire";

export function isInside(root: string, target: string): boolean {
  const rel = path.relative(root, target);
  return rel === "" || (!rel.startsWith("..") && !path.isAbsolute(rel));
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
