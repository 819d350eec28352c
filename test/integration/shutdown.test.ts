/** Relay SIGTERM / SIGINT with live agents: every agent process group is stopped before exit. */
import { execa } from "execa";
import path from "node:path";
import { describe, expect, it } from "vitest";
import { alive, processTree, TestClient, waitUntil } from "../relay-harness";

const root = path.resolve(import.meta.dirname, "../..");

async function startServer() {
  const configFile = path.join(root, "test/fixtures/stub-profiles.json");
  const child = execa(process.execPath, ["--import", "tsx", "test/fixtures/relay-server.ts"], {
    cwd: root,
    env: { ACP_PLAYGROUND_TOKEN: "t0ken", ACP_PLAYGROUND_CONFIG: configFile },
    reject: false,
  });
  const url = await new Promise<string>((resolve, reject) => {
    child.stdout!.on("data", (d: Buffer) => {
      const m = /http:\/\/127\.0\.0\.1:\d+/.exec(String(d));
      if (m) resolve(m[0]);
    });
    child.once("exit", () => reject(new Error("server exited early")));
  });
  return { child, url };
}

describe("relay shutdown", () => {
  for (const signal of ["SIGTERM", "SIGINT"] as const) {
    it(`stops all agents on ${signal}, descendants included`, async () => {
      const { child, url } = await startServer();
      const pids: number[] = [];
      const clients = [new TestClient(url, { token: "t0ken" }), new TestClient(url, { token: "t0ken" })];
      for (const c of clients) {
        await c.connected();
        const ack = await c.emit("agent:start", { profile: "family" });
        expect(ack.ok).toBe(true);
        const note = await c.frame((f) => f.method === "stub/child", "grandchild");
        pids.push(...processTree(ack.agent.pid), (note.message as { params: { pid: number } }).params.pid);
      }
      expect(pids.length).toBeGreaterThanOrEqual(4);
      expect(pids.every(alive)).toBe(true);
      child.kill(signal);
      const result = await child;
      expect(result.exitCode).toBe(0);
      expect(result.stdout).toContain(`${signal}: stopping agents`);
      await waitUntil(() => pids.every((p) => !alive(p)), "no agent process left", 2_000);
      for (const c of clients) c.close();
    });
  }
});
