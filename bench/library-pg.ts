/**
 * The team library on PostgreSQL against the embedded one, same library, same run: a generated
 * library (bench/library-gen.ts; `--transcripts 500 --mb 100` by default, `--transcripts 5000
 * --mb 1024` for the size) is indexed by SQLite (the file store's baseline) and copied
 * into a throw-away PostgreSQL cluster as `serve --database` copies it (PgCopy.sync,
 * `--copiers` at a time). Then a relay process serves each, one after the other, and
 * GET /api/transcripts and GET /api/search (the queries of bench/library.ts) are timed over HTTP,
 * `--runs` times each. Targets (issue #37): search p50 <= 200 ms, list <= 100 ms.
 *
 * `--migrate 1`: before serving, the copy is put back as a database written before migration 8
 * was (rows of lines without their index), then migration 8 (every row indexed, reading each
 * transcript's lines once) is run and timed, as an instance starting on that database runs it.
 *
 *   node --import tsx bench/library-pg.ts [--transcripts 500] [--mb 100] [--runs 20] [--copiers 4] [--migrate 1]
 */
import { mkdirSync, mkdtempSync, rmSync } from "node:fs";
import { loadavg, tmpdir } from "node:os";
import path from "node:path";
import pg from "pg";
import { rare, writeLibrary } from "./library-gen";
import { numberFlags, round, startRelayProcess, timedGet } from "./harness";
import { SearchIndex } from "../server/transcripts/search-index";
import { TranscriptStore } from "../server/transcripts/transcript-store";
import { PgCopy } from "../server/stores/pg-copy";
import { PgStore } from "../server/stores/pg-store";
import { migrate } from "../server/stores/pg-migrate";
import { MIGRATIONS } from "../server/stores/pg-schema";
import { transcriptLimits } from "../server/config";
import { startPgCluster } from "../test/pg-cluster";

const flags = numberFlags({ transcripts: 500, mb: 100, runs: 20, copiers: 4, migrate: 0 });
const TARGETS = { searchP50Ms: 200, listP50Ms: 100 };

const QUERIES = {
  rareWord: `/api/search?q=${rare(123_456)}`,
  commonWord: "/api/search?q=function",
  twoCommonWords: "/api/search?q=agent%20session",
  phrase: `/api/search?q=${encodeURIComponent('"read write"')}`,
  // Three words: their pairs are looked up, then their order checked in the rows holding both pairs.
  phraseOfThree: `/api/search?q=${encodeURIComponent('"the file is"')}`,
  prefix: "/api/search?q=laten",
  filtered: "/api/search?q=error&agent=claude-code&errors=1&from=2026-02-01&to=2026-04-30",
};

/** Times the list and the searches on a served relay. */
async function serve(url: string) {
  const timed = (route: string) => timedGet(url, route, flags.runs);
  const list = await timed("/api/transcripts");
  const searches: Record<string, unknown> = {};
  for (const [name, route] of Object.entries(QUERIES)) {
    const r = await timed(route);
    searches[name] = { p50: r.p50, p95: r.p95, max: r.max, matches: r.body.total, more: r.body.more };
  }
  return {
    listMs: { p50: list.p50, p95: list.p95, max: list.max, transcripts: list.body.transcripts.length },
    searches,
  };
}

/**
 * Puts a copied library back as it was before migration 8 (pg-schema.ts: rows of lines without
 * their index), then runs migration 8 as a starting instance would:
 * its seconds. (Migrations 5 to 7 were timed the same way before it: docs/benchmarks.md.)
 */
async function migrations(url: string): Promise<Record<string, number>> {
  const pool = new pg.Pool({ connectionString: url, max: 1 });
  try {
    let t = performance.now();
    for (const sql of [
      "DELETE FROM schema_migrations WHERE version >= 8",
      "DROP INDEX transcript_lines_terms",
      "ALTER TABLE transcript_lines DROP COLUMN terms, DROP COLUMN seq_before, DROP COLUMN joint_stream, DROP COLUMN joint_tail",
      "ALTER TABLE transcripts DROP COLUMN docs_indexed",
      "VACUUM ANALYZE",
    ])
      await pool.query(sql);
    const revertS = round((performance.now() - t) / 1000, 1);
    t = performance.now();
    const eight = await migrate(pool, MIGRATIONS);
    const migration8S = round((performance.now() - t) / 1000, 1);
    if (eight.join() !== "8") throw new Error(`expected migration 8 alone, ran ${eight.join()}`);
    await pool.query("VACUUM ANALYZE");
    console.error(`put back before migration 8 in ${revertS} s; migration 8 ${migration8S} s`);
    return { revertS, migration8S };
  } finally {
    await pool.end();
  }
}

