/**
 * A token revoked while its person's request is still coming in (its body sent slowly): the
 * request is cut off, and nothing it asked for happens after the revocation. One relay, raw HTTP
 * requests that send half their body, the token removed from the config file, then the rest.
 */
import { mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { request, type ClientRequest } from "node:http";
import { tmpdir } from "node:os";
import path from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { startTestRelay, TestClient, type TestRelay } from "../relay-harness";
import { initializeRecording } from "../transcripts";

const fixture = path.resolve(import.meta.dirname, "../fixtures/leaky-agent.mjs");
const ALICE = "alice-token-0123456789abcdef";
const BOB = "bob-token-0123456789abcdefgh";
const DORA = "dora-token-0123456789abcdefg";
const EVE = "eve-token-0123456789abcdefghi";
const configDir = mkdtempSync(path.join(tmpdir(), "acp-revoked-config-"));
const configFile = path.join(configDir, "config.json");
const tokens = { alice: ALICE, bob: BOB, dora: DORA, eve: EVE };
writeFileSync(configFile, JSON.stringify({ tokens }));

let relay: TestRelay;
const closers: (() => void)[] = [];

const api = (route: string, token: string, init: RequestInit = {}) =>
  fetch(`${relay.url}/api/${route}`, {
    ...init,
    headers: { authorization: `Bearer ${token}`, "content-type": "application/json", ...init.headers },
  });

/**
 * A request that has sent its headers and the first half of `body`, once the relay has taken it
 * (its token checked): `finish` sends the rest and reads the answer.
 */
async function begun(method: string, route: string, token: string, body: string) {
  const bytes = Buffer.from(body);
  const taken = new Promise<void>((resolve) =>
    relay.server.http.once("request", (req: { url?: string }) => {
      expect(req.url).toBe(`/api/${route}`);
      setImmediate(resolve);
    }),
  );
  let req: ClientRequest;
  const answer = new Promise<{ status: number } | { cut: string }>((resolve) => {
    req = request(`${relay.url}/api/${route}`, {
      method,
      headers: { authorization: `Bearer ${token}`, "content-type": "application/json", "content-length": bytes.length },
    });
    req.on("response", (res) => {
      res.resume();
      res.on("end", () => resolve({ status: res.statusCode! }));
    });
    req.on("error", (err) => resolve({ cut: err.message }));
    req.write(bytes.subarray(0, bytes.length >> 1));
  });
  await taken;
  return {
    async finish() {
      if (!req.destroyed) req.end(bytes.subarray(bytes.length >> 1));
      return answer;
    },
  };
}

/** Removes `name`'s token from the file and waits until the relay refuses it. */
async function revoke(name: keyof typeof tokens): Promise<void> {
  const { [name]: gone, ...kept } = tokens;
  delete tokens[name];
  writeFileSync(configFile, JSON.stringify({ tokens: kept }));
  while ((await api("me", gone)).status !== 401) await new Promise((r) => setTimeout(r, 25));
}

beforeAll(async () => {
  relay = await startTestRelay({
    graceMs: 30_000,
    tokens: { ...tokens },
    configFile,
    profiles: { leaky: { command: process.execPath, args: [fixture], env: {} } },
  });
});

afterAll(async () => {
  for (const close of closers.splice(0)) close();
  await relay?.close();
  rmSync(configDir, { recursive: true, force: true });
});

describe("a token revoked while its request's body is still coming", () => {
  it("renames nothing", async () => {
    const up = await api("transcripts", ALICE, { method: "POST", body: initializeRecording({ title: "alice's" }) });
    expect(up.status).toBe(201);
    const { id } = (await up.json()) as { id: string };
    const rename = await begun(
      "PATCH",
      `transcripts/${id}`,
      ALICE,
      JSON.stringify({ title: "renamed after revocation" }),
    );
    await revoke("alice");
    expect(await rename.finish()).toHaveProperty("cut");
    const meta = (await (await api("transcripts", BOB)).json()) as { transcripts: { id: string; title: string }[] };
    expect(meta.transcripts.find((t) => t.id === id)?.title).toBe("alice's");
  });

  it("publishes nothing", async () => {
    const before = ((await (await api("transcripts", BOB)).json()) as { transcripts: unknown[] }).transcripts.length;
    const upload = await begun("POST", "transcripts", DORA, initializeRecording({ title: "dora's, after revocation" }));
    await revoke("dora");
    expect(await upload.finish()).toHaveProperty("cut");
    const after = (await (await api("transcripts", BOB)).json()) as { transcripts: { title: string }[] };
    expect(after.transcripts).toHaveLength(before);
    expect(after.transcripts.map((t) => t.title)).not.toContain("dora's, after revocation");
  });

  it("makes no watch link to its person's session, which runs on for the grace period", async () => {
    const eve = new TestClient(relay.url, { token: EVE });
    closers.push(() => eve.close());
    await eve.connected();
    await eve.start({ profile: "leaky" });
    const link = await begun("POST", "watch", EVE, JSON.stringify({ clientId: eve.clientId }));
    await revoke("eve");
    expect(await link.finish()).toHaveProperty("cut");
    expect((relay.server.relay.watch as unknown as { feeds: Map<string, unknown> }).feeds.size).toBe(0);
  });

  it("is heard only while a request is under way: answered ones leave nothing behind", async () => {
    const listeners = () =>
      (relay.server.relay.identities as unknown as { revokedListeners: Set<unknown> }).revokedListeners.size;
    const before = listeners();
    for (let i = 0; i < 20; i++) expect((await api("me", BOB)).status).toBe(200);
    expect(listeners()).toBe(before);
  });
});
