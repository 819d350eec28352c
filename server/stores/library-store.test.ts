/**
 * One suite, both stores: the embedded file store (with its SQLite index) and the PostgreSQL
 * store, fed the same transcripts, must give the same answers. The PostgreSQL run starts a
 * throw-away cluster (test/pg-cluster.ts) and is skipped, saying why, only where PostgreSQL is
 * not installed outside CI.
 */
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { serialize, serializeFrame, type TranscriptHeader } from "../../lib/contracts/transcript";
import type { TranscriptMeta } from "../../lib/contracts/transcript-meta";
import { MAX_PHRASE_WORDS, MAX_QUERY_TERMS } from "../../lib/contracts/library-search";
import { pgSkipReason, startPgCluster, type PgCluster } from "../../test/pg-cluster";
import { fileStore, pgStore, type Subject } from "../../test/library-subjects";
import { initializeRecording, messageChunk } from "../../test/transcripts";

function transcript(profile: string, createdAt: string, texts: string[]): string {
  let text = initializeRecording({ id: "t", createdAt, agent: { profile } }, 1000);
  text += serializeFrame({
    seq: 2,
    ts: 1012,
    dir: "from-agent",
    kind: "response",
    method: "initialize",
    latencyMs: 12,
    raw: '{"jsonrpc":"2.0","id":1,"result":{"protocolVersion":1}}',
  });
  texts.forEach((t, i) => (text += messageChunk(3 + i, t)));
  return text;
}

