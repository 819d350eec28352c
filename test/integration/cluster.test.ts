/**
 * Two relay instances on one machine (docs/scaling.md): a Node cluster with
 * @socket.io/sticky in the primary and @socket.io/cluster-adapter between the
 * workers, sharing one data directory.
 */
import { readFileSync } from "node:fs";
import path from "node:path";
import { afterAll, afterEach, beforeAll, describe, expect, it } from "vitest";
import { alive, processTree, startRelayProcess, TestClient, waitUntil, type RelayProcess } from "../relay-harness";

const stub = path.resolve(import.meta.dirname, "../fixtures/stub-agent.mjs");
const parentOf = (pid: number) => Number(readFileSync(`/proc/${pid}/stat`, "utf8").split(") ")[1]!.split(" ")[1]);

let relay: RelayProcess;
let workers: number[];
const clients: TestClient[] = [];
const client = (extra: ConstructorParameters<typeof TestClient>[2] = {}) => {
  const c = new TestClient(relay.url, { token: "bench" }, extra);
  clients.push(c);
  return c;
};
const initialize = { jsonrpc: "2.0", id: 1, method: "initialize", params: { protocolVersion: 1 } };

beforeAll(async () => {
  relay = await startRelayProcess(
    { echo: { command: process.execPath, args: [stub, "echo"] } },
    // Each worker acknowledges a handed-over socket late, as a busy one does, so a primary that
    // kept reading such a socket would swallow its client's first frame every time, not now and then.
    { RELAY_CLUSTER_ACK_DELAY_MS: "50" },
    "test/fixtures/relay-cluster.ts",
  );
  workers = /workers ([\d,]+)/.exec(relay.banner)![1]!.split(",").map(Number);
}, 60_000);
afterEach(() => {
  for (const c of clients.splice(0)) c.close();
});
afterAll(async () => {
  await relay?.close();
});

describe("two relay instances in a Node cluster", () => {
  it("spreads browser sessions over the workers, and a transcript recorded on one replays on the other", async () => {
    // Round-robin: consecutive connections go to different workers.
    const [a, b] = [client(), client()];
    await Promise.all([a.connected(), b.connected()]);
    const agentA = await a.start({ profile: "echo" });
    const agentB = await b.start({ profile: "echo" });
    const ownerA = parentOf(agentA.pid);
    const ownerB = parentOf(agentB.pid);
    expect(new Set([ownerA, ownerB])).toEqual(new Set(workers));

    await a.send(initialize);
    const recorded = await a.response(1);
    // A turn: a recording without one is a start that never began, which the library does not offer as a mock agent.
    await a.send({ jsonrpc: "2.0", id: 2, method: "session/prompt", params: { sessionId: "s", prompt: [] } });
    await a.response(2);
    const profile = `replay:${agentA.transcriptId}`;
    const replayable = async () =>
      (await b.emit("relay:info", {})).info.profiles.some((p: { name: string }) => p.name === profile);
    // The other worker sees a live recording, not a crashed one: nothing to replay yet.
    expect(await replayable()).toBe(false);
    expect(await a.emit("agent:stop", {})).toEqual({ ok: true });
    expect(await b.emit("agent:stop", {})).toEqual({ ok: true });

    // The other worker reads the shared store: it offers the finished recording as a mock agent and plays it.
    expect(await replayable()).toBe(true);
    const replay = await b.start({ profile, options: { speed: "instant" } });
    expect(parentOf(replay.pid)).toBe(ownerB);
    await b.send(initialize);
    expect((await b.response(1)).message).toEqual(recorded.message);
    await b.emit("agent:stop", {});
  });

  it("serves HTTP long-polling, whose many requests the primary routes to one worker by session id", async () => {
    // @socket.io/sticky learns a session's worker from that worker's message, which can come after the
    // client's next request (socketio/socket.io-sticky#2): a first attempt may get a 400, and its
    // retry, as a browser's, gets through.
    const c = client({ transports: ["polling"], reconnection: true, reconnectionDelay: 50 });
    await new Promise<void>((resolve) => c.socket.once("connect", () => resolve()));
    const agent = await c.start({ profile: "echo" });
    expect(workers).toContain(parentOf(agent.pid));
    for (let id = 1; id <= 20; id++) await c.send({ jsonrpc: "2.0", id, method: "ping", params: { id } });
    await c.response(20);
    expect(c.frames.map((f) => f.seq)).toEqual(Array.from({ length: 40 }, (_, i) => i + 1));
    expect(await c.emit("agent:stop", {})).toEqual({ ok: true });
  });

  it("connects every websocket client of a burst", async () => {
    // Each client sends its first frame right after the worker's 101, before the primary has the
    // worker's acknowledgement: only a primary that stopped reading the socket leaves it to the worker.
    const burst = Array.from({ length: 16 }, () => client());
    await Promise.all(burst.map((c) => c.connected(10_000)));
  });

  it("stops every worker's agents when the primary is stopped", async () => {
    const [a, b] = [client(), client()];
    await Promise.all([a.connected(), b.connected()]);
    const trees = [(await a.start({ profile: "echo" })).pid, (await b.start({ profile: "echo" })).pid].flatMap(
      processTree,
    );
    await relay.close();
    await waitUntil(() => [...trees, ...workers].every((pid) => !alive(pid)), "every worker and agent gone");
  });
});
