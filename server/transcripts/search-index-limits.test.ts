/**
 * The search index's limits against a hostile or careless user: a wrong-schema file, a
 * deleted transcript's words, and queries built to stall the index (issue #34).
 */
import Database from "better-sqlite3";
import { existsSync, mkdtempSync, readFileSync, rmSync, statSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { afterEach, describe, expect, it } from "vitest";
import { serialize, serializeFrame } from "../../lib/contracts/transcript";
import { MAX_QUERY_TERMS } from "../../lib/contracts/library-search";
import { transcriptLimits } from "../config";
import { INDEX_FILE, INDEX_VERSION, SearchIndex, type QueryBudget } from "./search-index";
import { TranscriptStore } from "./transcript-store";
import { testHeader } from "../../test/transcripts";

const dirs: string[] = [];
const open: SearchIndex[] = [];
afterEach(() => {
  for (const i of open.splice(0)) i.close();
  for (const dir of dirs.splice(0)) rmSync(dir, { recursive: true, force: true });
});

function newStore(): TranscriptStore {
  const dir = mkdtempSync(path.join(tmpdir(), "acp-index-limits-"));
  dirs.push(dir);
  return new TranscriptStore(dir, {}, transcriptLimits({}));
}

function index(store: TranscriptStore, budget?: QueryBudget): SearchIndex {
  const i = new SearchIndex(store.dir, budget);
  open.push(i);
  return i;
}

/** A transcript whose agent says each of `texts`, one message chunk per frame. */
function importSaying(store: TranscriptStore, texts: string[]): string {
  let out = serialize(
    testHeader({ createdAt: "2026-11-20T10:00:00.000Z", agent: { profile: "gemini", command: "gemini" } }),
  );
  texts.forEach((text, i) => {
    const message = {
      jsonrpc: "2.0",
      method: "session/update",
      params: { sessionId: "s1", update: { sessionUpdate: "agent_message", content: { type: "text", text } } },
    };
    out += serializeFrame({
      seq: i + 1,
      ts: 1000 + i,
      dir: "from-agent",
      kind: "notification",
      method: "session/update",
      raw: JSON.stringify(message),
    });
  });
  const temp = store.tempFile();
  writeFileSync(temp, out);
  return store.import(temp).id;
}

/** The index's bytes on disk: the database and its write-ahead log. */
function indexBytes(store: TranscriptStore): Buffer {
  const file = path.join(store.dir, INDEX_FILE);
  return Buffer.concat([file, `${file}-wal`].filter((f) => existsSync(f)).map((f) => readFileSync(f)));
}

describe("SearchIndex limits", () => {
  it("rebuilds an index of the current version whose statements do not prepare (a wrong schema)", () => {
    const store = newStore();
    importSaying(store, ["the quick brown fox"]);
    const db = new Database(path.join(store.dir, INDEX_FILE));
    db.exec(
      "CREATE TABLE transcripts (tid INTEGER PRIMARY KEY, id TEXT); CREATE TABLE docs (rowid INTEGER PRIMARY KEY)",
    );
    db.pragma(`user_version = ${INDEX_VERSION}`);
    db.close();
    const idx = index(store);
    idx.updateAll();
    expect(idx.search({ q: "brown fox" }).hits).toHaveLength(1);
  });

  it("removes every trace of a deleted transcript: its private words, and the space it took", () => {
    const store = newStore();
    importSaying(store, ["an ordinary shared message"]);
    const secret = importSaying(
      store,
      Array.from({ length: 3000 }, (_, i) => `ordinary zebrasecret${i} quokkaprivate words of line ${i}`),
    );
    const idx = index(store);
    idx.updateAll();
    expect(idx.search({ q: "quokkaprivate" }).hits.length).toBeGreaterThan(0);
    const before = indexBytes(store);
    expect(before.includes("quokkaprivate")).toBe(true);
    store.delete(secret);
    idx.updateAll();
    expect(idx.search({ q: "quokkaprivate" }).hits).toEqual([]);
    // The word being typed finds nothing either (the table of terms forgot it).
    expect(idx.search({ q: "quokka" }).hits).toEqual([]);
    const after = indexBytes(store);
    expect(after.includes("quokkaprivate")).toBe(false);
    expect(after.includes("zebrasecret1234")).toBe(false);
    expect(after.length).toBeLessThan(before.length / 2);
    expect(statSync(path.join(store.dir, INDEX_FILE)).size).toBeLessThan(before.length);
    // What was not deleted is still found.
    expect(idx.search({ q: "ordinary shared" }).hits).toHaveLength(1);
  });

  it("purges after a restart what a removal left when the index closed before purging", () => {
    const store = newStore();
    const secret = importSaying(store, ["the narwhalclassified plan"]);
    let idx = index(store);
    idx.updateAll();
    store.delete(secret);
    // The row goes (a scan finds the file gone), then the index closes before it purges.
    idx.stale();
    idx.close();
    open.pop();
    expect(indexBytes(store).includes("narwhalclassified")).toBe(true);
    idx = index(store);
    idx.updateAll();
    expect(indexBytes(store).includes("narwhalclassified")).toBe(false);
  });

  it("looks for a repeated word once, and at most MAX_QUERY_TERMS words, saying what it left out", () => {
    const store = newStore();
    importSaying(store, ["a b c d e f g h i j k l m n o p q r s t u v w x y z"]);
    const idx = index(store);
    idx.updateAll();
    // 250 one-letter words, ten different: one search of ten words, found, not cut.
    const letters = "abcdefghij";
    const repeated = Array.from({ length: 250 }, (_, i) => letters[i % letters.length]).join(" ");
    const same = idx.search({ q: repeated });
    expect(same.hits).toHaveLength(1);
    expect(same.cut).toBeUndefined();
    const many = Array.from({ length: 26 }, (_, i) => String.fromCharCode(97 + i)).join(" ");
    const cut = idx.search({ q: many });
    expect(cut.hits).toHaveLength(1);
    expect(cut.cut).toContain(`only the first ${MAX_QUERY_TERMS} of its 26 different words`);
    const phrase = idx.search({ q: `"${"a ".repeat(40)}"` });
    expect(phrase.cut).toContain("a phrase was searched by its first");
  });

  it("does not hand FTS5 a prefix shorter than 3 letters that begins many words: the word itself only, said so", () => {
    const store = newStore();
    // 70 words beginning "w" (more than the table of terms expands), and "w" itself once.
    importSaying(store, [...Array.from({ length: 70 }, (_, i) => `w${i} said`), "w alone"]);
    importSaying(
      store,
      Array.from({ length: 70 }, (_, i) => `wor${i} said`),
    );
    const idx = index(store);
    idx.updateAll();
    const short = idx.search({ q: "w", limit: 100 });
    // As a prefix, FTS5 would merge the matches of all 71 words: only the word "w" is looked for.
    expect(short.hits.map((h) => h.line)).toEqual([expect.stringContaining("w alone")]);
    expect(short.cut).toContain("“w” begins too many words to look for them all");
    // Known words a short prefix begins, up to the table's cap, are still found while typing.
    expect(idx.search({ q: "alo" }).hits).toHaveLength(1);
    expect(idx.search({ q: "al" }).hits).toHaveLength(1);
    // From 3 letters on, a prefix beginning many words is still every word it begins.
    const long = idx.search({ q: "wor", limit: 100 });
    expect(long.hits).toHaveLength(70);
    expect(long.cut).toBeUndefined();
  });

  it("ends a search over its budget with the hits found so far, saying it was cut", () => {
    const store = newStore();
    importSaying(
      store,
      Array.from({ length: 400 }, (_, i) => `common word ${i}`),
    );
    const idx = index(store, { steps: 50, ms: 60_000 });
    idx.updateAll();
    const answer = idx.search({ q: "common", method: "session/prompt" });
    // The method filter keeps none of the 400 matches: every one is looked at, and the budget ends it.
    expect(answer.hits).toEqual([]);
    expect(answer.cut).toMatch(/stopped after looking at 51 matches \(its budget\): results may be incomplete/);
    const few = idx.search({ q: "common 123" });
    expect(few.cut).toBeUndefined();
    expect(few.hits).toHaveLength(1);
    // Within budget, nothing is said.
    expect(index(store).search({ q: "common", method: "session/prompt" }).cut).toBeUndefined();
  });
});

describe("SearchIndex progress", () => {
  it("says how far it has got against the library the last scan found, in transcripts and bytes", () => {
    const store = newStore();
    const ids = [1, 2, 3].map((n) =>
      importSaying(
        store,
        Array.from({ length: 2000 }, (_, i) => `line ${n} ${i}`),
      ),
    );
    const idx = index(store);
    const stale = idx.stale();
    expect(stale).toEqual([...ids].sort());
    const total = ids.reduce((sum, id) => sum + statSync(store.file(id)).size, 0);
    expect(idx.progress()).toEqual({ indexedDocs: 0, totalDocs: 3, indexedBytes: 0, totalBytes: total });
    // Part of the first file, then all of it.
    expect(idx.update(stale[0]!, 1024)).toBe(false);
    const part = idx.progress();
    expect(part.indexedDocs).toBe(0);
    expect(part.indexedBytes).toBeGreaterThan(0);
    expect(part.indexedBytes).toBeLessThan(statSync(store.file(stale[0]!)).size);
    while (!idx.update(stale[0]!));
    expect(idx.progress()).toMatchObject({ indexedDocs: 1, indexedBytes: statSync(store.file(stale[0]!)).size });
    idx.updateAll();
    expect(idx.progress()).toEqual({ indexedDocs: 3, totalDocs: 3, indexedBytes: total, totalBytes: total });
  });
});
