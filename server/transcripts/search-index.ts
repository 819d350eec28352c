/**
 * The library's search index: SQLite with FTS5 (better-sqlite3) in the store's directory, beside
 * the JSONL files, which stay the source of truth. It keeps, per transcript line, a document's
 * words (lib/features/library/search.ts says which), where the line is in its file (a hit's
 * context is read back from there, so the index holds no copy of the text), and each response's
 * latency. Files are read in chunks from where the last update stopped, so a recording is indexed
 * as it grows and memory stays bounded by the longest line kept, whatever the file's size.
 * Synchronous: the relay runs it in a worker thread (library-index.ts), the CLI in its own process.
 */
import type Database from "better-sqlite3";
import { closeSync, fstatSync, openSync, readdirSync, readSync, statSync } from "node:fs";
import path from "node:path";
import { isObject, str } from "../../lib/protocol/json";
import { inferKind, isTranscriptKind } from "../../lib/contracts/transcript-meta";
import type { AgentInfoEvent, TranscriptEvent, TranscriptHeader } from "../../lib/contracts/transcript";
import { TranscriptLines } from "../../lib/contracts/transcript-lines";
import {
  SEARCH_CANDIDATES,
  type IndexProgress,
  type LatencyAnswer,
  type LatencyQuery,
  type LibraryFilter,
  type SearchAnswer,
  type SearchHit,
  type SearchQuery,
} from "../../lib/contracts/library-search";
import { callTiming, latencyRows, matchLine, searchDoc } from "../../lib/features/library/search";
import { openIndex, purgeDeleted, type Statements } from "./search-index-db";
import { foldTerm, matchOf, NON_ASCII, readMetaFile, WORD_TOKEN } from "./search-index-lines";
import { streamStep } from "../../lib/features/library/joints";

export { INDEX_VERSION } from "./search-index-db";

export const INDEX_FILE = "search-index.sqlite";
/** A longer line (a frame can be up to the relay's line cap) is left out of the index, never held. */
const MAX_LINE_BYTES = 16 * 1024 * 1024;
const READ_CHUNK = 1024 * 1024;
const DEFAULT_LIMIT = 50;

/**
 * What one search may spend: full-text matches looked at, and milliseconds. A search past
 * either stops with the hits it has and says it was cut, so one costly query (many common
 * words, a filter that keeps little) cannot hold the index's thread, and every search behind it.
 */
export interface QueryBudget {
  steps: number;
  ms: number;
}
export const QUERY_BUDGET: QueryBudget = { steps: 2_000_000, ms: 2_000 };
class BudgetSpent extends Error {}

const DEMO_IDS = new Set(["demo-gemini"]);

const ASCII_GAP = /[^a-z0-9]+/;
/** Words remembered as already in the table of terms (a bound on the indexer's memory). */
const KNOWN_TERMS = 200_000;

/** Each filter's SQL over the transcripts table `t`, its value bound by the same name. */
const FILTER_CLAUSES = {
  agent: "t.agent = @agent",
  profile: "t.profile = @profile",
  kind: "t.kind = @kind",
  owner: "t.owner = @owner",
  from: "substr(t.created_at, 1, 10) >= @from",
  to: "substr(t.created_at, 1, 10) <= @to",
  transcript: "t.id = @transcript",
} as const;

export class SearchIndex {
  readonly file: string;
  private readonly db: Database.Database;
  private readonly stmt: Statements;
  /** Matches the running search has looked at, and when it must stop (see QUERY_BUDGET). */
  private steps = 0;
  private deadline = 0;
  /** The library as the last stale() found it: transcript files and their bytes. */
  private library = { docs: 0, bytes: 0 };
  /** Set when a transcript was removed: purge() then clears what it left behind. */
  private purgeDue = false;
  private readonly knownTerms = new Set<string>();
  private readonly nameIds = new Map<string, number>();
  private readonly idNames = new Map<number, string>();

