/**
 * Test harness: a throw-away redis-server from Debian's package on a free port, nothing kept on
 * disk, in its own process group; stopped (the whole group) and started again on the same port to
 * play an outage, removed after.
 */
import { existsSync, mkdtempSync, rmSync } from "node:fs";
import { createConnection } from "node:net";
import { tmpdir } from "node:os";
import path from "node:path";
import { freePort, skipUnlessInstalled, spawnGroup, type GroupChild } from "./server-process";

export const REDIS_SERVER = "/usr/bin/redis-server";

export interface TestRedis {
  url: string;
  /** Stops the server (SIGKILL to its group: an outage, not a shutdown) and waits for it to be gone. */
  stop(): Promise<void>;
  /** Starts it again on the same port, empty. */
  start(): Promise<void>;
  /** Stops it for good and removes its directory. */
  remove(): Promise<void>;
}

/** Why the Redis tests are skipped here, or undefined when they run; in CI its absence is a failure. */
export function redisSkipReason(): string | undefined {
  return skipUnlessInstalled(
    existsSync(REDIS_SERVER),
    `${REDIS_SERVER} is missing`,
    "redis-server is not installed (apt-get install redis-server): skipping the Redis tests",
  );
}

/** Resolves once the server answers PING. */
async function answers(port: number, timeoutMs = 10_000): Promise<void> {
  const until = Date.now() + timeoutMs;
  for (;;) {
    const ok = await new Promise<boolean>((resolve) => {
      const c = createConnection({ port, host: "127.0.0.1" });
      c.once("error", () => resolve(false));
      c.once("connect", () => c.write("PING\r\n"));
      c.once("data", (d) => {
        c.destroy();
        resolve(d.toString().startsWith("+PONG"));
      });
    });
    if (ok) return;
    if (Date.now() > until) throw new Error(`redis-server on port ${port} did not answer within ${timeoutMs} ms`);
    await new Promise((r) => setTimeout(r, 50));
  }
}

export async function startRedis(): Promise<TestRedis> {
  const dir = mkdtempSync(path.join(tmpdir(), "acp-redis-"));
  const port = await freePort();
  let server: GroupChild | undefined;
  const start = async () => {
    const args = ["--port", String(port), "--bind", "127.0.0.1", "--save", "", "--appendonly", "no", "--dir", dir];
    server = spawnGroup(REDIS_SERVER, args, { stdio: "ignore" });
    await answers(port);
  };
  const stop = async () => {
    const running = server;
    server = undefined;
    await running?.stop();
  };
  try {
    await start();
  } catch (err) {
    await stop();
    rmSync(dir, { recursive: true, force: true });
    throw err;
  }
  return {
    url: `redis://127.0.0.1:${port}`,
    stop,
    start,
    async remove() {
      await stop();
      rmSync(dir, { recursive: true, force: true });
    },
  };
}
