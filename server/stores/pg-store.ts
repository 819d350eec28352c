/**
 * The team library on PostgreSQL: the same answers as the embedded file store and its SQLite
 * index (server/stores/library-store.ts), for several relay instances on one database. Lines are
 * kept exactly as the recorder wrote them (already redacted); search uses PostgreSQL's full-text
 * machinery (tsvector, GIN) over the file store's words and shows hits as the SQLite index does
 * (server/stores/pg-search.ts).
 */
import { randomBytes } from "node:crypto";
import { hostname } from "node:os";
import pg from "pg";
import type { LatencyAnswer, LatencyQuery, SearchAnswer, SearchQuery } from "../../lib/contracts/library-search";
import { serialize, type TranscriptHeader } from "../../lib/contracts/transcript";
import type { ListFilter, TranscriptKind, TranscriptMeta } from "../../lib/contracts/transcript-meta";
import type { ProbeReport } from "../../lib/contracts/reports";
import type { ProbeReportMeta } from "../../lib/features/probe/export";
import { callTiming, latencyRows } from "../../lib/features/library/search";
import { NO_STREAM, type StreamTail } from "../../lib/features/library/joints";
import type { LibrarySearch, TranscriptLibrary } from "./library-store";
import { migrate } from "./pg-migrate";
import { MIGRATIONS } from "./pg-schema";
import { addTerms, docLexemes, filterClauses, searchDocs } from "./pg-search";
import { indexDocs, LineWalk, RowTerms } from "./pg-row-index";

const ID = /^[A-Za-z0-9_-]{1,80}$/;
const PROBE_ID = /^\d{8}-\d{6}-[0-9a-f]{8}$/;
/** How long an instance's lease lasts unless renewed (renewed every third of it). */
export const DEFAULT_LEASE_MS = 10_000;
/** Calls per INSERT when lines are saved. */
const BATCH = 2_000;
/** Rows of lines per INSERT when lines are saved. */
const ROWS_PER_INSERT = 16;
/**
 * About the most text a row of transcript_lines holds (a longer line has a row of its own): a
 * search reads a whole row to find the lines its index says may match (pg-row-index.ts rowMatches).
 */
const ROW_BYTES = 64 * 1024;
/** Words remembered as already in the table of terms. */
const KNOWN_TERMS = 200_000;
/** About how much of a transcript one query reads when it is streamed (at least a line). */
const STREAM_BYTES = 4 * 1024 * 1024;

/**
 * A client of the pool for a transaction. A checked-out client whose connection drops between
 * two queries (the server restarted) emits "error": unheard, that would end the process.
 */
async function checkout(pool: pg.Pool): Promise<pg.PoolClient> {
  const client = await pool.connect();
  const heard = (err: Error) => console.error(`database: ${err.message}`);
  client.on("error", heard);
  const release = client.release.bind(client);
  client.release = (err?: Error | boolean) => {
    client.off("error", heard);
    return release(err);
  };
  return client;
}

/** `work` in one transaction on a client of the pool: committed, or rolled back and thrown. */
async function transaction<T>(pool: pg.Pool, work: (client: pg.PoolClient) => Promise<T>): Promise<T> {
  const client = await checkout(pool);
  try {
    await client.query("BEGIN");
    const result = await work(client);
    await client.query("COMMIT");
    client.release();
    return result;
  } catch (err) {
    // A client whose ROLLBACK fails too is broken (its connection dropped): destroyed, not pooled.
    const broken = await client.query("ROLLBACK").then(
      () => undefined,
      (e: Error) => e,
    );
    client.release(broken);
    throw err;
  }
}

/** A transcript's lines, search documents and calls. */
async function deleteRows(client: pg.PoolClient, id: string): Promise<void> {
  for (const table of ["transcript_lines", "search_docs", "calls"])
    await client.query(`DELETE FROM ${table} WHERE transcript_id = $1`, [id]);
}

/**
 * A meta as jsonb text: a NUL or a lone surrogate in its strings (an agent's name, a title cut
 * inside an emoji) as U+FFFD, which jsonb refuses (JSON.stringify writes them as escapes).
 */
