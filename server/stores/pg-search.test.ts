/**
 * The team library's search vectors and queries (pure), then on a throw-away PostgreSQL cluster:
 * migration 5 makes the vectors of a database written before it again, and a search past its
 * budget stops and says so.
 */
import pg from "pg";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { pgSkipReason, startPgCluster, type PgCluster } from "../../test/pg-cluster";
import { migrate } from "./pg-migrate";
import { MIGRATIONS } from "./pg-schema";
import { docVector, ERROR_TAG, PAIR, pgQuery, words } from "./pg-search";
import { PgStore } from "./pg-store";

describe("words and vectors", () => {
  it("cuts words as the file store's tokenizer: letters and digits, lower case, accents removed", () => {
    expect(words("Edit /w/src/app.ts, x@example.com: v1.2")).toEqual([
      "edit",
      "w",
      "src",
      "app",
      "ts",
      "x",
      "example",
      "com",
      "v1",
      "2",
    ]);
    expect(words("Zürich CAFÉ naïve_été")).toEqual(["zurich", "cafe", "naive", "ete"]);
  });

  it("keeps each word's positions and weight, and each pair of adjacent words in one text", () => {
    expect(docVector("read the file", "read", false)).toBe(
      `'read':1A,5B 'the':2A 'file':3A '${PAIR}read the' '${PAIR}the file'`,
    );
    // Past PostgreSQL's last position the words stay, at it; pairs are found whatever the position.
    const long = docVector(`${"x ".repeat(16_400)}end word`, "", false);
    expect(long).toContain("'end':16383A");
    expect(long).toContain(`'${PAIR}end word'`);
    expect(long.match(/'x':([^ ]*)/)![1]!.split(",")).toHaveLength(256);
    // A word PostgreSQL cannot hold is left out, with its pairs.
    expect(docVector(`a ${"y".repeat(3000)} b`, "", false)).toBe("'a':1A 'b':3A");
    // An error is tagged: the errors filter is in the index.
    expect(docVector("quota", "", true)).toBe(`'quota':1A '${ERROR_TAG}'`);
  });

  it("reads a typed query as the file store does: terms, phrases as pairs then order, the last word a prefix", () => {
    expect(pgQuery("read file")).toEqual({ query: "'read' & 'file':*" });
    expect(pgQuery('"read file"')).toEqual({ query: `'${PAIR}read file'` });
    expect(pgQuery('say "one two three"')).toEqual({
      query: `'say' & ('${PAIR}one two' & '${PAIR}two three' & ('one' <-> 'two' <-> 'three'))`,
    });
    expect(pgQuery("src/app.t")).toEqual({
      query: `('${PAIR}src app' & '${PAIR}app t':* & ('src' <-> 'app' <-> 't':*))`,
    });
    expect(pgQuery("Zür' & !:*")).toEqual({ query: "'zur':*" });
    // The words the one being typed begins, when the table of terms says which.
    expect(pgQuery("say one-tw", ["two", "twice"])).toEqual({
      query: `'say' & ('${PAIR}one two' | '${PAIR}one twice')`,
    });
    expect(pgQuery("tw", [])).toEqual({ query: "'tw'" });
    expect(pgQuery("twi", [])).toEqual({ query: "'twi':*" });
    const many = Array.from({ length: 65 }, (_, i) => `tw${i}`);
    expect(pgQuery("tw", many)).toEqual({ query: "'tw'", cut: expect.stringMatching(/^“tw” begins too many words/) });
    expect(pgQuery(" ** () ")).toBeUndefined();
    // Cut to its limits: every word kept is whole (none is the one being typed).
    const cut = pgQuery(Array.from({ length: 17 }, (_, i) => `w${i}`).join(" "))!;
    expect(cut.query.split(" & ")).toHaveLength(16);
    expect(cut.query).not.toContain(":*");
    expect(cut.cut).toMatch(/only the first 16 of its 17/);
  });
});

const skip = pgSkipReason();

describe.skipIf(skip !== undefined)("pg search", () => {
  let cluster: PgCluster;
  const pools: pg.Pool[] = [];
  const stores: PgStore[] = [];
  beforeAll(async () => {
    cluster = await startPgCluster();
  }, 60_000);
  afterAll(async () => {
    await Promise.all(stores.map((s) => s.close()));
    await Promise.all(pools.map((p) => p.end()));
    cluster?.stop();
  });

  const meta = (id: string) => ({ id, title: id, profile: "p", createdAt: "2026-11-20T10:00:00.000Z", kind: "upload" });

  it("makes the search vectors of a database written before migration 5 again: its phrases are found", async () => {
    const url = await cluster.database("before_pairs");
    const pool = new pg.Pool({ connectionString: url, max: 2 });
    pools.push(pool);
    await migrate(pool, MIGRATIONS.slice(0, 4));
    await pool.query("INSERT INTO transcripts (id, created_at, meta) VALUES ('old', $1, $2)", [
      "2026-11-20T10:00:00.000Z",
      meta("old"),
    ]);
    await pool.query(
      `INSERT INTO search_docs (transcript_id, line_no, seq, ts, kind, field, error, body, extra)
       SELECT 'old', n, n, 1000, 'notification', 'message', false, 'edited src/app.ts, then read write ' || n, ''
       FROM generate_series(1, 2500) AS n`,
    );
    await pool.query(
      `INSERT INTO search_docs (transcript_id, line_no, seq, ts, kind, field, error, body, extra)
       VALUES ('old', 2501, 2501, 1000, 'response', 'error', true, 'quota exceeded: read write', '')`,
    );
    const store = await PgStore.open(url);
    stores.push(store);
    const answer = await store.search({ q: '"read write 2499"' });
    expect(answer.hits.map((h) => h.seq)).toEqual([2499]);
    expect(await store.search({ q: "app.ts", limit: 1 })).toMatchObject({ total: 2000, more: true });
    expect((await store.search({ q: '"read write"', errors: true })).hits.map((h) => h.seq)).toEqual([2501]);
    // Its words are in the table of terms: a two-letter prefix is looked for as the words it begins.
    expect(await store.search({ q: "edi", limit: 1 })).toMatchObject({ total: 2000, more: true });
    const wr = (await store.search({ q: "wr", limit: 1 })).hits[0]!;
    expect(wr.line.slice(wr.marks[0]![0], wr.marks[0]![1])).toBe("write");
    const { rows } = await pool.query<{ n: number }>(
      `SELECT count(*)::int AS n FROM search_docs WHERE tsv @@ $1::tsquery`,
      [`'${PAIR}src app'`],
    );
    expect(rows[0]!.n).toBe(2500);
  });

  it("stops a search past its budget and says so; the next search runs", async () => {
    const url = await cluster.database("budget");
    const store = await PgStore.open(url, { searchBudgetMs: 300 });
    stores.push(store);
    const locker = new pg.Client({ connectionString: url });
    await locker.connect();
    try {
      // The search waits for the table a transaction holds: without its budget it would wait for ever.
      await locker.query("BEGIN");
      await locker.query("LOCK TABLE search_docs IN ACCESS EXCLUSIVE MODE");
      const answer = await store.search({ q: "fox" });
      expect(answer.hits).toEqual([]);
      expect(answer.cut).toMatch(/^The search stopped after 0\.3 s \(its budget\)/);
      expect(answer.tookMs).toBeGreaterThanOrEqual(250);
    } finally {
      await locker.query("ROLLBACK");
      await locker.end();
    }
    expect(await store.search({ q: "fox" })).toMatchObject({ hits: [], total: 0 });
    expect((await store.search({ q: "fox" })).cut).toBeUndefined();
  });
});
