/**
 * `serve --database`: two relay instances on one PostgreSQL database (a throw-away cluster). A
 * real Gemini CLI session (fake API) recorded on A is listed, read line for line and found by
 * search on B; a rename, a share and a delete made on B are seen on A; a local file published
 * into B (acp-playground publish) is read on A. With named tokens (one config file for both): a
 * session recorded with Alice's token is hers on B, Bob's publish is his, and Bob's token removed
 * from the file is refused on both at once, his open socket closed. A probe report kept on A is
 * listed, read and deleted on B; a comparison saved on A is shared from B and opens on A.
 */
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { publishMain } from "../../server/cli/publish-cli";
import { probeStoreBeside } from "../../server/transcripts/probe-store";
import type { ServerConfig } from "../../server/config";
import { useGeminiRelay } from "../gemini-relay-setup";
import { pgSkipReason, startPgCluster, type PgCluster } from "../pg-cluster";
import { startTestRelay, TestClient, type TestRelay } from "../relay-harness";
import { initializeRecording } from "../transcripts";

const SECRET = "sk-playground-test-0123456789";
const ALICE = "alice-team-token-0123456789";
const BOB = "bob-team-token-0123456789";
const skip = pgSkipReason();

describe.skipIf(skip !== undefined)("team library on PostgreSQL", () => {
  let cluster: PgCluster | undefined;
  let b: TestRelay | undefined;
  const overrides: Partial<ServerConfig> = { graceMs: 200 };
  const configDir = mkdtempSync(path.join(tmpdir(), "acp-team-config-"));
  const configFile = path.join(configDir, "config.json");
  beforeAll(async () => {
    cluster = await startPgCluster();
    writeFileSync(configFile, JSON.stringify({ tokens: { alice: ALICE, bob: BOB } }));
    Object.assign(overrides, { database: cluster.url, configFile, tokens: { alice: ALICE, bob: BOB } });
  }, 60_000);
  const a = useGeminiRelay(overrides, { ACP_TEST_SERVICE_TOKEN: SECRET });
  beforeAll(async () => {
    b = await startTestRelay({ ...overrides, workspaceRoots: [a.workspace] });
    await b.server.relay.team!.ready;
  });
  afterAll(async () => {
    await b?.close();
  });
  // After the Gemini relay's own afterAll (hooks run in reverse): its pool must be closed first.
  afterAll(() => cluster?.stop());
  afterAll(() => rmSync(configDir, { recursive: true, force: true }));

  async function http(relay: TestRelay, method: string, route: string, body?: string, token = "test-token") {
    const res = await fetch(`${relay.url}${route}`, { method, headers: { authorization: `Bearer ${token}` }, body });
    const text = await res.text();
    return { status: res.status, text, json: () => JSON.parse(text) };
  }

  /** Polls B until `done` holds (the copy to the database is asynchronous); no fixed sleep. */
  async function until<T>(ask: () => Promise<T>, done: (v: T) => boolean): Promise<T> {
    const deadline = Date.now() + 20_000;
    for (;;) {
      const v = await ask();
      if (done(v)) return v;
      if (Date.now() > deadline) throw new Error(`B never showed it: ${JSON.stringify(v).slice(0, 500)}`);
      await new Promise((r) => setTimeout(r, 50));
    }
  }

  it("a recording made on A is listed, read and found by search on B; changes on B are seen on A", async () => {
    const c = await a.client();
    const agent = await c.start();
    const id = agent.transcriptId!;
    await c.initialize();
    const sessionId = await c.newSession(a.workspace);
    a.api.script({ parts: [{ text: `Marmalade pelican says ${SECRET}.` }] });
    await c.send({
      jsonrpc: "2.0",
      id: 3,
      method: "session/prompt",
      params: { sessionId, prompt: [{ type: "text", text: `remember ${SECRET}` }] },
    });
    await c.response(3);
    await c.emit("agent:stop", {});

    const listed = await until(
      async () =>
        (await http(b!, "GET", "/api/transcripts")).json().transcripts as { id: string; recording: boolean }[],
      (list) => list.some((m) => m.id === id && !m.recording),
    );
    expect(listed.find((m) => m.id === id)).toMatchObject({ profile: "gemini", agentName: "gemini-cli", turns: 1 });

    // Every line as A recorded it (redacted), the header's title included.
    const local = readFileSync(a.relay.server.relay.transcripts.file(id), "utf8");
    const onB = await until(
      () => http(b!, "GET", `/api/transcripts/${id}`),
      (r) => r.text.split("\n").length === local.split("\n").length,
    );
    expect(onB.status).toBe(200);
    expect(onB.text.split("\n").slice(1)).toEqual(local.split("\n").slice(1));
    expect(onB.text).not.toContain(SECRET);
    expect(onB.text).toContain("Marmalade pelican says [REDACTED].");

    const found = (await http(b!, "GET", "/api/search?q=marmalade%20peli")).json();
    expect(found.hits.map((h: { transcript: { id: string } }) => h.transcript.id)).toContain(id);
    expect(found.hits[0]).toMatchObject({ field: "message", line: expect.stringContaining("Marmalade pelican") });
    const latency = (await http(b!, "GET", `/api/latency?transcript=${id}`)).json();
    expect(latency.rows.map((r: { method: string }) => r.method)).toContain("session/prompt");

    // Changes on B, seen on A.
    expect((await http(b!, "PATCH", `/api/transcripts/${id}`, JSON.stringify({ title: "Team demo" }))).status).toBe(
      200,
    );
    const shared = (await http(b!, "POST", `/api/transcripts/${id}/share`, "{}")).json();
    const page = await fetch(`${a.relay.url}/api/share/${id}?token=${shared.shareToken}`);
    const pageText = await page.text();
    expect(page.status).toBe(200);
    expect(pageText.split("\n")[0]).toContain('"title":"Team demo"');
    expect(pageText).not.toContain(a.workspace);
    expect((await fetch(`${a.relay.url}/api/share/${id}?token=wrong`)).status).toBe(404);
    expect((await http(a.relay, "GET", "/api/transcripts")).json().transcripts[0]).toMatchObject({
      id,
      title: "Team demo",
      renamed: true,
    });
    expect((await http(b!, "DELETE", `/api/transcripts/${id}`)).status).toBe(204);
    expect((await http(a.relay, "GET", `/api/transcripts/${id}`)).status).toBe(404);
    expect((await http(a.relay, "GET", "/api/search?q=marmalade")).json().hits).toEqual([]);

    // A local recording published into B is in the team's library, on A too.
    const file = path.join(a.base, "local.jsonl");
    writeFileSync(file, local);
    const lines: string[] = [];
    const code = await publishMain([file, "--to", b!.url], { ACP_PLAYGROUND_TOKEN: "test-token" }, (l) =>
      lines.push(l),
    );
    expect(code).toBe(0);
    const published = /published as .*\/transcripts\/(\S+)$/.exec(lines[0]!)![1]!;
    const copy = await until(
      () => http(a.relay, "GET", `/api/transcripts/${published}`),
      (r) => r.status === 200,
    );
    expect(copy.text.split("\n").slice(1)).toEqual(local.split("\n").slice(1));
  });

  it("named tokens: who recorded what is listed and filtered on every instance; a token removed from the file is refused", async () => {
    const c = await a.client({ token: ALICE });
    const agent = await c.start();
    const id = agent.transcriptId!;
    await c.initialize();
    await c.emit("agent:stop", {});
    const mine = await until(
      async () => (await http(b!, "GET", "/api/transcripts?owner=alice", undefined, BOB)).json().transcripts,
      (list: { id: string; recording: boolean; owner?: string }[]) => list.some((m) => m.id === id && !m.recording),
    );
    expect(mine.every((m) => m.owner === "alice")).toBe(true);
    expect((await http(b!, "GET", "/api/transcripts?owner=bob")).json().transcripts).toEqual([]);
    const bad = await http(b!, "GET", "/api/transcripts?owner=no%20one");
    expect([bad.status, bad.json().error.code]).toEqual([400, "invalid_query"]);
    expect((await http(a.relay, "GET", "/api/transcripts?owner=alice")).json().transcripts[0]).toMatchObject({ id });

    // Bob's upload is his.
    const file = path.join(a.base, "bob.jsonl");
    writeFileSync(file, readFileSync(a.relay.server.relay.transcripts.file(id), "utf8"));
    const lines: string[] = [];
    expect(await publishMain([file, "--to", b!.url], { ACP_PLAYGROUND_TOKEN: BOB }, (l) => lines.push(l))).toBe(0);
    const published = /published as .*\/transcripts\/(\S+)$/.exec(lines[0]!)![1]!;
    await until(
      async () => (await http(a.relay, "GET", "/api/transcripts?owner=bob")).json().transcripts,
      (list: { id: string }[]) => list.some((m) => m.id === published),
    );
    // The search keeps to one person's as the list does.
    const bobs = await until(
      async () => (await http(a.relay, "GET", "/api/search?q=initialize&owner=bob")).json().hits,
      (hits: { transcript: { id: string } }[]) => hits.length > 0,
    );
    expect(new Set(bobs.map((h) => h.transcript.id))).toEqual(new Set([published]));
    const badSearch = await http(a.relay, "GET", "/api/search?q=initialize&owner=no%20one");
    expect([badSearch.status, badSearch.json().error.code]).toEqual([400, "invalid_query"]);

    // Bob's token revoked by editing the file: refused on both instances, his open socket closed.
    const bob = await a.client({ token: BOB });
    const closed = new Promise<string>((resolve) => bob.socket.once("disconnect", resolve));
    writeFileSync(configFile, JSON.stringify({ tokens: { alice: ALICE } }));
    expect((await http(b!, "GET", "/api/transcripts", undefined, BOB)).status).toBe(401);
    expect((await http(a.relay, "GET", "/api/transcripts", undefined, BOB)).status).toBe(401);
    expect((await http(b!, "GET", "/api/transcripts", undefined, ALICE)).status).toBe(200);
    expect(await closed).toBe("io server disconnect");
    const again = new TestClient(a.relay.url, { token: BOB });
    await expect(again.connected()).rejects.toThrow(/unauthorized/);
    again.close();
  });

  it("a probe report kept on A is listed, read and deleted on B", async () => {
    const kept = probeStoreBeside(a.relay.server.relay.transcripts).save({
      profile: "gemini",
      agent: { name: "gemini-cli", version: "1" },
      startedAt: new Date().toISOString(),
      durationMs: 1234,
      rows: [],
    });
    const listed = await until(
      async () => (await http(b!, "GET", "/api/probes")).json().probes as { id: string }[],
      (probes) => probes.some((p) => p.id === kept.id),
    );
    expect(listed.find((p) => p.id === kept.id)).toEqual({
      id: kept.id,
      profile: "gemini",
      agent: { name: "gemini-cli", version: "1" },
      startedAt: kept.startedAt,
      durationMs: 1234,
      checks: 0,
    });
    expect((await http(b!, "GET", `/api/probes/${kept.id}`)).json()).toEqual(kept);
    expect((await http(b!, "DELETE", `/api/probes/${kept.id}`)).status).toBe(204);
    expect((await http(a.relay, "GET", `/api/probes/${kept.id}`)).status).toBe(404);
    expect((await http(b!, "GET", "/api/probes/nope")).status).toBe(404);
  });

  it("a comparison saved on A is listed, shared, revoked and deleted on B, its share link opening on A", async () => {
    const upload = async (profile: string) => {
      const res = await http(a.relay, "POST", "/api/transcripts", initializeRecording({ agent: { profile } }, 1));
      expect(res.status).toBe(201);
      return res.json().id as string;
    };
    const sides = [await upload("left"), await upload("right")];
    const input = {
      prompt: "compare me",
      sides: sides.map((transcriptId, i) => ({ label: `side ${i}`, profile: i ? "right" : "left", transcriptId })),
    };
    // Saved on A at once after the uploads: A's copies reach the database first.
    const saved = await http(a.relay, "POST", "/api/comparisons", JSON.stringify(input));
    expect(saved.status).toBe(201);
    const cid = saved.json().id as string;
    expect((await http(b!, "GET", "/api/comparisons")).json().comparisons.map((c: { id: string }) => c.id)).toContain(
      cid,
    );
    const listed = (await http(b!, "GET", "/api/transcripts")).json().transcripts as { id: string; kind: string }[];
    expect(listed.filter((m) => sides.includes(m.id)).map((m) => m.kind)).toEqual(["compare", "compare"]);

    const shared = (await http(b!, "POST", `/api/comparisons/${cid}/share`)).json();
    const view = await fetch(`${a.relay.url}/api/comparisons/${cid}/shared?token=${shared.shareToken}`);
    expect(view.status).toBe(200);
    const body = (await view.json()) as { transcripts: { id: string; token: string }[] };
    expect(body.transcripts.map((t) => t.id)).toEqual(sides);
    for (const t of body.transcripts)
      expect((await fetch(`${a.relay.url}/api/share/${t.id}?token=${t.token}`)).status).toBe(200);
    expect((await fetch(`${a.relay.url}/api/comparisons/${cid}/shared?token=nope`)).status).toBe(404);

    // Revoking one transcript's link revokes the comparison's for good.
    expect((await http(a.relay, "DELETE", `/api/transcripts/${sides[0]}/share`)).status).toBe(200);
    expect((await fetch(`${b!.url}/api/comparisons/${cid}/shared?token=${shared.shareToken}`)).status).toBe(404);
    expect((await http(b!, "DELETE", `/api/comparisons/${cid}/share`)).status).toBe(200);
    expect((await http(a.relay, "DELETE", `/api/comparisons/${cid}`)).status).toBe(204);
    expect((await http(b!, "GET", `/api/comparisons/${cid}`)).status).toBe(404);
  });
});
