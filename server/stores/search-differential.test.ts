/**
 * A seeded randomized differential test of the library's search: the same transcripts in the file
 * store (JSONL + SQLite FTS5) and in the PostgreSQL store (rows of lines with an index of their
 * words, pg-search.ts), then many queries drawn from the library's own words; each must get the
 * same answer from both (issue #37). Deterministic: a failure names its seed and query.
 *
 * What cannot agree, and is not compared: the order of hits (BM25 against ts_rank), the lines
 * shown and their marks (both come from matchLine over the same document), the time taken.
 */
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { serialize, serializeFrame } from "../../lib/contracts/transcript";
import type { SearchAnswer, SearchQuery } from "../../lib/contracts/library-search";
import { pgSkipReason, startPgCluster, type PgCluster } from "../../test/pg-cluster";
import { initializeRecording, messageChunk, sessionUpdate } from "../../test/transcripts";
import { fileStore, pgStore, UNBOUNDED, type Subject } from "../../test/library-subjects";
import type { PgStore } from "./pg-store";

/** Another seed, another library and queries: `SEARCH_SEED=n npx vitest run server/stores/search-differential.test.ts`. */
const SEED = Number(process.env.SEARCH_SEED ?? 20261129);
const TRANSCRIPTS = 28;
const QUERIES = 140;
/** The most hits a search shows (the contract's bound). */
const LIMIT = 200;

