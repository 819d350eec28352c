/**
 * The search index's SQLite file: its schema, its prepared statements, and how it is opened.
 * The file is only an index (the JSONL files are the truth), so one that is missing, not a
 * database, of another version or whose statements do not prepare (a wrong schema) is made
 * again from nothing, never left broken.
 */
import Database from "better-sqlite3";
import { chmodSync, rmSync } from "node:fs";

/** Bumped whenever what is indexed changes: an index of another version is rebuilt from the files. */
export const INDEX_VERSION = 7;

export interface TranscriptRow {
  tid: number;
  id: string;
  size: number;
  mtime: number;
  meta_mtime: number;
  ino: number;
  offset: number;
  last_seq: number;
  stream: string;
  tail: string;
}

const SCHEMA = `
CREATE TABLE transcripts (
  tid INTEGER PRIMARY KEY, id TEXT NOT NULL UNIQUE,
  title TEXT NOT NULL DEFAULT '', profile TEXT NOT NULL DEFAULT '', agent TEXT, kind TEXT NOT NULL DEFAULT 'session',
  created_at TEXT NOT NULL DEFAULT '', owner TEXT,
  size INTEGER NOT NULL DEFAULT 0, mtime REAL NOT NULL DEFAULT 0, meta_mtime REAL NOT NULL DEFAULT 0, ino INTEGER NOT NULL DEFAULT 0,
  offset INTEGER NOT NULL DEFAULT 0, last_seq INTEGER NOT NULL DEFAULT 0,
  -- The lowest and highest rowid of its documents (none: NULL): a filter on transcripts bounds a search's rowids.
  lo INTEGER, hi INTEGER,
  -- The message its last chunk streamed, and that message's last words (see JOINTS).
  stream TEXT NOT NULL DEFAULT '', tail TEXT NOT NULL DEFAULT ''
);
-- A document's frame: dir 0 none, 1 to-agent, 2 from-agent; kind, method and field are ids in names
-- (a row of small integers is a third of one with the strings). No index on tid: a transcript's
-- documents are found within its rowids (transcripts.lo..hi).
CREATE TABLE docs (
  rowid INTEGER PRIMARY KEY, tid INTEGER NOT NULL, seq INTEGER NOT NULL, ts INTEGER NOT NULL,
  dir INTEGER NOT NULL, kind INTEGER NOT NULL, method INTEGER, field INTEGER NOT NULL, error INTEGER NOT NULL,
  off INTEGER NOT NULL, len INTEGER NOT NULL
);
CREATE TABLE names (id INTEGER PRIMARY KEY, name TEXT NOT NULL UNIQUE);
-- tags: "error" for an error (the errors filter, inside the match); split, j1, j2: see JOINTS.
CREATE VIRTUAL TABLE fts USING fts5(body, extra, tags, split, j1, j2, content='', contentless_delete=1, tokenize='unicode61 remove_diacritics 2');
CREATE TABLE calls (tid INTEGER NOT NULL, seq INTEGER NOT NULL, method TEXT NOT NULL, dir TEXT NOT NULL, ms REAL NOT NULL, error INTEGER NOT NULL);
CREATE INDEX calls_tid ON calls(tid);
CREATE TABLE terms (term TEXT PRIMARY KEY) WITHOUT ROWID;
-- purge_due: 1 while a removal's traces are left to purge (survives a restart).
CREATE TABLE state (key TEXT PRIMARY KEY, value INTEGER NOT NULL) WITHOUT ROWID;
`;

/** Every statement the index runs more than once, prepared when it opens (a wrong schema fails here). */
function statements(db: Database.Database) {
  return {
    row: db.prepare<[string], TranscriptRow>(
      "SELECT tid, id, size, mtime, meta_mtime, ino, offset, last_seq, stream, tail FROM transcripts WHERE id = ?",
    ),
    rows: db.prepare<[], TranscriptRow>(
      "SELECT tid, id, size, mtime, meta_mtime, ino, offset, last_seq, stream, tail FROM transcripts",
    ),
    insertRow: db.prepare("INSERT INTO transcripts (id) VALUES (?)"),
    header: db.prepare(
      "UPDATE transcripts SET title = @title, profile = @profile, kind = @kind, created_at = @createdAt WHERE tid = @tid",
    ),
    meta: db.prepare(
      "UPDATE transcripts SET title = coalesce(@title, title), profile = coalesce(@profile, profile), agent = coalesce(@agent, agent), kind = @kind, created_at = coalesce(@createdAt, created_at), owner = @owner, meta_mtime = @metaMtime WHERE tid = @tid",
    ),
    agent: db.prepare("UPDATE transcripts SET agent = ? WHERE tid = ?"),
    kind: db.prepare<[number], { kind: string }>("SELECT kind FROM transcripts WHERE tid = ?"),
    progress: db.prepare(
      "UPDATE transcripts SET size = @size, mtime = @mtime, ino = @ino, offset = @offset, last_seq = @lastSeq, stream = @stream, tail = @tail WHERE tid = @tid",
    ),
    doc: db.prepare(
      "INSERT INTO docs (rowid, tid, seq, ts, dir, kind, method, field, error, off, len) VALUES (@rowid, @tid, @seq, @ts, @dir, @kind, @method, @field, @error, @off, @len)",
    ),
    // Rowids count down from 2^32 (a positive rowid takes 5 bytes where a negative one takes 9).
    lowest: db.prepare<[], { low: number }>("SELECT coalesce(min(rowid), 4294967296) AS low FROM docs"),
    names: db.prepare<[], { id: number; name: string }>("SELECT id, name FROM names"),
    addName: db.prepare<[string], { id: number }>("INSERT INTO names (name) VALUES (?) RETURNING id"),
    fts: db.prepare("INSERT INTO fts (rowid, body, extra, tags, split, j1, j2) VALUES (?, ?, ?, ?, ?, ?, ?)"),
    span: db.prepare(
      "UPDATE transcripts SET lo = min(coalesce(lo, @lo), @lo), hi = max(coalesce(hi, @hi), @hi) WHERE tid = @tid",
    ),
    clearRow: db.prepare("UPDATE transcripts SET lo = NULL, hi = NULL, stream = '', tail = '' WHERE tid = ?"),
    term: db.prepare("INSERT OR IGNORE INTO terms (term) VALUES (?)"),
    termsFrom: db.prepare<[string, string, number], { term: string }>(
      "SELECT term FROM terms WHERE term >= ? AND term < ? ORDER BY term LIMIT ?",
    ),
    progressOf: db.prepare<[], { docs: number; bytes: number }>(
      "SELECT count(*) FILTER (WHERE size >= 0 AND offset > 0) AS docs, coalesce(sum(CASE WHEN size >= 0 THEN size ELSE offset END), 0) AS bytes FROM transcripts",
    ),
    setState: db.prepare("INSERT OR REPLACE INTO state (key, value) VALUES (?, ?)"),
    getState: db.prepare<[string], { value: number }>("SELECT value FROM state WHERE key = ?"),
    call: db.prepare("INSERT INTO calls (tid, seq, method, dir, ms, error) VALUES (?, ?, ?, ?, ?, ?)"),
    clearFts: db.prepare(
      "DELETE FROM fts WHERE rowid IN (SELECT d.rowid FROM transcripts t JOIN docs d ON d.rowid BETWEEN t.lo AND t.hi AND d.tid = t.tid WHERE t.tid = ?)",
    ),
    clearDocs: db.prepare(
      "DELETE FROM docs WHERE rowid BETWEEN (SELECT lo FROM transcripts WHERE tid = @tid) AND (SELECT hi FROM transcripts WHERE tid = @tid) AND tid = @tid",
    ),
    clearCalls: db.prepare("DELETE FROM calls WHERE tid = ?"),
    dropRow: db.prepare("DELETE FROM transcripts WHERE tid = ?"),
  };
}

