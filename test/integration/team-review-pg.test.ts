/**
 * The team library on PostgreSQL attacked through its routes (issue #37's fourth security
 * review): hostile search queries, hostile uploads, a database that fails. One relay on a
 * throw-away cluster; every answer is checked for what it must not say.
 */
import { execa } from "execa";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { serialize, serializeFrame } from "../../lib/contracts/transcript";
import { pgQuery } from "../../server/stores/pg-search";
import { INTERNAL_ERROR } from "../../server/relay-failure";
import { pgSkipReason, startPgCluster, type PgCluster } from "../pg-cluster";
import { startTestRelay, type TestRelay } from "../relay-harness";
import { liveBytes } from "../heap";
import { testHeader } from "../transcripts";

const skip = pgSkipReason();

describe.skipIf(skip !== undefined)("the team library's routes, attacked", () => {
  let cluster: PgCluster | undefined;
  let relay: TestRelay | undefined;

  beforeAll(async () => {
    cluster = await startPgCluster();
    relay = await startTestRelay({ database: cluster.url });
    await relay.server.relay.team!.ready;
  }, 60_000);
  afterAll(async () => {
    await relay?.close();
    cluster?.stop();
  });

  async function http(method: string, route: string, body?: string) {
    const res = await fetch(`${relay!.url}${route}`, { method, headers: { authorization: "Bearer test-token" }, body });
    return { status: res.status, text: await res.text() };
  }

  it("answers a search for words the index cannot hold with no hits, not the database's error", async () => {
    // Hangul syllables fold (NFD) into three times the bytes: past what a PostgreSQL lexeme may hold.
    for (const q of ["가".repeat(400), `"one ${"각".repeat(300)}"`, `x ${"ᄀ".repeat(490)}`]) {
      const res = await http("GET", `/api/search?q=${encodeURIComponent(q)}`);
      expect(res.status, res.text).toBe(200);
      expect(JSON.parse(res.text)).toMatchObject({ hits: [], total: 0 });
    }
  });

  it("keeps an uploaded transcript's hostile words out of harm: found, and nothing else broken", async () => {
    const header = serialize(testHeader({ agent: { profile: "hostile" } }));
    const long = `bc${"c".repeat(300)}`;
    const text = `zebra ' & ! :* <-> ${"각".repeat(2000)} ${"y".repeat(3000)} ${long} '); DROP TABLE transcripts; --`;
    const frame = serializeFrame({
      seq: 1,
      ts: Date.now(),
      dir: "from-agent",
      kind: "notification",
      method: "session/update",
      raw: JSON.stringify({ jsonrpc: "2.0", method: "session/update", params: { text } }),
    });
    const up = await http("POST", "/api/transcripts", header + frame);
    expect(up.status, up.text).toBe(201);
    const { id } = JSON.parse(up.text) as { id: string };
    const deadline = Date.now() + 20_000;
    let found: { status: number; text: string };
    do {
      found = await http("GET", `/api/search?q=zebra`);
      if (found.text.includes(id)) break;
      await new Promise((r) => setTimeout(r, 100));
    } while (Date.now() < deadline);
    expect(found.text).toContain(id);
    expect((await http("GET", "/api/transcripts")).status).toBe(200);
    // The word being typed is looked for as the words it begins (its long one, now in the table of
    // terms): the phrase's pair with it is then too long to hold, and nothing holds it.
    const typed = await http("GET", `/api/search?q=${encodeURIComponent(`${"각".repeat(200)}/bc`)}`);
    expect(typed.status, typed.text).toBe(200);
    expect(JSON.parse(typed.text)).toMatchObject({ hits: [], total: 0 });
    expect(pgQuery(`${"각".repeat(200)}/bc`)).toBeDefined();
    expect(pgQuery(`${"각".repeat(200)}/bc`, [long])).toBeUndefined();
    expect(pgQuery("가".repeat(400))).toBeUndefined();
  });

  it("streams a big transcript to its readers: four at once hold no copy of it each", async () => {
    const header = serialize(testHeader({ agent: { profile: "big" } }));
    const pad = "p".repeat(16 * 1024);
    const frames: string[] = [];
    for (let seq = 1; seq <= 3_000; seq++)
      frames.push(
        serializeFrame({
          seq,
          ts: seq,
          dir: "from-agent",
          kind: "notification",
          method: "n",
          raw: JSON.stringify({ jsonrpc: "2.0", method: "n", params: { seq, pad } }),
        }),
      );
    const body = header + frames.join("");
    const up = await http("POST", "/api/transcripts", body);
    expect(up.status, up.text).toBe(201);
    const { id } = JSON.parse(up.text) as { id: string };
    const team = relay!.server.relay.team!;
    const count = async () =>
      (
        await team.pool.query<{ n: number }>(
          "SELECT coalesce(sum(line_count), 0)::int AS n FROM transcript_lines WHERE transcript_id = $1",
          [id],
        )
      ).rows[0]!.n;
    const deadline = Date.now() + 60_000;
    while ((await count()) < 3_001 && Date.now() < deadline) await new Promise((r) => setTimeout(r, 200));
    expect(await count()).toBe(3_001);
    const shared = JSON.parse((await http("POST", `/api/transcripts/${id}/share`)).text) as { shareToken: string };

    // Read by other processes (curl), discarding what arrives: the relay's own memory is what is measured.
    const drain = async (route: string, auth: boolean) => {
      const args = ["-s", "-o", "/dev/null", "-w", "%{http_code} %{size_download}", `${relay!.url}${route}`];
      const { stdout } = await execa("curl", auth ? ["-H", "authorization: Bearer test-token", ...args] : args);
      const [status, size] = stdout.split(" ").map(Number);
      expect(status).toBe(200);
      return size!;
    };
    // What the relay holds, not what it has yet to collect: measured after a full collection.
    const before = liveBytes();
    let peak = before;
    const sampler = setInterval(() => (peak = Math.max(peak, liveBytes())), 100);
    try {
      const sizes = await Promise.all([
        drain(`/api/transcripts/${id}`, true),
        drain(`/api/transcripts/${id}?download`, true),
        drain(`/api/share/${id}?token=${shared.shareToken}`, false),
        drain(`/api/share/${id}?token=${shared.shareToken}`, false),
      ]);
      // Whole (its header carries the library's title).
      for (const size of sizes.slice(0, 2)) expect(Math.abs(size - Buffer.byteLength(body))).toBeLessThan(1024);
    } finally {
      clearInterval(sampler);
    }
    const grew = (peak - before) / 2 ** 20;
    console.log(
      `four reads of a ${(Buffer.byteLength(body) / 2 ** 20).toFixed(0)} MiB transcript: +${grew.toFixed(0)} MiB live at most`,
    );
    expect(grew).toBeLessThan(100);
  }, 120_000);

  it("tells anyone who asks while the database is down nothing of where it is or what failed", async () => {
    const port = new URL(cluster!.url).port;
    cluster!.halt();
    try {
      // A share link's route answers without a token; the library's with one.
      for (const [route, auth] of [
        ["/api/share/20260101-000000-abcdef12?token=x", false],
        ["/api/comparisons/20260101-000000-abcdef12/shared?token=x", false],
        ["/api/transcripts", true],
        ["/api/search?q=zebra", true],
      ] as const) {
        const res = await fetch(`${relay!.url}${route}`, {
          headers: auth ? { authorization: "Bearer test-token" } : {},
        });
        const text = await res.text();
        expect(res.status, route).toBeGreaterThanOrEqual(500);
        for (const leak of [port, "127.0.0.1", "ECONNREFUSED", "onnect", "    at "])
          expect(text, `${route}: ${text}`).not.toContain(leak);
        expect(JSON.parse(text)).toEqual({ error: { code: "internal", message: INTERNAL_ERROR } });
      }
    } finally {
      cluster!.restart();
    }
  });
});
