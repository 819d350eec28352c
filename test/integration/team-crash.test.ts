/**
 * Nothing lost when a team server's instance dies: a real relay process (A) on a throw-away
 * PostgreSQL cluster, an agent streaming frames to the browser mid-request, A killed with
 * SIGKILL (then its agent's process group). Every frame A forwarded at least one second before
 * the kill is in the database, once and in order, and instance B, still running, marks the
 * transcript as ended by a crash when A's lease runs out, instead of "recording" forever.
 */
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { parseTranscript } from "../../lib/contracts/transcript";
import { pgSkipReason, startPgCluster, type PgCluster } from "../pg-cluster";
import {
  alive,
  processTree,
  startRelayProcess,
  startTestRelay,
  TestClient,
  waitUntil,
  type RelayProcess,
  type TestRelay,
} from "../relay-harness";

const skip = pgSkipReason();
const LEASE_MS = 1_500;

describe.skipIf(skip !== undefined)("an instance killed with SIGKILL mid-recording", () => {
  let cluster: PgCluster | undefined;
  let a: RelayProcess | undefined;
  let b: TestRelay | undefined;
  const pids: number[] = [];
  beforeAll(async () => {
    cluster = await startPgCluster();
  }, 60_000);
  afterAll(async () => {
    for (const pid of pids) if (alive(pid)) process.kill(pid, "SIGKILL");
    await a?.close();
    await b?.close();
    cluster?.stop();
  });

  it("every frame forwarded a second before the kill is stored once, and the transcript is marked crashed", async () => {
    a = await startRelayProcess(
      { stream: { command: "node", args: ["test/fixtures/bench-agent.mjs", "rate", "200", "1000000"] } },
      { ACP_PLAYGROUND_DATABASE_URL: cluster!.url, ACP_PLAYGROUND_DATABASE_LEASE_MS: String(LEASE_MS) },
    );
    b = await startTestRelay({ database: cluster!.url, databaseLeaseMs: LEASE_MS });
    await b.server.relay.team!.ready;

    const c = new TestClient(a.url, { token: "bench" });
    await c.connected();
    /** Each frame's seq and when the browser had it. */
    const forwarded: { seq: number; at: number }[] = [];
    c.socket.on("frames", (frames) => {
      const at = Date.now();
      for (const f of frames) forwarded.push({ seq: f.seq, at });
    });
    const ack = await c.emit("agent:start", { profile: "stream" });
    expect(ack.ok).toBe(true);
    const id: string = ack.agent.transcriptId;
    // Its first line starts the stream; the request stays unanswered: A dies mid-request.
    const sent = await c.emit("agent:send", {
      frame: { jsonrpc: "2.0", id: 1, method: "initialize", params: { protocolVersion: 1, clientCapabilities: {} } },
    });
    expect(sent.ok).toBe(true);
    await waitUntil(() => forwarded.length > 0 && Date.now() - forwarded[0]!.at > 2_500, "2.5 s of streaming", 20_000);

    pids.push(...processTree(a.pid));
    const killedAt = Date.now();
    process.kill(a.pid, "SIGKILL");
    // Then the agent it left behind, its whole process group.
    for (const pid of pids.slice(1)) {
      try {
        process.kill(-pid, "SIGKILL");
      } catch {
        // not a group leader, or gone
      }
    }
    c.close();

    const http = async (route: string) => {
      const res = await fetch(`${b!.url}${route}`, { headers: { authorization: "Bearer test-token" } });
      return res;
    };
    // B marks it once A's lease has run out (B renews every LEASE_MS / 3).
    let meta: { id: string; recording: boolean; endedBy?: string } | undefined;
    const deadline = Date.now() + 20_000;
    for (;;) {
      const list = (await (await http("/api/transcripts")).json()) as { transcripts: (typeof meta & {})[] };
      meta = list.transcripts.find((m) => m.id === id);
      if (meta && !meta.recording) break;
      if (Date.now() > deadline) throw new Error(`never marked: ${JSON.stringify(meta)}`);
      await new Promise((r) => setTimeout(r, 100));
    }
    expect(meta).toMatchObject({ recording: false, endedBy: "crash" });

    const stored = parseTranscript(await (await http(`/api/transcripts/${id}`)).text());
    const seqs = stored.frames.map((f) => f.seq);
    // Once each, in order.
    expect(seqs).toEqual([...seqs].sort((x, y) => x - y));
    expect(new Set(seqs).size).toBe(seqs.length);
    const due = forwarded.filter((f) => f.at <= killedAt - 1_000).map((f) => f.seq);
    expect(due.length).toBeGreaterThan(100);
    const have = new Set(seqs);
    expect(due.filter((s) => !have.has(s))).toEqual([]);
  });
});