const metaJson = (meta: TranscriptMeta): string =>
  JSON.stringify(meta).replace(/(?<!\\)((?:\\\\)*)\\u(?:0000|d[89a-f][0-9a-f]{2})/g, "$1\\ufffd");

/** What a user changes about a transcript, kept when a recorder saves its counts again. */
const userChanges = (m: TranscriptMeta): Partial<TranscriptMeta> => ({
  ...(m.owner ? { owner: m.owner } : {}),
  // A saved comparison's side stays one whatever its recorder copies after.
  ...(m.kind === "compare" ? { kind: m.kind } : {}),
  ...(m.renamed ? { title: m.title, renamed: true } : {}),
  ...(m.shareToken && m.sharedAt
    ? { shareToken: m.shareToken, sharedAt: m.sharedAt, ...(m.shareShowsCommand ? { shareShowsCommand: true } : {}) }
    : {}),
});

/** A batch of lines as rows of transcript_lines (each with its index), their timed calls as columns, and their words. */
interface Rows {
  /** As columns: first line's number, how many, the lines, the index (an int4[] literal), where each starts. */
  rows: [number[], number[], string[], string[], number[], string[], string[]];
  calls: unknown[][];
  terms: Set<string>;
  /** The last frame's seq after the lines. */
  lastSeq: number;
  /** The message being streamed after the lines. */
  joint: Joint;
}

/** A transcript's message being streamed (kept in the database between saves), after its first `line` lines. */
interface Joint extends StreamTail {
  line: number;
}
const NO_JOINT: Joint = { line: 0, ...NO_STREAM };

/**
 * The rows of `lines`, numbered from `from`, given the message being streamed before `joint.line`:
 * lines before it are kept already (saved again after a commit whose answer was lost) and only
 * counted; past it (lines missing between), no message is joined across the gap. Each row holds
 * about ROW_BYTES of lines (a longer line one of its own), the index of its documents' words
 * (RowTerms) and where it starts (RowStart), so a search walks it alone as this walk does.
 */
function rowsOf(lines: readonly string[], from: number, seqBefore: number, joint: Joint): Rows {
  const walk = new LineWalk(seqBefore, from > joint.line ? NO_STREAM : joint);
  const rows: Rows["rows"] = [[], [], [], [], [], [], []];
  const calls: unknown[][] = Array.from({ length: 5 }, () => []);
  const terms = new Set<string>();
  const kept = Math.min(lines.length, Math.max(0, joint.line - from));
  for (let i = 0; i < kept; i++) walk.seq(lines[i]!);
  for (let at = kept; at < lines.length;) {
    let end = at;
    for (let bytes = 0; end < lines.length; end++) {
      const size = Buffer.byteLength(lines[end]!) + 1;
      if (end > at && bytes + size > ROW_BYTES) break;
      bytes += size;
    }
    const start = walk.start;
    const index = new RowTerms(start);
    for (let i = at; i < end; i++) {
      const n = from + i;
      const line = n === 0 ? undefined : walk.step(lines[i]!); // the header has no document
      if (!line) continue;
      if (line.doc) {
        const lexemes = docLexemes(line.doc.body, line.doc.extra, line.doc.error, line.joined, false);
        for (const word of lexemes.positions.keys()) terms.add(word);
        index.add(lexemes);
      }
      const call = callTiming(line.e);
      if (call) [n, call.method, call.dir, call.ms, call.error].forEach((v, k) => calls[k]!.push(v));
    }
    [
      from + at,
      end - at,
      lines.slice(at, end).join("\n"),
      index.literal(),
      start.seqBefore,
      start.stream.stream,
      start.stream.tail,
    ].forEach((v, k) => (rows[k] as unknown[]).push(v));
    at = end;
  }
  return {
    rows,
    calls,
    terms,
    lastSeq: walk.lastSeq,
    joint: { line: Math.max(joint.line, from + lines.length), ...walk.stream },
  };
}

/** The first row's header line, and the lines after it in that row (each ending in a newline). */
function headerApart(lines: string): { header: string; rest: string } {
  const nl = lines.indexOf("\n");
  return nl === -1 ? { header: lines, rest: "" } : { header: lines.slice(0, nl), rest: `${lines.slice(nl + 1)}\n` };
}

