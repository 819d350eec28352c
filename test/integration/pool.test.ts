/** The warm pool with the real Gemini CLI: instant Connect, refill, bypass, clean shutdown. */
import { mkdtempSync, readdirSync, realpathSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { startFakeGeminiApi, type FakeGeminiApi } from "../fake-gemini/server";
import { makeGeminiHome, type GeminiHome } from "../gemini-home";
import { alive, processTree, startTestRelay, TestClient, waitUntil, type TestRelay } from "../relay-harness";

let api: FakeGeminiApi;
let home: GeminiHome;
let relay: TestRelay;
let workspace: string;
const savedEnv = { ...process.env };

beforeAll(async () => {
  api = await startFakeGeminiApi();
  home = makeGeminiHome(api.url);
  Object.assign(process.env, home.env);
  workspace = realpathSync(mkdtempSync(path.join(tmpdir(), "acp-pool-")));
  relay = await startTestRelay({ workspaceRoots: [workspace], pool: { gemini: 1 }, graceMs: 100 });
});
afterAll(async () => {
  await relay?.close();
  await api?.close();
  process.env = savedEnv;
  home?.cleanup();
  rmSync(workspace, { recursive: true, force: true });
});

describe("warm pool", () => {
  it("hands an initialized agent to one browser session and warms a replacement", async () => {
    const pool = relay.server.relay.pool;
    await waitUntil(() => pool.size("gemini") === 1, "a warm agent", 30_000);
    const c = new TestClient(relay.url, { token: "test-token" });
    await c.connected();
    const agent = await c.start({ pooled: true });
    expect(agent.pooled).toBe(true);
    expect(pool.size("gemini")).toBe(0);
    // The pool's initialize is part of this agent's log.
    await c.waitFor(() => c.frames.length >= 2, "pooled frames");
    expect(c.frames.slice(0, 2).map((f) => [f.seq, f.dir, f.method])).toEqual([
      [1, "to-agent", "initialize"],
      [2, "from-agent", "initialize"],
    ]);
    await c.send({ jsonrpc: "2.0", id: 2, method: "session/new", params: { cwd: workspace, mcpServers: [] } });
    expect(((await c.response(2)).message as any).result.sessionId).toEqual(expect.any(String));

    // A second browser gets the replacement, never the same process.
    await waitUntil(() => pool.size("gemini") === 1, "the replacement", 30_000);
    const d = new TestClient(relay.url, { token: "test-token" });
    await d.connected();
    const other = await d.start({ pooled: true });
    expect(other.pid).not.toBe(agent.pid);

    // Options change the command line: they bypass the pool.
    const e = new TestClient(relay.url, { token: "test-token" });
    await e.connected();
    const fresh = await e.start({ pooled: true, options: { skipTrust: true } });
    expect(fresh.pooled).toBeUndefined();
    expect(fresh.args).toContain("--skip-trust");

    const pids = [agent.pid, other.pid, fresh.pid].flatMap((pid) => processTree(pid));
    for (const client of [c, d, e]) client.close();
    await waitUntil(() => pids.every((p) => !alive(p)), "agents stopped after the grace period", 20_000);
  });

  it("stops warm agents on close and drops their unused transcripts", async () => {
    const pool = relay.server.relay.pool;
    await waitUntil(() => pool.size("gemini") === 1, "a warm agent", 30_000);
    const warmPid = (pool as any).slots.get("gemini").ready[0].agentInfo.pid as number;
    const tree = processTree(warmPid);
    const dir = path.join(relay.config.dataDir, "transcripts");
    const before = readdirSync(dir).filter((f) => f.endsWith(".jsonl")).length;
    await relay.server.close();
    expect(tree.every((p) => !alive(p))).toBe(true);
    expect(readdirSync(dir).filter((f) => f.endsWith(".jsonl")).length).toBe(before - 1);
  });
});
