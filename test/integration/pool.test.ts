/** The warm pool with the real Gemini CLI: instant Connect, refill, bypass, clean shutdown. */
import { readdirSync } from "node:fs";
import path from "node:path";
import { describe, expect, it } from "vitest";
import { useGeminiRelay } from "../gemini-relay-setup";
import { alive, processTree, TestClient, waitUntil } from "../relay-harness";

const g = useGeminiRelay({ pool: { gemini: 1 }, graceMs: 100 });

describe("warm pool", () => {
  it("hands an initialized agent to one browser session and warms a replacement", async () => {
    const pool = g.relay.server.relay.pool;
    await waitUntil(() => pool.size("gemini") === 1, "a warm agent", 30_000);
    const c = new TestClient(g.relay.url, { token: "test-token" });
    await c.connected();
    const transcripts = g.relay.server.relay.transcripts;
    const warmId = (pool as any).slots.get("gemini").ready[0].agentInfo.transcriptId as string;
    // A warm agent nobody has taken is not in the transcript list.
    expect(transcripts.list().map((m) => m.id)).not.toContain(warmId);
    await c.emit("policy:set", { policies: { "fs/read_text_file": "auto" } });
    const agent = await c.start({ pooled: true });
    expect(agent.pooled).toBe(true);
    // The policies set before Connect hold for the warm agent.
    expect((await c.emit("policy:set", { policies: {} })).policies["fs/read_text_file"]).toBe("auto");
    expect(agent.transcriptId).toBe(warmId);
    expect(transcripts.list().map((m) => m.id)).toContain(warmId);
    expect(pool.size("gemini")).toBe(0);
    // The pool's initialize is part of this agent's log.
    await c.waitFor(() => c.frames.length >= 2, "pooled frames");
    expect(c.frames.slice(0, 2).map((f) => [f.seq, f.dir, f.method])).toEqual([
      [1, "to-agent", "initialize"],
      [2, "from-agent", "initialize"],
    ]);
    // It advertised what Connect advertises for the profile by default (Gemini: no fs, no terminal).
    expect((c.frames[0]!.message as any).params.clientCapabilities).toEqual(
      g.relay.server.relay.profiles.clientCapabilities("gemini"),
    );
    expect((c.frames[0]!.message as any).params.clientCapabilities.fs.readTextFile).toBe(false);
    await c.send({ jsonrpc: "2.0", id: 2, method: "session/new", params: { cwd: g.workspace, mcpServers: [] } });
    expect(((await c.response(2)).message as any).result.sessionId).toEqual(expect.any(String));

    // A second browser gets the replacement, never the same process.
    await waitUntil(() => pool.size("gemini") === 1, "the replacement", 30_000);
    const d = new TestClient(g.relay.url, { token: "test-token" });
    await d.connected();
    const other = await d.start({ pooled: true });
    expect(other.pid).not.toBe(agent.pid);

    // Options change the command line: they bypass the pool.
    const e = new TestClient(g.relay.url, { token: "test-token" });
    await e.connected();
    const fresh = await e.start({ pooled: true, options: { skipTrust: true } });
    expect(fresh.pooled).toBeUndefined();
    expect(fresh.args).toContain("--skip-trust");

    const pids = [agent.pid, other.pid, fresh.pid].flatMap((pid) => processTree(pid));
    for (const client of [c, d, e]) client.close();
    await waitUntil(() => pids.every((p) => !alive(p)), "agents stopped after the grace period", 20_000);
  });

  it("stops warm agents on close and drops their unused transcripts", async () => {
    const pool = g.relay.server.relay.pool;
    await waitUntil(() => pool.size("gemini") === 1, "a warm agent", 30_000);
    const warmPid = (pool as any).slots.get("gemini").ready[0].agentInfo.pid as number;
    const tree = processTree(warmPid);
    const dir = path.join(g.relay.config.dataDir, "transcripts");
    const before = readdirSync(dir).filter((f) => f.endsWith(".jsonl")).length;
    await g.relay.server.close();
    expect(tree.every((p) => !alive(p))).toBe(true);
    expect(readdirSync(dir).filter((f) => f.endsWith(".jsonl")).length).toBe(before - 1);
  });
});
