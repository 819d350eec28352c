/**
 * The v2 probe's line transport to a local agent process (lib/features/probe-v2/connection.ts):
 * one fresh process per connection, in its own process group, stopped as a whole on close.
 */
import { spawn } from "node:child_process";
import type { V2Connect, V2Line } from "../../lib/features/probe-v2/connection";
import { signalGroup } from "../process-group";

export interface V2ProcessOptions {
  command: string;
  args?: readonly string[];
  cwd: string;
  env?: NodeJS.ProcessEnv;
  /** What the agent writes to stderr, as it comes (default: dropped). */
  onStderr?: (text: string) => void;
}

/** How long an agent gets to leave after its stdin closed, before SIGKILL. */
const GRACE_MS = 2000;
const sleep = (ms: number) => new Promise<void>((resolve) => setTimeout(resolve, ms));

export function v2ProcessConnect(options: V2ProcessOptions): V2Connect {
  return (): Promise<V2Line> => {
    const child = spawn(options.command, [...(options.args ?? [])], {
      cwd: options.cwd,
      env: options.env ?? process.env,
      stdio: ["pipe", "pipe", "pipe"],
      detached: true,
    });
    const exited = new Promise<void>((resolve) => {
      child.once("exit", () => resolve());
      child.once("error", () => resolve());
    });
    let onLine: (line: string) => void = () => {};
    let onClose: () => void = () => {};
    let buf = "";
    child.stdout.setEncoding("utf8");
    child.stdout.on("data", (chunk: string) => {
      buf += chunk;
      let nl: number;
      while ((nl = buf.indexOf("\n")) >= 0) {
        const line = buf.slice(0, nl).replace(/\r$/, "");
        buf = buf.slice(nl + 1);
        if (line.trim()) onLine(line);
      }
    });
    child.stdout.on("end", () => onClose());
    child.stderr.setEncoding("utf8");
    child.stderr.on("data", (t: string) => options.onStderr?.(t));
    child.stdin.on("error", () => {}); // the agent may be gone before a write lands
    return Promise.resolve({
      send: (line) => {
        if (child.stdin.writable) child.stdin.write(`${line}\n`);
      },
      onLine: (f) => (onLine = f),
      onClose: (f) => (onClose = f),
      close: async () => {
        child.stdin.end();
        const pgid = child.pid;
        if (pgid === undefined) return;
        const gone = await Promise.race([exited.then(() => true), sleep(GRACE_MS).then(() => false)]);
        if (!gone) {
          signalGroup(pgid, "SIGTERM");
          await Promise.race([exited, sleep(500)]);
        }
        // The whole group, always: an agent's own children leave with it.
        signalGroup(pgid, "SIGKILL");
        await exited;
      },
    });
  };
}