const sameJoint = (a: Joint, b: Joint) => a.line === b.line && a.stream === b.stream && a.tail === b.tail;

export interface PgOptions {
  /** The instance's lease (DEFAULT_LEASE_MS): a recording is marked crashed this long after its writer's last renewal. */
  leaseMs?: number;
  /** What one search may take (the file store's QUERY_BUDGET.ms): past it, it stops and says so. */
  searchBudgetMs?: number;
}

/** node-postgres' words for a server that asks for a password the URL does not give, said plainly. */
function explainConnectError(err: Error): never {
  if (/client password must be a string/.test(err.message))
    throw new Error(
      "the database asks for a password and the URL gives none: postgres://USER:PASSWORD@HOST/DB (docs/scaling.md)",
    );
  throw err;
}

export class PgStore implements TranscriptLibrary, LibrarySearch {
  /** Resolves once the migrations have run; rejects, saying why, when the database cannot be used. */
  readonly ready: Promise<void>;
  /** This instance, as the writer of its recordings. */
  readonly instance: string;
  /** False for a second handle on an instance started elsewhere (PgStore.writer): no lease of its own. */
  private readonly leased: boolean;
  private readonly leaseMs: number;
  private readonly searchBudgetMs: number | undefined;
  /** Words already in the table of terms (a bound on memory: KNOWN_TERMS). */
  private readonly knownTerms = new Set<string>();
  private leaseTimer: NodeJS.Timeout | undefined;
  private leaseFailing = false;
  /** The renewal under way, if any: close waits for it. */
  private renewing: Promise<unknown> = Promise.resolve();

  private constructor(
    /** Where it connects (the copier's thread opens a handle of its own: server/stores/pg-mirror.ts). */
    readonly url: string,
    readonly pool: pg.Pool,
    options: PgOptions,
    instance?: string,
  ) {
    this.instance = instance ?? randomBytes(12).toString("base64url");
    this.leased = instance === undefined;
    this.leaseMs = options.leaseMs ?? DEFAULT_LEASE_MS;
    this.searchBudgetMs = options.searchBudgetMs;
    // An idle client's error (the server restarted) must not take the relay down.
    pool.on("error", (err) => console.error(`database: ${err.message}`));
    // A second handle: its instance's own handle runs the migrations and renews the lease.
    if (!this.leased) {
      this.ready = Promise.resolve();
      return;
    }
    this.ready = migrate(pool, MIGRATIONS).then(async () => {
      // Recordings left by instances whose lease ran out are marked at start, then at every renewal.
      await this.renew();
      this.leaseTimer = setInterval(() => {
        this.renewing = this.renew().catch(() => undefined);
      }, this.leaseMs / 3).unref();
    });
    this.ready = this.ready.catch(explainConnectError);
    this.ready.catch(() => undefined); // seen by whoever awaits it
  }

  /** Connects now and runs the migrations not yet run (once, whatever other instances start meanwhile). */
  static connect(url: string, options: PgOptions = {}): PgStore {
    return new PgStore(url, new pg.Pool({ connectionString: url, max: 8, connectionTimeoutMillis: 5_000 }), options);
  }

  /**
   * A second handle on the instance `instance`, started elsewhere (the copier's thread): its saves
   * name that instance as their writer, whose own handle runs the migrations and renews the lease.
   */
  static writer(url: string, instance: string, max = 2): PgStore {
    return new PgStore(url, new pg.Pool({ connectionString: url, max, connectionTimeoutMillis: 5_000 }), {}, instance);
  }

  static async open(url: string, options: PgOptions = {}): Promise<PgStore> {
    const store = PgStore.connect(url, options);
    try {
      await store.ready;
    } catch (err) {
      await store.close();
      throw err;
    }
    return store;
  }

  /** Stops renewing and gives the lease back (what it still records is closed by then). */
  async close(): Promise<void> {
    clearInterval(this.leaseTimer);
    await this.renewing;
    if (this.leased)
      await this.pool.query("DELETE FROM instances WHERE id = $1", [this.instance]).catch(() => undefined);
    await this.pool.end();
  }

