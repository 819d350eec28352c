/**
 * Test harness: what the throw-away servers (HAProxy, redis-server, PostgreSQL) share: a free port,
 * a child in a process group of its own that is stopped whole, and the skip rule for a server that
 * is not installed (a skip here, a failure in CI).
 */
import { spawn, type ChildProcess, type SpawnOptions } from "node:child_process";
import { createServer } from "node:net";
import { groupMembers, signalGroup } from "../server/process-group";

/** A port on 127.0.0.1 that was free a moment ago (closed again: the server under test takes it). */
export function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const s = createServer();
    s.once("error", reject);
    s.listen(0, "127.0.0.1", () => {
      const { port } = s.address() as { port: number };
      s.close(() => resolve(port));
    });
  });
}

/**
 * Why a server's tests are skipped here, or undefined when they run (`installed`). Outside CI a
 * machine without it skips them, saying so; in CI (`CI=true`) its absence is a failure, not a skip.
 */
export function skipUnlessInstalled(installed: boolean, missing: string, reason: string): string | undefined {
  if (installed) return undefined;
  if (process.env.CI === "true") throw new Error(`CI=true but ${missing}: .ci/run installs it`);
  console.warn(reason);
  return reason;
}

export interface GroupChild {
  child: ChildProcess;
  /** SIGKILL to the whole group (a crash, not a shutdown); resolves once none of it is left. */
  stop: () => Promise<void>;
}

/** Spawns `command` as the leader of a process group of its own, for `stop` to end whole. */
export function spawnGroup(command: string, args: string[], options: SpawnOptions = {}): GroupChild {
  const child = spawn(command, args, { ...options, detached: true });
  const exited = new Promise<void>((resolve) => child.once("exit", () => resolve()));
  const stop = async () => {
    const pgid = child.pid;
    if (pgid === undefined) return; // never started
    if (child.exitCode === null && child.signalCode === null) {
      signalGroup(pgid, "SIGKILL");
      await exited;
    }
    // What the leader started may outlive it, in its group.
    for (let tries = 0; groupMembers(pgid).length > 0; tries++) {
      if (tries === 100) throw new Error(`process group ${pgid} survived SIGKILL: ${groupMembers(pgid).join(", ")}`);
      signalGroup(pgid, "SIGKILL");
      await new Promise((r) => setTimeout(r, 50));
    }
  };
  return { child, stop };
}