/** mulberry32: a small seeded generator, the same sequence on every machine. */
function random(seed: number): () => number {
  let a = seed >>> 0;
  return () => {
    a = (a + 0x6d2b79f5) >>> 0;
    let t = a;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

const rnd = random(SEED);
const int = (n: number) => Math.floor(rnd() * n);
const pick = <T>(xs: readonly T[]): T => xs[int(xs.length)]!;

const SYLLABLES = ["ka", "lo", "mi", "ne", "ru", "sa", "ti", "vo", "ze", "pa", "qua", "xi", "bor", "den", "fal"];
/**
 * Accented words: folded to ASCII in both stores (café finds cafe); some decomposed (NFD, as a
 * macOS path is), and a letter whose lower case adds a mark (İ).
 */
const ACCENTED = [
  ...["café", "Zürich", "naïve", "résumé", "façade", "über", "Ångström", "señor", "crème", "brûlée"],
  ...["École", "Malmö", "Résumé", "Müller", "Åland"].map((w) => w.normalize("NFD")),
  "İstanbul",
];
const COMMON = ["the", "and", "of", "to", "file", "read", "error"];
/** A few hundred words, so words recur across transcripts and a word's prefix begins several. */
const VOCABULARY = [
  ...new Set(Array.from({ length: 260 }, () => Array.from({ length: 2 + int(2) }, () => pick(SYLLABLES)).join(""))),
  ...ACCENTED,
  ...COMMON,
];
const word = () => (rnd() < 0.15 ? pick(COMMON) : pick(VOCABULARY));
const text = (n: number) => {
  let out = "";
  for (let i = 0; i < n; i++) {
    const w = rnd() < 0.05 ? word().toUpperCase() : word();
    out += i === 0 ? w : `${pick([" ", " ", " ", " ", ", ", ". ", "/", " - "])}${w}`;
  }
  return out;
};

/** What a transcript's lines are built with: each line, and its text (for queries). */
class Builder {
  lines: string[] = [];
  texts: string[] = [];
  seq = 1;
  ts = 1000;
  constructor(profile: string, createdAt: string) {
    this.lines.push(...initializeRecording({ id: "t", createdAt, agent: { profile } }, this.ts).trimEnd().split("\n"));
  }
  private frame(f: Omit<Parameters<typeof serializeFrame>[0], "seq" | "ts">): void {
    this.seq++;
    this.ts += 1 + int(50);
    this.lines.push(serializeFrame({ seq: this.seq, ts: this.ts, ...f }).trimEnd());
  }
  prompt(body: string): void {
    this.texts.push(body);
    this.frame({
      dir: "to-agent",
      kind: "request",
      method: "session/prompt",
      raw: JSON.stringify({
        jsonrpc: "2.0",
        id: this.seq,
        method: "session/prompt",
        params: { sessionId: "s", prompt: [{ type: "text", text: body }] },
      }),
    });
  }
  /** A message streamed in chunks cut at random places (words and phrases cut by their edges). */
  message(body: string, id: string, kind = rnd() < 0.8 ? "agent_message_chunk" : "agent_thought_chunk"): void {
    this.texts.push(body);
    const cuts = [...new Set(Array.from({ length: 1 + int(5) }, () => 1 + int(body.length - 1)))].sort((a, b) => a - b);
    [0, ...cuts].forEach((from, i) => {
      const chunk = body.slice(from, cuts[i] ?? body.length);
      if (chunk === "") return;
      // A line that is no frame between two chunks leaves the message going on.
      if (i > 0 && rnd() < 0.1) this.stderr(text(2));
      this.frame(sessionUpdate({ sessionUpdate: kind, messageId: id, content: { type: "text", text: chunk } }));
    });
  }
  tool(title: string, paths: string[]): void {
    this.texts.push(title, ...paths);
    this.frame(
      sessionUpdate({
        sessionUpdate: "tool_call",
        toolCallId: `c${this.seq}`,
        title,
        locations: paths.map((p) => ({ path: p })),
      }),
    );
  }
  error(message: string): void {
    this.texts.push(message);
    this.frame({
      dir: "from-agent",
      kind: "response",
      method: "session/prompt",
      latencyMs: 5,
      raw: JSON.stringify({ jsonrpc: "2.0", id: this.seq, error: { code: -32603, message } }),
    });
  }
  stderr(line: string): void {
    this.texts.push(line);
    this.ts++;
    this.lines.push(serialize({ type: "stderr", ts: this.ts, text: line }).trimEnd());
  }
  /** The agent's process: an error is searched as one. */
  lifecycle(event: "error" | "exited", message: string): void {
    this.texts.push(message);
    this.ts++;
    this.lines.push(serialize({ type: "lifecycle", ts: this.ts, event, message }).trimEnd());
  }
}

interface Made {
  lines: string[];
  texts: string[];
  /** Where its lines are cut into saves: the first part is added, the others appended. */
  parts: number[];
}

function makeTranscript(i: number): Made {
  const b = new Builder(pick(["alpha", "beta", "gamma"]), new Date(Date.UTC(2026, 10, 1 + i, 10)).toISOString());
  const big = i === 3;
  const events = big ? 260 : 4 + int(14);
  for (let e = 0; e < events; e++) {
    const r = rnd();
    if (r < 0.2) b.prompt(text(3 + int(12)));
    else if (r < 0.6) b.message(text(4 + int(big ? 60 : 30)), `m${e}`);
    else if (r < 0.72) b.tool(text(2 + int(4)), [`/w/${word()}/${word()}.ts`]);
    else if (r < 0.84) b.error(text(3 + int(8)));
    else if (r < 0.88) b.lifecycle(pick(["error", "exited"]), text(2 + int(6)));
    else b.stderr(text(2 + int(10)));
  }
  // More matches than a search ranks (SEARCH_CANDIDATES).
  if (i === 9) for (let k = 0; k < 2100; k++) b.stderr(`tick ${k}`);
  // A word more often in a document than PostgreSQL keeps its positions (256), then a phrase of it.
  if (i === 11) b.prompt(`${"lo ".repeat(300)}lo zulu yankee`);
  // Lines that are no event, or a frame whose seq does not follow (a file changed by hand): left out.
  const hostileAt = b.lines.length;
  if (i === 13)
    b.lines.push(
      "not json {",
      JSON.stringify({ type: "frame", seq: b.seq + 1, ts: 1, dir: "from-agent", kind: "notification", raw: 7 }),
      JSON.stringify({ type: "stderr", ts: 1, text: ["hostile"] }),
      messageChunk(b.seq, "hostile repeated seq").trimEnd(),
    );
  if (i === 13) b.prompt(`after them ${text(6)}`);
  // Long lines: a prompt past a document's body (16 K characters), a message past a row (64 KiB).
  if (i === 5) b.prompt(text(3000));
  if (i === 7) b.message(text(12000), "long");
  const n = b.lines.length;
  const parts = [...new Set(Array.from({ length: int(4) }, () => 2 + int(n - 2)))].sort((a, b) => a - b);
  // An upload refuses such lines: they come after it, as a recording's (the file store reads them then).
  if (i === 13) return { lines: b.lines, texts: b.texts, parts: [...parts.filter((p) => p < hostileAt), hostileAt] };
  return { lines: b.lines, texts: b.texts, parts };
}

const made = Array.from({ length: TRANSCRIPTS }, (_, i) => makeTranscript(i));
/** A text's words as a person types them (composed: NFC). */
const textWords = (t: string) =>
  t
    .normalize("NFC")
    .split(/[^\p{L}\p{N}]+/u)
    .filter((w) => w !== "");

/** Queries from the library's words: words, typed prefixes, phrases (across chunks' edges too), filters, none. */
function makeQueries(): SearchQuery[] {
  const queries: SearchQuery[] = [];
  const someText = () => pick(pick(made).texts);
  const someWords = () => {
    let ws: string[] = [];
    while (ws.length < 3) ws = textWords(someText());
    return ws;
  };
  for (let i = 0; i < QUERIES; i++) {
    const ws = someWords();
    const at = int(ws.length - 2);
    const kind = i % 14;
    let q: SearchQuery;
    if (kind === 0) q = { q: pick(ws) };
    else if (kind === 1) q = { q: pick(ws).slice(0, 1 + int(5)) };
    else if (kind === 2) q = { q: `"${ws.slice(at, at + 2).join(" ")}"` };
    else if (kind === 3) q = { q: `"${ws.slice(at, at + 3).join(" ")}"` };
    else if (kind === 4) q = { q: `${pick(ws)} ${pick(someWords())}` };
    else if (kind === 5) q = { q: `${ws[at]} ${ws[at + 1]!.slice(0, 1 + int(4))}` };
    else if (kind === 6) q = { q: pick(ws), errors: true };
    else if (kind === 7) q = { q: pick(ws), method: pick(["session/prompt", "session/update"]) };
    else if (kind === 8) q = { q: `${pick(ws)}zq${int(1000)}` };
    else if (kind === 9) q = { q: `"${ws[at]} ${ws[at + 1]}" ${pick(someWords())}` };
    else if (kind === 10) q = { q: `${ws[at]}' & !:* | ( "${ws[at + 1]}` };
    else if (kind === 12) {
      const day = (d: number) => `2026-11-${String(d).padStart(2, "0")}`;
      const from = 1 + int(TRANSCRIPTS);
      q =
        rnd() < 0.5
          ? { q: pick(ws), profile: pick(["alpha", "beta"]) }
          : { q: pick(ws), from: day(from), to: day(from + int(8)) };
    }
    // Past the limits: more terms than are searched, a phrase longer than is searched (cut, said so).
    else if (kind === 13)
      q = {
        q:
          rnd() < 0.5
            ? [...ws, ...someWords(), ...someWords()].join(" ")
            : `"${[...ws, ...someWords(), ...someWords()].join(" ")}"`,
      };
    else
      q = {
        q: `"${ws
          .slice(at, at + 2)
          .reverse()
          .join(" ")}"`,
      };
    queries.push({ ...q, limit: LIMIT });
  }
  for (const q of ["tick", '"zulu yankee"', '" ( ) * : !', "hostile", '"after them"', ...Object.keys(KNOWN)])
    queries.push({ q, limit: LIMIT });
  return queries;
}

/**
 * Queries whose answers differ, known, and why: each must still differ (when one no longer does,
 * it joins the others). PostgreSQL keeps 256 positions of a word in a document (and none past
 * 16,383): a phrase of three words or more (checked in order through positions) past them is not
 * found there; a phrase of two is (its pair needs no position). The file store has no such bound.
 * Both since migration 5; the rows of migration 8 give the same vectors.
 */
const KNOWN: Record<string, string> = {
  '"lo zulu yankee"': "a phrase past a word's 256th position",
  '"lo lo zulu"': "a phrase past a word's 256th position",
};

/** An answer as both stores can agree on it: the hits as a sorted list of (transcript, seq, field), total, more, cut. */
function comparable(a: SearchAnswer, which: (id: string) => number) {
  const hits = a.hits.map((h) => `${which(h.transcript.id)} ${h.seq} ${h.field}`).sort();
  // Past SEARCH_CANDIDATES matches each store keeps the newest it meets (the file store: the
  // latest indexed, PostgreSQL: the latest created); past the limit each shows its best ranked
  // (BM25, ts_rank): then only the counts can agree.
  return a.more || a.total > LIMIT
    ? { total: a.total, more: a.more, cut: a.cut }
    : { hits, total: a.total, more: a.more, cut: a.cut };
}

const skip = pgSkipReason();
describe.skipIf(skip !== undefined)("search: the PostgreSQL store answers as the file store", () => {
  let cluster: PgCluster | undefined;
  const subjects: { s: Subject; ids: Map<string, number> }[] = [];
  beforeAll(async () => {
    cluster = await startPgCluster();
    // Budgets no search meets: the answers must not hang on the machine's load.
    for (const s of [fileStore(UNBOUNDED), await pgStore(cluster.url, { searchBudgetMs: UNBOUNDED.ms })]) {
      const ids = new Map<string, number>();
      subjects.push({ s, ids });
      const added: string[] = [];
      for (const [i, t] of made.entries()) {
        const meta = await s.add(`${t.lines.slice(0, t.parts[0] ?? t.lines.length).join("\n")}\n`);
        ids.set(meta.id, i);
        added.push(meta.id);
      }
      // The rest appended as a recording saves them, transcripts taking turns (a save per part).
      for (let k = 0; k < 3; k++)
        for (const [i, t] of made.entries()) {
          const from = t.parts[k];
          if (from === undefined) continue;
          await s.append(added[i]!, `${t.lines.slice(from, t.parts[k + 1] ?? t.lines.length).join("\n")}\n`);
        }
    }
    // The copier indexes the ended transcripts beside its copies (a flush does not wait for it):
    // this indexes them too (never one twice), waiting for the one the copier is at.
    const db = subjects[1]!.s.store as PgStore;
    const unindexed = async () =>
      (await db.pool.query("SELECT 1 FROM transcripts WHERE NOT docs_indexed LIMIT 1")).rows.length > 0;
    while (await unindexed())
      if ((await db.indexDocs()) === undefined) await new Promise((resolve) => setTimeout(resolve, 50));
  }, 120_000);
  afterAll(async () => {
    for (const { s } of subjects) await s.close();
    cluster?.stop();
  });

  it("holds what it means to: a transcript over several rows, a line longer than a row, saves appended", async () => {
    const { pool } = subjects[1]!.s.store as PgStore;
    const id = (i: number) => [...subjects[1]!.ids].find(([, k]) => k === i)![0];
    const rows = async (i: number) =>
      (
        await pool.query<{ n: number }>("SELECT count(*)::int AS n FROM transcript_lines WHERE transcript_id = $1", [
          id(i),
        ])
      ).rows[0]!;
    expect((await rows(3)).n).toBeGreaterThan(2);
    expect((await rows(7)).n).toBeGreaterThan(1);
    expect(made.filter((t) => t.parts.length > 0).length).toBeGreaterThan(TRANSCRIPTS / 2);
  });

  /** The file store's answers, and PostgreSQL's to the same queries, as comparable; the differences said. */
  const queries = makeQueries();
  let expected: ReturnType<typeof comparable>[] | undefined;
  async function differences(): Promise<string[]> {
    const [files, db] = subjects;
    expected ??= await Promise.all(
      queries.map(async (q) => comparable(await files!.s.store.search(q), (id) => files!.ids.get(id)!)),
    );
    const out: string[] = [];
    // A few at a time, as several people search (each on a connection of the pool).
    const answers: SearchAnswer[] = [];
    for (let at = 0; at < queries.length; at += 4)
      answers.push(...(await Promise.all(queries.slice(at, at + 4).map((q) => db!.s.store.search(q)))));
    for (const [i, q] of queries.entries()) {
      const actual = comparable(answers[i]!, (id) => db!.ids.get(id)!);
      const known = KNOWN[q.q];
      if (known !== undefined) {
        if (JSON.stringify(actual) === JSON.stringify(expected[i])) out.push(`${q.q} (${known}): answered alike now`);
      } else if (JSON.stringify(actual) !== JSON.stringify(expected[i]))
        out.push(
          `${JSON.stringify(q)}\n  file store: ${JSON.stringify(expected[i])}\n  PostgreSQL: ${JSON.stringify(actual)}`,
        );
    }
    // A test that cannot fail is a defect: most queries find something.
    expect(expected.filter((e) => e.total > 0).length).toBeGreaterThan(QUERIES / 2);
    expect(expected.filter((e) => e.cut?.startsWith("The query was cut")).length).toBeGreaterThan(5);
    expect(expected.some((e) => e.more)).toBe(true);
    return out;
  }

  it(`gives the same answers to ${QUERIES} queries drawn from the library's words (seed ${SEED}): ended transcripts, their documents' rows`, async () => {
    const { pool } = subjects[1]!.s.store as PgStore;
    const { rows } = await pool.query<{ n: number }>(
      "SELECT count(*)::int AS n FROM transcripts WHERE NOT docs_indexed",
    );
    expect(rows[0]!.n).toBe(0);
    expect(await differences()).toEqual([]);
  });

  it("gives the same answers with every other transcript recording: searched through its rows of lines", async () => {
    const store = subjects[1]!.s.store as PgStore;
    // Recording, by this instance (its lease holds): the copier leaves their documents to their rows of lines.
    const ids = [...subjects[1]!.ids].filter(([, i]) => i % 2 === 1).map(([id]) => id);
    await store.pool.query(
      `UPDATE transcripts SET meta = meta || '{"recording": true}', writer = $2, docs_indexed = false WHERE id = ANY($1)`,
      [ids, store.instance],
    );
    await store.pool.query("DELETE FROM search_docs WHERE transcript_id = ANY($1)", [ids]);
    expect(await differences()).toEqual([]);
  });
});