  /**
   * Renews this instance's lease, then marks as ended by a crash every recording whose writer
   * holds no lease (killed, or cut off from the database for longer than its lease: if it comes
   * back, its next copy says "recording" again). Time is the database's, one clock for all.
   */
  async renew(): Promise<string[]> {
    try {
      await this.pool.query(
        `INSERT INTO instances (id, host, pid, lease_until)
         VALUES ($1, $2, $3, clock_timestamp() + $4 * interval '1 millisecond')
         ON CONFLICT (id) DO UPDATE SET lease_until = EXCLUDED.lease_until`,
        [this.instance, hostname(), process.pid, this.leaseMs],
      );
      const { rows } = await this.pool.query<{ id: string }>(
        `UPDATE transcripts t SET writer = NULL, meta = t.meta || '{"recording": false, "endedBy": "crash"}'::jsonb
         WHERE (t.meta->>'recording') = 'true' AND NOT EXISTS (
           SELECT 1 FROM instances i WHERE i.id = t.writer AND i.lease_until > clock_timestamp())
         RETURNING t.id`,
      );
      await this.pool.query("DELETE FROM instances WHERE lease_until < clock_timestamp() - interval '1 hour'");
      if (this.leaseFailing) console.error("database: lease renewed again");
      this.leaseFailing = false;
      for (const { id } of rows)
        console.error(`database: transcript ${id}: its relay died while recording: marked ended by a crash`);
      return rows.map((r) => r.id);
    } catch (err) {
      if (!this.leaseFailing) console.error(`database: cannot renew this instance's lease: ${(err as Error).message}`);
      this.leaseFailing = true;
      throw err;
    }
  }

  /**
   * Saves a transcript's meta and `lines`, which are its lines from number `from` on (0: all of
   * them, header first, replacing what was kept; else appended, `lastSeq` the last frame's seq
   * before them). Lines already kept under their numbers are left as they are, so saving again
   * after a commit whose answer was lost (the database went away) duplicates nothing. Returns the
   * last frame's seq after them. What a user changed in the database (a rename, a share) outlives
   * the recorder's meta. The message being streamed is kept with the transcript (joint_*), so a
   * chunk continuing one saved before, by this instance or another, joins it (pg-search.ts).
   */
  async save(meta: TranscriptMeta, lines: readonly string[], from = 0, lastSeq = 0): Promise<number> {
    if (!ID.test(meta.id)) throw new Error(`bad transcript id: ${meta.id.slice(0, 80)}`);
    // The message a chunk continues may have been streamed in an earlier save, on any instance.
    const jointOf = (r?: { line: number; stream: string; tail: string }): Joint => (from === 0 || !r ? NO_JOINT : r);
    const JOINT_SQL = "joint_line AS line, joint_stream AS stream, joint_tail AS tail";
    const before = jointOf(
      from === 0
        ? undefined
        : (
            await this.pool.query<Joint>({
              name: "save-joint",
              text: `SELECT ${JOINT_SQL} FROM transcripts WHERE id = $1`,
              values: [meta.id],
            })
          ).rows[0],
    );
    let rows = rowsOf(lines, from, lastSeq, before);
    // Before the transaction: its new words are kept at once (a word kept for lines not saved harms nothing).
    const terms = [...rows.terms].filter((t) => !this.knownTerms.has(t));
    await addTerms(this.pool, terms);
    if (this.knownTerms.size + terms.length > KNOWN_TERMS) this.knownTerms.clear();
    for (const t of terms) this.knownTerms.add(t);
    return transaction(this.pool, async (client) => {
      const old = await client.query<{ meta: TranscriptMeta } & Joint>({
        name: "save-lock",
        text: `SELECT meta, ${JOINT_SQL} FROM transcripts WHERE id = $1 FOR UPDATE`,
        values: [meta.id],
      });
      // Another save of this transcript came between: its rows are made again from where that one left off.
      const locked = jointOf(old.rows[0]);
      if (!sameJoint(locked, before)) {
        rows = rowsOf(lines, from, lastSeq, locked);
        await addTerms(client, rows.terms);
      }
      const { writer: _writer, duplicateOf: _dup, ...plain } = meta;
      const stored = { ...plain, ...(old.rows[0] ? userChanges(old.rows[0].meta) : {}) };
      const { joint } = rows;
      await client.query({
        name: "save-transcript",
        // New lines: its documents (rows of their own once it has ended) are made again from its
        // rows. A save of its meta alone leaves them (the copier saves at every change of its files).
        text: `INSERT INTO transcripts (id, created_at, meta, writer, joint_line, joint_stream, joint_tail)
       VALUES ($1, $2, $3, $4, $5, $6, $7)
       ON CONFLICT (id) DO UPDATE SET meta = EXCLUDED.meta, created_at = EXCLUDED.created_at, writer = EXCLUDED.writer,
         joint_line = EXCLUDED.joint_line, joint_stream = EXCLUDED.joint_stream, joint_tail = EXCLUDED.joint_tail,
         docs_indexed = transcripts.docs_indexed AND NOT $8`,
        values: [
          meta.id,
          meta.createdAt,
          metaJson(stored),
          meta.recording ? this.instance : null,
          joint.line,
          joint.stream,
          joint.tail,
          rows.rows[0].length > 0,
        ],
      });
      if (from === 0) await deleteRows(client, meta.id);
      // Lines kept already (saved again after a commit whose answer was lost) are not in the rows.
      await this.insertLines(client, meta.id, rows);
      return rows.lastSeq;
    });
  }