  /** `dir`: the transcript store's directory. Opens the index there, rebuilding it when missing, unreadable, of another version or of a wrong schema. */
  constructor(
    readonly dir: string,
    private readonly budget: QueryBudget = QUERY_BUDGET,
  ) {
    this.file = path.join(dir, INDEX_FILE);
    ({ db: this.db, stmt: this.stmt } = openIndex(this.file));
    this.loadNames();
    this.purgeDue = this.stmt.getState.get("purge_due")?.value === 1;
    this.db.function("search_budget", { deterministic: false, varargs: false }, (_rowid: unknown) => {
      this.steps++;
      if (this.steps > this.budget.steps || (this.steps % 64 === 0 && performance.now() > this.deadline))
        throw new BudgetSpent();
      return 1;
    });
  }

  close(): void {
    this.db.close();
  }

  /** Ids whose file or meta changed since they were indexed (or are new); rows of files gone are removed. */
  stale(): string[] {
    const onDisk = new Set(
      readdirSync(this.dir)
        .filter((f) => f.endsWith(".jsonl"))
        .map((f) => f.slice(0, -".jsonl".length)),
    );
    const out: string[] = [];
    const known = new Map(this.stmt.rows.all().map((r) => [r.id, r]));
    for (const id of known.keys()) if (!onDisk.has(id)) this.remove(id);
    let bytes = 0;
    // Oldest first (an id starts with its creation time): a library indexed anew gives the newest the lowest rowids.
    for (const id of [...onDisk].sort()) {
      const row = known.get(id);
      try {
        const st = statSync(path.join(this.dir, `${id}.jsonl`));
        bytes += st.size;
        if (!row || st.size !== row.size || st.mtimeMs !== row.mtime || this.metaMtime(id) !== row.meta_mtime)
          out.push(id);
      } catch {
        // gone meanwhile: the next pass removes it
      }
    }
    this.library = { docs: onDisk.size, bytes };
    return out;
  }

  private metaMtime(id: string): number {
    try {
      return statSync(path.join(this.dir, `${id}.meta.json`)).mtimeMs;
    } catch {
      return 0;
    }
  }

  remove(id: string): void {
    const row = this.stmt.row.get(id);
    if (!row) return;
    this.db.transaction(() => {
      this.clear(row.tid);
      this.stmt.dropRow.run(row.tid);
    })();
  }

  /** Whether a removal left words and pages behind (purge() clears them). */
  get purgePending(): boolean {
    return this.purgeDue;
  }

  /**
   * Clears every trace of the transcripts removed since the last purge: their words in the
   * full-text segments and the table of terms, and the file's space (see purgeDeleted). Its
   * cost grows with the index (it rewrites the full-text segments), so the worker runs it when
   * idle, not per removal.
   */
  purge(): void {
    if (!this.purgeDue) return;
    purgeDeleted(this.db);
    this.knownTerms.clear();
    this.stmt.setState.run("purge_due", 0);
    this.purgeDue = false;
  }

  /** Drops a transcript's documents; what they leave in the index is due for purge() (kept in the file: a restart still purges). */
  private clear(tid: number): void {
    this.stmt.setState.run("purge_due", 1);
    this.purgeDue = true;
    this.stmt.clearFts.run(tid);
    this.stmt.clearDocs.run({ tid });
    this.stmt.clearCalls.run(tid);
    this.stmt.clearRow.run(tid);
  }

  /**
   * Indexes what is new in one transcript's file (and its meta), reading at most about
   * `budgetBytes`: true when it is up to date, false when there is more (call again).
   * A file that shrank or was replaced is indexed again from its start; one gone is removed.
   */
  update(id: string, budgetBytes = 8 * 1024 * 1024): boolean {
    const file = path.join(this.dir, `${id}.jsonl`);
    let fd: number;
    try {
      fd = openSync(file, "r");
    } catch {
      this.remove(id);
      return true;
    }
    try {
      // Immediate: the lowest rowid is read under the write lock (a second writer, the MCP server, waits).
      return this.db.transaction(() => this.updateFrom(id, fd, budgetBytes)).immediate();
    } catch (err) {
      // Rolled back: words and names remembered as inserted meanwhile may not be.
      this.knownTerms.clear();
      this.loadNames();
      throw err;
    } finally {
      closeSync(fd);
    }
  }

