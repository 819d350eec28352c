/**
 * Full-text search of the team library on PostgreSQL, with the file store's answers
 * (server/transcripts/search-index.ts): words are cut and folded as its SQLite tokenizer cuts
 * them (unicode61: letters and digits, lower case, accents removed), here in the program, so both
 * stores see the same words (PostgreSQL's own parser keeps `src/app.ts` or `a.b@c.d` whole).
 *
 * Each document's tsvector holds its words with their positions (weight A in the text a reader
 * looks for, B in the other strings), and each pair of adjacent words as one lexeme of its own
 * (`~read write`, no position). A streamed chunk's document also holds what its edge joins
 * (docLexemes), so a word or a phrase cut by the edge is found as the file store finds it.
 *
 * Since migration 8 no document has a row: a save's lines are rows of about 64 KiB, each with an
 * index of its documents' words and pairs as numbers (RowTerms, GIN), which costs PostgreSQL a
 * fifth of a row per document (bench/pg-save.ts). A search finds the rows that may hold a match
 * (rowClause: a phrase through its pairs, so two common words that never meet are not read), walks
 * their lines as the save did (LineWalk), and has PostgreSQL match and rank the documents that
 * hold the query's words with their tsvectors (searchDocs), in slices of transcripts, newest first,
 * so one its budget ends still shows the newest.
 */
import type { ClientBase } from "pg";
import {
  SEARCH_CANDIDATES,
  type LibraryFilter,
  type SearchAnswer,
  type SearchHit,
  type SearchQuery,
} from "../../lib/contracts/library-search";
import type { TranscriptMeta } from "../../lib/contracts/transcript-meta";
import { matchLine, searchDoc, searchTerms, type SearchDoc } from "../../lib/features/library/search";
import { NO_STREAM, streamStep, type Joined, type StreamTail } from "../../lib/features/library/joints";
import type { TranscriptEvent } from "../../lib/contracts/transcript";
import { foldTerm, NON_ASCII, PREFIX_WORDS, typedWord, WORD_TOKEN } from "../transcripts/search-index-lines";
import { QUERY_BUDGET } from "../transcripts/search-index";

/** What starts a pair's lexeme: no word holds it, so a typed word's prefix never reaches the pairs. */
export const PAIR = "~";
/**
 * What starts the lexeme of a run of three words or more across a streamed chunk's edge (its
 * positions are not in the document): no pair's prefix reaches it.
 */
export const JOINED = "~~";
/**
 * An error's tag, in the index (the errors filter inside the match, as SQLite's `tags`): GIN
 * steps over the documents that are no error instead of reading every match of a common word.
 */
export const ERROR_TAG = "!error";
/** PostgreSQL's bounds: a lexeme under 2 KiB, positions up to 16,383 and 256 of them per lexeme. */
const MAX_LEXEME_BYTES = 2_046;
const MAX_POSITION = 16_383;
const MAX_POSITIONS = 256;
const ASCII_GAP = /[^a-z0-9]+/;
const DEFAULT_LIMIT = 50;

/** A text's words as the file store's tokenizer sees them. */
export function words(text: string): string[] {
  const lower = text.toLowerCase();
  if (!NON_ASCII.test(lower)) return lower.split(ASCII_GAP).filter((w) => w !== "");
  return (lower.match(WORD_TOKEN) ?? []).map(foldTerm).filter((w) => w !== "");
}

const fits = (lexeme: string) => lexeme.length * 4 <= MAX_LEXEME_BYTES || Buffer.byteLength(lexeme) <= MAX_LEXEME_BYTES;

const UNPLACED: string[] = [];

/** A document's lexemes: its words with their positions, its pairs and runs across an edge (JOINED), its error tag. */
export interface DocLexemes {
  positions: Map<string, string[]>;
  pairs: Set<string>;
  error: boolean;
}

/**
 * A document's lexemes (docVector gives them as a tsvector): `body` and `extra` are two texts (a
 * phrase does not run from one into the other). A streamed chunk's `joined` (lib/features/library/
 * joints.ts) adds what its edge joins, as the file store's columns do: the word it cuts (a word of
 * its own, apart from the others), the pairs of its first joint (a phrase of two words across the
 * edge) and the runs of three words and more of its joints (JOINED: a longer phrase across it).
 */