  private async insertLines(client: pg.PoolClient, id: string, { rows, calls }: Rows): Promise<void> {
    // Each row's values as parameters of their own, several rows a statement, prepared once per
    // connection and count: a row's lines as one text, not in an array literal PostgreSQL would unescape.
    for (let at = 0; at < rows[0].length; at += ROWS_PER_INSERT) {
      const count = Math.min(ROWS_PER_INSERT, rows[0].length - at);
      const values: unknown[] = [id];
      const tuples: string[] = [];
      for (let i = at; i < at + count; i++) {
        const p = values.length;
        tuples.push(`($1, $${p + 1}, $${p + 2}, $${p + 3}, $${p + 4}::int4[], $${p + 5}, $${p + 6}, $${p + 7})`);
        values.push(...rows.map((column) => column[i]));
      }
      await client.query({
        name: `insert-lines-${count}`,
        text: `INSERT INTO transcript_lines (transcript_id, line_no, line_count, lines, terms, seq_before, joint_stream, joint_tail)
               VALUES ${tuples.join(", ")}`,
        values,
      });
    }
    for (let at = 0; at < calls[0]!.length; at += BATCH) {
      await client.query(
        `INSERT INTO calls (transcript_id, line_no, method, dir, ms, error)
         SELECT $1, * FROM unnest($2::int[], $3::text[], $4::text[], $5::float8[], $6::bool[])
         ON CONFLICT (transcript_id, line_no) DO NOTHING`,
        [id, ...calls.map((column) => column.slice(at, at + BATCH))],
      );
    }
  }

  async list(filter: ListFilter = {}): Promise<TranscriptMeta[]> {
    const owned = filter.owner !== undefined;
    const { rows } = await this.pool.query<{ meta: TranscriptMeta }>(
      `SELECT meta FROM transcripts ${owned ? "WHERE meta->>'owner' = $1" : ""} ORDER BY created_at DESC, id DESC`,
      owned ? [filter.owner] : [],
    );
    return rows.map((r) => r.meta);
  }

  async meta(id: string): Promise<TranscriptMeta | undefined> {
    if (!ID.test(id)) return undefined;
    const { rows } = await this.pool.query<{ meta: TranscriptMeta }>("SELECT meta FROM transcripts WHERE id = $1", [
      id,
    ]);
    return rows[0]?.meta;
  }

  async exists(id: string): Promise<boolean> {
    return (await this.meta(id)) !== undefined;
  }

  async read(id: string): Promise<string | undefined> {
    const meta = await this.meta(id);
    if (!meta) return undefined;
    const { rows } = await this.pool.query<{ lines: string }>(
      "SELECT lines FROM transcript_lines WHERE transcript_id = $1 ORDER BY line_no",
      [id],
    );
    if (rows.length === 0) return undefined;
    const { header, rest } = headerApart(rows[0]!.lines);
    return (
      serialize({ ...(JSON.parse(header) as TranscriptHeader), title: meta.title }) +
      rest +
      rows
        .slice(1)
        .map((r) => `${r.lines}\n`)
        .join("")
    );
  }

