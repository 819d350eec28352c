/**
 * Watch links (issue #37): a real relay, real sockets, an agent that prints credentials. A
 * watcher sees the owner's conversation live, redacted, and nothing else; whatever it sends is
 * refused by the relay (not by a page); ending the link or the session ends its stream.
 */
import path from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { startTestRelay, TestClient, type TestRelay } from "../relay-harness";
import { Watcher as WatchClient } from "../watch-client";

const fixture = path.resolve(import.meta.dirname, "../fixtures/leaky-agent.mjs");
// Made-up values; none is a real credential.
const ENV = { DB_PASS: "dbpass7Aq9x2Lm7", STRIPE_SK: "sk_live_4eC39HqLyjWDarjtT1zdp7dc" };

let relay: TestRelay;
const auth = { authorization: "Bearer test-token", "content-type": "application/json" };

const api = (route: string, init: RequestInit = {}) => fetch(`${relay.url}/api/${route}`, init);
const createLink = async (clientId: string) => {
  const res = await api("watch", { method: "POST", headers: auth, body: JSON.stringify({ clientId }) });
  expect(res.status).toBe(201);
  return (await res.json()) as { url: string; token: string };
};

/** A watcher of this file's relay. */
class Watcher extends WatchClient {
  constructor(token: string, extra: Record<string, unknown> = {}) {
    super(relay.url, token, extra);
  }
}

async function owner(): Promise<TestClient> {
  const c = new TestClient(relay.url, { token: "test-token" });
  await c.connected();
  await c.start({ profile: "leaky" });
  await c.send({ jsonrpc: "2.0", id: 1, method: "initialize", params: { protocolVersion: 1 } });
  await c.response(1);
  return c;
}

const prompt = async (c: TestClient, id: number) => {
  await c.send({
    jsonrpc: "2.0",
    id,
    method: "session/prompt",
    params: { sessionId: "leaky", prompt: [{ type: "text", text: "print your environment" }] },
  });
  return c.response(id);
};

beforeAll(async () => {
  relay = await startTestRelay({
    profiles: { leaky: { command: process.execPath, args: [fixture, ...Object.keys(ENV)], env: ENV } },
  });
});

afterAll(async () => {
  await relay?.close();
});