export function docLexemes(
  body: string,
  extra: string,
  error: boolean,
  joined?: Joined,
  /** False: the words without their positions (a row's index has no use for them). */
  positioned = true,
): DocLexemes {
  const positions = new Map<string, string[]>();
  const pairs = new Set<string>();
  let at = 0;
  const place = (word: string, weight: "A" | "B") => {
    if (!positioned) {
      positions.set(word, UNPLACED);
      return;
    }
    let list = positions.get(word);
    if (!list) positions.set(word, (list = []));
    // Past PostgreSQL's last position every word is at it: a phrase there is found by its pairs.
    const p = `${Math.min(at, MAX_POSITION)}${weight}`;
    if (list.length < MAX_POSITIONS && list.at(-1) !== p) list.push(p);
  };
  const add = (text: string, weight: "A" | "B") => {
    let before: string | undefined;
    for (const word of words(text)) {
      at++;
      if (!fits(word)) {
        before = undefined;
        continue;
      }
      place(word, weight);
      const pair = `${PAIR}${before} ${word}`;
      if (before !== undefined && fits(pair)) pairs.add(pair);
      before = word;
    }
  };
  add(body, "A");
  at++;
  add(extra, "B");
  if (joined && joined.split !== "") {
    // A position of its own, next to no other word: a phrase is never read through it.
    at++;
    for (const word of words(joined.split)) {
      at++;
      if (fits(word)) place(word, "A");
    }
  }
  for (const [i, joint] of (joined?.joints ?? []).entries()) {
    const ws = words(joint).filter(fits);
    for (let j = 1; j < ws.length; j++) {
      if (i === 0) pairs.add(`${PAIR}${ws[j - 1]} ${ws[j]}`);
      for (let k = j - 2; k >= 0; k--) pairs.add(`${JOINED}${ws.slice(k, j + 1).join(" ")}`);
    }
  }
  for (const pair of pairs) if (!fits(pair)) pairs.delete(pair);
  return { positions, pairs, error };
}

/**
 * A document's tsvector, as PostgreSQL's input syntax. Words hold only letters and digits, pairs
 * and runs a space and PAIR: quoting them is enough. An error is tagged (ERROR_TAG). Its words
 * are added to `terms` when given (the table of terms).
 */
export function docVector(body: string, extra: string, error: boolean, terms?: Set<string>, joined?: Joined): string {
  const lexemes = docLexemes(body, extra, error, joined);
  if (terms) for (const word of lexemes.positions.keys()) terms.add(word);
  return vectorText(lexemes);
}

export function vectorText({ positions, pairs, error }: DocLexemes): string {
  const out: string[] = [];
  for (const [word, list] of positions) out.push(`'${word}':${list.join(",")}`);
  for (const pair of pairs) out.push(`'${pair}'`);
  if (error) out.push(`'${ERROR_TAG}'`);
  return out.join(" ");
}

/**
 * A lexeme's number in a row's index (transcript_lines.terms, migration 8): FNV-1a of its UTF-16
 * code units, as int4. Two lexemes with one number only make a row a candidate that the
 * documents' own vectors then turn down.
 */
export function termHash(lexeme: string): number {
  let h = 0x811c9dc5;
  for (let i = 0; i < lexeme.length; i++) {
    h ^= lexeme.charCodeAt(i);
    h = Math.imul(h, 0x01000193);
  }
  return h | 0;
}

/**
 * The pairs of a message's tail (joints.ts tailOf): a row whose first chunk continues it holds
 * them in its index, so a phrase across the row's first edge has all its pairs in the row. (A
 * document matched through a run across an edge holds the run, not the pairs before the edge.)
 */
export function tailPairs(tail: string): string[] {
  const ws = words(tail).filter(fits);
  return ws
    .slice(1)
    .map((w, j) => `${PAIR}${ws[j]} ${w}`)
    .filter(fits);
}

/** The terms searchTerms keeps, folded (a word of marks alone folds to nothing and is left out). */
function foldedTerms(input: string): { terms: string[][]; cut?: string } {
  const { terms, cut } = searchTerms(input);
  const folded = terms.map((t) => t.map(foldTerm).filter((w) => w !== "")).filter((t) => t.length > 0);
  return { terms: folded, ...(cut === undefined ? {} : { cut }) };
}