  private updateFrom(id: string, fd: number, budgetBytes: number): boolean {
    let row = this.stmt.row.get(id);
    if (!row) {
      this.stmt.insertRow.run(id);
      row = this.stmt.row.get(id)!;
    }
    const st = fstatSync(fd);
    let offset = row.offset;
    let lastSeq = row.last_seq;
    let stream = row.stream;
    let tail = row.tail;
    if (st.size < offset || (row.ino !== 0 && st.ino !== row.ino)) {
      this.clear(row.tid);
      offset = 0;
      lastSeq = 0;
      stream = "";
      tail = "";
    }
    const s = this.stmt;
    const tid = row.tid;
    // Each new document takes a rowid below every other: FTS5 reads a term's matches in rowid order
    // as a stream only ascending, so ascending is newest first and a search stops at its candidates.
    let rowid = s.lowest.get()!.low;
    const highest = rowid - 1;
    // Documents are inserted at the end, lowest rowid first: B-trees filled in ascending order are
    // packed full, where descending inserts leave pages half empty (twice the size, and slower).
    const pending: Array<Record<string, unknown> & { rowid: number; fts: string[] }> = [];
    // Whole lines from `offset`, in chunks, checked as the format says; a bad line (one longer than
    // MAX_LINE_BYTES is not even read) is left out, and a partial last line is read again next time.
    const reader = new TranscriptLines({ offset, line: offset === 0 ? 1 : 2, lastSeq, maxLineBytes: MAX_LINE_BYTES });
    const chunk = Buffer.alloc(Math.max(64 * 1024, Math.min(READ_CHUNK, budgetBytes)));
    let pos = offset;
    let read = 0;
    const line = (start: number, bytes: number, e: TranscriptHeader | TranscriptEvent) => {
      if (e.type === "header") return this.header(tid, e);
      if (e.type === "agent-info") return this.agentInfo(tid, e);
      // A line's place among the frames: the last frame's seq when it was written.
      if (e.type === "frame") lastSeq = e.seq;
      const doc = searchDoc(e, lastSeq);
      if (doc) {
        const step = streamStep({ stream, tail }, doc, e.type === "frame");
        const joined = step.joined;
        ({ stream, tail } = step.state);
        rowid--;
        pending.push({
          rowid,
          tid,
          seq: doc.seq,
          ts: doc.ts,
          dir: doc.dir === "to-agent" ? 1 : doc.dir === "from-agent" ? 2 : 0,
          kind: this.nameId(doc.kind),
          method: doc.method === undefined ? null : this.nameId(doc.method),
          field: this.nameId(doc.field),
          error: doc.error ? 1 : 0,
          off: start,
          len: bytes,
          fts: [
            doc.body,
            doc.extra,
            doc.error ? "error" : "",
            joined.split,
            joined.joints[0] ?? "",
            joined.joints[1] ?? "",
          ],
        });
        this.learn(doc.body);
        this.learn(doc.extra);
        if (joined.split) this.learn(joined.split);
      }
      const call = callTiming(e);
      if (call) s.call.run(tid, call.seq, call.method, call.dir, call.ms, call.error ? 1 : 0);
    };
    // Past the budget, reading goes on only until a first whole line is read (a line longer than the budget).
    while (pos < st.size && (read < budgetBytes || reader.offset === offset)) {
      const n = readSync(fd, chunk, 0, Math.min(chunk.length, st.size - pos), pos);
      if (n <= 0) break;
      read += n;
      for (const l of reader.push(chunk.subarray(0, n))) if (l.value) line(l.offset, l.bytes, l.value);
      pos += n;
    }
    for (let i = pending.length - 1; i >= 0; i--) {
      const { fts, ...doc } = pending[i]!;
      s.doc.run(doc);
      s.fts.run(doc.rowid, ...fts);
    }
    // Only whole lines count: a partial last line (still being written) is read again next time.
    const done = pos >= st.size;
    s.progress.run({
      tid,
      size: done ? st.size : -1,
      mtime: st.mtimeMs,
      ino: st.ino,
      offset: reader.offset,
      lastSeq: reader.lastSeq,
      stream,
      tail,
    });
    if (rowid <= highest) s.span.run({ tid, lo: rowid, hi: highest });
    this.meta(id, tid);
    return done;
  }

