/**
 * Full-text search of the team library on PostgreSQL, with the file store's answers
 * (server/transcripts/search-index.ts): words are cut and folded as its SQLite tokenizer cuts
 * them (unicode61: letters and digits, lower case, accents removed), here in the program, so both
 * stores see the same words (PostgreSQL's own parser keeps `src/app.ts` or `a.b@c.d` whole).
 *
 * Each document's tsvector holds its words with their positions (weight A in the text a reader
 * looks for, B in the other strings), and each pair of adjacent words as one lexeme of its own
 * (`~read write`, no position). GIN keeps no positions, so a phrase matched through positions
 * alone is checked in every row holding all its words: two common words that never meet
 * read them all (3.6 s on 5,000 transcripts). A pair is in the index: a two-word phrase is one
 * lookup, a longer one the lookup of its pairs, then its positions checked in the few rows left.
 * A streamed chunk's document also holds what its edge joins (docVector), so a word or a phrase
 * cut by the edge is found as the file store finds it; a search slower than half its budget is
 * done again in slices of transcripts, newest first, so one its budget ends still shows the
 * newest (searchDocs).
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
import { matchLine, searchTerms } from "../../lib/features/library/search";
import { NO_STREAM, streamStep, type Joined, type StreamTail } from "../../lib/features/library/joints";
import { searchDoc } from "../../lib/features/library/search";
import type { TranscriptEvent } from "../../lib/contracts/transcript";
import { foldTerm, NON_ASCII, PREFIX_WORDS, typedWord } from "../transcripts/search-index-lines";
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
const TOKEN = /[\p{L}\p{N}\p{Co}]+/gu;
const ASCII_GAP = /[^a-z0-9]+/;
const DEFAULT_LIMIT = 50;

/** A text's words as the file store's tokenizer sees them. */
export function words(text: string): string[] {
  const lower = text.toLowerCase();
  if (!NON_ASCII.test(lower)) return lower.split(ASCII_GAP).filter((w) => w !== "");
  return (lower.match(TOKEN) ?? []).map(foldTerm).filter((w) => w !== "");
}

const fits = (lexeme: string) => lexeme.length * 4 <= MAX_LEXEME_BYTES || Buffer.byteLength(lexeme) <= MAX_LEXEME_BYTES;

/**
 * A document's tsvector, as PostgreSQL's input syntax: `body` and `extra` are two texts (a phrase
 * does not run from one into the other). Words hold only letters and digits, pairs and runs a
 * space and PAIR: quoting them is enough. An error is tagged (ERROR_TAG). Its words are added to
 * `terms` when given (the table of terms). A streamed chunk's `joined` (lib/features/library/
 * joints.ts) adds what its edge joins, as the file store's columns do: the word it cuts (a word of
 * its own, apart from the others), the pairs of its first joint (a phrase of two words across the
 * edge) and the runs of three words and more of its joints (JOINED: a longer phrase across it).
 */
