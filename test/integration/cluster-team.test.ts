/**
 * Two relay instances on one PostgreSQL and one Redis behind a real HAProxy running the how-to's
 * docs/haproxy.cfg (docs/scaling.md), all throw-away servers on free ports. Through the balancer: a
 * browser-like Socket.IO client (long-polling first, then the WebSocket upgrade, cookies kept)
 * stays on its instance for every request and a reload; a watcher pinned to the other instance sees
 * the session live; the recording is listed and found there. Across instances, without the
 * balancer: a recording made on A exports (HTML, OTLP), replays and re-runs on B (read from the database).
 */
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { readdirSync, readFileSync } from "node:fs";
import path from "node:path";
import type { ProfileSummary } from "../../lib/contracts/wire";
import { HAPROXY_CFG, haproxySkipReason, startBalancer, type TestBalancer } from "../haproxy";
import { startOtlpReceiver, type OtlpReceiver } from "../otlp-receiver";
import { pgSkipReason, startPgCluster, type PgCluster } from "../pg-cluster";
import { redisSkipReason, startRedis, type TestRedis } from "../redis-server";
import { startTestRelay, TestClient, type TestRelay } from "../relay-harness";
import { Watcher } from "../watch-client";

const skip = pgSkipReason() ?? redisSkipReason() ?? haproxySkipReason();
const fixture = path.resolve(import.meta.dirname, "../fixtures/leaky-agent.mjs");
const TOKEN = "test-token";

let pg: PgCluster | undefined;
let redis: TestRedis | undefined;
let a: TestRelay | undefined;
let b: TestRelay | undefined;
let lb: TestBalancer | undefined;

beforeAll(async () => {
  if (skip) return;
  [pg, redis] = await Promise.all([startPgCluster(), startRedis()]);
  const relay = () =>
    startTestRelay({
      database: pg!.url,
      redis: redis!.url,
      graceMs: 60_000,
      profiles: { leaky: { command: process.execPath, args: [fixture], env: {} } },
    });
  [a, b] = await Promise.all([relay(), relay()]);
  await Promise.all([a.server.relay.team!.ready, b.server.relay.team!.ready]);
  await Promise.all([a.server.relay.clustered, b.server.relay.clustered]);
  lb = await startBalancer(new URL(a.url).host, new URL(b.url).host, TOKEN);
}, 120_000);

afterAll(async () => {
  await lb?.stop();
  await Promise.all([a?.close(), b?.close()]);
  await redis?.remove();
  pg?.stop();
});

/** Resolves once `check` holds, polled: for state no event announces. */
async function until<T>(check: () => T | Promise<T>, what: string, timeoutMs = 30_000): Promise<NonNullable<T>> {
  const end = Date.now() + timeoutMs;
  for (;;) {
    const v = await check();
    if (v) return v;
    if (Date.now() > end) throw new Error(`timed out waiting for ${what}${lb ? `; haproxy said: ${lb.log()}` : ""}`);
    await new Promise((r) => setTimeout(r, 25));
  }
}

const api = (base: string, route: string, init: RequestInit & { server?: string } = {}) =>
  fetch(`${base}${route}`, {
    ...init,
    headers: {
      authorization: `Bearer ${TOKEN}`,
      "content-type": "application/json",
      // A browser pinned to one instance sends the balancer's cookie with every request.
      ...(init.server ? { cookie: `SERVERID=${init.server}` } : {}),
    },
  });

/** A leaky-agent session: initialize, session/new and one prompt saying `words`. */
async function record(c: TestClient, words: string): Promise<string> {
  const { transcriptId } = await c.start({ profile: "leaky" });
  await c.send({ jsonrpc: "2.0", id: 1, method: "initialize", params: { protocolVersion: 1 } });
  await c.response(1);
  await c.send({ jsonrpc: "2.0", id: 2, method: "session/new", params: { cwd: process.cwd(), mcpServers: [] } });
  await c.response(2);
  await c.send({
    jsonrpc: "2.0",
    id: 3,
    method: "session/prompt",
    params: { sessionId: "leaky", prompt: [{ type: "text", text: words }] },
  });
  await c.response(3);
  return transcriptId!;
}