  /** The id of a kind, method or field name in the table of names (added when new). */
  private nameId(name: string): number {
    let id = this.nameIds.get(name);
    if (id === undefined) {
      id = this.stmt.addName.get(name)!.id;
      this.nameIds.set(name, id);
      this.idNames.set(id, name);
    }
    return id;
  }

  private loadNames(): void {
    this.nameIds.clear();
    this.idNames.clear();
    for (const { id, name } of this.stmt.names.all()) {
      this.nameIds.set(name, id);
      this.idNames.set(id, name);
    }
  }

  /** Keeps a text's words in the table of terms. */
  private learn(text: string): void {
    if (text === "") return;
    const lower = text.toLowerCase();
    // Most text is ASCII: its words are runs of [a-z0-9], as unicode61 cuts them, and need no folding.
    const ascii = !NON_ASCII.test(lower);
    const words = ascii ? lower.split(ASCII_GAP) : (lower.match(WORD_TOKEN) ?? []);
    for (const word of words) {
      if (word === "") continue;
      const term = ascii ? word : foldTerm(word);
      if (this.knownTerms.has(term)) continue;
      if (this.knownTerms.size >= KNOWN_TERMS) this.knownTerms.clear();
      this.knownTerms.add(term);
      this.stmt.term.run(term);
    }
  }

  private header(tid: number, h: TranscriptHeader): void {
    const profile = h.agent.profile;
    this.stmt.header.run({
      tid,
      title: (h.title ?? `${profile} ${h.createdAt.slice(0, 19).replace("T", " ")}`).slice(0, 500),
      profile: profile.slice(0, 200),
      kind: isTranscriptKind(h.kind) ? h.kind : h.tapped === true ? "tapped" : "session",
      createdAt: h.createdAt.slice(0, 40),
    });
  }

  /** The agent's name from an agent-info line, until the meta file says it. */
  private agentInfo(tid: number, e: AgentInfoEvent): void {
    const name = isObject(e.agentInfo) ? str(e.agentInfo.name) : undefined;
    if (name) this.stmt.agent.run(name.slice(0, 200), tid);
  }

  private meta(id: string, tid: number): void {
    const m = readMetaFile(path.join(this.dir, `${id}.meta.json`));
    const current = this.stmt.kind.get(tid)?.kind;
    const kind = inferKind(
      {
        id,
        kind: isTranscriptKind(m.kind)
          ? m.kind
          : isTranscriptKind(current) && current !== "session"
            ? current
            : undefined,
        uploaded: m.uploaded === "1",
        tapped: m.tapped === "1",
      },
      DEMO_IDS.has(id),
    );
    this.stmt.meta.run({
      tid,
      title: m.title ?? null,
      profile: m.profile ?? null,
      agent: m.agentName ?? null,
      kind,
      createdAt: m.createdAt ?? null,
      owner: m.owner ?? null,
      metaMtime: this.metaMtime(id),
    });
  }

  /** Brings every transcript up to date at once (tests, the CLI; the relay's worker does it in slices). */
  updateAll(): void {
    for (const id of this.stale()) while (!this.update(id));
    this.purge();
  }

