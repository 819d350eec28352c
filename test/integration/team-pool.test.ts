/**
 * `serve --database` with a warm pool (on by default): a warm agent nobody has taken is not in the
 * team's library, as it is not in the file store's list, and its transcript is not left behind
 * there when the instance stops (it was listed "recording", then marked ended by a crash, at every
 * start and stop of every instance). Once taken, its recording is copied whole, the pool's
 * initialize included.
 */
import path from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { pgSkipReason, startPgCluster, type PgCluster } from "../pg-cluster";
import { startTestRelay, TestClient, waitUntil, type TestRelay } from "../relay-harness";

const skip = pgSkipReason();
const fixture = path.resolve(import.meta.dirname, "../fixtures/leaky-agent.mjs");

describe.skipIf(skip !== undefined)("a warm pool on the team library", () => {
  let pg: PgCluster | undefined;
  let relay: TestRelay | undefined;
  let other: TestRelay | undefined;
  const start = () =>
    startTestRelay({
      database: pg!.url,
      graceMs: 200,
      pool: { leaky: 1 },
      profiles: { leaky: { command: process.execPath, args: [fixture], env: {} } },
    });

  beforeAll(async () => {
    pg = await startPgCluster();
    relay = await start();
    await relay.server.relay.team!.ready;
  }, 60_000);
  afterAll(async () => {
    await relay?.close();
    await other?.close();
    pg?.stop();
  });

  /** The ids the team's library lists, as any instance answers them. */
  const listed = async (r: TestRelay) => {
    const res = await fetch(`${r.url}/api/transcripts`, { headers: { authorization: "Bearer test-token" } });
    return ((await res.json()) as { transcripts: { id: string }[] }).transcripts.map((t) => t.id);
  };
  const warmId = (r: TestRelay) =>
    (r.server.relay.pool as any).slots.get("leaky").ready[0].agentInfo.transcriptId as string;

  it("lists a warm agent's recording only once a browser takes it, and leaves none behind at stop", async () => {
    const pool = relay!.server.relay.pool;
    await waitUntil(() => pool.size("leaky") === 1, "a warm agent", 30_000);
    const warm = warmId(relay!);
    // Past the copier's delay: what it would copy is in the database by now.
    await relay!.server.relay.mirror!.flush();
    expect(await listed(relay!)).not.toContain(warm);

    const c = new TestClient(relay!.url, { token: "test-token" });
    try {
      await c.connected();
      const agent = await c.start({ profile: "leaky", pooled: true });
      expect(agent.transcriptId).toBe(warm);
      await c.send({ jsonrpc: "2.0", id: 2, method: "session/new", params: { cwd: process.cwd(), mcpServers: [] } });
      await c.response(2);
      for (const end = Date.now() + 10_000; !(await listed(relay!)).includes(warm);) {
        if (Date.now() > end) throw new Error("timed out waiting for the taken agent's recording to be listed");
        await new Promise((r) => setTimeout(r, 50));
      }
      const res = await fetch(`${relay!.url}/api/transcripts/${warm}`, {
        headers: { authorization: "Bearer test-token" },
      });
      // Copied whole: the pool's initialize, its answer, then the browser's session/new.
      const methods = (await res.text())
        .trim()
        .split("\n")
        .map((l) => JSON.parse(l))
        .filter((l) => l.type === "frame")
        .map((l) => JSON.parse(l.raw).method);
      expect(methods.slice(0, 3)).toEqual(["initialize", undefined, "session/new"]);
    } finally {
      c.close();
    }

    // The replacement warm agent: not listed, and gone with the instance.
    await waitUntil(() => pool.size("leaky") === 1, "the replacement", 30_000);
    const replacement = warmId(relay!);
    await relay!.server.relay.mirror!.flush();
    expect(await listed(relay!)).not.toContain(replacement);
    await relay!.close();
    relay = undefined;
    other = await startTestRelay({ database: pg!.url });
    await other.server.relay.team!.ready;
    const after = await listed(other);
    expect(after).toContain(warm);
    expect(after).not.toContain(replacement);
  });
});
