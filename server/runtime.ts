/**
 * Where this process runs from: the repository's TypeScript (through tsx) or an
 * installed package's compiled dist/ (scripts/build-dist.mjs), and the paths
 * that follow from it. One place, so every module agrees.
 */
import { homedir } from "node:os";
import path from "node:path";
import { fileURLToPath, pathToFileURL } from "node:url";

/** True in the installed tool: every server module is bundled into dist/*.mjs. */
export const COMPILED = import.meta.url.endsWith(".mjs");

/** The package's root: one level above server/ (sources) or dist/ (compiled). */
export const PACKAGE_ROOT = path.resolve(path.dirname(fileURLToPath(import.meta.url)), "..");

/** server/'s entry scripts that run as processes of their own, by the name of their dist/ bundle. */
const ENTRY_SCRIPTS = {
  "replay-agent": "agents/replay-agent.ts",
  "index-worker": "transcripts/index-worker.ts",
  "pg-copy-worker": "stores/pg-copy-worker.ts",
} as const;

/** The arguments that make `node` run one of server/'s entry scripts (e.g. "replay-agent") as its own process. */
export function nodeScript(name: keyof typeof ENTRY_SCRIPTS): string[] {
  return COMPILED
    ? [path.join(PACKAGE_ROOT, "dist", `${name}.mjs`)]
    : ["--import", import.meta.resolve("tsx"), path.join(PACKAGE_ROOT, "server", ENTRY_SCRIPTS[name])];
}

/**
 * How a worker thread runs one of server/'s entry scripts: the compiled file, or in the
 * repository a bootstrap that loads the TypeScript through tsx's API (a worker does not get
 * the hooks `--import tsx` installs in the main thread).
 */
export function workerScript(name: keyof typeof ENTRY_SCRIPTS): { source: string; eval: boolean } {
  if (COMPILED) return { source: path.join(PACKAGE_ROOT, "dist", `${name}.mjs`), eval: false };
  const file = pathToFileURL(path.join(PACKAGE_ROOT, "server", ENTRY_SCRIPTS[name])).href;
  const api = import.meta.resolve("tsx/esm/api");
  return {
    source: `import(${JSON.stringify(api)}).then(({ tsImport }) => tsImport(${JSON.stringify(file)}, ${JSON.stringify(file)}))`,
    eval: true,
  };
}

/**
 * The data directory (transcripts, probe reports, the tap's discovery files):
 * ACP_PLAYGROUND_DATA, else the user's data home, never the project the
 * playground is run in (an agent is served that folder).
 */
export function dataDirFor(
  env: Record<string, string | undefined>,
  cwd = process.cwd(),
  platform: NodeJS.Platform = process.platform,
  home = homedir(),
): string {
  if (env.ACP_PLAYGROUND_DATA) return path.resolve(cwd, env.ACP_PLAYGROUND_DATA);
  // The XDG spec has a relative value ignored (it would put the data under the served folder).
  if (env.XDG_DATA_HOME && path.isAbsolute(env.XDG_DATA_HOME)) return path.join(env.XDG_DATA_HOME, "acp-playground");
  if (platform === "darwin") return path.join(home, "Library", "Application Support", "acp-playground");
  if (platform === "win32") return path.join(env.LOCALAPPDATA || path.join(home, "AppData", "Local"), "acp-playground");
  return path.join(home, ".local", "share", "acp-playground");
}