  private where(f: LibraryFilter & { transcript?: string }, params: Record<string, unknown>): string[] {
    const clauses: string[] = [];
    for (const key of Object.keys(FILTER_CLAUSES) as Array<keyof typeof FILTER_CLAUSES>) {
      if (!f[key]) continue;
      clauses.push(FILTER_CLAUSES[key]);
      params[key] = f[key];
    }
    return clauses;
  }

  /**
   * Hits for a typed query, best first: the newest SEARCH_CANDIDATES matches passing the
   * filters, ranked by BM25 (the reader's text weighs more than other strings), each shown as
   * its matching line read back from the file.
   */
  search(q: SearchQuery): SearchAnswer {
    const started = performance.now();
    const words = matchOf(q.q, (start, n) =>
      this.stmt.termsFrom.all(start, `${start}\u{10FFFF}`, n).map((r) => r.term),
    );
    if (!words) return { hits: [], total: 0, more: false, tookMs: 0 };
    let cut = words.cut;
    // The errors filter inside the match: FTS5 steps over the documents that are no error.
    const match = q.errors ? `${words.match} AND {tags} : "error"` : words.match;
    const params: Record<string, unknown> = { match, cap: SEARCH_CANDIDATES + 1 };
    // search_budget counts each full-text match looked at, and ends the search past its budget.
    const clauses = ["fts MATCH @match", "search_budget(fts.rowid)"];
    const kept = this.where(q, params);
    if (kept.length > 0) {
      // Only the rowids of the transcripts the filters keep are read (documents take rowids per
      // transcript, oldest transcript first, so a date range is one stretch of them).
      const span = this.db
        .prepare<Record<string, unknown>, { lo: number | null; hi: number | null }>(
          `SELECT min(t.lo) AS lo, max(t.hi) AS hi FROM transcripts t WHERE ${kept.join(" AND ")}`,
        )
        .get(params)!;
      if (span.lo === null || span.hi === null) return { hits: [], total: 0, more: false, tookMs: 0 };
      clauses.push("fts.rowid BETWEEN @lo AND @hi", ...kept);
      params.lo = span.lo;
      params.hi = span.hi;
    }
    if (q.method) {
      clauses.push("d.method = @method");
      params.method = this.nameIds.get(q.method) ?? -1;
    }
    if (q.errors) clauses.push("d.error = 1");
    type Row = {
      seq: number;
      ts: number;
      dir: number;
      kind: number;
      method: number | null;
      field: number;
      error: number;
      off: number;
      len: number;
      id: string;
      title: string;
      profile: string;
      agent: string | null;
      tkind: string;
      created_at: string;
      score: number;
    };
    const rows: Row[] = [];
    this.steps = 0;
    this.deadline = started + this.budget.ms;
    try {
      const found = this.db
        .prepare<Record<string, unknown>, Row>(
          `SELECT d.seq, d.ts, d.dir, d.kind, d.method, d.field, d.error, d.off, d.len,
                t.id, t.title, t.profile, t.agent, t.kind AS tkind, t.created_at, bm25(fts, 6.0, 1.0, 0.0, 6.0, 1.0, 1.0) AS score
         FROM fts JOIN docs d ON d.rowid = fts.rowid JOIN transcripts t ON t.tid = d.tid
         WHERE ${clauses.join(" AND ")}
         ORDER BY fts.rowid LIMIT @cap`,
        )
        .iterate(params);
      for (const row of found) rows.push(row);
    } catch (err) {
      if (!(err instanceof BudgetSpent)) throw err;
      // The hits found so far are the newest matches: shown, and said to be a part.
      cut = [
        cut,
        `The search stopped after looking at ${this.steps.toLocaleString("en")} matches (its budget): results may be incomplete. Add words or filters to narrow it.`,
      ]
        .filter(Boolean)
        .join(" ");
    }
    const more = rows.length > SEARCH_CANDIDATES;
    if (more) rows.pop();
    // Best score first; among equals, the newest transcript, then the earliest frame.
    rows.sort((a, b) => a.score - b.score || b.created_at.localeCompare(a.created_at) || a.seq - b.seq);
    const hits = rows.slice(0, q.limit ?? DEFAULT_LIMIT).map((r): SearchHit => {
      const { line, marks } = this.context(r.id, r.off, r.len, q.q);
      return {
        transcript: {
          id: r.id,
          title: r.title,
          profile: r.profile,
          ...(r.agent ? { agentName: r.agent } : {}),
          kind: r.tkind,
          createdAt: r.created_at,
        },
        seq: r.seq,
        ts: r.ts,
        ...(r.dir ? { dir: r.dir === 1 ? "to-agent" : "from-agent" } : {}),
        frameKind: this.idNames.get(r.kind) ?? "",
        ...(r.method !== null ? { method: this.idNames.get(r.method) ?? "" } : {}),
        field: (this.idNames.get(r.field) ?? "frame") as SearchHit["field"],
        error: r.error === 1,
        line,
        marks,
      };
    });
    return {
      hits,
      total: rows.length,
      more,
      tookMs: Math.round(performance.now() - started),
      ...(cut === undefined ? {} : { cut }),
    };
  }