/** The transcript, ended, as another instance lists it from the database. */
const listedEnded = (base: string, id: string, server?: string) =>
  until(async () => {
    const { transcripts } = (await (await api(base, "/api/transcripts", { server })).json()) as {
      transcripts: { id: string; recording: boolean }[];
    };
    return transcripts.find((m) => m.id === id && !m.recording);
  }, `${id} listed as ended`);

/** The browser's engine.io cookie jar (Node's engine.io-client keeps one with `withCredentials`). */
function jarCookie(c: TestClient, name: string): string | undefined {
  const engine = c.socket.io.engine as unknown as { _cookieJar?: { cookies: Iterable<[string, { value: string }]> } };
  return new Map(engine._cookieJar?.cookies ?? []).get(name)?.value;
}

it("the how-to shows the haproxy.cfg this test runs", () => {
  expect(readFileSync(path.resolve(import.meta.dirname, "../../docs/scaling.md"), "utf8")).toContain(
    "```haproxy\n" + readFileSync(HAPROXY_CFG, "utf8") + "```",
  );
});

describe.skipIf(skip)("two instances behind HAProxy, one PostgreSQL, one Redis", () => {
  it("a browser stays on its instance; a watcher pinned to the other sees it live; the other lists and finds it", async () => {
    const clientId = "browser-affinity-0001";
    // As the page connects: long-polling first (several HTTP requests), then the WebSocket upgrade.
    const browser = { transports: ["polling", "websocket"] as string[], withCredentials: true };
    const owner = new TestClient(lb!.url, { token: TOKEN, clientId }, browser);
    let again: TestClient | undefined;
    let watcher: Watcher | undefined;
    try {
      await owner.connected();
      await until(() => owner.socket.io.engine.transport.name === "websocket", "the WebSocket upgrade");
      // Every request of the connection reached one instance: the one the cookie names.
      const onA = a!.server.relay.sessions.has(clientId);
      const onB = b!.server.relay.sessions.has(clientId);
      expect(onA !== onB).toBe(true);
      const [home, other, homeName, otherName] = onA ? [a!, b!, "a", "b"] : [b!, a!, "b", "a"];
      expect(jarCookie(owner, "SERVERID")).toBe(homeName);

      const { transcriptId } = await owner.start({ profile: "leaky" });
      await owner.send({ jsonrpc: "2.0", id: 1, method: "initialize", params: { protocolVersion: 1 } });
      await owner.response(1);
      // The page's HTTP calls carry the cookie too: the watch link is made where the session is.
      const made = await api(lb!.url, "/api/watch", {
        method: "POST",
        server: homeName,
        body: JSON.stringify({ clientId }),
      });
      expect(made.status).toBe(201);
      const { token } = (await made.json()) as { token: string };

      // A watcher whose browser is pinned to the other instance.
      watcher = new Watcher(lb!.url, token, {}, { extraHeaders: { cookie: `SERVERID=${otherName}` } });
      await watcher.connected();
      const watchedOn = (r: TestRelay) =>
        [...r.server.relay.io.sockets.sockets.values()].some(
          (s) => (s.handshake.auth as { watchLink?: string }).watchLink === token,
        );
      expect(watchedOn(other)).toBe(true);
      expect(watchedOn(home)).toBe(false);
      await watcher.frame((f) => f.id === 1 && f.kind === "response", "the log, from the other instance");

      await owner.send({
        jsonrpc: "2.0",
        id: 2,
        method: "session/new",
        params: { cwd: process.cwd(), mcpServers: [] },
      });
      await owner.response(2);
      await owner.send({
        jsonrpc: "2.0",
        id: 3,
        method: "session/prompt",
        params: { sessionId: "leaky", prompt: [{ type: "text", text: "quokka lanterns" }] },
      });
      await owner.response(3);
      await watcher.frame((f) => f.id === 3 && f.kind === "response", "a live frame, through Redis");

      // A reload: a new connection with the same cookie and clientId re-attaches to the same agent.
      owner.close();
      await until(() => home.server.relay.sessions.get(clientId)?.attached === false, "the tab detached");
      again = new TestClient(
        lb!.url,
        { token: TOKEN, clientId },
        { ...browser, extraHeaders: { cookie: `SERVERID=${homeName}` } },
      );
      await again.connected();
      expect(await until(() => again!.clientId, "relay:hello")).toBe(clientId);
      expect(home.server.relay.sessions.get(clientId)?.attached).toBe(true);
      expect(other.server.relay.sessions.has(clientId)).toBe(false);
      await again.send({ jsonrpc: "2.0", id: 4, method: "session/prompt", params: { sessionId: "leaky", prompt: [] } });
      await again.response(4);
      await again.emit("agent:stop", {});

      // The other instance lists the recording and finds it by a word of its prompt.
      await listedEnded(lb!.url, transcriptId!, otherName);
      const found = (await (await api(lb!.url, "/api/search?q=quokka", { server: otherName })).json()) as {
        hits: { transcript: { id: string } }[];
      };
      expect(found.hits.map((h) => h.transcript.id)).toContain(transcriptId);
    } finally {
      watcher?.close();
      again?.close();
      owner.close();
    }
  }, 120_000);

  it("a recording made on A exports, replays, re-runs and goes out as traces on B, read from the database", async () => {
    const c = new TestClient(a!.url, { token: TOKEN });
    const onB = new TestClient(b!.url, { token: TOKEN });
    let receiver: OtlpReceiver | undefined;
    let withOtlp: TestRelay | undefined;
    try {
      await c.connected();
      const id = await record(c, "marmalade pelican");
      await c.emit("agent:stop", {});
      await listedEnded(b!.url, id);
      expect(b!.server.relay.transcripts.exists(id)).toBe(false);

      const exported = await api(b!.url, `/api/transcripts/${id}/export`);
      expect(exported.status).toBe(200);
      expect(exported.headers.get("content-disposition")).toBe(`attachment; filename="${id}.html"`);
      expect(await exported.text()).toContain("marmalade pelican");

      // The page offers "Mock agent replaying" it (relay:info names the chosen replay) and starts it.
      await onB.connected();
      const info = (await onB.emit("relay:info", { profile: `replay:${id}` })) as {
        ok: true;
        info: { profiles: ProfileSummary[] };
      };
      expect(info.info.profiles.find((p) => p.name === `replay:${id}`)).toMatchObject({ available: true });
      await onB.start({ profile: `replay:${id}`, options: { speed: "instant" } });
      await onB.send({ jsonrpc: "2.0", id: 1, method: "initialize", params: { protocolVersion: 1 } });
      await onB.response(1);
      await onB.emit("agent:stop", {});
      // Its copy of the recording went with it.
      const copies = path.join(b!.config.dataDir, "team-copies");
      await until(() => readdirSync(copies).length === 0, "the replay's copy removed");

      // Re-run: the recording's requests sent again to a live agent on B.
      const rerun = (await onB.emit("transcript:rerun", { id, profile: "leaky" })) as { ok: boolean };
      expect(rerun).toMatchObject({ ok: true });
      await onB.emit("agent:stop", {});

      // Sent as OpenTelemetry traces by an instance with `--otlp` that did not record it.
      receiver = await startOtlpReceiver();
      process.env.ACP_PLAYGROUND_OTLP = receiver.url;
      try {
        // The relay reads the variable as it is made, before startTestRelay's first await.
        const starting = startTestRelay({ database: pg!.url });
        withOtlp = await starting;
      } finally {
        delete process.env.ACP_PLAYGROUND_OTLP;
      }
      await withOtlp.server.relay.team!.ready;
      const sent = await api(withOtlp.url, `/api/transcripts/${id}/otlp`, { method: "POST" });
      expect(sent.status).toBe(200);
      const last = JSON.parse((await sent.text()).trim().split("\n").at(-1)!) as { type: string; spans: number };
      expect(last).toMatchObject({ type: "done" });
      expect(receiver.spans.size).toBe(last.spans);
      expect(readdirSync(path.join(withOtlp.config.dataDir, "team-copies"))).toEqual([]);
    } finally {
      onB.close();
      c.close();
      await withOtlp?.close();
      await receiver?.close();
    }
  }, 120_000);
});