/** The word being typed (the query's last, folded), looked for as the words it begins; none when the query ends in a quote or was cut. */
export function typedStart(input: string): string | undefined {
  const { terms, cut } = foldedTerms(input);
  if (terms.length === 0 || cut !== undefined || input.trimEnd().endsWith('"')) return undefined;
  return terms.at(-1)!.at(-1)!;
}

const lexeme = (text: string, prefix: boolean) => `'${text}'${prefix ? ":*" : ""}`;

/** A term's tsquery: a word, or a phrase as its pairs (two words: exactly), then its order, or its run across an edge. */
function termQuery(ws: string[], prefix: boolean): string {
  if (ws.length === 1) return lexeme(ws[0]!, prefix);
  const pairs = ws.slice(1).map((w, j) => lexeme(`${PAIR}${ws[j]} ${w}`, prefix && j === ws.length - 2));
  if (ws.length === 2) return pairs[0]!;
  // One pair may recur apart from the other: the order is checked in the rows holding them all;
  // or the phrase runs across a chunk's edge (JOINED).
  const order = ws.map((w, j) => lexeme(w, prefix && j === ws.length - 1)).join(" <-> ");
  const run = `${JOINED}${ws.join(" ")}`;
  const within = `(${pairs.join(" & ")} & (${order}))`;
  // A run too long to hold is in no document (docVector leaves it out).
  return fits(run) ? `(${within} | ${lexeme(run, prefix)})` : within;
}

/**
 * The tsquery of a typed query, as the file store reads one (matchOf): the terms searchTerms
 * keeps (and what it cut, to say so), each must match, a phrase's words in order; the word being
 * typed as the words it begins (`begun`: those in the table of terms, up to PREFIX_WORDS + 1;
 * none given, a prefix), as typedWord says. Lexemes are quoted words: no input is read as syntax.
 */
export function pgQuery(input: string, begun?: string[]): { query: string; cut?: string } | undefined {
  const { terms, cut } = foldedTerms(input);
  if (terms.length === 0) return undefined;
  const start = typedStart(input);
  const typed = start === undefined ? {} : begun ? typedWord(start, begun) : { prefix: true };
  const parts = terms.map((ws, i) => {
    if (i < terms.length - 1 || start === undefined) return termQuery(ws, false);
    if (typed.words) return `(${typed.words.map((w) => termQuery([...ws.slice(0, -1), w], false)).join(" | ")})`;
    return termQuery(ws, typed.prefix === true);
  });
  const query = parts.join(" & ");
  // A word or pair PostgreSQL cannot hold is in no document (docVector leaves it out), and in a
  // tsquery it is an error: such a query finds nothing. (Folding can triple a word's bytes.)
  if (query.split("'").some((text, i) => i % 2 === 1 && !fits(text))) return undefined;
  const said = [cut, typed.cut].filter(Boolean).join(" ");
  return { query, ...(said === "" ? {} : { cut: said }) };
}

/**
 * What a document matching a typed query holds, read as pgQuery reads the query: per term, its
 * alternatives, each the lexemes it holds all of (a word; a phrase's pairs, or its run across an
 * edge); undefined for the word being typed looked for as a prefix (nothing known of it).
 */
export type Need = (string[][] | undefined)[];

function termNeed(ws: string[]): string[][] {
  if (ws.length === 1) return [[ws[0]!]];
  const pairs = ws.slice(1).map((w, j) => `${PAIR}${ws[j]} ${w}`);
  const run = `${JOINED}${ws.join(" ")}`;
  return ws.length > 2 && fits(run) ? [pairs, [run]] : [pairs];
}

export function queryNeed(input: string, begun?: string[]): Need {
  const { terms } = foldedTerms(input);
  const start = typedStart(input);
  const typed = start === undefined ? {} : begun ? typedWord(start, begun) : { prefix: true };
  return terms.map((ws, i) => {
    if (i < terms.length - 1 || start === undefined) return termNeed(ws);
    if (typed.words) return typed.words.flatMap((w) => termNeed([...ws.slice(0, -1), w]));
    return typed.prefix ? undefined : termNeed(ws);
  });
}

