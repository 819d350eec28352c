/**
 * A transcript's lines walked on PostgreSQL (pg-row-index.ts LineWalk) on a throw-away cluster: a
 * recording found through its rows of lines and, once ended, through its documents' rows gives the
 * same hits, also after a gap in its lines and with lines that are no event, which are left out
 * as the file store's index leaves them out (never a save that fails on them), as is a frame whose
 * seq no integer column holds (the file store finds that one: the one difference); a library from
 * before migration 8 whose words were cut at a mark has those documents made again.
 */
import pg from "pg";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { serialize, serializeFrame } from "../../lib/contracts/transcript";
import { pgSkipReason, startPgCluster, type PgCluster } from "../../test/pg-cluster";
import { headerLine, messageChunk, testMeta } from "../../test/transcripts";
import { migrate } from "./pg-migrate";
import { MIGRATIONS } from "./pg-schema";
import { termHash } from "./pg-lexemes";
import { PgStore } from "./pg-store";

const skip = pgSkipReason();
const CREATED = "2026-11-28T10:00:00.000Z";

const meta = (id: string, recording: boolean) => testMeta(id, CREATED, recording);
const header = (id: string) => headerLine(id, CREATED);
const chunk = (seq: number, text: string) => messageChunk(seq, text).trimEnd();
const stderr = (text: string) => serialize({ type: "stderr", ts: 2000, text }).trimEnd();

