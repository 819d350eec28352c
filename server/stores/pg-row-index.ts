/**
 * The rows' indexes of the team library on PostgreSQL (migration 8). A save keeps a transcript's
 * lines in rows of about 64 KiB, each with an index of its documents' words, pairs and error tag as
 * numbers (`terms`, int4[] with a GIN index: RowTerms) and where it starts (RowStart): that is all a
 * recording costs the database for its search, a fifth of a row per document (bench/pg-save.ts,
 * docs/benchmarks.md). A recording is searched through them (rowMatches) until it ends; then its
 * documents get rows of their own (indexDocs, by the copier), which find a match without reading
 * the lines around it (server/stores/pg-search.ts searches both).
 */
import type { ClientBase } from "pg";
import { checkEventLine, type TranscriptEvent } from "../../lib/contracts/transcript";
import { NO_STREAM, streamStep, type Joined, type StreamTail } from "../../lib/features/library/joints";
import { searchDoc, type SearchDoc } from "../../lib/features/library/search";
import {
  docLexemes,
  docVector,
  ERROR_TAG,
  holds,
  JOINED,
  tailPairs,
  termHash,
  vectorText,
  type DocLexemes,
  type Need,
} from "./pg-lexemes";

/** The largest seq the columns hold (search_docs.seq, transcript_lines.seq_before: integer). */
const MAX_SEQ = 2 ** 31 - 1;

/**
 * What a text column cannot hold: NUL (PostgreSQL's text) and a lone surrogate (UTF-8; the driver
 * writes it as U+FFFD). A hostile line's JSON may hold either (`\u0000`, `\ud800`), and so may a
 * query's filter: as U+FFFD, it is compared with what is stored.
 */
const UNSTORABLE = /\0|[\ud800-\udbff](?![\udc00-\udfff])|(?<![\ud800-\udbff])[\udc00-\udfff]/g;
export const storable = (text: string) => text.replace(UNSTORABLE, "\ufffd");

/**
 * A document as its row of search_docs holds it, and as a search shows it found in its row of
 * lines: its strings storable, U+FFFD for what is not (no word holds either: its lexemes are the same).
 */
function stored(doc: SearchDoc): SearchDoc {
  return {
    ...doc,
    body: storable(doc.body),
    extra: storable(doc.extra),
    ...(doc.method === undefined ? {} : { method: storable(doc.method) }),
  };
}

/** Where a row of transcript_lines starts: the last frame's seq before it, the message being streamed. */
export interface RowStart {
  seqBefore: number;
  stream: StreamTail;
}

/**
 * A transcript's lines walked in order, as the recorder wrote them: each line's search document
 * and what its edge joins. The save that indexes a row, the search that reads it and the indexer
 * that gives its documents rows walk it alike, from where the row starts (RowStart).
 */
export class LineWalk {
  constructor(
    public lastSeq: number,
    public stream: StreamTail,
  ) {}

  get start(): RowStart {
    return { seqBefore: this.lastSeq, stream: this.stream };
  }

  /** One line (not the header): its document and what its edge joins; undefined when it is not JSON. */
  step(raw: string): { e: TranscriptEvent; doc?: SearchDoc; joined: Joined } | undefined {
    const e = this.seq(raw);
    if (!e) return undefined;
    const doc = searchDoc(e, this.lastSeq);
    const step = streamStep(this.stream, doc, e.type === "frame");
    this.stream = step.state;
    return { e, ...(doc ? { doc } : {}), joined: step.joined };
  }

  /**
   * One line kept already: only its seq counts. A line that is not an event of the format, or a
   * frame whose seq does not follow, is left out, as the file store's index leaves it out
   * (TranscriptLines): hostile, it is never read as an event. So is a frame whose seq a column
   * (integer) cannot hold, which the format allows: an upload's, never a recording's.
   */
  seq(raw: string): TranscriptEvent | undefined {
    let e: TranscriptEvent;
    try {
      e = checkEventLine(JSON.parse(raw), 0, this.lastSeq);
    } catch {
      return undefined;
    }
    if (e.type === "frame") {
      if (e.seq > MAX_SEQ) return undefined;
      this.lastSeq = e.seq;
    }
    return e;
  }
}

