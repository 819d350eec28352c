/**
 * PG_EXPERIMENT: SQL run once the migrations have (one simple query: several statements and
 * function bodies allowed), to see what a part of the schema costs in bench/pg-save.ts and
 * bench/team-recording.ts (e.g. `DROP INDEX transcript_lines_terms`: the search index's share).
 */
import pg from "pg";
import { PgStore } from "../server/stores/pg-store";

export const PG_EXPERIMENT = process.env.PG_EXPERIMENT ?? "";

/** Runs the migrations on a new database, then PG_EXPERIMENT. */
export async function migrateThenExperiment(url: string): Promise<void> {
  await (await PgStore.open(url)).close();
  if (PG_EXPERIMENT.trim() === "") return;
  const client = new pg.Client({ connectionString: url });
  await client.connect();
  try {
    await client.query(PG_EXPERIMENT);
  } finally {
    await client.end();
  }
}