/** Whether a document's lexemes hold what `need` asks: the documents worth PostgreSQL's own match. */
export function holds({ positions, pairs }: DocLexemes, need: Need): boolean {
  const has = (x: string) => positions.has(x) || pairs.has(x);
  return need.every((alternatives) => !alternatives || alternatives.some((all) => all.every(has)));
}

/**
 * The clause over a row's index (`l.terms`) that every row holding a match passes, its values
 * appended to `params`. Runs are not in rows' indexes: a document matched through one has the
 * phrase's pairs in its row, or in the tail the row starts from (tailPairs).
 */
export function rowClause(need: Need, errors: boolean, params: unknown[]): string {
  const clauses: string[] = [];
  const add = (sql: string, hashes: number[]) => {
    params.push(hashes);
    return sql.replace("?", `$${params.length}::int4[]`);
  };
  for (const alternatives of need) {
    if (!alternatives) continue;
    const usable = alternatives.filter((all) => !all.some((x) => x.startsWith(JOINED)));
    const single = usable.filter((all) => all.length === 1).map((all) => termHash(all[0]!));
    const ors = usable.filter((all) => all.length > 1).map((all) => add("l.terms @> ?", all.map(termHash)));
    if (single.length > 0) ors.unshift(add("l.terms && ?", single));
    clauses.push(ors.length === 1 ? ors[0]! : `(${ors.join(" OR ")})`);
  }
  if (errors) clauses.push(add("l.terms @> ?", [termHash(ERROR_TAG)]));
  return clauses.length > 0 ? clauses.join(" AND ") : "true";
}

/** The filters' clauses over `transcripts t`, their values appended to `params`. */
export function filterClauses(q: LibraryFilter & { transcript?: string }, params: unknown[]): string[] {
  const clauses: string[] = [];
  const add = (sql: string, value: unknown) => {
    params.push(value);
    clauses.push(sql.replace("?", `$${params.length}`));
  };
  if (q.agent) add("t.meta->>'agentName' = ?", q.agent);
  if (q.profile) add("t.meta->>'profile' = ?", q.profile);
  if (q.kind) add("t.meta->>'kind' = ?", q.kind);
  if (q.owner) add("t.meta->>'owner' = ?", q.owner);
  if (q.from) add("substr(t.created_at, 1, 10) >= ?", q.from);
  if (q.to) add("substr(t.created_at, 1, 10) <= ?", q.to);
  if (q.transcript) add("t.id = ?", q.transcript);
  return clauses;
}

/** PostgreSQL's code for a statement cancelled by its statement_timeout. */
const CANCELED = "57014";
/**
 * Transcripts the first statement searches (the newest the filters keep); each next one at least
 * SLICE_GROWTH times as many, more while they are quick: as many as a quarter of the budget left
 * searches at the pace so far (a cancelled slice loses no more than that).
 */
const FIRST_SLICE = 16;
const SLICE_GROWTH = 4;

const seconds = (ms: number) => (ms / 1000).toLocaleString("en", { maximumFractionDigits: 1 });

/** Where a row of transcript_lines starts (migration 8): the last frame's seq before it, the message being streamed. */
export interface RowStart {
  seqBefore: number;
  stream: StreamTail;
}