  /**
   * A transcript as `read` gives it, its header apart and the rest in chunks of whole lines of
   * about STREAM_BYTES: a reader holds a chunk, not the transcript (four readers of a 47 MiB one
   * read whole took 490 MiB). Undefined when it is not here.
   */
  async stream(id: string): Promise<{ header: TranscriptHeader; rest: AsyncIterable<string> } | undefined> {
    const meta = await this.meta(id);
    if (!meta) return undefined;
    const { rows } = await this.pool.query<{ lines: string }>(
      "SELECT lines FROM transcript_lines WHERE transcript_id = $1 AND line_no = 0",
      [id],
    );
    if (!rows[0]) return undefined;
    const { header, rest } = headerApart(rows[0].lines);
    const after = this.after(id, 0);
    return {
      header: { ...(JSON.parse(header) as TranscriptHeader), title: meta.title },
      rest: (async function* () {
        if (rest !== "") yield rest;
        yield* after;
      })(),
    };
  }

  /** Rows after line `from`, a query per chunk (no connection is held while the reader is slow). */
  private async *after(id: string, from: number): AsyncGenerator<string> {
    for (;;) {
      const { rows: sizes } = await this.pool.query<{ n: number; size: number }>(
        `SELECT line_no AS n, octet_length(lines) AS size FROM transcript_lines
         WHERE transcript_id = $1 AND line_no > $2 ORDER BY line_no LIMIT 4096`,
        [id, from],
      );
      if (sizes.length === 0) return;
      let bytes = 0;
      let last = sizes[0]!.n;
      for (const { n, size } of sizes) {
        if (bytes > 0 && bytes + size > STREAM_BYTES) break;
        bytes += size;
        last = n;
      }
      const { rows } = await this.pool.query<{ lines: string }>(
        "SELECT lines FROM transcript_lines WHERE transcript_id = $1 AND line_no > $2 AND line_no <= $3 ORDER BY line_no",
        [id, from, last],
      );
      yield rows.map((r) => `${r.lines}\n`).join("");
      from = last;
    }
  }

  own(id: string, owner: string): Promise<TranscriptMeta | undefined> {
    return this.update(id, (meta) => (meta.owner === owner ? meta : { ...meta, owner }));
  }

  /** Tags a transcript with what it turned out to be part of (a comparison's side). */
  tag(id: string, kind: TranscriptKind): Promise<TranscriptMeta | undefined> {
    return this.update(id, (meta) => (meta.kind === kind ? meta : { ...meta, kind }));
  }

  rename(id: string, title: string): Promise<TranscriptMeta | undefined> {
    return this.update(id, (meta) => ({ ...meta, title, renamed: true }));
  }

  /** As the file store's share: a link made now if there is none; `showCommand` as chosen. */
  share(id: string, options: { showCommand?: boolean } = {}): Promise<TranscriptMeta | undefined> {
    return this.update(id, (meta) => {
      const { shareShowsCommand: _old, ...rest } = meta;
      const show = options.showCommand ?? meta.shareShowsCommand ?? false;
      if (meta.shareToken && show === (meta.shareShowsCommand ?? false)) return meta;
      return {
        ...rest,
        shareToken: meta.shareToken ?? randomBytes(18).toString("base64url"),
        sharedAt: meta.sharedAt ?? new Date().toISOString(),
        ...(show ? { shareShowsCommand: true } : {}),
      };
    });
  }

  unshare(id: string): Promise<TranscriptMeta | undefined> {
    return this.update(id, ({ shareToken: _token, sharedAt: _at, shareShowsCommand: _show, ...meta }) => meta);
  }

  private async update(
    id: string,
    change: (meta: TranscriptMeta) => TranscriptMeta,
  ): Promise<TranscriptMeta | undefined> {
    if (!ID.test(id)) return undefined;
    return transaction(this.pool, async (client) => {
      const { rows } = await client.query<{ meta: TranscriptMeta }>(
        "SELECT meta FROM transcripts WHERE id = $1 FOR UPDATE",
        [id],
      );
      const meta = rows[0]?.meta;
      const next = meta && change(meta);
      if (next && next !== meta)
        await client.query("UPDATE transcripts SET meta = $2 WHERE id = $1", [id, metaJson(next)]);
      return next;
    });
  }

