/**
 * Taps on a team server (named tokens), attacked by another person: a tap is its opener's (the
 * admin's when opened with the relay's own token); only they and the admin are told of it, watch
 * its frames, or turn injection on and send into it (lib/contracts/tap-wire.ts's tapRefusal). One
 * relay, real sockets; the taps are this test's sockets on `/tap`, as hostile as any.
 */
import { execa } from "execa";
import { mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { io, type Socket } from "socket.io-client";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { tapClientId, WATCH_TAPS, type TapInfo } from "../../lib/contracts/tap-wire";
import { startTestRelay, TestClient, waitUntil, type TestRelay } from "../relay-harness";

const ADMIN = "test-token";
const ALICE = "alice-token-0123456789abcdef";
const BOB = "bob-token-0123456789abcdefgh";
const CAROL = "carol-token-0123456789abcdef";
const root = path.resolve(import.meta.dirname, "../..");
const configDir = mkdtempSync(path.join(tmpdir(), "acp-tap-owners-"));
const configFile = path.join(configDir, "config.json");
writeFileSync(configFile, JSON.stringify({ tokens: { alice: ALICE, bob: BOB, carol: CAROL } }));

let relay: TestRelay;
const closers: (() => void)[] = [];
let tapIds = 0;

const connect = (socket: Socket) =>
  new Promise<void>((resolve, reject) => {
    socket.once("connect", resolve);
    socket.once("connect_error", reject);
  });

/** A tap opened with `token`, which has sent the agent's first line (naming `secret`). */
async function openTap(token: string, secret: string) {
  const tapId = `feedface${(++tapIds).toString(16).padStart(8, "0")}`;
  const socket = io(`${relay.url}/tap`, {
    auth: { token, tapId },
    transports: ["websocket"],
    reconnection: false,
    forceNew: true,
  });
  closers.push(() => socket.close());
  const injected: string[] = [];
  socket.on("tap:inject", ({ line }: { line: string }) => injected.push(line));
  await connect(socket);
  const open = { profile: "editor", command: "agent", args: [], cwd: `/home/someone/${secret}`, pid: 7 };
  expect(await socket.emitWithAck("tap:open", open)).toMatchObject({ ok: true });
  const raw = JSON.stringify({ jsonrpc: "2.0", method: "session/update", params: { text: secret } });
  const events = [{ t: "line", ts: Date.now(), dir: "from-agent", raw }];
  expect(await socket.emitWithAck("tap:events", { n: 1, events })).toEqual({ ok: true, n: 1 });
  return { tapId, socket, injected, clientId: (tab: string) => `tap-${tapId}-${tab}` };
}

/** A socket that follows the taps list, as the page's tab bar does. */
async function tapsWatch(token: string) {
  const socket = io(relay.url, { auth: { token, watch: WATCH_TAPS }, transports: ["websocket"], forceNew: true });
  closers.push(() => socket.close());
  const lists: TapInfo[][] = [];
  socket.on("taps", ({ taps }: { taps: TapInfo[] }) => lists.push(taps));
  await connect(socket);
  // Acks follow every event sent before them on this socket: the list it was sent is in by now.
  const injection = (clientId: string, enabled = true) =>
    socket.emitWithAck("tap:injection", { clientId, enabled }) as Promise<{ ok: boolean; error?: { code: string } }>;
  await injection("tap-0000000000000000-sync");
  return { socket, lists, injection, latest: () => lists.at(-1) ?? [] };
}

/** A browser tab watching `clientId` (a tap's), with what it is sent. */
async function viewer(token: string, clientId: string) {
  const c = new TestClient(relay.url, { token, clientId });
  closers.push(() => c.close());
  const states: unknown[] = [];
  (c.socket as unknown as Socket).on("tap:state", (e: unknown) => states.push(e));
  await c.connected();
  // relay:info is answered after everything the relay sent this socket on connecting.
  expect(await c.emit("relay:info", {})).toMatchObject({ ok: true });
  return { c, states };
}

const api = (route: string, token: string, init: RequestInit = {}) =>
  fetch(`${relay.url}/api/${route}`, {
    ...init,
    headers: { authorization: `Bearer ${token}`, "content-type": "application/json", ...init.headers },
  });

beforeAll(async () => {
  relay = await startTestRelay({ graceMs: 30_000, tokens: { alice: ALICE, bob: BOB, carol: CAROL }, configFile });
});

afterAll(async () => {
  for (const close of closers.splice(0)) close();
  await relay?.close();
  rmSync(configDir, { recursive: true, force: true });
});

// A tap opened with the relay's own token is the admin's: no person may see or steer it (before,
// every named token could); one opened with Alice's named token is hers.
describe.each([
  { opener: "the admin", token: ADMIN, owner: undefined, ownerToken: undefined },
  { opener: "alice", token: ALICE, owner: "alice", ownerToken: ALICE },
])("a tap opened by $opener", ({ token, owner, ownerToken }) => {
  it("is listed to its owner and the admin, never to another person", async () => {
    const bobBefore = await tapsWatch(BOB);
    const admin = await tapsWatch(ADMIN);
    const tap = await openTap(token, "listed-secret");
    await waitUntil(() => admin.latest().some((t) => t.id === tap.tapId), "the tap, in the admin's list");
    expect(admin.latest().find((t) => t.id === tap.tapId)?.owner).toBe(owner);
    // Told of changes after it connected: the list the admin was sent went to Bob's room in the same turn.
    await bobBefore.injection("tap-0000000000000000-sync");
    expect(bobBefore.lists.flat().map((t) => t.id)).not.toContain(tap.tapId);
    // Told on connecting: the taps-list socket and an ordinary tab alike.
    const bobAfter = await tapsWatch(BOB);
    expect(bobAfter.lists.flat().map((t) => t.id)).not.toContain(tap.tapId);
    const tab = new TestClient(relay.url, { token: BOB });
    closers.push(() => tab.close());
    const tabLists: TapInfo[][] = [];
    (tab.socket as unknown as Socket).on("taps", ({ taps }: { taps: TapInfo[] }) => tabLists.push(taps));
    await tab.connected();
    expect(await tab.emit("relay:info", {})).toMatchObject({ ok: true });
    expect(tabLists.length).toBeGreaterThan(0);
    expect(tabLists.flat().map((t) => t.id)).not.toContain(tap.tapId);
    if (ownerToken) {
      const mine = await tapsWatch(ownerToken);
      expect(mine.latest().map((t) => t.id)).toContain(tap.tapId);
    }
  });

  it("shows another person none of its frames, command line or state, and says why", async () => {
    const tap = await openTap(token, "watched-secret");
    const bob = await viewer(BOB, tap.clientId("bob"));
    expect(bob.c.frames).toEqual([]);
    expect(bob.states).toEqual([]);
    expect(bob.c.errors).toEqual([{ code: "not_owner", message: expect.stringContaining("server's admin") }]);
    // Still nothing once the tap says more.
    const raw = JSON.stringify({ jsonrpc: "2.0", method: "session/update", params: { text: "later-secret" } });
    await tap.socket.emitWithAck("tap:events", {
      n: 2,
      events: [{ t: "line", ts: Date.now(), dir: "from-agent", raw }],
    });
    const admin = await viewer(ADMIN, tap.clientId("admin"));
    await admin.c.frame((f) => f.raw.includes("later-secret"), "the later frame, for the admin");
    expect(await bob.c.emit("relay:info", {})).toMatchObject({ ok: true });
    expect(JSON.stringify([bob.c.frames, bob.c.stderr, bob.states])).not.toMatch(/secret/);
    if (ownerToken) {
      const own = await viewer(ownerToken, tap.clientId("own"));
      await own.c.frame((f) => f.raw.includes("watched-secret"), "its first frame, for its owner");
      expect(own.states).toHaveLength(1);
    }
  });

  it("takes no injection from another person, by any path", async () => {
    const tap = await openTap(token, "steered-secret");
    const bobList = await tapsWatch(BOB);
    const bob = await viewer(BOB, tap.clientId("bob"));
    // Turning injection on: for another clientId from the taps-list socket, or for its own tab.
    expect(await bobList.injection(tap.clientId("bob"))).toMatchObject({ ok: false, error: { code: "not_owner" } });
    expect(await bob.c.emit("tap:injection" as never, { enabled: true })).toMatchObject({
      ok: false,
      error: { code: "not_owner" },
    });
    // A clientId is no secret: the admin's tab has injection on, Bob names that tab.
    const admin = await viewer(ADMIN, tap.clientId("admin"));
    expect(await admin.c.emit("tap:injection" as never, { enabled: true })).toEqual({ ok: true, injection: true });
    const posing = await viewer(BOB, tap.clientId("admin"));
    const frame = { jsonrpc: "2.0", id: 99, result: { outcome: { outcome: "selected", optionId: "allow" } } };
    expect(await posing.c.emit("agent:send", { frame })).toMatchObject({ ok: false, error: { code: "not_owner" } });
    expect(await bob.c.emit("agent:send", { frame })).toMatchObject({ ok: false, error: { code: "not_owner" } });
    // The admin's own send goes through, so the tap would have been written Bob's by now.
    expect(await admin.c.emit("agent:send", { frame: { ...frame, id: 100 } })).toMatchObject({ ok: true });
    await waitUntil(() => tap.injected.length > 0, "the admin's injected frame, at the tap");
    expect(tap.injected.map((l) => JSON.parse(l).id)).toEqual([100]);
    if (ownerToken) {
      const own = await viewer(ownerToken, tap.clientId("own"));
      expect(await own.c.emit("tap:injection" as never, { enabled: true })).toEqual({ ok: true, injection: true });
      expect(await own.c.emit("agent:send", { frame: { ...frame, id: 101 } })).toMatchObject({ ok: true });
      await waitUntil(() => tap.injected.length > 1, "the owner's injected frame, at the tap");
    }
  });

  it("cannot be carried on by another token that names its id", async () => {
    const tap = await openTap(token, "hijacked-secret");
    const other = io(`${relay.url}/tap`, {
      auth: { token: BOB, tapId: tap.tapId },
      transports: ["websocket"],
      reconnection: false,
      forceNew: true,
    });
    closers.push(() => other.close());
    await connect(other);
    const open = { profile: "evil", command: "agent", args: [], cwd: "/tmp", pid: 1 };
    expect(await other.emitWithAck("tap:open", open)).toMatchObject({ ok: false, error: { code: "not_owner" } });
    expect(relay.server.relay.taps.sessions.get(tap.tapId)?.socket?.id).toBe(tap.socket.id);
  });
});

describe("a person's tap", () => {
  it("is theirs when `acp-playground tap` runs with their token: Bob is shown nothing, Alice steers it", async () => {
    const data = mkdtempSync(path.join(tmpdir(), "acp-tap-owners-data-"));
    closers.push(() => rmSync(data, { recursive: true, force: true }));
    const before = new Set(relay.server.relay.taps.sessions.keys());
    const stub = path.join(root, "test/fixtures/stub-agent.mjs");
    const editor = execa(
      process.execPath,
      [path.join(root, "bin/acp-playground.mjs"), "tap", "--", "node", stub, "echo"],
      {
        cwd: root,
        env: {
          ACP_PLAYGROUND_URL: relay.url,
          ACP_PLAYGROUND_TOKEN: ALICE,
          ACP_PLAYGROUND_CONFIG: "",
          ACP_PLAYGROUND_DATA: data,
          HOME: data,
        },
        stdin: "pipe",
        reject: false,
        buffer: false,
      },
    );
    let out = "";
    editor.stdout.on("data", (chunk: Buffer) => (out += chunk.toString()));
    closers.push(() => editor.kill());
    editor.stdin.write(
      `${JSON.stringify({ jsonrpc: "2.0", id: 1, method: "initialize", params: { by: "alice-editor" } })}\n`,
    );
    const found = () =>
      [...relay.server.relay.taps.sessions.values()].find((s) => !before.has(s.id) && s.socket?.connected);
    await waitUntil(() => found() !== undefined, "the real tap, at the relay", 30_000);
    const session = found()!;
    expect(session.info.owner).toBe("alice");
    const bob = await tapsWatch(BOB);
    expect(bob.lists.flat().map((t) => t.id)).not.toContain(session.id);
    const watching = await viewer(BOB, tapClientId(session.id, "bob"));
    expect(watching.c.errors.map((e) => e.code)).toEqual(["not_owner"]);

    const own = await viewer(ALICE, tapClientId(session.id, "own"));
    await own.c.frame((f) => f.raw.includes("alice-editor"), "the editor's frame, for Alice");
    expect(await own.c.emit("tap:injection" as never, { enabled: true })).toEqual({ ok: true, injection: true });
    await own.c.send({ jsonrpc: "2.0", id: "from-alice", method: "ping", params: {} });
    // The agent answers the injected request on stdout, which the editor sees too.
    await waitUntil(() => out.includes('"id":"from-alice"'), "the answer to Alice's frame, at the editor", 30_000);
    editor.stdin.end();
    expect((await editor).exitCode).toBe(0);
  });

  it("records to a transcript of theirs, which another person cannot change", async () => {
    const tap = await openTap(ALICE, "recorded-secret");
    const transcriptId = relay.server.relay.taps.sessions.get(tap.tapId)!.recording.id;
    expect(relay.server.relay.transcripts.meta(transcriptId)?.owner).toBe("alice");
    const rename = (who: string) =>
      api(`transcripts/${transcriptId}`, who, { method: "PATCH", body: JSON.stringify({ title: "mine" }) });
    expect((await rename(BOB)).status).toBe(403);
    expect((await rename(ALICE)).status).toBe(200);
  });

  it("is cut off from the relay when its person's token is revoked", async () => {
    const tap = await openTap(CAROL, "revoked-secret");
    const gone = new Promise<void>((resolve) => tap.socket.once("disconnect", () => resolve()));
    writeFileSync(configFile, JSON.stringify({ tokens: { alice: ALICE, bob: BOB } }));
    await gone;
  });
});
