/** Relay SIGTERM / SIGINT with live agents: every agent process group is stopped before exit. */
import { execa } from "execa";
import { mkdtempSync, readdirSync, readFileSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { parseTranscript } from "../../lib/transcript";
import { afterAll, describe, expect, it } from "vitest";
import { alive, processTree, TestClient, waitUntil } from "../relay-harness";

const root = path.resolve(import.meta.dirname, "../..");

const dataDir = mkdtempSync(path.join(tmpdir(), "acp-shutdown-"));
afterAll(() => rmSync(dataDir, { recursive: true, force: true }));

async function startServer() {
  const configFile = path.join(root, "test/fixtures/stub-profiles.json");
  const child = execa(process.execPath, ["--import", "tsx", "test/fixtures/relay-server.ts"], {
    cwd: root,
    env: { ACP_PLAYGROUND_TOKEN: "t0ken", ACP_PLAYGROUND_CONFIG: configFile, ACP_PLAYGROUND_DATA: dataDir },
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
      const acks: any[] = [];
      const clients = [new TestClient(url, { token: "t0ken" }), new TestClient(url, { token: "t0ken" })];
      for (const c of clients) {
        await c.connected();
        const ack = await c.emit("agent:start", { profile: "family" });
        expect(ack.ok).toBe(true);
        acks.push(ack);
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
      // Transcripts were closed cleanly: each ends with the agent's exit.
      const files = readdirSync(path.join(dataDir, "transcripts")).filter((f) => f.endsWith(".jsonl"));
      for (const ack of acks) {
        const file = `${ack.agent.transcriptId}.jsonl`;
        expect(files).toContain(file);
        const t = parseTranscript(readFileSync(path.join(dataDir, "transcripts", file), "utf8"));
        expect(t.truncated).toBe(false);
        expect(t.events.at(-1)).toMatchObject({ type: "lifecycle", event: "exited" });
        expect(t.frames.some((f) => f.method === "stub/child")).toBe(true);
        const meta = JSON.parse(readFileSync(path.join(dataDir, "transcripts", `${ack.agent.transcriptId}.meta.json`), "utf8"));
        expect(meta.recording).toBe(false);
      }
    });
  }
});