  /** A hit's matching line, read back from its file (a line that changed since shows nothing). */
  private context(id: string, off: number, len: number, q: string): { line: string; marks: [number, number][] } {
    let fd: number | undefined;
    try {
      fd = openSync(path.join(this.dir, `${id}.jsonl`), "r");
      const buf = Buffer.alloc(Math.min(len, MAX_LINE_BYTES));
      const n = readSync(fd, buf, 0, buf.length, off);
      // Read as any line past the header (its seq is not held against the frames before it).
      const lines = new TranscriptLines({ offset: off, line: 2, maxLineBytes: MAX_LINE_BYTES });
      const e = [...lines.push(buf.subarray(0, n)), ...lines.end()][0]?.value;
      const doc = e && e.type !== "header" ? searchDoc(e, 0) : undefined;
      if (!doc) return { line: "", marks: [] };
      return matchLine(`${doc.body}\n${doc.extra}`, q);
    } catch {
      return { line: "", marks: [] };
    } finally {
      if (fd !== undefined) closeSync(fd);
    }
  }

  /** Latency per method and direction over the transcripts the filter keeps. */
  latency(q: LatencyQuery): LatencyAnswer {
    const started = performance.now();
    const params: Record<string, unknown> = {};
    const clauses = this.where(q, params);
    const where = clauses.length ? `WHERE ${clauses.join(" AND ")}` : "";
    const calls = this.db
      .prepare<Record<string, unknown>, { method: string; dir: "to-agent" | "from-agent"; ms: number; error: number }>(
        `SELECT c.method, c.dir, c.ms, c.error FROM calls c JOIN transcripts t ON t.tid = c.tid ${where}`,
      )
      .all(params);
    const transcripts = this.db
      .prepare<Record<string, unknown>, { n: number }>(`SELECT count(*) AS n FROM transcripts t ${where}`)
      .get(params)!.n;
    const rows = latencyRows(calls.map((c) => ({ ...c, error: c.error === 1 })));
    return { rows, transcripts, tookMs: Math.round(performance.now() - started) };
  }

  /**
   * How far the index has got against the library as the last stale() found it: transcripts
   * read to their end, and bytes read (a file still being read counts up to where it stopped).
   */
  progress(): IndexProgress {
    const p = this.stmt.progressOf.get()!;
    return {
      indexedDocs: p.docs,
      totalDocs: Math.max(p.docs, this.library.docs),
      indexedBytes: p.bytes,
      totalBytes: Math.max(p.bytes, this.library.bytes),
    };
  }

  /** How many transcripts and documents are indexed (tests, the benchmark). */
  counts(): { transcripts: number; docs: number; calls: number } {
    const n = (table: string) => (this.db.prepare(`SELECT count(*) AS n FROM ${table}`).get() as { n: number }).n;
    return { transcripts: n("transcripts"), docs: n("docs"), calls: n("calls") };
  }
}
