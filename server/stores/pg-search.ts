/**
 * Full-text search of the team library on PostgreSQL, with the file store's answers
 * (server/transcripts/search-index.ts), over the lexemes of pg-lexemes.ts.
 *
 * A transcript's documents are found two ways. One that has ended has a row per document with its
 * tsvector (search_docs, GIN), made by the copier once it ended (pg-row-index.ts indexDocs): a
 * match is found without reading the lines around it. One still recording (or not indexed yet) is
 * found through its rows of lines, each with an index of its words and pairs (rowMatches in
 * pg-row-index.ts): that costs a recording a fifth of what a row per document cost
 * (docs/benchmarks.md). Both give the same documents, vectors and ranks.
 *
 * The newest SEARCH_CANDIDATES matches the filters keep are ranked, as the file store ranks them.
 * A search of the indexed documents is one statement, given half the budget; one that takes longer
 * is searched again in slices of transcripts, newest first, so one its budget ends still shows the
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
import { matchLine, searchDoc, searchTerms, type SearchDoc } from "../../lib/features/library/search";
import { NO_STREAM, streamStep, type StreamTail } from "../../lib/features/library/joints";
import type { TranscriptEvent } from "../../lib/contracts/transcript";
import { PREFIX_WORDS, typedWord } from "../transcripts/search-index-lines";
import { QUERY_BUDGET } from "../transcripts/search-index";
import { docVector, ERROR_TAG, pgQuery, PREFIXED_WORDS, queryNeed, rowClause, typedStart } from "./pg-lexemes";
import { rowMatches, storable } from "./pg-row-index";

export * from "./pg-lexemes";

const DEFAULT_LIMIT = 50;

/** The filters' clauses over `transcripts t`, their values appended to `params`. */
export function filterClauses(q: LibraryFilter & { transcript?: string }, params: unknown[]): string[] {
  const clauses: string[] = [];
  const add = (sql: string, value: string) => {
    params.push(storable(value));
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

/** Up to `limit` words of the table of terms that `start` begins, in order. */
async function wordsBegun(client: ClientBase, start: string, limit: number): Promise<string[]> {
  const { rows } = await client.query<{ term: string }>(
    "SELECT term FROM search_terms WHERE term >= $1 AND term < $2 ORDER BY term LIMIT $3",
    [start, `${start}\u{10FFFF}`, limit],
  );
  return rows.map((r) => r.term);
}

/** A match: its transcript, its line, its rank; its document when found in its row of lines. */
type Found = { id: string; n: number; rank: number; created_at: string; doc?: SearchDoc };
type Listed = { id: string; created_at: string; docs_indexed: boolean };

/**
 * Hits for a typed query: the newest SEARCH_CANDIDATES matches the filters keep, best ranked
 * first, as the file store answers. The transcripts whose documents are not indexed (recordings)
 * are searched first, through their rows (rowMatches), then the others through their documents:
 * each gives its newest matches, and the newest of both are kept. The documents are searched in one
 * statement over the whole library, given half of what is left of `budgetMs` (the file store's
 * QUERY_BUDGET); one that takes longer is searched again in slices of transcripts, newest first
 * (FIRST_SLICE, then growing; GIN gives matches in no order), as the rows always are; past the
 * budget no further slice starts and the one running is cancelled: the hits of the slices searched
 * are shown, and the answer says it stopped. The newest slice of each way is searched whatever the
 * budget (within QUERY_BUDGET.ms), so a tiny budget still shows the newest hits, also when an old
 * recording goes on. (Slices alone read a common word's whole list of matches once a slice: five
 * times slower.)
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
  const left = () => started + budgetMs - performance.now();
  /** What the newest slice of each way may take. */
  const firstLeft = () => started + Math.max(budgetMs, QUERY_BUDGET.ms) - performance.now();
  const fromRows: Found[] = [];
  const fromDocs: Found[] = [];
  let read: { query: string; cut?: string } | undefined;
  let searched = 0;
  let kept = 0;
  let stopped = false;
  let open = false;
  try {
    // One snapshot for every statement.
    await client.query(
      `BEGIN ISOLATION LEVEL REPEATABLE READ READ ONLY; ${timeout(Math.max(budgetMs, QUERY_BUDGET.ms))}`,
    );
    open = true;
    const begun = start === undefined ? undefined : await wordsBegun(client, start, PREFIX_WORDS + 1);
    read = pgQuery(q.q, begun);
    // The words begun may make a pair too long to hold: nothing holds it.
    if (!read) {
      await client.query("COMMIT");
      return { hits: [], total: 0, more: false, tookMs: Math.round(performance.now() - started) };
    }
    const tsquery = q.errors ? `${read.query} & '${ERROR_TAG}'` : read.query;
    const filters: unknown[] = [];
    const where = filterClauses(q, filters);
    const listed = (
      await client.query<Listed>(
        `SELECT t.id, t.created_at, t.docs_indexed FROM transcripts t ${where.length ? `WHERE ${where.join(" AND ")}` : ""}
         ORDER BY t.created_at DESC, t.id DESC`,
        filters,
      )
    ).rows;
    kept = listed.length;
    const recording = listed.filter((t) => !t.docs_indexed);
    const indexed = listed.filter((t) => t.docs_indexed);

    /** Searches `ts` in slices, newest first, until more than SEARCH_CANDIDATES matches; stops past the budget. */
    const inSlices = async (
      ts: Listed[],
      into: Found[],
      slice: (ids: Listed[], first: boolean) => Promise<Found[]>,
    ) => {
      let size = FIRST_SLICE;
      for (let done = 0; done < ts.length && into.length <= SEARCH_CANDIDATES;) {
        // The newest slice of each way (recordings, then the others: either may hold the newest
        // transcripts) whatever the budget, within QUERY_BUDGET.ms; the others within the budget.
        const first = done === 0;
        if (first) {
          if (firstLeft() <= 0) {
            stopped = true;
            return;
          }
          await bound(firstLeft());
        } else {
          if (left() <= 0) {
            stopped = true;
            return;
          }
          await bound(left());
        }
        const part = ts.slice(done, done + size);
        const sliceStarted = performance.now();
        const found = await slice(part, first);
        // Past the budget while this slice was read (not the first): it is not counted, as a cancelled one.
        if (!first && left() < 0) {
          stopped = true;
          return;
        }
        into.push(...found.slice(0, SEARCH_CANDIDATES + 1 - into.length));
        done += part.length;
        searched += part.length;
        const pace = Math.max(1, performance.now() - sliceStarted) / part.length;
        size = Math.max(size * SLICE_GROWTH, Math.floor(left() / 4 / pace));
      }
    };

    if (recording.length > 0) {
      // Looked for as a prefix: the rows holding one of the words it begins, when they can be listed.
      const prefixed =
        start === undefined || !begun || typedWord(start, begun).prefix !== true
          ? undefined
          : begun.length <= PREFIX_WORDS
            ? begun
            : await wordsBegun(client, start, PREFIXED_WORDS + 1);
      const need = queryNeed(q.q, begun, prefixed && prefixed.length <= PREFIXED_WORDS ? prefixed : undefined);
      const params: unknown[] = [undefined];
      const sql = rowClause(need, q.errors === true, params);
      const createdAt = new Map(recording.map((t) => [t.id, t.created_at]));
      await inSlices(recording, fromRows, async (part, first) => {
        const deadline = first ? started + Math.max(budgetMs, QUERY_BUDGET.ms) : started + budgetMs;
        const matches = await rowMatches(
          client,
          part.map((t) => t.id),
          { sql, params: params.slice(1) },
          need,
          { tsquery, ...(q.method ? { method: storable(q.method) } : {}), ...(q.errors ? { errors: true } : {}) },
          SEARCH_CANDIDATES + 1 - fromRows.length,
          () => performance.now() > deadline,
        );
        return matches.map((m) => ({ ...m, created_at: createdAt.get(m.id)! }));
      });
    }

    if (indexed.length > 0) {
      const matched = (more: unknown[]) => {
        const params: unknown[] = [tsquery, ...more];
        const clauses = ["d.tsv @@ $1::tsquery"];
        if (q.method) {
          params.push(storable(q.method));
          clauses.push(`d.method = $${params.length}`);
        }
        if (q.errors) clauses.push("d.error");
        return { params, clauses };
      };
      let whole = false;
      if (!stopped && left() >= 2 * MIN_WHOLE_MS) {
        const all = matched([]);
        all.clauses.push("t.docs_indexed", ...filterClauses(q, all.params));
        all.params.push(SEARCH_CANDIDATES + 1);
        // Cancelled, the savepoint takes the statement and its shorter timeout back: the slices follow.
        await client.query(`SAVEPOINT whole; ${timeout(left() / 2)}`);
        try {
          const { rows } = await client.query<Found>(
            `SELECT d.transcript_id AS id, d.line_no AS n, ts_rank(d.tsv, $1::tsquery) AS rank, t.created_at
             FROM search_docs d JOIN transcripts t ON t.id = d.transcript_id
             WHERE ${all.clauses.join(" AND ")}
             ORDER BY t.created_at DESC, t.id DESC, d.line_no DESC LIMIT $${all.params.length}`,
            all.params,
          );
          fromDocs.push(...rows);
          searched += indexed.length;
          whole = true;
        } catch (err) {
          if ((err as { code?: string }).code !== CANCELED) throw err;
          await client.query("ROLLBACK TO SAVEPOINT whole");
        }
      }
      if (!whole) {
        const { params, clauses } = matched([undefined, undefined]);
        clauses.push("d.transcript_id = ANY($2::text[])");
        await inSlices(indexed, fromDocs, async (part) => {
          params[1] = part.map((t) => t.id);
          params[2] = SEARCH_CANDIDATES + 1 - fromDocs.length;
          // Materialized: planned under the LIMIT, the join reads the slice's matches once per transcript.
          const { rows } = await client.query<Found>(
            `WITH m AS MATERIALIZED (
               SELECT d.transcript_id AS id, d.line_no AS n, ts_rank(d.tsv, $1::tsquery) AS rank
               FROM search_docs d WHERE ${clauses.join(" AND ")})
             SELECT m.*, t.created_at FROM m JOIN transcripts t ON t.id = m.id
             ORDER BY t.created_at DESC, t.id DESC, m.n DESC LIMIT $3`,
            params,
          );
          return rows;
        });
      }
    }
  } catch (err) {
    await client.query("ROLLBACK").catch(() => undefined);
    open = false;
    if ((err as { code?: string }).code !== CANCELED) throw err;
    stopped = true;
  }
  // The newest of both: each side's newest SEARCH_CANDIDATES + 1 hold them.
  const found = [...fromRows, ...fromDocs]
    .sort((a, b) => b.created_at.localeCompare(a.created_at) || b.id.localeCompare(a.id) || b.n - a.n)
    .slice(0, SEARCH_CANDIDATES + 1);
  const more = found.length > SEARCH_CANDIDATES;
  if (more) found.pop();
  // Best ranked first; among equals, the newest transcript, then the earliest line.
  found.sort((a, b) => b.rank - a.rank || b.created_at.localeCompare(a.created_at) || a.n - b.n);
  const top = found.slice(0, q.limit ?? DEFAULT_LIMIT);
  type Row = SearchDoc & { id: string; n: number };
  let rows: Row[] = [];
  let metas: { id: string; meta: TranscriptMeta }[] = [];
  if (top.length > 0) {
    // A cancelled statement ended the transaction: the hits are read in one of their own.
    if (!open) await client.query("BEGIN READ ONLY");
    open = true;
    await bound(QUERY_BUDGET.ms);
    const unread = top.filter((f) => !f.doc);
    if (unread.length > 0)
      ({ rows } = await client.query<Row>(
        `SELECT d.transcript_id AS id, d.line_no AS n, d.seq, d.ts, d.dir, d.kind, d.method, d.field, d.error,
           d.body, d.extra
         FROM unnest($1::text[], $2::int[]) AS x(id, n)
         JOIN search_docs d ON d.transcript_id = x.id AND d.line_no = x.n`,
        [unread.map((f) => f.id), unread.map((f) => f.n)],
      ));
    ({ rows: metas } = await client.query<{ id: string; meta: TranscriptMeta }>(
      "SELECT id, meta FROM transcripts WHERE id = ANY($1::text[])",
      [[...new Set(top.map((f) => f.id))]],
    ));
  }
  if (open) await client.query("COMMIT");
  const docOf = new Map(rows.map((r) => [`${r.n} ${r.id}`, r]));
  const metaOf = new Map(metas.map((r) => [r.id, r.meta]));
  const hits = top.flatMap((f): SearchHit[] => {
    const doc = f.doc ?? docOf.get(`${f.n} ${f.id}`);
    const m = metaOf.get(f.id);
    if (!doc || !m) return [];
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
