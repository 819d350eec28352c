/** Relay SIGTERM / SIGINT with live agents: every agent process group is stopped before exit. */
import { readdirSync, readFileSync } from "node:fs";
import path from "node:path";
import { parseTranscript } from "../../lib/contracts/transcript";
import { describe, expect, it } from "vitest";
import { alive, processTree, startRelayProcess, TestClient, waitUntil } from "../relay-harness";

describe("relay shutdown", () => {
  for (const signal of ["SIGTERM", "SIGINT"] as const) {
    it(`stops all agents on ${signal}, descendants included`, async () => {
      const relay = await startRelayProcess({
        family: { command: "node", args: ["test/fixtures/stub-agent.mjs", "spawn-child"] },
      });
      const { child, url } = relay;
      const dataDir = path.join(relay.dataDir, "data");
      const pids: number[] = [];
      const acks: any[] = [];
      const clients = [new TestClient(url, { token: "bench" }), new TestClient(url, { token: "bench" })];
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
        const meta = JSON.parse(
          readFileSync(path.join(dataDir, "transcripts", `${ack.agent.transcriptId}.meta.json`), "utf8"),
        );
        expect(meta.recording).toBe(false);
      }
      await relay.close();
    });
  }
});
