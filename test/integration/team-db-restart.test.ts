/**
 * PostgreSQL restarted during a recording: a real relay process on a throw-away cluster, an agent
 * streaming frames to the browser, the cluster stopped as a crash stops it and started again. The
 * browser's frames never stop; the relay says the database is unreachable and that what waits is
 * over its (small) bound; the recording ends while the database is still away; once it is back the
 * relay catches up on its own, and the database's copy equals the local recording line for line,
 * finished: no frame lost, none twice.
 */
import { readFileSync } from "node:fs";
import path from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { PgStore } from "../../server/stores/pg-store";
import { pgSkipReason, startPgCluster, type PgCluster } from "../pg-cluster";
import { startRelayProcess, TestClient, waitUntil, type RelayProcess } from "../relay-harness";

const skip = pgSkipReason();

describe.skipIf(skip !== undefined)("PostgreSQL restarted during a recording", () => {
  let cluster: PgCluster | undefined;
  let relay: RelayProcess | undefined;
  let reader: PgStore | undefined;
  beforeAll(async () => {
    cluster = await startPgCluster();
  }, 60_000);
  afterAll(async () => {
    await reader?.close();
    await relay?.close();
    cluster?.stop();
  });

  it("keeps forwarding, then writes what waited: every line once", async () => {
    relay = await startRelayProcess(
      { stream: { command: "node", args: ["test/fixtures/bench-agent.mjs", "rate", "300", "1000000"] } },
      {
        ACP_PLAYGROUND_DATABASE_URL: cluster!.url,
        ACP_PLAYGROUND_DATABASE_LEASE_MS: "60000",
        ACP_PLAYGROUND_DATABASE_BACKLOG_BYTES: "32768",
      },
    );
    let said = "";
    relay.child.stderr!.on("data", (d: Buffer) => (said += String(d)));
    const c = new TestClient(relay.url, { token: "bench" });
    await c.connected();
    const ack = await c.emit("agent:start", { profile: "stream" });
    expect(ack.ok).toBe(true);
    const id: string = ack.agent.transcriptId;
    await c.emit("agent:send", {
      frame: { jsonrpc: "2.0", id: 1, method: "initialize", params: { protocolVersion: 1, clientCapabilities: {} } },
    });
    await waitUntil(() => c.frames.length > 200, "frames before the restart", 20_000);

    cluster!.halt();
    const atHalt = c.frames.length;
    // The relay keeps forwarding while the database is away.
    await waitUntil(() => c.frames.length > atHalt + 600, "frames while the database is down", 30_000);
    await waitUntil(() => said.includes("database: unreachable"), "the relay says so", 10_000);
    await waitUntil(() => said.includes("over the bound of 0 MiB"), "the bound is said to be reached", 10_000);
    // The recording ends while the database is away: nothing changes after, the retry alone must copy it.
    const stopped = await c.emit("agent:stop", {});
    expect(stopped.ok).toBe(true);
    c.close();
    cluster!.restart();
    await waitUntil(() => said.includes("database: reachable again"), "caught up", 30_000);

    reader = await PgStore.open(cluster!.url, { leaseMs: 60_000 });
    const local = readFileSync(path.join(relay.dataDir, "data", "transcripts", `${id}.jsonl`), "utf8");
    const deadline = Date.now() + 20_000;
    let stored: string | undefined;
    for (;;) {
      stored = await reader.read(id);
      // The header differs only by the title the database adds.
      if ((await reader.meta(id))?.recording === false && stored?.split("\n").length === local.split("\n").length)
        break;
      if (Date.now() > deadline) break;
      await new Promise((r) => setTimeout(r, 100));
    }
    const lines = local.split("\n");
    expect(lines.length).toBeGreaterThan(700);
    expect(stored!.split("\n").slice(1)).toEqual(lines.slice(1));
    expect(await reader.meta(id)).toMatchObject({ recording: false });
  });
});