export function docVector(body: string, extra: string, error: boolean, terms?: Set<string>, joined?: Joined): string {
  const positions = new Map<string, string[]>();
  const pairs = new Set<string>();
  let at = 0;
  const place = (word: string, weight: "A" | "B") => {
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
  const out: string[] = [];
  for (const [word, list] of positions) {
    out.push(`'${word}':${list.join(",")}`);
    terms?.add(word);
  }
  for (const pair of pairs) if (fits(pair)) out.push(`'${pair}'`);
  if (error) out.push(`'${ERROR_TAG}'`);
  return out.join(" ");
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
/** statement_timeout's unit: a budget below twice this has no half for a whole-library statement. */
const MIN_WHOLE_MS = 1;

const seconds = (ms: number) => (ms / 1000).toLocaleString("en", { maximumFractionDigits: 1 });

/**
 * Hits for a typed query: the newest SEARCH_CANDIDATES matches the filters keep, best ranked
 * first, as the file store answers. Most searches are one statement over the whole library,
 * given half of `budgetMs` (the file store's QUERY_BUDGET). One that takes longer is searched
 * again in slices of transcripts, newest first (FIRST_SLICE, then growing; GIN gives matches in
 * no order), until the candidates are found or every transcript was searched; past the budget
 * no further slice starts and the one running is cancelled by the database: the hits of the
 * slices searched are shown, and the answer says it stopped. The newest slice is searched
 * whatever the budget (within QUERY_BUDGET.ms), so a tiny budget still shows the newest hits.
 * (Slices alone read a common word's whole list of matches once a slice: five times slower.)
 */
export async function searchDocs(
  client: ClientBase,
  q: SearchQuery,
  budgetMs = QUERY_BUDGET.ms,
): Promise<SearchAnswer> {
  const started = performance.now();
  if (!pgQuery(q.q)) return { hits: [], total: 0, more: false, tookMs: 0 };
  const start = typedStart(q.q);
  type Found = { id: string; n: number; created_at: string; rank: number };
  type Row = {
    id: string;
    n: number;
    seq: number;
    ts: number;
    dir: SearchHit["dir"] | null;
    kind: string;
    method: string | null;
    field: SearchHit["field"];
    error: boolean;
    body: string;
    extra: string;
    meta: TranscriptMeta;
  };
  const timeout = (ms: number) => `SET LOCAL statement_timeout = ${Math.max(1, Math.round(ms))}`;
  const bound = (ms: number) => client.query(timeout(ms));
  const found: Found[] = [];
  let read: { query: string; cut?: string } | undefined;
  let searched = 0;
  let kept = 0;
  let stopped = false;
  /** The whole library was searched in one statement. */
  let done = false;
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
    const matched = (more: unknown[]) => {
      const params: unknown[] = [q.errors ? `${read!.query} & '${ERROR_TAG}'` : read!.query, ...more];
      const clauses = ["d.tsv @@ $1::tsquery"];
      if (q.method) {
        params.push(q.method);
        clauses.push(`d.method = $${params.length}`);
      }
      if (q.errors) clauses.push("d.error");
      return { params, clauses };
    };
    if (budgetMs >= 2 * MIN_WHOLE_MS) {
      const whole = matched([]);
      whole.clauses.push(...filterClauses(q, whole.params));
      whole.params.push(SEARCH_CANDIDATES + 1);
      // Cancelled, the savepoint takes the statement and its shorter timeout back: the slices follow.
      await client.query(`SAVEPOINT whole; ${timeout(budgetMs / 2)}`);
      try {
        const { rows } = await client.query<Found>(
          `SELECT d.transcript_id AS id, d.line_no AS n, ts_rank(d.tsv, $1::tsquery) AS rank, t.created_at
           FROM search_docs d JOIN transcripts t ON t.id = d.transcript_id
           WHERE ${whole.clauses.join(" AND ")}
           ORDER BY t.created_at DESC, t.id DESC, d.line_no DESC LIMIT $${whole.params.length}`,
          whole.params,
        );
        found.push(...rows);
        done = true;
      } catch (err) {
        if ((err as { code?: string }).code !== CANCELED) throw err;
        await client.query("ROLLBACK TO SAVEPOINT whole");
      }
    }
    const filters: unknown[] = [];
    const where = filterClauses(q, filters);
    const ids = done
      ? []
      : (
          await client.query<{ id: string }>(
            `SELECT t.id FROM transcripts t ${where.length ? `WHERE ${where.join(" AND ")}` : ""}
         ORDER BY t.created_at DESC, t.id DESC`,
            filters,
          )
        ).rows.map((r) => r.id);
    kept = ids.length;
    const { params, clauses } = matched([undefined, undefined]);
    clauses.push("d.transcript_id = ANY($2::text[])");
    let size = FIRST_SLICE;
    while (searched < ids.length && found.length <= SEARCH_CANDIDATES) {
      if (searched > 0) {
        const left = started + budgetMs - performance.now();
        if (left <= 0) {
          stopped = true;
          break;
        }
        await bound(left);
      }
      const slice = ids.slice(searched, searched + size);
      params[1] = slice;
      params[2] = SEARCH_CANDIDATES + 1 - found.length;
      const sliceStarted = performance.now();
      // Materialized: planned under the LIMIT, the join reads the slice's matches once per transcript.
      const { rows } = await client.query<Found>(
        `WITH m AS MATERIALIZED (
           SELECT d.transcript_id AS id, d.line_no AS n, ts_rank(d.tsv, $1::tsquery) AS rank
           FROM search_docs d WHERE ${clauses.join(" AND ")})
         SELECT m.*, t.created_at FROM m JOIN transcripts t ON t.id = m.id
         ORDER BY t.created_at DESC, m.n DESC LIMIT $3`,
        params,
      );
      found.push(...rows);
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
  found.sort((a, b) => b.rank - a.rank || b.created_at.localeCompare(a.created_at) || a.n - b.n);
  const top = found.slice(0, q.limit ?? DEFAULT_LIMIT);
  let rows: Row[] = [];
  if (top.length > 0) {
    // A cancelled statement ended the transaction: the hits' texts are read in one of their own.
    if (!open) await client.query("BEGIN READ ONLY");
    open = true;
    await bound(QUERY_BUDGET.ms);
    ({ rows } = await client.query<Row>(
      `SELECT d.transcript_id AS id, d.line_no AS n, d.seq, d.ts, d.dir, d.kind, d.method, d.field, d.error,
         d.body, d.extra, t.meta
       FROM unnest($1::text[], $2::int[]) AS x(id, n)
       JOIN search_docs d ON d.transcript_id = x.id AND d.line_no = x.n JOIN transcripts t ON t.id = d.transcript_id`,
      [top.map((f) => f.id), top.map((f) => f.n)],
    ));
  }
  if (open) await client.query("COMMIT");
  const byKey = new Map(rows.map((r) => [`${r.n} ${r.id}`, r]));
  const hits = top.flatMap((f): SearchHit[] => {
    const r = byKey.get(`${f.n} ${f.id}`);
    if (!r) return [];
    const inBody = matchLine(r.body, q.q);
    const shown = inBody.marks.length > 0 || !r.extra ? inBody : matchLine(r.extra, q.q);
    const m = r.meta;
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
        seq: r.seq,
        ts: r.ts,
        ...(r.dir ? { dir: r.dir } : {}),
        frameKind: r.kind,
        ...(r.method ? { method: r.method } : {}),
        field: r.field,
        error: r.error,
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
  await client.query(
    "INSERT INTO search_terms (term) SELECT t FROM unnest($1::text[]) AS t ORDER BY t ON CONFLICT DO NOTHING",
    [list],
  );
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
