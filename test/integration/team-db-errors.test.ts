/**
 * What a person is told when the team library's database fails: that it did, not where it is. A
 * relay on a throw-away PostgreSQL cluster, a named token's browser, the cluster stopped: a re-run
 * or a replay of a transcript only the database holds is refused without the database's address,
 * port, name or user (the relay's log keeps them, for its operator).
 */
import { mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { afterAll, beforeAll, describe, expect, it, vi } from "vitest";
import { pgSkipReason, startPgCluster, type PgCluster } from "../pg-cluster";
import { startTestRelay, TestClient, type TestRelay } from "../relay-harness";

const skip = pgSkipReason();
const ALICE = "alice-token-0123456789abcdef";
/** A transcript this instance does not hold: only the database could answer it. */
const ELSEWHERE = "20261122-000000-0123abcd";

describe.skipIf(skip !== undefined)("the team library's database away", () => {
  let cluster: PgCluster | undefined;
  let relay: TestRelay | undefined;
  let alice: TestClient | undefined;
  const configDir = mkdtempSync(path.join(tmpdir(), "acp-dberr-config-"));
  const configFile = path.join(configDir, "config.json");
  writeFileSync(configFile, JSON.stringify({ tokens: { alice: ALICE } }));
  /** What a message must not name: where the database is and who connects to it. */
  let secrets: string[] = [];

  beforeAll(async () => {
    cluster = await startPgCluster();
    const url = new URL(cluster.url);
    secrets = [url.port, url.hostname, url.pathname.slice(1), url.username, "ECONNREFUSED"].filter(Boolean);
    relay = await startTestRelay({ tokens: { alice: ALICE }, configFile, database: cluster.url });
    await relay.server.relay.team!.ready;
    alice = new TestClient(relay.url, { token: ALICE });
    await alice.connected();
    cluster.halt();
  }, 60_000);
  afterAll(async () => {
    alice?.close();
    await relay?.close();
    cluster?.stop();
    rmSync(configDir, { recursive: true, force: true });
  });

  it("is said to a person without where the database is; the relay's log says why", async () => {
    const logged = vi.spyOn(console, "error");
    try {
      const rerun = await alice!.emit("transcript:rerun", { id: ELSEWHERE });
      const replay = await alice!.emit("agent:start", { profile: `replay:${ELSEWHERE}` });
      for (const ack of [rerun, replay]) {
        expect(ack.ok).toBe(false);
        expect(ack.error.message).toContain("team library");
        for (const secret of secrets) expect(ack.error.message).not.toContain(secret);
      }
      // The driver's words, whichever they are (a pooled connection cut, or one refused).
      expect(logged.mock.calls.flat().join("\n")).toContain(`database: transcript ${ELSEWHERE}: `);
    } finally {
      logged.mockRestore();
    }
  });
});