/**
 * A transcript's lines walked in order, as the recorder wrote them: each line's search document
 * and what its edge joins. The save that indexes a row and the search that reads it walk it alike,
 * from where the row starts (RowStart).
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

  /** One line kept already: only its seq counts. */
  seq(raw: string): TranscriptEvent | undefined {
    let e: TranscriptEvent;
    try {
      e = JSON.parse(raw) as TranscriptEvent;
    } catch {
      return undefined;
    }
    if (e.type === "frame" && typeof e.seq === "number") this.lastSeq = e.seq;
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

/** Rows' text a search reads per statement (at least a row). */
const READ_BYTES = 4 * 1024 * 1024;

/** A match: its transcript, its line, its rank, its document. */
type Found = { id: string; n: number; rank: number; createdAt: string; doc: SearchDoc };

/**
 * Hits for a typed query: the newest SEARCH_CANDIDATES matches the filters keep, best ranked
 * first, as the file store answers. A save keeps no row per document: each row of lines has an
 * index of its words and pairs (RowTerms, a GIN index), so a search finds the rows that may hold
 * a match (rowClause), walks their lines as the save did (LineWalk), and has PostgreSQL match and
 * rank the documents that hold the query's lexemes (holds) with their tsvectors and the query's
 * tsquery (pgQuery), as one row per document did before migration 8. The transcripts the filters
 * keep are searched in slices, newest first (FIRST_SLICE, then growing while they are quick); past
 * `budgetMs` no further slice starts and the one under way is cancelled: the hits of the slices
 * searched are shown, and the answer says it stopped. The newest slice is searched whatever the
 * budget (within QUERY_BUDGET.ms), so a tiny budget still shows the newest hits.
 */
export async function searchDocs(
  client: ClientBase,
  q: SearchQuery,
  budgetMs = QUERY_BUDGET.ms,
): Promise<SearchAnswer> {
  const started = performance.now();
  if (!pgQuery(q.q)) return { hits: [], total: 0, more: false, tookMs: 0 };
  const start = typedStart(q.q);
  const timeout = (ms: number) => `SET LOCAL statement_timeout = ${Math.max(1, Math.round(ms))}`;
  const bound = (ms: number) => client.query(timeout(ms));
  const found: Found[] = [];
  let read: { query: string; cut?: string } | undefined;
  let searched = 0;
  let kept = 0;
  let stopped = false;
  let open = false;
  try {
    // One snapshot for every slice.
    await client.query(
      `BEGIN ISOLATION LEVEL REPEATABLE READ READ ONLY; ${timeout(Math.max(budgetMs, QUERY_BUDGET.ms))}`,
    );
    open = true;
    const begun =
      start === undefined
        ? undefined
        : (
            await client.query<{ term: string }>(
              "SELECT term FROM search_terms WHERE term >= $1 AND term < $2 ORDER BY term LIMIT $3",
              [start, `${start}\u{10FFFF}`, PREFIX_WORDS + 1],
            )
          ).rows.map((r) => r.term);
    read = pgQuery(q.q, begun);
    // The words begun may make a pair too long to hold: nothing holds it.
    if (!read) {
      await client.query("COMMIT");
      return { hits: [], total: 0, more: false, tookMs: Math.round(performance.now() - started) };
    }
    const tsquery = q.errors ? `${read.query} & '${ERROR_TAG}'` : read.query;
    const need = queryNeed(q.q, begun);
    const keyParams: unknown[] = [undefined];
    const rowsWhere = rowClause(need, q.errors === true, keyParams);
    const filters: unknown[] = [];
    const where = filterClauses(q, filters);
    const transcripts = (
      await client.query<{ id: string; created_at: string }>(
        `SELECT t.id, t.created_at FROM transcripts t ${where.length ? `WHERE ${where.join(" AND ")}` : ""}
         ORDER BY t.created_at DESC, t.id DESC`,
        filters,
      )
    ).rows;
    kept = transcripts.length;
    /** The matches of one slice, newest first, until there are more than SEARCH_CANDIDATES in all. */
    const searchSlice = async (slice: typeof transcripts): Promise<Found[]> => {
      const order = new Map(slice.map((t, i) => [t.id, i]));
      keyParams[0] = slice.map((t) => t.id);
      const { rows: keys } = await client.query<{ id: string; n: number; size: number }>(
        `SELECT l.transcript_id AS id, l.line_no AS n, octet_length(l.lines) AS size FROM transcript_lines l
         WHERE l.transcript_id = ANY($1::text[]) AND ${rowsWhere}`,
        keyParams,
      );
      keys.sort((a, b) => order.get(a.id)! - order.get(b.id)! || b.n - a.n);
      const matches: Found[] = [];
      // The first slice has the whole budget's statement timeout, the others what is left of the budget.
      const deadline = started + (searched === 0 ? Math.max(budgetMs, QUERY_BUDGET.ms) : budgetMs);
      for (let at = 0; at < keys.length && found.length + matches.length <= SEARCH_CANDIDATES;) {
        // Reading the rows takes time of its own: past the deadline, as a statement cancelled.
        if (performance.now() > deadline)
          throw Object.assign(new Error("the search's budget ran out"), { code: CANCELED });
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
        const docs: Omit<Found, "rank">[] = [];
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
            if (!line?.doc || (q.method && line.doc.method !== q.method) || (q.errors && !line.doc.error)) continue;
            const lexemes = docLexemes(line.doc.body, line.doc.extra, line.doc.error, line.joined);
            if (holds(lexemes, need)) rowDocs.push({ n, doc: line.doc, vector: vectorText(lexemes) });
          }
          for (const d of rowDocs.reverse()) {
            docs.push({ id: row.id, n: d.n, createdAt: slice[order.get(row.id)!]!.created_at, doc: d.doc });
            vectors.push(d.vector);
          }
        }
        if (vectors.length === 0) continue;
        const { rows: ranked } = await client.query<{ i: number; rank: number }>(
          `SELECT i::int - 1 AS i, ts_rank(v, $1::tsquery) AS rank
           FROM (SELECT v::tsvector AS v, i FROM unnest($2::text[]) WITH ORDINALITY AS x(v, i)) d
           WHERE v @@ $1::tsquery ORDER BY i`,
          [tsquery, vectors],
        );
        for (const { i, rank } of ranked) matches.push({ ...docs[i]!, rank });
      }
      return matches;
    };
    let size = FIRST_SLICE;
    while (searched < transcripts.length && found.length <= SEARCH_CANDIDATES) {
      if (searched > 0) {
        const left = started + budgetMs - performance.now();
        if (left <= 0) {
          stopped = true;
          break;
        }
        await bound(left);
      }
      const slice = transcripts.slice(searched, searched + size);
      const sliceStarted = performance.now();
      const matches = await searchSlice(slice);
      // Past the budget while this slice was read (not the first): it is not counted, as a cancelled one.
      if (searched > 0 && performance.now() > started + budgetMs) {
        stopped = true;
        break;
      }
      found.push(...matches.slice(0, SEARCH_CANDIDATES + 1 - found.length));
      searched += slice.length;
      const pace = Math.max(1, performance.now() - sliceStarted) / slice.length;
      size = Math.max(size * SLICE_GROWTH, Math.floor((started + budgetMs - performance.now()) / 4 / pace));
    }
  } catch (err) {
    await client.query("ROLLBACK").catch(() => undefined);
    open = false;
    if ((err as { code?: string }).code !== CANCELED) throw err;
    stopped = true;
  }
  const more = found.length > SEARCH_CANDIDATES;
  if (more) found.pop();
  // Best ranked first; among equals, the newest transcript, then the earliest line.
  found.sort((a, b) => b.rank - a.rank || b.createdAt.localeCompare(a.createdAt) || a.n - b.n);
  const top = found.slice(0, q.limit ?? DEFAULT_LIMIT);
  let metas: { id: string; meta: TranscriptMeta }[] = [];
  if (top.length > 0) {
    // A cancelled statement ended the transaction: the hits' transcripts are read in one of their own.
    if (!open) await client.query("BEGIN READ ONLY");
    open = true;
    await bound(QUERY_BUDGET.ms);
    ({ rows: metas } = await client.query<{ id: string; meta: TranscriptMeta }>(
      "SELECT id, meta FROM transcripts WHERE id = ANY($1::text[])",
      [[...new Set(top.map((f) => f.id))]],
    ));
  }
  if (open) await client.query("COMMIT");
  const metaOf = new Map(metas.map((r) => [r.id, r.meta]));
  const hits = top.flatMap(({ id, doc }): SearchHit[] => {
    const m = metaOf.get(id);
    if (!m) return [];
    const inBody = matchLine(doc.body, q.q);
    const shown = inBody.marks.length > 0 || !doc.extra ? inBody : matchLine(doc.extra, q.q);
    return [
      {
        transcript: {
          id: m.id,
          title: m.title,
          profile: m.profile,
          ...(m.agentName ? { agentName: m.agentName } : {}),
          kind: m.kind ?? "session",
          createdAt: m.createdAt,
        },
        seq: doc.seq,
        ts: doc.ts,
        ...(doc.dir ? { dir: doc.dir } : {}),
        frameKind: doc.kind,
        ...(doc.method ? { method: doc.method } : {}),
        field: doc.field,
        error: doc.error,
        ...shown,
      },
    ];
  });
  const tookMs = Math.round(performance.now() - started);
  const said = !stopped
    ? undefined
    : searched === 0
      ? `The search stopped after ${seconds(tookMs)} s (its budget: ${seconds(budgetMs)} s) before any hit was found. Add words or filters to narrow it.`
      : `The search stopped after ${seconds(tookMs)} s (its budget: ${seconds(budgetMs)} s), in the newest ${searched.toLocaleString("en")} of ${kept.toLocaleString("en")} transcripts: results may be incomplete. Add words or filters to narrow it.`;
  const cut = [read?.cut ?? searchTerms(q.q).cut, said].filter(Boolean).join(" ");
  return { hits, total: found.length, more, tookMs, ...(cut === "" ? {} : { cut }) };
}

