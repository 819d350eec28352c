/**
 * Watch links across instances cannot flood Redis or the relays (issue #37's security review): two
 * relays on one throw-away redis-server. A watcher reconnecting in a loop on B, of a session on A
 * with a large log, adds a bounded amount to Redis's stream; a token no instance holds asks no
 * instance; watchers on B still waiting for A to attach them count against the limit per link; an
 * attach A said it made that never reaches B is asked for again.
 */
import path from "node:path";
import { createClient } from "redis";
import { afterAll, beforeAll, describe, expect, it, vi } from "vitest";
import { startTestRelay, TestClient, type TestRelay } from "../relay-harness";
import { redisSkipReason, startRedis, type TestRedis } from "../redis-server";
import { Watcher } from "../watch-client";
import { ATTACH_ARRIVAL_MS, REMOTE_RESEND_PER_LINK, WATCH_RESEND_CHARS } from "../../server/http/watch-links";

const skip = redisSkipReason();
const agent = path.resolve(import.meta.dirname, "../fixtures/bench-agent.mjs");
/** Frames the agent bursts, each padded to about 2 KB: about 3 MiB, past a watcher's resend. */
const FRAMES = 1_500;
const MiB = 2 ** 20;

let redis: TestRedis;
let db: ReturnType<typeof createClient>;
let a: TestRelay;
let b: TestRelay;
let owner: TestClient;
let token: string;

/** Bytes Redis holds for the adapter's stream, counted exactly. */
async function streamBytes(): Promise<number> {
  return Number(await db.sendCommand(["MEMORY", "USAGE", "acp-playground", "SAMPLES", "0"]));
}

async function makeLink(): Promise<string> {
  const res = await fetch(`${a.url}/api/watch`, {
    method: "POST",
    headers: { authorization: "Bearer test-token", "content-type": "application/json" },
    body: JSON.stringify({ clientId: owner.clientId }),
  });
  expect(res.status).toBe(201);
  return ((await res.json()) as { token: string }).token;
}

/** Ends a link on A, its owner's instance. */
async function endOnA(token: string): Promise<void> {
  const res = await fetch(`${a.url}/api/watch/${token}`, {
    method: "DELETE",
    headers: { authorization: "Bearer test-token" },
  });
  expect(res.status).toBe(204);
}

/** A watcher connecting on B with an ended link is refused. */
async function refusedOnB(token: string): Promise<void> {
  const late = new Watcher(b.url, token);
  try {
    await expect(late.connected()).rejects.toThrow("no such watch link");
  } finally {
    late.close();
  }
}

/** Waits for a watcher on B to be attached by A, failing at once, with the message, if it is told the link ended instead. */
async function attachedOrEnded(watcher: Watcher, timeoutMs?: number): Promise<void> {
  await Promise.race([
    watcher.waitFor(() => watcher.attached, "agent:attached, from A", timeoutMs),
    watcher.disconnected,
  ]);
  expect(watcher.ended).toBeUndefined();
  expect(watcher.attached).toBeDefined();
}

beforeAll(async () => {
  if (skip) return;
  redis = await startRedis();
  db = createClient({ url: redis.url });
  await db.connect();
  const relay = () =>
    startTestRelay({
      redis: redis.url,
      profiles: { bench: { command: process.execPath, args: [agent, "burst", String(FRAMES), "0", "2000"], env: {} } },
    });
  [a, b] = await Promise.all([relay(), relay()]);
  await Promise.all([a.server.relay.clustered, b.server.relay.clustered]);
  owner = new TestClient(a.url, { token: "test-token" });
  await owner.connected();
  await owner.waitFor(() => owner.clientId, "relay:hello");
  await owner.start({ profile: "bench" });
  await owner.send({ jsonrpc: "2.0", method: "go" });
  await owner.frame((f) => f.raw.includes("bench/done"), "the burst's end", 120_000);
  token = await makeLink();
}, 180_000);

afterAll(async () => {
  owner?.close();
  await Promise.all([a?.close(), b?.close()]);
  await db?.close().catch(() => {});
  await redis?.remove();
});

