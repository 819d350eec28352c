/**
 * The migration runner on a throw-away PostgreSQL cluster: versions run once, in order, and two
 * runners starting at the same moment never run one twice.
 */
import pg from "pg";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { pgSkipReason, startPgCluster, type PgCluster } from "../../test/pg-cluster";
import { migrate, type Migration } from "./pg-migrate";

const skip = pgSkipReason();

describe.skipIf(skip !== undefined)("pg migrations", () => {
  let cluster: PgCluster;
  const pools: pg.Pool[] = [];
  const pool = async (db: string) => {
    const p = new pg.Pool({ connectionString: await cluster.database(db), max: 2 });
    pools.push(p);
    return p;
  };
  beforeAll(async () => {
    cluster = await startPgCluster();
  }, 60_000);
  afterAll(async () => {
    await Promise.all(pools.map((p) => p.end()));
    cluster?.stop();
  });

  // Each migration counts its runs; the slow one keeps the first runner inside its transaction
  // while the second arrives. CREATE TABLE fails if a migration runs twice.
  const migrations: Migration[] = [
    { version: 1, name: "runs", sql: "CREATE TABLE runs (version int); INSERT INTO runs VALUES (1)" },
    { version: 2, name: "slow", sql: "SELECT pg_sleep(0.5); CREATE TABLE two (x int); INSERT INTO runs VALUES (2)" },
  ];

  it("runs each version once when two instances start at the same time", async () => {
    const a = await pool("race");
    const b = new pg.Pool({ connectionString: (a.options as { connectionString: string }).connectionString, max: 2 });
    pools.push(b);
    const [first, second] = await Promise.all([migrate(a, migrations), migrate(b, migrations)]);
    expect([first, second].sort((x, y) => y.length - x.length)).toEqual([[1, 2], []]);
    const runs = await a.query<{ version: number }>("SELECT version FROM runs ORDER BY version");
    expect(runs.rows.map((r) => r.version)).toEqual([1, 2]);
    const done = await a.query<{ version: number }>("SELECT version FROM schema_migrations ORDER BY version");
    expect(done.rows.map((r) => r.version)).toEqual([1, 2]);
  });

  it("adds only new versions, forward only, and refuses a database made by a newer version", async () => {
    const p = await pool("forward");
    expect(await migrate(p, migrations.slice(0, 1))).toEqual([1]);
    expect(await migrate(p, migrations)).toEqual([2]);
    expect(await migrate(p, migrations)).toEqual([]);
    await expect(migrate(p, migrations.slice(0, 1))).rejects.toThrow(/migration 2, which this version does not know/);
  });

  it("rolls a failed migration back whole", async () => {
    const p = await pool("failing");
    const bad: Migration = { version: 3, name: "bad", sql: "CREATE TABLE three (x int); SELECT nonsense" };
    await expect(migrate(p, [...migrations, bad])).rejects.toThrow(/nonsense/);
    const tables = await p.query("SELECT 1 FROM information_schema.tables WHERE table_name IN ('runs', 'three')");
    expect(tables.rowCount).toBe(0);
    expect(await migrate(p, migrations)).toEqual([1, 2]);
  });
});