/**
 * Keeps words in the table of terms (the word being typed is looked for as the words it begins),
 * in order: two instances adding the same new words wait for each other, never deadlock.
 */
export async function addTerms(client: Pick<ClientBase, "query">, terms: Iterable<string>): Promise<void> {
  const list = [...terms].sort();
  if (list.length === 0) return;
  await client.query({
    name: "add-terms",
    text: "INSERT INTO search_terms (term) SELECT t FROM unnest($1::text[]) AS t ORDER BY t ON CONFLICT DO NOTHING",
    values: [list],
  });
}

/** Rows of lines read per batch when their indexes are made (a migration). */
const REINDEX_ROWS = 32;

/**
 * Gives every row of lines its index and where it starts (migration 8: the search documents were
 * rows of their own), walking each transcript's lines in order as its saves did. Rows apart (lines
 * missing between) join no message across the gap, as a save after a gap does not.
 */
export async function reindex(client: ClientBase): Promise<void> {
  const { rows: ids } = await client.query<{ id: string }>(
    "SELECT DISTINCT transcript_id AS id FROM transcript_lines ORDER BY 1",
  );
  for (const { id } of ids) {
    const walk = new LineWalk(0, NO_STREAM);
    let next = 0;
    let after = -1;
    for (;;) {
      const { rows } = await client.query<{ n: number; lines: string }>(
        `SELECT line_no AS n, lines FROM transcript_lines WHERE transcript_id = $1 AND line_no > $2
         ORDER BY line_no LIMIT ${REINDEX_ROWS}`,
        [id, after],
      );
      if (rows.length === 0) break;
      const done: [number[], string[], number[], string[], string[]] = [[], [], [], [], []];
      for (const row of rows) {
        if (row.n !== next) walk.stream = NO_STREAM;
        const start = walk.start;
        const index = new RowTerms(start);
        const lines = row.lines.split("\n");
        for (const [i, raw] of lines.entries()) {
          if (row.n + i === 0) continue; // the header
          const line = walk.step(raw);
          if (line?.doc) index.add(docLexemes(line.doc.body, line.doc.extra, line.doc.error, line.joined, false));
        }
        [row.n, index.literal(), start.seqBefore, start.stream.stream, start.stream.tail].forEach((v, k) =>
          (done[k] as unknown[]).push(v),
        );
        next = row.n + lines.length;
      }
      await client.query(
        `UPDATE transcript_lines l SET terms = x.t::int4[], seq_before = x.s, joint_stream = x.js, joint_tail = x.jt
         FROM unnest($2::int[], $3::text[], $4::int[], $5::text[], $6::text[]) AS x(n, t, s, js, jt)
         WHERE l.transcript_id = $1 AND l.line_no = x.n`,
        [id, ...done],
      );
      after = rows.at(-1)!.n;
    }
  }
}