describe.skipIf(skip !== undefined)("a transcript's lines walked on PostgreSQL", () => {
  let cluster: PgCluster;
  let store: PgStore;
  beforeAll(async () => {
    cluster = await startPgCluster();
    store = await PgStore.open(cluster.url);
  }, 60_000);
  afterAll(async () => {
    await store?.close();
    cluster?.stop();
  });

  /** The hits of each query in transcript `id` as [seq, field] in seq order, while it records (its rows) and once ended (its documents). */
  const bothWays = async (id: string, queries: string[]) => {
    const hits = async () =>
      Promise.all(
        queries.map(async (q) =>
          (await store.search({ q, transcript: id })).hits
            .map((h) => [h.seq, h.field] as [number, string])
            .sort((a, b) => a[0] - b[0]),
        ),
      );
    const recording = await hits();
    await store.pool.query(`UPDATE transcripts SET meta = meta || '{"recording": false}' WHERE id = $1`, [id]);
    while ((await store.indexDocs()) !== undefined);
    const { rows } = await store.pool.query<{ indexed: boolean }>(
      "SELECT docs_indexed AS indexed FROM transcripts WHERE id = $1",
      [id],
    );
    expect(rows[0]!.indexed).toBe(true);
    return { recording, ended: await hits() };
  };

  it("searches the newest transcripts however small its budget, a long recording among older ones too", async () => {
    const url = await cluster.database("newest");
    const writer = await PgStore.open(url);
    const tiny = await PgStore.open(url, { searchBudgetMs: 0.001 });
    try {
      const at = (i: number) => new Date(Date.UTC(2026, 10, 1, 0, i)).toISOString();
      // The oldest is still recording (searched through its rows), the others have ended (their documents' rows).
      for (let i = 0; i < 40; i++) {
        const id = `t${String(i).padStart(2, "0")}`;
        await writer.save({ ...meta(id, i === 0), createdAt: at(i) }, [header(id), chunk(1, `common word ${i}`)]);
      }
      while ((await writer.indexDocs()) !== undefined);
      const newest = await tiny.search({ q: "common 39" });
      expect(newest.hits.map((h) => h.transcript.id)).toEqual(["t39"]);
      expect(newest.cut).toMatch(/^The search stopped after/);
      const common = await tiny.search({ q: "common", limit: 100 });
      const ids = common.hits.map((h) => h.transcript.id);
      expect(ids).toEqual(expect.arrayContaining(Array.from({ length: 16 }, (_, i) => `t${i + 24}`)));
    } finally {
      await Promise.all([writer.close(), tiny.close()]);
    }
  });

  it("makes again the documents of a library from before migration 8 whose words it cut in two (written decomposed)", async () => {
    const url = await cluster.database("decomposed");
    const pool = new pg.Pool({ connectionString: url, max: 2 });
    try {
      await migrate(pool, MIGRATIONS.slice(0, 7));
      // An ended transcript with a path written as macOS writes it, its document's vector as the
      // store made it then: the word cut at its mark.
      const line = chunk(1, "opened /Users/x/E\u0301cole/notes.txt");
      await pool.query("INSERT INTO transcripts (id, created_at, meta) VALUES ('old', $1, $2)", [
        CREATED,
        meta("old", false),
      ]);
      await pool.query(
        "INSERT INTO transcript_lines (transcript_id, line_no, line_count, lines) VALUES ('old', 0, 2, $1)",
        [`${header("old")}\n${line}`],
      );
      await pool.query(
        `INSERT INTO search_docs (transcript_id, line_no, seq, ts, dir, kind, method, field, error, body, extra, tsv)
         VALUES ('old', 1, 1, 1001, 'from-agent', 'notification', 'session/update', 'message', false, $1, '',
           $2::tsvector)`,
        [
          "opened /Users/x/E\u0301cole/notes.txt",
          "'opened':1A 'users':2A 'x':3A 'e':4A 'cole':5A 'notes':6A 'txt':7A '~opened users' '~users x' '~x e' '~e cole' '~cole notes' '~notes txt'",
        ],
      );
      const db = await PgStore.open(url);
      try {
        expect((await db.search({ q: "école" })).hits.map((h) => h.seq)).toEqual([1]);
        while ((await db.indexDocs()) !== undefined);
        expect((await db.search({ q: '"x école notes"' })).hits.map((h) => h.seq)).toEqual([1]);
      } finally {
        await db.close();
      }
    } finally {
      await pool.end();
    }
  });

  it("leaves out a frame whose seq PostgreSQL cannot hold (an upload's): its transcript and the older ones are indexed", async () => {
    const older = "older-ended";
    await store.save({ ...meta(older, false), createdAt: "2026-11-27T10:00:00.000Z" }, [
      header(older),
      chunk(1, "older words"),
    ]);
    const id = "huge-seq";
    const last = await store.save(meta(id, false), [header(id), chunk(1, "small seq"), chunk(2 ** 31, "huge seq")]);
    // Appended after it, from the seq the save answered (as the copier appends).
    await store.save(meta(id, true), [stderr("after the big one")], 3, last);
    const { recording, ended } = await bothWays(id, ["small", "huge", "after"]);
    expect(recording).toEqual([[[1, "message"]], [], [[1, "stderr"]]]);
    expect(ended).toEqual(recording);
    // The indexer went on to the older transcript.
    const { rows } = await store.pool.query<{ indexed: boolean }>(
      "SELECT docs_indexed AS indexed FROM transcripts WHERE id = $1",
      [older],
    );
    expect(rows[0]!.indexed).toBe(true);
  });

  it("turns down a row whose index holds a word of the query's number only (a hash collision)", async () => {
    const id = "collision";
    // Two words with one number (termHash): the row holding the one is a candidate for the other.
    expect(termHash("yaczf")).toBe(termHash("glbpp"));
    await store.save(meta(id, true), [header(id), chunk(1, "yaczf here")]);
    const { recording, ended } = await bothWays(id, ["glbpp", "yaczf", '"glbpp here"']);
    expect(recording).toEqual([[], [[1, "message"]], []]);
    expect(ended).toEqual(recording);
  });

  it("gives a line after a gap the seq its save was given, recording and ended", async () => {
    const id = "gap";
    await store.save(meta(id, true), [header(id), chunk(1, "first words"), chunk(2, "second words")]);
    // Lines 3 and 4 (frames 3 and 4) never reached the database; the save after them knows frame 4 came before.
    await store.save(meta(id, true), [stderr("after the gap"), chunk(5, "fifth words")], 5, 4);
    const { recording, ended } = await bothWays(id, ["gap", "fifth", "second"]);
    expect(recording).toEqual([[[4, "stderr"]], [[5, "message"]], [[2, "message"]]]);
    expect(ended).toEqual(recording);
  });

  it("leaves out lines that are no event, or a frame whose seq does not follow, as the file store does", async () => {
    const id = "hostile";
    const bad = [
      "not json {",
      "{}",
      JSON.stringify({ type: "frame", seq: 2, ts: 1, dir: "from-agent", kind: "notification", raw: 123 }),
      JSON.stringify({ type: "stderr", ts: 1, text: ["hostile", "words"] }),
      JSON.stringify({ type: "lifecycle", ts: 1, event: "error", message: { hostile: "words" } }),
      // Its seq does not follow the frame before it.
      chunk(1, "bravo hostile words"),
      serializeFrame({ seq: 3, ts: 3, dir: "from-agent", kind: "notification", raw: "", requestSeq: 9 }).trimEnd(),
    ];
    // Saved (a save that failed on them would be tried again at every change, never getting past them).
    await store.save(meta(id, true), [header(id), chunk(1, "alpha words"), ...bad.slice(0, 4)]);
    await store.save(meta(id, true), [...bad.slice(4), chunk(2, "charlie words")], 9, 1);
    const { recording, ended } = await bothWays(id, ["words", "hostile", "bravo"]);
    expect(recording).toEqual([
      [
        [1, "message"],
        [2, "message"],
      ],
      [],
      [],
    ]);
    expect(ended).toEqual(recording);
  });

  it("indexes a document whose strings PostgreSQL's text cannot hold (NUL, a lone surrogate), found the same both ways", async () => {
    const id = "unstorable";
    const request = serializeFrame({
      seq: 2,
      ts: 2,
      dir: "to-agent",
      kind: "request",
      method: "x\u0000y",
      raw: JSON.stringify({ jsonrpc: "2.0", id: 1, method: "x\u0000y", params: { q: "delta \u0000 echo" } }),
    }).trimEnd();
    await store.save(meta(id, true), [header(id), chunk(1, "alpha \u0000 bravo \ud800 charlie"), request]);
    const hits = async () =>
      Promise.all(
        // A filter holding NUL is compared with what is stored (U+FFFD), not refused by PostgreSQL.
        [{ q: "bravo" }, { q: "charlie" }, { q: "delta", method: "x\u0000y" }, { q: "delta", agent: "\u0000" }].map(
          async (q) =>
            (await store.search({ ...q, transcript: id })).hits.map(({ seq, method, line, marks }) => ({
              seq,
              method,
              line,
              marks,
            })),
        ),
      );
    const recording = await hits();
    expect(recording.map((h) => h.length)).toEqual([1, 1, 1, 0]);
    // Shown as U+FFFD, whichever way it is found (PostgreSQL's driver writes a lone surrogate so).
    expect(recording[0]![0]!.line).toBe("alpha \ufffd bravo \ufffd charlie");
    expect(recording[2]![0]!.method).toBe("x\ufffdy");
    await store.pool.query(`UPDATE transcripts SET meta = meta || '{"recording": false}' WHERE id = $1`, [id]);
    expect(await store.indexDocs()).toBe(id);
    expect(await hits()).toEqual(recording);
  });

  it("keeps a transcript whose meta holds what jsonb cannot (NUL, a lone surrogate): as U+FFFD, not a save that fails", async () => {
    // An agent names itself; a title may be cut between the two halves of an emoji.
    const hostile = { ...meta("meta-nul", false), agentName: "a\u0000b", title: "x\ud83d" };
    await store.save(hostile, [header("meta-nul"), chunk(1, "words")]);
    expect(await store.meta("meta-nul")).toMatchObject({ agentName: "a\ufffdb", title: "x\ufffd" });
    // What a backslash and `u0000` spell is text, kept as it is.
    await store.save({ ...hostile, agentName: "a\\u0000b\\\u0000" }, [], 2, 1);
    expect((await store.meta("meta-nul"))!.agentName).toBe("a\\u0000b\\\ufffd");
  });
});