  async delete(id: string): Promise<boolean> {
    if (!ID.test(id)) return false;
    return transaction(this.pool, async (client) => {
      const { rowCount } = await client.query(
        "DELETE FROM transcripts WHERE id = $1 AND coalesce(meta->>'recording', 'false') <> 'true'",
        [id],
      );
      if (rowCount !== 1) return false;
      // Its rows (no foreign key deletes them: pg-schema.ts, migration 7), in statements after the
      // one that waited for a save's lock, so that they see that save's rows.
      await deleteRows(client, id);
      return true;
    });
  }

  /**
   * Gives the documents of one transcript that has ended rows of their own (pg-row-index.ts
   * indexDocs): its id, or undefined when none is left but those in `skip`. Any instance may; two
   * never take the same. A failure names its transcript (`transcript` on the error).
   */
  async indexDocs(skip: readonly string[] = []): Promise<string | undefined> {
    return transaction(this.pool, (client) => indexDocs(client, (terms) => addTerms(client, terms), skip));
  }

  /** Hits for a typed query (server/stores/pg-search.ts), within the search budget. */
  async search(q: SearchQuery): Promise<SearchAnswer> {
    const client = await checkout(this.pool);
    try {
      const answer = await searchDocs(client, q, this.searchBudgetMs);
      client.release();
      return answer;
    } catch (err) {
      client.release(err as Error);
      throw err;
    }
  }

  /** Latency per method and direction over the transcripts the filter keeps. */
  async latency(q: LatencyQuery): Promise<LatencyAnswer> {
    const started = performance.now();
    const params: unknown[] = [];
    const clauses = filterClauses(q, params);
    const where = clauses.length ? `WHERE ${clauses.join(" AND ")}` : "";
    const calls = await this.pool.query<{ method: string; dir: "to-agent" | "from-agent"; ms: number; error: boolean }>(
      `SELECT c.method, c.dir, c.ms, c.error FROM calls c JOIN transcripts t ON t.id = c.transcript_id ${where}`,
      params,
    );
    const count = await this.pool.query<{ n: number }>(`SELECT count(*)::int AS n FROM transcripts t ${where}`, params);
    return {
      rows: latencyRows(calls.rows),
      transcripts: count.rows[0]!.n,
      tookMs: Math.round(performance.now() - started),
    };
  }

  /** Keeps a probe report under its id (kept again: replaced). */
  async saveProbe(report: ProbeReport & { id: string }): Promise<void> {
    if (!PROBE_ID.test(report.id)) throw new Error(`bad probe report id: ${report.id.slice(0, 80)}`);
    await this.pool.query(
      "INSERT INTO probe_reports (id, report) VALUES ($1, $2) ON CONFLICT (id) DO UPDATE SET report = EXCLUDED.report",
      [report.id, report],
    );
  }

  async probe(id: string): Promise<ProbeReport | undefined> {
    if (!PROBE_ID.test(id)) return undefined;
    const { rows } = await this.pool.query<{ report: ProbeReport }>("SELECT report FROM probe_reports WHERE id = $1", [
      id,
    ]);
    return rows[0]?.report;
  }

  /** As the probe store lists them: newest first, without their rows. */
  async probes(): Promise<ProbeReportMeta[]> {
    const { rows } = await this.pool.query<ProbeReportMeta>(
      `SELECT id, report->>'profile' AS profile, report->'agent' AS agent, report->>'startedAt' AS "startedAt",
         (report->>'durationMs')::float8 AS "durationMs", jsonb_array_length(report->'rows') AS checks
       FROM probe_reports ORDER BY id DESC`,
    );
    return rows.map(({ agent, ...r }) => (agent ? { ...r, agent } : r));
  }

  async deleteProbe(id: string): Promise<boolean> {
    if (!PROBE_ID.test(id)) return false;
    return (await this.pool.query("DELETE FROM probe_reports WHERE id = $1", [id])).rowCount === 1;
  }
}