export type Statements = ReturnType<typeof statements>;

function connect(file: string): Database.Database {
  const db = new Database(file);
  try {
    // Private like the transcripts (SQLite gives its -wal and -shm files the same mode).
    chmodSync(file, 0o600);
    db.pragma("journal_mode = WAL");
    db.pragma("busy_timeout = 5000");
    db.pragma("synchronous = NORMAL");
    // A deleted transcript's words are overwritten where they lay (not only unlinked).
    db.pragma("secure_delete = FAST");
    return db;
  } catch (err) {
    db.close();
    throw err;
  }
}

/** Empties the file and lays out the schema (incremental vacuum can only be chosen on an empty file). */
function rebuild(db: Database.Database): void {
  const tables = db
    .prepare<[], { name: string; sql: string | null }>(
      "SELECT name, sql FROM sqlite_master WHERE type = 'table' AND name NOT LIKE 'sqlite_%'",
    )
    .all();
  // Virtual tables first: they drop their own shadow tables.
  tables.sort((a, b) => Number(/^CREATE VIRTUAL/i.test(b.sql ?? "")) - Number(/^CREATE VIRTUAL/i.test(a.sql ?? "")));
  for (const t of tables) db.exec(`DROP TABLE IF EXISTS "${t.name.replaceAll('"', '""')}"`);
  db.pragma("auto_vacuum = INCREMENTAL");
  db.exec("VACUUM");
  db.exec(SCHEMA);
  db.pragma(`user_version = ${INDEX_VERSION}`);
}

/**
 * Version 6 lacked the transcripts' owners (the search's owner filter): the column is added and
 * every meta file read again at the next update, the transcripts' words left as they are.
 */
function addOwners(db: Database.Database): void {
  db.transaction(() => {
    db.exec("ALTER TABLE transcripts ADD COLUMN owner TEXT");
    db.exec("UPDATE transcripts SET meta_mtime = -1");
    db.pragma(`user_version = ${INDEX_VERSION}`);
  })();
}

/** Opens the index file, rebuilding it when missing, unreadable, of another version or of a wrong schema. */
export function openIndex(file: string): { db: Database.Database; stmt: Statements } {
  for (let attempt = 0; ; attempt++) {
    let db: Database.Database | undefined;
    try {
      db = connect(file);
      const version = db.pragma("user_version", { simple: true });
      if (version === 6) addOwners(db);
      else if (version !== INDEX_VERSION) rebuild(db);
      return { db, stmt: statements(db) };
    } catch (err) {
      db?.close();
      if (attempt > 0) throw err;
      // Not a database (a crash mid-write, a stray file) or not ours: it is only an index, made again.
      for (const f of [file, `${file}-wal`, `${file}-shm`]) rmSync(f, { force: true });
    }
  }
}

/**
 * Removes what deleted transcripts left behind: their entries in the full-text index's
 * segments (a contentless table only marks them deleted until its segments merge), their words
 * in the table of terms, the pages they took (given back to the file system) and the
 * write-ahead log that held them.
 */
export function purgeDeleted(db: Database.Database): void {
  db.exec("INSERT INTO fts (fts) VALUES ('optimize')");
  db.exec("CREATE VIRTUAL TABLE IF NOT EXISTS temp.vocab USING fts5vocab(main, fts, 'row')");
  db.exec("DELETE FROM terms WHERE term NOT IN (SELECT term FROM temp.vocab)");
  db.pragma("incremental_vacuum");
  db.pragma("wal_checkpoint(TRUNCATE)");
}