/** Rows of search documents read per batch when their vectors are made again (a migration). */
const REVECTOR_BATCH = 2_000;

/** Makes every document's vector again from its stored texts (migration 5: the vectors came from PostgreSQL's parser). */
export async function revector(client: ClientBase): Promise<void> {
  let after: [string, number] = ["", -1];
  for (;;) {
    const { rows } = await client.query<{ id: string; n: number; body: string; extra: string; error: boolean }>(
      `SELECT transcript_id AS id, line_no AS n, body, extra, error FROM search_docs
       WHERE (transcript_id, line_no) > ($1, $2) ORDER BY transcript_id, line_no LIMIT ${REVECTOR_BATCH}`,
      after,
    );
    if (rows.length === 0) return;
    const terms = new Set<string>();
    await client.query(
      `UPDATE search_docs d SET tsv = x.v::tsvector FROM unnest($1::text[], $2::int[], $3::text[]) AS x(id, n, v)
       WHERE d.transcript_id = x.id AND d.line_no = x.n`,
      [rows.map((r) => r.id), rows.map((r) => r.n), rows.map((r) => docVector(r.body, r.extra, r.error, terms))],
    );
    await addTerms(client, terms);
    const last = rows.at(-1)!;
    after = [last.id, last.n];
  }
}

/** Search documents read per batch when the streamed chunks' joints are made (a migration). */
const REJOIN_BATCH = 5_000;

