/**
 * The team library's search vectors, queries and row indexes (pure), then on a throw-away
 * PostgreSQL cluster: libraries written before migrations 5, 6 and 8 are found as they are written
 * now, a phrase across the edge of a save's rows is found, and a search past its budget stops and
 * says so.
 */
import pg from "pg";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { pgSkipReason, startPgCluster, type PgCluster } from "../../test/pg-cluster";
import { migrate } from "./pg-migrate";
import { MIGRATIONS } from "./pg-schema";
import { joints } from "../../lib/features/library/joints";
import { serialize, serializeFrame, type TranscriptEvent } from "../../lib/contracts/transcript";
import { searchDoc } from "../../lib/features/library/search";
import {
  docLexemes,
  docVector,
  ERROR_TAG,
  holds,
  JOINED,
  PAIR,
  pgQuery,
  queryNeed,
  rowClause,
  termHash,
  words,
} from "./pg-search";
import { NEXT_TO_INDEX } from "./pg-row-index";
import { PgStore } from "./pg-store";
import type { TranscriptMeta } from "../../lib/contracts/transcript-meta";
import { messageChunk, testHeader } from "../../test/transcripts";

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
    // Written decomposed (a macOS file name), or a lower case that adds a mark: one word, as FTS5 reads it.
    expect(words("/Users/x/E\u0301cole/Re\u0301sume\u0301.pdf İstanbul")).toEqual([
      "users",
      "x",
      "ecole",
      "resume",
      "pdf",
      "istanbul",
    ]);
    // Marks unicode61 does not remove part words there, and here.
    expect(words("a\u0305b \u0301")).toEqual(["a", "b"]);
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

  it("adds what a streamed chunk's edge joins: the cut word apart, the first joint's pairs, runs of three words and more", () => {
    const joined = joints("alpha bravo char", "lie delta");
    const v = docVector("lie delta", "", false, undefined, joined);
    // The cut word at a position next to no other word.
    expect(v).toContain("'charlie':5A");
    for (const pair of ["bravo charlie", "charlie delta", "lie delta"]) expect(v).toContain(`'${PAIR}${pair}'`);
    // Not the pair wholly before the edge: that chunk has it.
    expect(v).not.toContain(`'${PAIR}alpha bravo'`);
    for (const run of ["bravo charlie delta", "alpha bravo charlie", "alpha bravo charlie delta"])
      expect(v).toContain(`'${JOINED}${run}'`);
    expect(v.match(new RegExp(`'${JOINED}`, "g"))).toHaveLength(3);
    const terms = new Set<string>();
    docVector("lie delta", "", false, terms, joined);
    expect([...terms].sort()).toEqual(["charlie", "delta", "lie"]);
    // No edge: as before.
    expect(docVector("lie delta", "", false, undefined, { split: "", joints: [] })).toBe(
      docVector("lie delta", "", false),
    );
  });

  it("reads a typed query as the file store does: terms, phrases as pairs then order, the last word a prefix", () => {
    expect(pgQuery("read file")).toEqual({ query: "'read' & 'file':*" });
    expect(pgQuery('"read file"')).toEqual({ query: `'${PAIR}read file'` });
    expect(pgQuery('say "one two three"')).toEqual({
      query: `'say' & (('${PAIR}one two' & '${PAIR}two three' & ('one' <-> 'two' <-> 'three')) | '${JOINED}one two three')`,
    });
    expect(pgQuery("src/app.t")).toEqual({
      query: `(('${PAIR}src app' & '${PAIR}app t':* & ('src' <-> 'app' <-> 't':*)) | '${JOINED}src app t':*)`,
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

  it("says what a document matching a query holds, and what a row holding one has in its index", () => {
    const phrase = [[`${PAIR}read the`, `${PAIR}the file`], [`${JOINED}read the file`]];
    // The word being typed, unknown: nothing is known of it.
    expect(queryNeed('"read the file" quo')).toEqual([phrase, undefined]);
    expect(queryNeed('"read the file" quo', ["quota", "quote"])).toEqual([phrase, [["quota"], ["quote"]]]);
    expect(queryNeed('"read file"')).toEqual([[[`${PAIR}read file`]]]);
    const doc = docLexemes("then read the file", "", false);
    expect(holds(doc, queryNeed('"read the file"'))).toBe(true);
    expect(holds(doc, queryNeed('"read the file" quota'))).toBe(true);
    expect(holds(doc, queryNeed('"read the file" quota', ["quota"]))).toBe(false);
    expect(holds(doc, queryNeed('"the read"'))).toBe(false);
    // A run across an edge is not in a row's index: the phrase's pairs are asked for.
    const params: unknown[] = [];
    expect(rowClause(queryNeed('"read the file" quo', ["quota", "quote"]), true, params)).toBe(
      "l.terms @> $1::int4[] AND l.terms && $2::int4[] AND l.terms @> $3::int4[]",
    );
    expect(params).toEqual([
      [termHash(`${PAIR}read the`), termHash(`${PAIR}the file`)],
      [termHash("quota"), termHash("quote")],
      [termHash(ERROR_TAG)],
    ]);
    expect(rowClause(queryNeed("quo"), false, [])).toBe("true");
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

  const meta = (id: string): TranscriptMeta => ({
    id,
    title: id,
    profile: "p",
    createdAt: "2026-11-20T10:00:00.000Z",
    kind: "upload",
    turns: 0,
    frames: 0,
    bytes: 0,
    redactions: 0,
    recording: false,
  });

  it("finds the phrases, errors and prefixes of a library written before migration 5", async () => {
    const url = await cluster.database("before_pairs");
    const pool = new pg.Pool({ connectionString: url, max: 2 });
    pools.push(pool);
    await migrate(pool, MIGRATIONS.slice(0, 4));
    await pool.query("INSERT INTO transcripts (id, created_at, meta) VALUES ('old', $1, $2)", [
      "2026-11-20T10:00:00.000Z",
      meta("old"),
    ]);
    // Saved as the store saved before: a row per line and per search document (its vector PostgreSQL's).
    const lines = [
      header("old"),
      ...Array.from({ length: 2500 }, (_, i) =>
        messageChunk(i + 1, `edited src/app.ts, then read write ${i + 1}`).trimEnd(),
      ),
      serializeFrame({
        seq: 2501,
        ts: 1000,
        dir: "from-agent",
        kind: "response",
        raw: JSON.stringify({ jsonrpc: "2.0", id: 1, error: { code: -32000, message: "quota exceeded: read write" } }),
      }).trimEnd(),
    ];
    await pool.query(
      "INSERT INTO transcript_lines (transcript_id, line_no, line) SELECT 'old', n - 1, l FROM unnest($1::text[]) WITH ORDINALITY AS x(l, n)",
      [lines],
    );
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
    expect(await store.search({ q: '"src app"', limit: 1 })).toMatchObject({ total: 2000, more: true });
  });

  const header = (id: string) => serialize(testHeader({ id, createdAt: "2026-11-20T10:00:00.000Z" })).trimEnd();
  // One message: its chunks join.
  const chunk = (seq: number, text: string) => messageChunk(seq, text, "m").trimEnd();
  const seqs = async (store: PgStore, q: string) => (await store.search({ q })).hits.map((h) => h.seq).sort();

  it("gives the streamed chunks of a database written before migration 6 their joints; a recording goes on joining", async () => {
    const url = await cluster.database("before_joints");
    const pool = new pg.Pool({ connectionString: url, max: 2 });
    pools.push(pool);
    await migrate(pool, MIGRATIONS.slice(0, 5));
    // Saved as the store saved before: each document's vector of its own words.
    const lines = [header("rec"), chunk(1, "alpha bravo char"), chunk(2, "lie delta echo"), chunk(3, " fox")];
    await pool.query("INSERT INTO transcripts (id, created_at, meta) VALUES ('rec', $1, $2)", [
      "2026-11-20T10:00:00.000Z",
      { ...meta("rec"), recording: true },
    ]);
    for (const [n, line] of lines.entries()) {
      await pool.query("INSERT INTO transcript_lines VALUES ('rec', $1, $2)", [n, line]);
      if (n === 0) continue;
      const body = JSON.parse(JSON.parse(line).raw).params.update.content.text as string;
      await pool.query(
        `INSERT INTO search_docs (transcript_id, line_no, seq, ts, kind, field, error, body, extra, tsv)
         VALUES ('rec', $1, $1, 1000, 'notification', 'message', false, $2, '', $3::tsvector)`,
        [n, body, docVector(body, "", false)],
      );
    }
    const store = await PgStore.open(url);
    stores.push(store);
    expect(await seqs(store, "charlie")).toEqual([2]);
    expect(await seqs(store, '"alpha bravo charlie"')).toEqual([2]);
    expect(await seqs(store, '"delta echo fox"')).toEqual([3]);
    expect(await seqs(store, '"alpha bravo"')).toEqual([1]);
    // The recording's next lines join the message where the migration left it.
    await store.save({ ...meta("rec"), recording: true }, [chunk(4, "trot golf")], 4, 3);
    expect(await seqs(store, "foxtrot")).toEqual([4]);
    expect(await seqs(store, '"echo foxtrot golf"')).toEqual([4]);
    expect(await seqs(store, "hotel")).toEqual([]);
  });

  it("joins a message across saves made by two instances, and a save made again duplicates nothing", async () => {
    const url = await cluster.database("two_writers");
    const a = await PgStore.open(url);
    const b = await PgStore.open(url);
    stores.push(a, b);
    const rec = { ...meta("rec"), recording: true };
    await a.save(rec, [header("rec"), chunk(1, "alpha bravo char")]);
    await b.save(rec, [chunk(2, "lie delta ech")], 2, 1);
    // Saved again (the answer to its commit was lost), then the next lines.
    await b.save(rec, [chunk(2, "lie delta ech")], 2, 1);
    await a.save(rec, [chunk(2, "lie delta ech"), chunk(3, "o foxtrot")], 2, 1);
    expect(await seqs(a, "charlie")).toEqual([2]);
    expect(await seqs(b, '"bravo charlie delta"')).toEqual([2]);
    expect(await seqs(a, "echo")).toEqual([3]);
    expect(await seqs(b, '"delta echo foxtrot"')).toEqual([3]);
    expect(await seqs(a, '"lie delta"')).toEqual([2]);
  });

  it("finds a phrase across the edge of a save's rows, and no match made of two documents of one row", async () => {
    const store = await PgStore.open(await cluster.database("row_edges"));
    stores.push(store);
    const rec = { ...meta("rec"), recording: true };
    await store.save(rec, [header("rec"), chunk(1, "alpha bravo")]);
    // A row of its own: its index holds the pairs of the tail it continues.
    await store.save(rec, [chunk(2, " charlie"), messageChunk(3, "delta", "other").trimEnd()], 2, 1);
    expect(await seqs(store, '"alpha bravo charlie"')).toEqual([2]);
    expect(await seqs(store, '"bravo charlie"')).toEqual([2]);
    // The row holds both words and their pair's words; no document holds the phrase, nor both words.
    expect(await seqs(store, '"charlie delta"')).toEqual([]);
    expect(await seqs(store, "charlie delta")).toEqual([]);
    expect(await seqs(store, "alpha")).toEqual([1]);
  });

  it("indexes the rows of a library written before migration 8: a recording that goes on is found through them", async () => {
    const url = await cluster.database("before_row_index");
    const pool = new pg.Pool({ connectionString: url, max: 2 });
    pools.push(pool);
    await migrate(pool, MIGRATIONS.slice(0, 7));
    // Two rows of several lines, as migration 7's saves kept them: the message goes on in the
    // second, which starts with the agent's stderr (its line's seq is the last frame's before it).
    const rows = [
      [header("rec"), chunk(1, "alpha bravo"), chunk(2, " char")],
      [JSON.stringify({ type: "stderr", ts: 1003, text: "oops kaboom" }), chunk(3, "lie delta"), chunk(4, " echo")],
    ];
    const stream = searchDoc(JSON.parse(chunk(4, " echo")) as TranscriptEvent, 0)!.stream!;
    await pool.query(
      `INSERT INTO transcripts (id, created_at, meta, joint_line, joint_stream, joint_tail)
       VALUES ('rec', $1, $2, 6, $3, 'charlie delta echo')`,
      ["2026-11-20T10:00:00.000Z", meta("rec"), stream],
    );
    await pool.query(
      "INSERT INTO transcript_lines (transcript_id, line_no, line_count, lines) VALUES ('rec', 0, 3, $1), ('rec', 3, 3, $2)",
      rows.map((r) => r.join("\n")),
    );
    const store = await PgStore.open(url);
    stores.push(store);
    // It goes on recording: its documents are searched through its rows until it ends.
    await store.save({ ...meta("rec"), recording: true }, [chunk(5, " foxtrot")], 6, 4);
    expect(await seqs(store, "charlie")).toEqual([3]);
    expect(await seqs(store, '"alpha bravo charlie"')).toEqual([3]);
    expect(await seqs(store, '"charlie delta echo"')).toEqual([4]);
    expect(await seqs(store, '"echo foxtrot"')).toEqual([5]);
    expect(await seqs(store, "kaboom")).toEqual([2]);
  });

  it("searches an ended transcript's documents once they have rows, with the same answers", async () => {
    const store = await PgStore.open(await cluster.database("indexed_docs"));
    stores.push(store);
    const rec = { ...meta("rec"), recording: true };
    await store.save(rec, [header("rec"), chunk(1, "alpha bravo char")]);
    await store.save(rec, [chunk(2, "lie delta"), messageChunk(3, "quota exceeded", "other").trimEnd()], 2, 1);
    const queries = ["charlie", '"alpha bravo charlie"', '"delta quota"', "quo", "delta quota", "zulu"];
    const before = await Promise.all(queries.map((q) => store.search({ q })));
    expect(await store.indexDocs()).toBeUndefined(); // still recording
    await store.save({ ...rec, recording: false }, [], 4, 3);
    expect(await store.indexDocs()).toBe("rec");
    expect(await store.indexDocs()).toBeUndefined();
    // Its meta saved again, no line with it (the copier saves at every change): still indexed.
    await store.save({ ...rec, recording: false }, [], 4, 3);
    expect(await store.indexDocs()).toBeUndefined();
    const after = await Promise.all(queries.map((q) => store.search({ q })));
    expect(after.map((a) => ({ ...a, tookMs: 0 }))).toEqual(before.map((b) => ({ ...b, tookMs: 0 })));
    expect(before.map((b) => b.hits.map((h) => h.seq))).toEqual([[2], [2], [], [3], [], []]);
    // A transcript whose documents cannot be written names itself, and holds up no other.
    const older = { ...meta("older"), createdAt: "2026-11-19T10:00:00.000Z" };
    await store.save(older, [header("older"), chunk(1, "older words")]);
    await store.save({ ...meta("bad"), createdAt: "2026-11-21T10:00:00.000Z" }, [header("bad"), chunk(1, "bad")]);
    await store.pool.query(`CREATE FUNCTION refuse() RETURNS trigger LANGUAGE plpgsql AS $$
      BEGIN IF NEW.transcript_id = 'bad' THEN RAISE EXCEPTION 'refused'; END IF; RETURN NEW; END $$`);
    await store.pool.query("CREATE TRIGGER refuse BEFORE INSERT ON search_docs FOR EACH ROW EXECUTE FUNCTION refuse()");
    await expect(store.indexDocs()).rejects.toMatchObject({ transcript: "bad", message: "refused" });
    expect(await store.indexDocs(["bad"])).toBe("older");
    expect(await seqs(store, "bad")).toEqual([1]);
    // Saved again (a recording that comes back): searched through its rows until indexed again.
    await store.save(rec, [chunk(4, " echo")], 4, 3);
    expect(await seqs(store, '"delta echo"')).toEqual([]);
    expect(await seqs(store, "echo")).toEqual([4]);
  });

  it("finds the next transcript to index among those not indexed, not through the whole library", async () => {
    const store = await PgStore.open(await cluster.database("next_to_index"));
    stores.push(store);
    const client = await store.pool.connect();
    try {
      // A table this small is read whole whatever its indexes: the plan a large library gets.
      await client.query("BEGIN; SET LOCAL enable_seqscan = off");
      const { rows } = await client.query<{ "QUERY PLAN": string }>(`EXPLAIN ${NEXT_TO_INDEX}`, [[]]);
      expect(rows.map((r) => r["QUERY PLAN"]).join("\n")).toContain("transcripts_unindexed");
    } finally {
      await client.query("ROLLBACK");
      client.release();
    }
  });

  it("shows the hits in the newest transcripts when its budget ends a search, and says so", async () => {
    const url = await cluster.database("tiny_budget");
    // Past its budget as soon as the newest transcripts were searched.
    const tiny = await PgStore.open(url, { searchBudgetMs: 0.001 });
    const store = await PgStore.open(url);
    stores.push(tiny, store);
    for (let i = 0; i < 70; i++) {
      const id = `t${String(i).padStart(2, "0")}`;
      const at = new Date(Date.UTC(2026, 10, 1, 0, i)).toISOString();
      await store.save({ ...meta(id), createdAt: at }, [header(id), chunk(1, `common word ${i}`)]);
    }
    const cut = await tiny.search({ q: "common", limit: 100 });
    expect(cut.cut).toBe(
      `The search stopped after ${(cut.tookMs / 1000).toLocaleString("en", { maximumFractionDigits: 1 })} s (its budget: 0 s), in the newest 16 of 70 transcripts: results may be incomplete. Add words or filters to narrow it.`,
    );
    expect(cut).toMatchObject({ total: 16, more: false });
    // The newest first, as the file store stops: the oldest are the ones not searched.
    expect(cut.hits.map((h) => h.transcript.id).sort()).toEqual(
      Array.from({ length: 16 }, (_, i) => `t${String(i + 54).padStart(2, "0")}`),
    );
    expect(cut.hits[0]!.line).toMatch(/^common word \d+$/);
    const whole = await store.search({ q: "common", limit: 100 });
    expect(whole).toMatchObject({ total: 70, more: false });
    expect(whole.cut).toBeUndefined();
    // A hit in the newest transcripts is found however small the budget.
    expect(await tiny.search({ q: "common 69" })).toMatchObject({
      total: 1,
      hits: [{ transcript: { id: "t69" } }],
      cut: expect.stringContaining("in the newest 16 of 70 transcripts"),
    });
  });

  it("stops a search past its budget and says so; the next search runs", async () => {
    const url = await cluster.database("budget");
    const store = await PgStore.open(url, { searchBudgetMs: 300 });
    stores.push(store);
    await store.save(meta("lorem"), [header("lorem"), chunk(1, "lorem ipsum")]);
    const locker = new pg.Client({ connectionString: url });
    await locker.connect();
    try {
      // The search waits for the table a transaction holds: without its budget it would wait for ever.
      await locker.query("BEGIN");
      await locker.query("LOCK TABLE transcript_lines IN ACCESS EXCLUSIVE MODE");
      const answer = await store.search({ q: "fox" });
      expect(answer.hits).toEqual([]);
      expect(answer.cut).toMatch(/^The search stopped after [\d.]+ s \(its budget: 0\.3 s\) before any hit was found/);
      expect(answer.tookMs).toBeGreaterThanOrEqual(250);
    } finally {
      await locker.query("ROLLBACK");
      await locker.end();
    }
    expect(await store.search({ q: "fox" })).toMatchObject({ hits: [], total: 0 });
    expect((await store.search({ q: "fox" })).cut).toBeUndefined();
  });
});
