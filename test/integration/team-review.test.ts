/**
 * The team server attacked with what a person holds (issue #37's fourth security review): a named
 * token of one person, a watch link. One relay, real sockets. A watcher sees its one session and
 * nothing else; a person's browser session and watch links are theirs, not the next person's.
 */
import { mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { io, type Socket } from "socket.io-client";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { startTestRelay, TestClient, waitUntil, type TestRelay } from "../relay-harness";
import { Watcher } from "../watch-client";

const fixture = path.resolve(import.meta.dirname, "../fixtures/leaky-agent.mjs");
const ALICE = "alice-token-0123456789abcdef";
const BOB = "bob-token-0123456789abcdefgh";

/** Made up; an agent that names it in every error it answers. */
const PROBE_SECRET = "dbpass7Aq9x2Lm7probe";
const ERRING = `require("readline").createInterface({ input: process.stdin }).on("line", (l) => {
  const m = JSON.parse(l);
  if (m.id === undefined) return;
  const ok = m.method === "initialize" ? { protocolVersion: 1, agentCapabilities: {} } : m.method === "session/new" ? { sessionId: "s" } : null;
  const error = { code: -32000, message: "auth failed with key " + process.env.DB_PASS };
  process.stdout.write(JSON.stringify({ jsonrpc: "2.0", id: m.id, ...(ok ? { result: ok } : { error }) }) + "\\n");
});`;

const CAROL = "carol-token-0123456789abcdef";
const configDir = mkdtempSync(path.join(tmpdir(), "acp-review-config-"));
const configFile = path.join(configDir, "config.json");
writeFileSync(configFile, JSON.stringify({ tokens: { alice: ALICE, bob: BOB, carol: CAROL } }));

let relay: TestRelay;
const closers: (() => void)[] = [];

const api = (route: string, token: string, init: RequestInit = {}) =>
  fetch(`${relay.url}/api/${route}`, {
    ...init,
    headers: { authorization: `Bearer ${token}`, "content-type": "application/json", ...init.headers },
  });

/** A browser of `token`'s person with a running agent. */
async function owner(token: string, clientId?: string): Promise<TestClient> {
  const c = new TestClient(relay.url, { token, ...(clientId ? { clientId } : {}) });
  closers.push(() => c.close());
  await c.connected();
  await c.start({ profile: "leaky" });
  await c.send({ jsonrpc: "2.0", id: 1, method: "initialize", params: { protocolVersion: 1 } });
  await c.response(1);
  return c;
}

async function createLink(token: string, clientId: string): Promise<string> {
  const res = await api("watch", token, { method: "POST", body: JSON.stringify({ clientId }) });
  expect(res.status).toBe(201);
  return ((await res.json()) as { token: string }).token;
}

const pause = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

beforeAll(async () => {
  relay = await startTestRelay({
    graceMs: 30_000,
    tokens: { alice: ALICE, bob: BOB, carol: CAROL },
    configFile,
    profiles: {
      leaky: { command: process.execPath, args: [fixture], env: {} },
      erring: { command: process.execPath, args: ["-e", ERRING], env: { DB_PASS: PROBE_SECRET } },
    },
    allowedOrigins: ["https://playground.example"],
  });
});

afterAll(async () => {
  for (const close of closers.splice(0)) close();
  await relay?.close();
  rmSync(configDir, { recursive: true, force: true });
});

describe("a watch link", () => {
  it("is sent no taps list: other conversations' command lines and folders are not its to see", async () => {
    const o = await owner(ALICE);
    const link = await createLink(ALICE, o.clientId!);
    const w = new Watcher(relay.url, link);
    closers.push(() => w.close());
    const watcherTaps: unknown[] = [];
    (w.socket as unknown as Socket).on("taps", (e: unknown) => watcherTaps.push(e));
    await w.connected();
    await w.waitFor(() => w.attached, "attached");

    // A browser of the relay's own, which is told of taps, and a tap opening a conversation.
    const browser = new TestClient(relay.url, { token: "test-token" });
    closers.push(() => browser.close());
    const browserTaps: { taps: { agent: { cwd: string } }[] }[] = [];
    (browser.socket as unknown as Socket).on("taps", (e: (typeof browserTaps)[number]) => browserTaps.push(e));
    await browser.connected();
    const tap = io(`${relay.url}/tap`, {
      auth: { token: "test-token", tapId: "feedfacefeedface" },
      transports: ["websocket"],
      reconnection: false,
      forceNew: true,
    });
    closers.push(() => tap.close());
    await new Promise<void>((resolve, reject) => {
      tap.once("connect", resolve);
      tap.once("connect_error", reject);
    });
    const open = { profile: "secret-project", command: "agent", args: ["--key=x"], cwd: "/home/carol/secret", pid: 7 };
    expect(await tap.emitWithAck("tap:open", open)).toMatchObject({ ok: true });
    await waitUntil(
      () => browserTaps.some((e) => e.taps.some((t) => t.agent.cwd === open.cwd)),
      "the taps list, on the browser",
    );
    // The same broadcast would have reached the watcher by now; give it time to arrive all the same.
    await pause(300);
    expect(watcherTaps).toEqual([]);
  });
});

describe("a watch link's URL", () => {
  it("is on the page's own origin: behind a TLS proxy, https", async () => {
    const o = await owner(ALICE);
    const make = async (headers: Record<string, string>) => {
      const res = await api("watch", ALICE, {
        method: "POST",
        headers,
        body: JSON.stringify({ clientId: o.clientId }),
      });
      expect(res.status).toBe(201);
      return ((await res.json()) as { url: string }).url;
    };
    // The page's fetch carries its origin (the proxy's public one, allowed); a CLI may say the proxy's scheme.
    expect(await make({ origin: "https://playground.example" })).toMatch(/^https:\/\/playground\.example\/watch\//);
    expect(await make({ "x-forwarded-proto": "https" })).toMatch(
      new RegExp(`^https://${new URL(relay.url).host}/watch/`),
    );
    expect(await make({})).toMatch(new RegExp(`^${relay.url}/watch/`));
  });
});

describe("a probe report", () => {
  it("is redacted as its transcript is: a team server shares it with everyone", async () => {
    const c = new TestClient(relay.url, { token: ALICE });
    closers.push(() => c.close());
    await c.connected();
    const ack = (await c.emit("agent:probe", { profile: "erring" }, 120_000)) as {
      ok: boolean;
      report: { id: string };
    };
    expect(ack.ok).toBe(true);
    // The agent did say it (its errors are in the report's rows), redacted.
    expect(JSON.stringify(ack.report)).toContain("auth failed with key [REDACTED]");
    expect(JSON.stringify(ack.report)).not.toContain(PROBE_SECRET);
    const kept = await api(`probes/${ack.report.id}`, ALICE);
    expect(kept.status).toBe(200);
    expect(await kept.text()).not.toContain(PROBE_SECRET);
  });
});

describe("a revoked token", () => {
  it("ends the watch links its person made, at once", async () => {
    const o = await owner(CAROL);
    const link = await createLink(CAROL, o.clientId!);
    const w = new Watcher(relay.url, link);
    closers.push(() => w.close());
    await w.connected();
    await w.waitFor(() => w.attached, "attached");
    writeFileSync(configFile, JSON.stringify({ tokens: { alice: ALICE, bob: BOB } }));
    // Her socket is closed at once; her agent runs on for the grace period (30 s here), her link must not.
    await Promise.race([
      w.disconnected,
      pause(10_000).then(() => {
        throw new Error("the revoked person's watch link still streams");
      }),
    ]);
    expect(w.ended).toBe("the link's owner no longer has access");
  });
});

describe("a named token", () => {
  it("does not take over another person's browser session by its clientId", async () => {
    const clientId = "alice-tab-0123456789";
    const alice = await owner(ALICE, clientId);
    expect(alice.clientId).toBe(clientId);
    await alice.send({
      jsonrpc: "2.0",
      id: 2,
      method: "session/prompt",
      params: { sessionId: "leaky", prompt: [{ type: "text", text: "alice's private prompt" }] },
    });
    await alice.response(2);
    // Alice's tab reloads (or her network blips): her session waits for her for the grace period.
    alice.close();
    await pause(200);

    const bob = new TestClient(relay.url, { token: BOB, clientId });
    closers.push(() => bob.close());
    const attached: { agent: unknown }[] = [];
    bob.socket.on("agent:attached", (e) => attached.push(e as { agent: unknown }));
    await bob.connected();
    await bob.waitFor(() => bob.clientId && attached.length > 0, "attached");
    expect(bob.clientId).not.toBe(clientId);
    expect(attached[0]!.agent).toBeNull();
    expect(bob.frames.map((f) => f.raw).join("\n")).not.toContain("alice's private prompt");
    // Bob's socket never drives Alice's agent, and Alice's recording stays hers.
    expect(await bob.emit("agent:stop", {})).toMatchObject({ ok: true });
    const session = relay.server.relay.sessions.get(clientId)!;
    expect(session.host.running).toBe(true);
    expect(session.host.owner).toBe("alice");

    // Alice herself comes back to it.
    const back = new TestClient(relay.url, { token: ALICE, clientId });
    closers.push(() => back.close());
    await back.connected();
    await back.waitFor(() => back.frames.some((f) => f.raw.includes("alice's private prompt")), "her log");
    expect(back.clientId).toBe(clientId);
  });

  it("does not end another person's watch link", async () => {
    const o = await owner(ALICE);
    const link = await createLink(ALICE, o.clientId!);
    expect((await api(`watch/${link}`, BOB, { method: "DELETE" })).status).toBe(404);
    expect(relay.server.relay.watch.has(link)).toBe(true);
    // Its owner, and the operator's token, may.
    expect((await api(`watch/${link}`, ALICE, { method: "DELETE" })).status).toBe(204);
    const again = await createLink(ALICE, o.clientId!);
    expect((await api(`watch/${again}`, "test-token", { method: "DELETE" })).status).toBe(204);
  });
});