/**
 * A row's index (transcript_lines.terms): the numbers (termHash) of its documents' words and pairs
 * and of the error tag, and of the pairs of the tail it starts from. Runs across an edge are left
 * out (rowClause says why): a chunk of a streamed message gives the index a word or two of its own.
 */
export class RowTerms {
  readonly hashes = new Set<number>();
  constructor(start: RowStart) {
    if (start.stream.stream !== "") for (const pair of tailPairs(start.stream.tail)) this.hashes.add(termHash(pair));
  }
  add({ positions, pairs, error }: DocLexemes): void {
    for (const word of positions.keys()) this.hashes.add(termHash(word));
    for (const pair of pairs) if (!pair.startsWith(JOINED)) this.hashes.add(termHash(pair));
    if (error) this.hashes.add(termHash(ERROR_TAG));
  }
  /** As an int4[] literal. */
  literal(): string {
    return `{${[...this.hashes].join(",")}}`;
  }
}

/** Rows of lines read per statement when a transcript's rows are walked whole (a migration, the indexer). */
const WALK_ROWS = 32;

/**
 * Each row of a transcript's lines in order, with the walk at its start: where its save started it
 * (`stored`: as a search walks it, so a transcript's documents are the same found either way, also
 * after a gap, whose save was given the seq before it), or carried on from the row before (the
 * migration that gives rows their starts), rows apart (lines missing between) joining no message
 * across the gap, as a save after a gap does not.
 */
async function* walkRows(
  client: ClientBase,
  id: string,
  stored: boolean,
): AsyncGenerator<{ n: number; lines: string[]; walk: LineWalk; start: RowStart }> {
  let walk = new LineWalk(0, NO_STREAM);
  let next = 0;
  let after = -1;
  for (;;) {
    const { rows } = await client.query<{ n: number; lines: string; seq_before: number; stream: string; tail: string }>(
      `SELECT line_no AS n, lines, seq_before, joint_stream AS stream, joint_tail AS tail FROM transcript_lines
       WHERE transcript_id = $1 AND line_no > $2 ORDER BY line_no LIMIT ${WALK_ROWS}`,
      [id, after],
    );
    if (rows.length === 0) return;
    for (const row of rows) {
      if (stored) walk = new LineWalk(row.seq_before, { stream: row.stream, tail: row.tail });
      else if (row.n !== next) walk.stream = NO_STREAM;
      const lines = row.lines.split("\n");
      yield { n: row.n, lines, walk, start: walk.start };
      next = row.n + lines.length;
    }
    after = rows.at(-1)!.n;
  }
}

/**
 * Gives every row of lines its index and where it starts (migration 8: the rows had none), and
 * keeps their words in the table of terms, walking each transcript's lines once.
 */
export async function reindex(client: ClientBase, addTerms: (terms: Set<string>) => Promise<void>): Promise<void> {
  const { rows: ids } = await client.query<{ id: string }>(
    "SELECT DISTINCT transcript_id AS id FROM transcript_lines ORDER BY 1",
  );
  for (const { id } of ids) {
    const done: [number[], string[], number[], string[], string[]] = [[], [], [], [], []];
    const terms = new Set<string>();
    const flush = async () => {
      if (done[0].length === 0) return;
      await client.query(
        `UPDATE transcript_lines l SET terms = x.t::int4[], seq_before = x.s, joint_stream = x.js, joint_tail = x.jt
         FROM unnest($2::int[], $3::text[], $4::int[], $5::text[], $6::text[]) AS x(n, t, s, js, jt)
         WHERE l.transcript_id = $1 AND l.line_no = x.n`,
        [id, ...done],
      );
      await addTerms(terms);
      done.forEach((column) => (column.length = 0));
      terms.clear();
    };
    // Between two rows the walk's query is done: the client is free for the updates.
    for await (const { n, lines, walk, start } of walkRows(client, id, false)) {
      const index = new RowTerms(start);
      for (const [i, raw] of lines.entries()) {
        if (n + i === 0) continue; // the header
        const line = walk.step(raw);
        if (!line?.doc) continue;
        const lexemes = docLexemes(line.doc.body, line.doc.extra, line.doc.error, line.joined, false);
        for (const word of lexemes.positions.keys()) terms.add(word);
        index.add(lexemes);
      }
      [n, index.literal(), start.seqBefore, start.stream.stream, start.stream.tail].forEach((v, k) =>
        (done[k] as unknown[]).push(v),
      );
      if (done[0].length >= WALK_ROWS) await flush();
    }
    await flush();
  }
}