function librarySuite(name: string, make: () => Promise<Subject>, skip?: string): void {
  describe.skipIf(skip !== undefined)(`library store: ${name}`, () => {
    let s: Subject;
    let older: TranscriptMeta;
    let newer: TranscriptMeta;
    let paths: TranscriptMeta;
    const olderText = transcript("alpha", "2026-11-20T10:00:00.000Z", ["the quick brown fox", "jumps over"]);
    beforeAll(async () => {
      s = await make();
      older = await s.add(olderText);
      newer = await s.add(transcript("beta", "2026-11-21T10:00:00.000Z", ["a lazy dog sleeps", "Zürich café"]));
      paths = await s.add(
        transcript("gamma", "2026-11-19T10:00:00.000Z", [
          "edited /w/src/app.ts and main.go for x@example.com",
          Array.from({ length: 65 }, (_, i) => `zz${i}`).join(" "),
        ]) +
          serializeFrame({
            seq: 5,
            ts: 1005,
            dir: "from-agent",
            kind: "response",
            method: "session/prompt",
            raw: '{"jsonrpc":"2.0","id":2,"error":{"code":-32603,"message":"limit exceeded for edited files"}}',
          }),
      );
    }, 60_000);
    afterAll(() => s?.close());

    it("lists newest first, with the file store's meta", async () => {
      const list = await s.store.list();
      expect(list.map((m) => m.id)).toEqual([newer.id, older.id, paths.id]);
      expect(list[1]).toMatchObject({ profile: "alpha", frames: 4, turns: 0, kind: "upload", recording: false });
      expect(await s.store.exists(older.id)).toBe(true);
      expect(await s.store.exists("no-such")).toBe(false);
      expect(await s.store.meta("../etc")).toBeUndefined();
    });

    it("gives back every line exactly as stored", async () => {
      const titled = olderText.replace(/^(.*)\n/, (line: string) =>
        serialize({ ...(JSON.parse(line) as TranscriptHeader), title: older.title }),
      );
      expect(await s.store.read(older.id)).toBe(titled);
      expect(await s.store.read("nope")).toBeUndefined();
    });

    it("finds words and prefixes, with the matched line marked, filtered as asked", async () => {
      const fox = await s.store.search({ q: "brown fox" });
      expect(fox.total).toBe(1);
      expect(fox.hits[0]).toMatchObject({
        transcript: { id: older.id, profile: "alpha" },
        seq: 3,
        field: "message",
        frameKind: "notification",
        line: "the quick brown fox",
        marks: [
          [10, 15],
          [16, 19],
        ],
      });
      // Accents and case do not matter; the last word is a prefix.
      expect((await s.store.search({ q: "ZUR" })).hits.map((h) => h.transcript.id)).toEqual([newer.id]);
      expect((await s.store.search({ q: "cafe zürich" })).hits.map((h) => h.seq)).toEqual([4]);
      expect((await s.store.search({ q: "quic" })).hits.map((h) => h.seq)).toEqual([3]);
      expect((await s.store.search({ q: "dog", profile: "alpha" })).hits).toEqual([]);
      expect((await s.store.search({ q: "dog", from: "2026-11-21" })).hits.length).toBe(1);
      expect((await s.store.search({ q: "dog", to: "2026-11-20" })).hits.length).toBe(0);
      expect((await s.store.search({ q: '"fox brown"' })).hits).toEqual([]);
      // Input is words, never query syntax.
      expect((await s.store.search({ q: "fox' & !:* | (" })).hits.map((h) => [h.seq, h.line])).toEqual([
        [3, "the quick brown fox"],
      ]);
    });

    it("finds phrases as the file store's tokenizer reads words: in order, adjacent, paths cut into words", async () => {
      const ids = async (q: string) => (await s.store.search({ q })).hits.map((h) => [h.transcript.id, h.seq]);
      expect(await ids('"quick brown"')).toEqual([[older.id, 3]]);
      expect(await ids('"the quick brown fox"')).toEqual([[older.id, 3]]);
      expect(await ids("quick bro")).toEqual([[older.id, 3]]);
      expect(await ids('"quick bro"')).toEqual([]);
      expect(await ids('"quick fox"')).toEqual([]);
      expect(await ids('"the brown quick"')).toEqual([]);
      // A path is words: `src/app.ts` is the phrase "src app ts" (PostgreSQL's parser kept it one word).
      expect(await ids("app.ts")).toEqual([[paths.id, 3]]);
      expect(await ids("src/app")).toEqual([[paths.id, 3]]);
      expect(await ids("main")).toEqual([[paths.id, 3]]);
      expect(await ids("x@example")).toEqual([[paths.id, 3]]);
      // Only errors: the words of an error response, not the same words elsewhere.
      const errors = async (q: string) => (await s.store.search({ q, errors: true })).hits.map((h) => h.seq);
      expect(await errors("edited")).toEqual([5]);
      expect(await errors("limit")).toEqual([5]);
      expect(await errors("fox")).toEqual([]);
    });

    it("looks for the word being typed as the words it begins; a short prefix of too many words as itself", async () => {
      expect((await s.store.search({ q: "q" })).hits.map((h) => [h.transcript.id, h.seq])).toEqual([[older.id, 3]]);
      expect((await s.store.search({ q: "the q" })).hits.map((h) => h.seq)).toEqual([3]);
      expect((await s.store.search({ q: "zz6" })).hits.map((h) => [h.transcript.id, h.seq])).toEqual([[paths.id, 4]]);
      const short = await s.store.search({ q: "zz" });
      expect(short.hits).toEqual([]);
      expect(short.cut).toBe(
        "“zz” begins too many words to look for them all: only the word itself was looked for. Type at least 3 letters to find the words it begins.",
      );
    });

    it("cuts a query past its limits and says so, as the file store does", async () => {
      const many = Array.from({ length: MAX_QUERY_TERMS + 2 }, (_, i) => `word${i}`).join(" ");
      const answer = await s.store.search({ q: `${many} fox` });
      expect(answer.cut).toMatch(/^The query was cut: only the first 16 of its 19 different words or phrases/);
      expect(answer.hits).toEqual([]);
      const phrase = `"${Array.from({ length: MAX_PHRASE_WORDS + 1 }, () => "quick").join(" ")}"`;
      expect((await s.store.search({ q: phrase })).cut).toMatch(/a phrase was searched by its first 16 words/);
    });

    it("measures latency across the library", async () => {
      const answer = await s.store.latency({});
      expect(answer.transcripts).toBe(3);
      expect(answer.rows).toEqual([
        expect.objectContaining({ method: "initialize", dir: "to-agent", requests: 3, answered: 3, p50: 12 }),
      ]);
    });

    it("renames, shares and revokes", async () => {
      expect(await s.store.rename(older.id, "Fox story")).toMatchObject({ title: "Fox story", renamed: true });
      expect((await s.store.read(older.id))!.split("\n")[0]).toContain('"title":"Fox story"');
      const shared = (await s.store.share(older.id))!;
      expect(shared.shareToken).toMatch(/^[\w-]{24}$/);
      expect(shared.shareShowsCommand).toBeUndefined();
      expect((await s.store.share(older.id))!.shareToken).toBe(shared.shareToken);
      expect(await s.store.share(older.id, { showCommand: true })).toMatchObject({
        shareToken: shared.shareToken,
        shareShowsCommand: true,
      });
      expect((await s.store.meta(older.id))!.shareToken).toBe(shared.shareToken);
      const revoked = (await s.store.unshare(older.id))!;
      expect(revoked.shareToken).toBeUndefined();
      expect((await s.store.share(older.id))!.shareToken).not.toBe(shared.shareToken);
      expect(await s.store.rename("missing", "x")).toBeUndefined();
    });

    it("records who made a transcript and lists one person's", async () => {
      expect(await s.store.own(newer.id, "alice")).toMatchObject({ id: newer.id, owner: "alice" });
      expect(await s.store.own("missing", "alice")).toBeUndefined();
      expect((await s.store.list({ owner: "alice" })).map((m) => m.id)).toEqual([newer.id]);
      expect(await s.store.list({ owner: "bob" })).toEqual([]);
      expect((await s.store.list({})).map((m) => m.id)).toEqual([newer.id, older.id, paths.id]);
      // The search keeps to one person's as the list does.
      expect((await s.store.search({ q: "dog", owner: "alice" })).hits.map((h) => h.transcript.id)).toEqual([newer.id]);
      expect((await s.store.search({ q: "dog", owner: "bob" })).hits).toEqual([]);
      expect((await s.store.search({ q: "fox", owner: "alice" })).hits).toEqual([]);
      expect((await s.store.latency({ owner: "alice" })).transcripts).toBe(1);
      // What a user changes later keeps the owner.
      await s.store.rename(newer.id, "Alice's dog");
      expect(await s.store.meta(newer.id)).toMatchObject({ owner: "alice", title: "Alice's dog" });
    });

    it("deletes: gone from the list, the reads and the search", async () => {
      expect(await s.store.delete(newer.id)).toBe(true);
      expect(await s.store.delete(newer.id)).toBe(false);
      expect((await s.store.list()).map((m) => m.id)).toEqual([older.id, paths.id]);
      expect(await s.store.read(newer.id)).toBeUndefined();
      expect((await s.store.search({ q: "dog" })).hits).toEqual([]);
    });

    it("finds a word and a phrase cut by a streamed chunk's edge, across two saves, once", async () => {
      const first = transcript("delta", "2026-11-22T10:00:00.000Z", []) + messageChunk(3, "Alpha bravo char", "m");
      const streamed = await s.add(first);
      // The message goes on after the store has its first part (the PostgreSQL store: a second save).
      await s.append(
        streamed.id,
        messageChunk(4, "lie delta echo foxtrot golf ", "m") + messageChunk(5, "hotel india", "m"),
      );
      const seqs = async (q: string) =>
        (await s.store.search({ q })).hits
          .filter((h) => h.transcript.id === streamed.id)
          .map((h) => h.seq)
          .sort();
      // A word the edge cuts: found in the chunk that ends it; as a prefix, in both.
      expect(await seqs("charlie")).toEqual([4]);
      expect(await seqs("char")).toEqual([3, 4]);
      // Phrases of two and three words across the edge between the saves, with the word it cuts.
      expect(await seqs('"bravo charlie"')).toEqual([4]);
      expect(await seqs('"alpha bravo charlie"')).toEqual([4]);
      expect(await seqs('"charlie delta echo"')).toEqual([4]);
      // Across an edge at a space, within the second save.
      expect(await seqs('"golf hotel"')).toEqual([5]);
      expect(await seqs('"foxtrot golf hotel"')).toEqual([5]);
      expect(await seqs('"golf hotel india"')).toEqual([5]);
      // A phrase wholly in earlier chunks is found there only, not again in the chunk after.
      expect(await seqs('"alpha bravo"')).toEqual([3]);
      expect(await seqs('"echo foxtrot golf"')).toEqual([4]);
      expect(await seqs('"bravo charlie india"')).toEqual([]);
    });
  });
}

librarySuite("files + SQLite", async () => fileStore());

const skip = pgSkipReason();
let cluster: PgCluster | undefined;
afterAll(() => cluster?.stop());
librarySuite(
  "PostgreSQL",
  async () => {
    cluster = await startPgCluster();
    return pgStore(cluster.url);
  },
  skip,
);