describe.skipIf(skip)("watch links across instances, bounded", () => {
  it("a watcher reconnecting in a loop on another instance adds a bounded amount to Redis's stream", async () => {
    const before = await streamBytes();
    const started = Date.now();
    let last: Watcher | undefined;
    try {
      for (let i = 0; i < 24; i++) {
        last?.close();
        last = new Watcher(b.url, token);
        await last.connected();
        await attachedOrEnded(last);
      }
      // The last one still watches: it gets what follows live.
      await owner.send({ jsonrpc: "2.0", id: 7, method: "ping" });
      await last!.response(7);
      const attached = last!.attached as unknown as { missed: number };
      expect(attached.missed, "the budget spent, the log counts as missed").toBeGreaterThan(0);
    } finally {
      last?.close();
    }
    // Each resend is about 2 MiB (24 would be about 50 MiB): what the budget lets through since the
    // first (full at first, refilled per minute), plus the frames' encoding and what else the stream has.
    const minutes = (Date.now() - started) / 60_000;
    const bound = REMOTE_RESEND_PER_LINK * (1 + minutes) * 1.5 + WATCH_RESEND_CHARS;
    const grown = (await streamBytes()) - before;
    console.log(
      `24 reconnects on B: the stream grew ${(grown / MiB).toFixed(1)} MiB (bound ${(bound / MiB).toFixed(1)})`,
    );
    expect(grown).toBeLessThan(bound);
  }, 180_000);

  it("a watcher on another instance whose attach was lost on the way is attached by asking again", async () => {
    const feed = (
      a.server.relay.watch as unknown as { feeds: Map<string, { attach(socket: unknown, lastSeq: number): void }> }
    ).feeds.get(token)!;
    const attach = feed.attach.bind(feed);
    let asked = 0;
    // A says it attached B's watcher, and the first attach never reaches B (as if lost between them).
    feed.attach = (socket, lastSeq) => {
      if (typeof socket === "string" && asked++ === 0) return;
      attach(socket, lastSeq);
    };
    const watcher = new Watcher(b.url, token);
    try {
      await watcher.connected();
      await attachedOrEnded(watcher, ATTACH_ARRIVAL_MS * 3);
      expect(asked).toBe(2);
    } finally {
      watcher.close();
      feed.attach = attach;
    }
  }, 60_000);

  it("a watcher on another instance is attached when the budget leaves nothing to resend it", async () => {
    // The link's budget spent, as by a fast reconnect loop: A sends `agent:attached` and no frame after it.
    const feeds = (
      a.server.relay.watch as unknown as { feeds: Map<string, { remoteBudget: { spend(n: number): void } }> }
    ).feeds;
    const budget = feeds.get(token)!.remoteBudget;
    const spent = REMOTE_RESEND_PER_LINK * 10;
    budget.spend(spent);
    const watcher = new Watcher(b.url, token);
    try {
      await watcher.connected();
      await attachedOrEnded(watcher);
      expect(watcher.frames).toEqual([]);
      expect((watcher.attached as unknown as { missed: number }).missed).toBeGreaterThan(0);
    } finally {
      watcher.close();
      budget.spend(-spent);
    }
  }, 60_000);

  it("a token no instance holds asks no instance, and an ended link is refused everywhere", async () => {
    const adapter = b.server.relay.io.of("/").adapter;
    const asks = vi.spyOn(adapter, "serverSideEmit");
    try {
      for (let i = 0; i < 5; i++) {
        const unknown = new Watcher(b.url, `${"u".repeat(31)}${i}`);
        await expect(unknown.connected()).rejects.toThrow("no such watch link");
        unknown.close();
      }
      expect(asks).not.toHaveBeenCalled();
    } finally {
      asks.mockRestore();
    }
    const ending = await makeLink();
    const onB = new Watcher(b.url, ending);
    await onB.connected();
    onB.close();
    await endOnA(ending);
    await refusedOnB(ending);
  }, 60_000);

  it("an ended link is refused everywhere once DELETE answers, however late Redis applies the end", async () => {
    const ending = await makeLink();
    // Redis holds every write for 2 s (reads go on): A's unlisting of the link waits in it, B's lookups do not.
    await db.sendCommand(["CLIENT", "PAUSE", "2000", "WRITE"]);
    try {
      await endOnA(ending);
      // DELETE used to answer before Redis had the end, and B let this watcher in.
      await refusedOnB(ending);
    } finally {
      await db.sendCommand(["CLIENT", "UNPAUSE"]);
    }
  }, 60_000);

  it("a watcher whose link's instance answers after the adapter's 5 s is attached late, not told the link ended", async () => {
    // A busy A: each attach is carried out, and answered, 6 s late (on main: "this watch link has ended").
    const nsp = a.server.relay.io.sockets;
    const attach = nsp.listeners("watch:attach") as Array<(payload: unknown, ack: (ok: boolean) => void) => void>;
    nsp.removeAllListeners("watch:attach");
    nsp.on(
      "watch:attach" as never,
      ((payload: unknown, ack: (ok: boolean) => void) =>
        setTimeout(() => attach.forEach((listener) => listener(payload, ack)), 6_000)) as never,
    );
    const late = new Watcher(b.url, token);
    try {
      await late.connected();
      await attachedOrEnded(late, 40_000);
      await owner.send({ jsonrpc: "2.0", id: 8, method: "ping" });
      await late.response(8);
    } finally {
      late.close();
      nsp.removeAllListeners("watch:attach");
      for (const listener of attach) nsp.on("watch:attach" as never, listener as never);
    }
  }, 90_000);

  it("watchers still waiting for the link's instance count against the limit per link", async () => {
    const watch = b.server.relay.watch as unknown as { maxWatchers: number };
    const limit = watch.maxWatchers;
    watch.maxWatchers = 3;
    // A answers B's attach requests without joining anyone yet: B's watchers stay waiting.
    const nsp = a.server.relay.io.sockets;
    const attach = nsp.listeners("watch:attach");
    nsp.removeAllListeners("watch:attach");
    nsp.on("watch:attach" as never, ((_payload: unknown, ack: (ok: boolean) => void) => ack(true)) as never);
    const watchers: Watcher[] = [];
    try {
      for (let i = 0; i < 3; i++) {
        const w = new Watcher(b.url, token);
        watchers.push(w);
        await w.connected();
      }
      const fourth = new Watcher(b.url, token);
      watchers.push(fourth);
      await fourth.disconnected;
      expect(fourth.ended).toBe("this watch link has 3 watchers already");
      expect(watchers.slice(0, 3).every((w) => w.socket.connected)).toBe(true);
    } finally {
      for (const w of watchers) w.close();
      watch.maxWatchers = limit;
      nsp.removeAllListeners("watch:attach");
      for (const listener of attach) nsp.on("watch:attach" as never, listener as never);
    }
  }, 60_000);
});