/**
 * Gives every streamed chunk of the kept transcripts what its edge joins, and each transcript the
 * message it was streaming (migration 6: the vectors had none). Every line with text has a
 * document, so the documents in line order step the messages as the lines do; the line is read
 * only where a chunk may be (a notification of a streamed field), to know its message.
 */
export async function rejoin(client: ClientBase): Promise<void> {
  await client.query(
    `UPDATE transcripts t SET joint_line = coalesce((SELECT max(line_no) + 1 FROM transcript_lines l WHERE l.transcript_id = t.id), 0)`,
  );
  type Row = {
    id: string;
    n: number;
    kind: string;
    error: boolean;
    body: string | null;
    extra: string | null;
    line: string | null;
  };
  let after: [string, number] = ["", -1];
  let id = "";
  let state: StreamTail = NO_STREAM;
  const keep = async (done: string, s: StreamTail) => {
    if (s.stream !== "")
      await client.query("UPDATE transcripts SET joint_stream = $2, joint_tail = $3 WHERE id = $1", [
        done,
        s.stream,
        s.tail,
      ]);
  };
  for (;;) {
    const { rows } = await client.query<Row>(
      `SELECT d.transcript_id AS id, d.line_no AS n, d.kind, d.error, s.body, s.extra, s.line
       FROM search_docs d LEFT JOIN LATERAL (
         SELECT d.body, d.extra, l.line FROM transcript_lines l
         WHERE l.transcript_id = d.transcript_id AND l.line_no = d.line_no
           AND d.kind = 'notification' AND d.field IN ('message', 'thought', 'prompt', 'tool')) s ON true
       WHERE (d.transcript_id, d.line_no) > ($1, $2) ORDER BY d.transcript_id, d.line_no LIMIT ${REJOIN_BATCH}`,
      after,
    );
    if (rows.length === 0) break;
    const terms = new Set<string>();
    const changed: { id: string; n: number; v: string }[] = [];
    for (const r of rows) {
      if (r.id !== id) {
        await keep(id, state);
        id = r.id;
        state = NO_STREAM;
      }
      let stream: string | undefined;
      if (r.line !== null) {
        try {
          const e = JSON.parse(r.line) as TranscriptEvent;
          stream = searchDoc(e, 0)?.stream;
        } catch {
          // a line that is not JSON has no document: not met here
        }
      }
      const frame = r.kind !== "stderr" && r.kind !== "lifecycle";
      const step = streamStep(state, { ...(stream === undefined ? {} : { stream }), body: r.body ?? "" }, frame);
      state = step.state;
      if (step.joined.split !== "" || step.joined.joints.some((j) => j !== ""))
        changed.push({ id: r.id, n: r.n, v: docVector(r.body ?? "", r.extra ?? "", r.error, terms, step.joined) });
    }
    if (changed.length > 0)
      await client.query(
        `UPDATE search_docs d SET tsv = x.v::tsvector FROM unnest($1::text[], $2::int[], $3::text[]) AS x(id, n, v)
         WHERE d.transcript_id = x.id AND d.line_no = x.n`,
        [changed.map((c) => c.id), changed.map((c) => c.n), changed.map((c) => c.v)],
      );
    await addTerms(client, terms);
    const last = rows.at(-1)!;
    after = [last.id, last.n];
  }
  await keep(id, state);
}