/** Search documents per INSERT when a transcript's documents get rows. */
const DOCS_BATCH = 2_000;

/**
 * The newest transcript that has ended whose documents have no rows, locked: through the partial
 * index of those not indexed (transcripts_unindexed), as the copiers look after every copy.
 */
export const NEXT_TO_INDEX = `SELECT id FROM transcripts WHERE NOT docs_indexed AND coalesce(meta->>'recording', 'false') <> 'true'
     AND NOT (id = ANY($1::text[]))
   ORDER BY created_at DESC LIMIT 1 FOR UPDATE SKIP LOCKED`;

/**
 * Gives the documents of one transcript that has ended rows of their own (search_docs), in the
 * transaction that holds its row (`FOR UPDATE`), and marks it `docs_indexed`: the first such
 * transcript none is indexing, or none. A save marks it not indexed again.
 */
export async function indexDocs(
  client: ClientBase,
  addTerms: (terms: Set<string>) => Promise<void>,
  /** Transcripts whose indexing failed: left to their rows, so they hold up no other. */
  skip: readonly string[] = [],
): Promise<string | undefined> {
  const { rows } = await client.query<{ id: string }>(NEXT_TO_INDEX, [skip]);
  const id = rows[0]?.id;
  if (id === undefined) return undefined;
  try {
    await indexOne(client, id, addTerms);
  } catch (err) {
    throw Object.assign(err as Error, { transcript: id });
  }
  return id;
}

async function indexOne(client: ClientBase, id: string, addTerms: (terms: Set<string>) => Promise<void>) {
  await client.query("DELETE FROM search_docs WHERE transcript_id = $1", [id]);
  const docs: unknown[][] = Array.from({ length: 11 }, () => []);
  const terms = new Set<string>();
  const flush = async () => {
    if (docs[0]!.length === 0) return;
    await client.query(
      `INSERT INTO search_docs (transcript_id, line_no, seq, ts, dir, kind, method, field, error, body, extra, tsv)
       SELECT $1, n, seq, ts, dir, kind, method, field, error, body, extra, v::tsvector
       FROM unnest($2::int[], $3::int[], $4::float8[], $5::text[], $6::text[], $7::text[],
         $8::text[], $9::bool[], $10::text[], $11::text[], $12::text[])
         AS x(n, seq, ts, dir, kind, method, field, error, body, extra, v)
       ON CONFLICT (transcript_id, line_no) DO NOTHING`,
      [id, ...docs],
    );
    await addTerms(terms);
    docs.forEach((column) => (column.length = 0));
    terms.clear();
  };
  // Between two rows the walk's query is done: the client is free for the inserts.
  for await (const { n, lines, walk } of walkRows(client, id, true)) {
    for (const [i, raw] of lines.entries()) {
      if (n + i === 0) continue; // the header
      const line = walk.step(raw);
      if (!line?.doc) continue;
      const d = stored(line.doc);
      const vector = docVector(d.body, d.extra, d.error, terms, line.joined);
      [n + i, d.seq, d.ts, d.dir ?? null, d.kind, d.method ?? null, d.field, d.error, d.body, d.extra, vector].forEach(
        (v, k) => docs[k]!.push(v),
      );
      if (docs[0]!.length >= DOCS_BATCH) await flush();
    }
  }
  await flush();
  await client.query("UPDATE transcripts SET docs_indexed = true WHERE id = $1", [id]);
}

/** Rows' text a search reads per statement (at least a row). */
const READ_BYTES = 4 * 1024 * 1024;

/** A match found in a row's lines: its transcript, its line, its rank, its document. */
export interface RowMatch {
  id: string;
  n: number;
  rank: number;
  doc: SearchDoc;
}

