/**
 * `npm start` opens the playground in the browser, like MCP Inspector, when a
 * person is at a desktop: never in CI, tests or pipes, and not with
 * `--no-open` or ACP_PLAYGROUND_OPEN=0.
 */
import { spawn } from "node:child_process";
import { absolutePath } from "../process-group";

export interface OpenContext {
  env: Record<string, string | undefined>;
  argv: readonly string[];
  platform: NodeJS.Platform;
  /** Whether stdout is a terminal (a person is watching). */
  tty: boolean;
}

export function shouldOpenBrowser({ env, argv, platform, tty }: OpenContext): boolean {
  if (argv.includes("--no-open")) return false;
  const flag = env.ACP_PLAYGROUND_OPEN?.trim().toLowerCase();
  if (flag === "0" || flag === "false" || flag === "no") return false;
  if (env.CI || env.VITEST || env.NODE_ENV === "test") return false;
  const desktop = platform === "darwin" || platform === "win32" || !!env.DISPLAY || !!env.WAYLAND_DISPLAY;
  // ACP_PLAYGROUND_OPEN=1 asks for it even when stdout is piped.
  return desktop && (tty || flag === "1" || flag === "true" || flag === "yes");
}

function opener(platform: NodeJS.Platform): { command: string; args: string[] } {
  if (platform === "darwin") return { command: "open", args: [] };
  if (platform === "win32") return { command: "cmd", args: ["/c", "start", '""'] };
  return { command: "xdg-open", args: [] };
}

/** Fire and forget: a missing opener only costs a line on stderr. */
export function openBrowser(url: string, platform: NodeJS.Platform = process.platform): void {
  const { command, args } = opener(platform);
  try {
    // Looked up in absolute PATH entries only: the relay runs in the workspace, where `.` would find a planted opener.
    const env = { ...process.env, PATH: absolutePath(process.env.PATH ?? "") };
    const child = spawn(command, [...args, url], { stdio: "ignore", detached: true, env });
    child.on("error", (err) => console.error(`Could not open the browser (${command}): ${err.message}`));
    child.unref();
  } catch (err) {
    console.error(`Could not open the browser (${command}): ${(err as Error).message}`);
  }
}
