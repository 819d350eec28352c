/**
 * A small forward-only migration runner: each migration is a version and SQL, applied once, in
 * order, inside one transaction that holds a transaction-level advisory lock, so instances that
 * start at the same time run them one after the other and the second finds nothing left to do.
 * A migration whose data must be made by the program (a search vector from the words as the
 * file store reads them) runs `then` after its SQL, in the same transaction.
 */
import type { ClientBase, Pool } from "pg";

export interface Migration {
  version: number;
  name: string;
  sql: string;
  /** Runs after `sql`, inside the migration's transaction (a failure rolls both back). */
  then?: (client: ClientBase) => Promise<void>;
}

/** The advisory lock's key: any fixed 64-bit number the library's tables own. */
const LOCK_KEY = 0x6163_7070_6c67; // "acpplg"

/** Applies the migrations not yet applied; returns the versions it applied. */
export async function migrate(pool: Pool, migrations: readonly Migration[]): Promise<number[]> {
  const sorted = [...migrations].sort((a, b) => a.version - b.version);
  for (let i = 1; i < sorted.length; i++)
    if (sorted[i]!.version === sorted[i - 1]!.version)
      throw new Error(`migration ${sorted[i]!.version} is listed twice`);
  const client = await pool.connect();
  // A dropped connection mid-transaction fails the query; the client's own "error" must not end the process.
  const heard = (err: Error) => console.error(`database: ${err.message}`);
  client.on("error", heard);
  try {
    await client.query("BEGIN");
    await client.query("SELECT pg_advisory_xact_lock($1)", [LOCK_KEY]);
    await client.query(
      `CREATE TABLE IF NOT EXISTS schema_migrations (
         version integer PRIMARY KEY, name text NOT NULL, applied_at timestamptz NOT NULL DEFAULT now())`,
    );
    const done = new Set(
      (await client.query<{ version: number }>("SELECT version FROM schema_migrations")).rows.map((r) => r.version),
    );
    const known = new Set(sorted.map((m) => m.version));
    const unknown = [...done].filter((v) => !known.has(v));
    if (unknown.length > 0)
      throw new Error(
        `the database has migration ${Math.max(...unknown)}, which this version does not know: it was made by a newer acp-playground`,
      );
    const applied: number[] = [];
    for (const m of sorted) {
      if (done.has(m.version)) continue;
      await client.query(m.sql);
      await m.then?.(client);
      await client.query("INSERT INTO schema_migrations (version, name) VALUES ($1, $2)", [m.version, m.name]);
      applied.push(m.version);
    }
    await client.query("COMMIT");
    return applied;
  } catch (err) {
    await client.query("ROLLBACK").catch(() => undefined);
    throw err;
  } finally {
    client.off("error", heard);
    client.release();
  }
}