/**
 * The matches in the rows of some transcripts (newest first, as given) whose documents are not
 * indexed: the rows their index says may hold one (`rowsWhere`, rowClause), their lines walked as
 * the save walked them, the documents that hold the query's lexemes (holds) matched and ranked by
 * PostgreSQL with their tsvectors and the query's tsquery. Stops once there are `wanted`, or past
 * `deadline` (a CANCELED error, as a statement cancelled).
 */
export async function rowMatches(
  client: ClientBase,
  ids: string[],
  where: { sql: string; params: unknown[] },
  need: Need,
  filter: { tsquery: string; method?: string; errors?: boolean },
  wanted: number,
  pastDeadline: () => boolean,
): Promise<RowMatch[]> {
  const order = new Map(ids.map((id, i) => [id, i]));
  const { rows: keys } = await client.query<{ id: string; n: number; size: number }>(
    `SELECT l.transcript_id AS id, l.line_no AS n, octet_length(l.lines) AS size FROM transcript_lines l
     WHERE l.transcript_id = ANY($1::text[]) AND ${where.sql}`,
    [ids, ...where.params],
  );
  keys.sort((a, b) => order.get(a.id)! - order.get(b.id)! || b.n - a.n);
  const matches: RowMatch[] = [];
  for (let at = 0; at < keys.length && matches.length < wanted;) {
    if (pastDeadline()) throw Object.assign(new Error("the search's budget ran out"), { code: "57014" });
    let end = at;
    for (let bytes = 0; end < keys.length && (end === at || bytes + keys[end]!.size <= READ_BYTES); end++)
      bytes += keys[end]!.size;
    const batch = keys.slice(at, end);
    at = end;
    const { rows } = await client.query<{
      id: string;
      n: number;
      lines: string;
      seq_before: number;
      stream: string;
      tail: string;
    }>(
      `SELECT l.transcript_id AS id, l.line_no AS n, l.lines, l.seq_before, l.joint_stream AS stream, l.joint_tail AS tail
       FROM unnest($1::text[], $2::int[]) AS x(id, n)
       JOIN transcript_lines l ON l.transcript_id = x.id AND l.line_no = x.n`,
      [batch.map((k) => k.id), batch.map((k) => k.n)],
    );
    const byKey = new Map(rows.map((r) => [`${r.n} ${r.id}`, r]));
    // Newest first: the rows in the keys' order, each row's documents from its last line.
    const docs: Omit<RowMatch, "rank">[] = [];
    const vectors: string[] = [];
    for (const key of batch) {
      const row = byKey.get(`${key.n} ${key.id}`);
      if (!row) continue;
      const walk = new LineWalk(row.seq_before, { stream: row.stream, tail: row.tail });
      const rowDocs: { n: number; doc: SearchDoc; vector: string }[] = [];
      for (const [i, raw] of row.lines.split("\n").entries()) {
        const n = row.n + i;
        if (n === 0) continue; // the header
        const line = walk.step(raw);
        const doc = line?.doc && stored(line.doc);
        if (!doc || (filter.method && doc.method !== filter.method) || (filter.errors && !doc.error)) continue;
        const lexemes = docLexemes(doc.body, doc.extra, doc.error, line.joined);
        if (holds(lexemes, need)) rowDocs.push({ n, doc, vector: vectorText(lexemes) });
      }
      for (const d of rowDocs.reverse()) {
        docs.push({ id: row.id, n: d.n, doc: d.doc });
        vectors.push(d.vector);
      }
    }
    if (vectors.length === 0) continue;
    const { rows: ranked } = await client.query<{ i: number; rank: number }>(
      `SELECT i::int - 1 AS i, ts_rank(v, $1::tsquery) AS rank
       FROM (SELECT v::tsvector AS v, i FROM unnest($2::text[]) WITH ORDINALITY AS x(v, i)) d
       WHERE v @@ $1::tsquery ORDER BY i`,
      [filter.tsquery, vectors],
    );
    for (const { i, rank } of ranked) matches.push({ ...docs[i]!, rank });
  }
  return matches.slice(0, wanted);
}