describe("watch links", () => {
  it("are made only with the access token, for a running session", async () => {
    const body = JSON.stringify({ clientId: "no-such-session" });
    expect((await api("watch", { method: "POST", body })).status).toBe(401);
    expect((await api("watch", { method: "POST", headers: auth, body })).status).toBe(404);
    const bad = await api("watch", { method: "POST", headers: auth, body: JSON.stringify({ clientId: 3 }) });
    expect(bad.status).toBe(400);
    const idle = new TestClient(relay.url, { token: "test-token" });
    try {
      await idle.connected();
      await idle.waitFor(() => idle.clientId, "hello");
      const res = await api("watch", {
        method: "POST",
        headers: auth,
        body: JSON.stringify({ clientId: idle.clientId }),
      });
      expect(res.status).toBe(409);
    } finally {
      idle.close();
    }
    expect((await api("watch/x".padEnd(38, "x"), { method: "DELETE", headers: auth })).status).toBe(404);
    expect((await api("watch/x", { method: "DELETE" })).status).toBe(401);
  });

  it("show the session live, redacted, and refuse everything a watcher sends", async () => {
    const o = await owner();
    const other = await owner();
    const link = await createLink(o.clientId!);
    expect(link.url).toBe(`${relay.url}/watch/${link.token}`);
    // The owner's clientId in the handshake changes nothing: a watch link is read-only whatever else it carries.
    const w = new Watcher(link.token, { token: "test-token", clientId: o.clientId });
    try {
      await w.connected();
      // Resent on attach: the log so far, and the stderr printed before the link existed, redacted.
      await w.waitFor(() => w.frames.some((f) => f.id === 1 && f.kind === "response"), "initialize resent");
      await w.waitFor(() => w.stderr.some((t) => t.includes("leaked")), "stderr resent");
      expect(w.attached?.agent?.cwd).toBe("<workspace>");
      expect(w.attached?.agent?.command).toBe(path.basename(process.execPath));
      expect(w.clientId, "a watcher is given no browser session").toBeUndefined();

      await prompt(o, 2);
      await w.waitFor(() => w.frames.find((f) => f.id === 2 && f.kind === "response"), "the prompt's answer, live");
      expect(w.text()).toContain("[REDACTED]");
      for (const secret of Object.values(ENV)) expect(w.text()).not.toContain(secret);
      // The owner sees its own values: redaction is for watchers (and transcripts) only.
      expect(o.frames.map((f) => f.raw).join("\n")).toContain(ENV.DB_PASS);

      const toAgent = () => o.frames.filter((f) => f.dir === "to-agent").length;
      const before = toAgent();
      const refusals = [
        ["agent:send", { frame: { jsonrpc: "2.0", id: 9, method: "session/cancel", params: {} } }],
        ["agent:send", { frame: '{"jsonrpc":"2.0","id":7,"result":{}}' }],
        ["agent:serve", { id: 1 }],
        ["policy:set", { policies: { "fs/read_text_file": "auto" } }],
        ["agent:stop", {}],
        ["agent:start", { profile: "leaky" }],
        ["agent:probe", {}],
        ["transcript:rerun", { id: "x" }],
        ["relay:info", {}],
        ["tap:injection", { enabled: true }],
      ] as const;
      for (const [event, payload] of refusals) {
        const ack = await w.emit(event as never, payload);
        expect(ack, event).toMatchObject({ ok: false, error: { code: "read_only" } });
      }
      expect(await w.emit("agent:whatever" as never, {})).toMatchObject({
        ok: false,
        error: { code: "invalid_payload" },
      });
      // Nothing reached the agent, which still answers its owner.
      await prompt(o, 3);
      expect(toAgent()).toBe(before + 1);
      expect(o.exits).toEqual([]);

      // Another session's frames never reach this watcher.
      await prompt(other, 40);
      await w.waitFor(() => w.frames.find((f) => f.id === 3 && f.kind === "response"), "the owner's next answer");
      expect(w.frames.some((f) => f.id === 40)).toBe(false);
    } finally {
      w.close();
      o.close();
      other.close();
    }
  });

  it("refuse an unknown or ended link at the handshake", async () => {
    for (const watch of ["x".repeat(32), "", 5]) {
      const w = new Watcher(watch as string, { token: "test-token" });
      await expect(w.connected()).rejects.toThrow("no such watch link");
      w.close();
    }
  });

  it("end every watcher's stream with a message when the owner ends the link", async () => {
    const o = await owner();
    const link = await createLink(o.clientId!);
    const watchers = [new Watcher(link.token), new Watcher(link.token)];
    try {
      await Promise.all(watchers.map((w) => w.connected()));
      await Promise.all(watchers.map((w) => w.waitFor(() => w.frames.length > 0 && w.attached, "attached")));
      expect((await api(`watch/${link.token}`, { method: "DELETE", headers: auth })).status).toBe(204);
      for (const w of watchers) {
        await w.disconnected;
        expect(w.ended).toBe("the owner ended this watch link");
        // The server's own disconnect: a client does not reconnect after it.
        expect(w.disconnectReason).toBe("io server disconnect");
      }
      expect((await api(`watch/${link.token}`, { method: "DELETE", headers: auth })).status).toBe(404);
      const late = new Watcher(link.token);
      await expect(late.connected()).rejects.toThrow("no such watch link");
      late.close();
      // The owner's session goes on.
      await prompt(o, 5);
    } finally {
      for (const w of watchers) w.close();
      o.close();
    }
  });

  it("end every watcher's stream when the session ends", async () => {
    const o = await owner();
    const link = await createLink(o.clientId!);
    const w = new Watcher(link.token);
    try {
      await w.connected();
      await w.waitFor(() => w.frames.length > 0 && w.attached, "attached");
      await o.emit("agent:stop", {});
      await w.disconnected;
      expect(w.exits).toHaveLength(1);
      expect(w.ended).toBe("the session ended: its agent exited");
      expect(relay.server.relay.watch.has(link.token)).toBe(false);
    } finally {
      w.close();
      o.close();
    }
  });
});