const work = mkdtempSync(path.join(tmpdir(), "acp-bench-pg-"));
const cluster = await startPgCluster();
try {
  // 1. The library, generated; indexed by SQLite (the baseline).
  const data = path.join(work, "data");
  const dir = path.join(data, "transcripts");
  mkdirSync(dir, { recursive: true, mode: 0o700 });
  let t = performance.now();
  const bytes = writeLibrary(dir, flags.transcripts, flags.mb);
  console.error(`generated ${flags.transcripts} transcripts, ${round(bytes / 1024 / 1024, 1)} MiB`);
  t = performance.now();
  const index = new SearchIndex(dir);
  index.updateAll();
  index.close();
  const sqliteIndexS = round((performance.now() - t) / 1000, 1);

  // 2. Copied into PostgreSQL as serve --database copies it.
  t = performance.now();
  const db = await PgStore.open(cluster.url);
  const files = new TranscriptStore(data, {}, transcriptLimits({}));
  const copy = new PgCopy(files, db);
  const ids = files.list().map((m) => m.id);
  let next = 0;
  await Promise.all(
    Array.from({ length: flags.copiers }, async () => {
      while (next < ids.length) await copy.sync(ids[next++]!);
    }),
  );
  const pgCopyS = round((performance.now() - t) / 1000, 1);
  // Then their documents get rows of their own, as the copier gives them to ended transcripts.
  t = performance.now();
  await Promise.all(
    Array.from({ length: flags.copiers }, async () => {
      while ((await db.indexDocs()) !== undefined);
    }),
  );
  await db.pool.query("VACUUM ANALYZE");
  const pgIndexS = round((performance.now() - t) / 1000, 1);
  const size = await db.pool.query<{ bytes: string }>("SELECT pg_database_size(current_database()) AS bytes");
  await db.close();
  console.error(`SQLite index ${sqliteIndexS} s; PostgreSQL copy ${pgCopyS} s, its documents indexed ${pgIndexS} s`);
  const migrated = flags.migrate ? await migrations(cluster.url) : undefined;

  // 3. Served: the file store, then PostgreSQL (its relay's own data directory empty).
  const limits = { ACP_PLAYGROUND_TRANSCRIPTS_MAX_COUNT: "0", ACP_PLAYGROUND_TRANSCRIPTS_MAX_BYTES: "0" };
  const fileRelay = await startRelayProcess({}, { ACP_PLAYGROUND_DATA: data, ...limits });
  let fileStore: Awaited<ReturnType<typeof serve>>;
  try {
    fileStore = await serve(fileRelay.url);
  } finally {
    await fileRelay.close();
  }
  const pgRelay = await startRelayProcess({}, { ...limits, ACP_PLAYGROUND_DATABASE_URL: cluster.url });
  let postgres: Awaited<ReturnType<typeof serve>>;
  try {
    postgres = await serve(pgRelay.url);
  } finally {
    await pgRelay.close();
  }

  const searchP50s = Object.values(postgres.searches).map((s) => (s as { p50: number }).p50);
  console.log(
    JSON.stringify(
      {
        benchmark: "library-pg",
        transcripts: flags.transcripts,
        libraryMiB: round(bytes / 1024 / 1024, 1),
        runs: flags.runs,
        sqliteIndexS,
        pgCopyS,
        pgIndexS,
        pgDatabaseMiB: round(Number(size.rows[0]!.bytes) / 1024 / 1024, 1),
        ...(migrated ? { migrations: migrated } : {}),
        fileStore,
        postgres,
        loadAverage: loadavg().map((l) => round(l, 2)),
        targets: TARGETS,
        met: {
          search: Math.max(...searchP50s) <= TARGETS.searchP50Ms,
          list: postgres.listMs.p50 <= TARGETS.listP50Ms,
        },
      },
      null,
      2,
    ),
  );
} finally {
  cluster.stop();
  rmSync(work, { recursive: true, force: true });
}
