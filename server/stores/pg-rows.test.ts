/**
 * How the team library keeps a transcript's rows on a throw-away PostgreSQL cluster (migrations 7
 * and 8): a save's lines in rows of about 64 KiB (a long line in one of its own), read and streamed
 * exactly as written;
 * a save made again after a lost commit keeps each line once; a library kept a line to a row before
 * it is read and appended to; a deleted transcript leaves no row behind (no foreign key does it).
 */
import pg from "pg";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { serialize, serializeFrame } from "../../lib/contracts/transcript";
import { pgSkipReason, startPgCluster, type PgCluster } from "../../test/pg-cluster";
import { migrate } from "./pg-migrate";
import { MIGRATIONS } from "./pg-schema";
import { PgStore } from "./pg-store";
import { headerLine, testMeta } from "../../test/transcripts";

const skip = pgSkipReason();
const CREATED = "2026-11-28T10:00:00.000Z";

const meta = (id: string, recording = false) => testMeta(id, CREATED, recording);
const header = (id: string) => headerLine(id, CREATED);
/** Odd seqs are prompts to the agent, even ones their answers (a timed call each), the text searchable. */
const frame = (seq: number, text = `prompt ${seq}`) =>
  serializeFrame(
    seq % 2 === 1
      ? {
          seq,
          ts: 1000 + seq,
          dir: "to-agent",
          kind: "request",
          method: "session/prompt",
          raw: JSON.stringify({
            jsonrpc: "2.0",
            id: seq,
            method: "session/prompt",
            params: { sessionId: "s", prompt: [{ type: "text", text }] },
          }),
        }
      : {
          seq,
          ts: 1000 + seq,
          dir: "from-agent",
          kind: "response",
          requestSeq: seq - 1,
          method: "session/prompt",
          latencyMs: 5,
          raw: JSON.stringify({ jsonrpc: "2.0", id: seq - 1, result: { stopReason: "end_turn" } }),
        },
  ).trimEnd();
const text = (lines: string[]) => lines.map((l) => `${l}\n`).join("");

describe.skipIf(skip !== undefined)("a transcript's rows on PostgreSQL", () => {
  let cluster: PgCluster;
  const stores: PgStore[] = [];
  const pools: pg.Pool[] = [];
  const open = async (url: string) => {
    const store = await PgStore.open(url);
    stores.push(store);
    return store;
  };
  /** The transcript as `stream` gives it, put together. */
  const streamed = async (store: PgStore, id: string) => {
    const s = (await store.stream(id))!;
    let out = serialize(s.header);
    for await (const part of s.rest) out += part;
    return out;
  };
  const rowsOf = async (store: PgStore, id: string) =>
    (
      await store.pool.query<{ rows: number; lines: number }>(
        "SELECT count(*)::int AS rows, coalesce(sum(line_count), 0)::int AS lines FROM transcript_lines WHERE transcript_id = $1",
        [id],
      )
    ).rows[0]!;

  beforeAll(async () => {
    cluster = await startPgCluster();
  }, 60_000);
  afterAll(async () => {
    await Promise.all([...stores.map((s) => s.close()), ...pools.map((p) => p.end())]);
    cluster?.stop();
  });

  it("keeps a save's lines in rows of about 64 KiB, a line longer than that in one of its own, and gives them back exactly", async () => {
    const store = await open(await cluster.database("packed"));
    const lines = [header("rec"), ...Array.from({ length: 300 }, (_, i) => frame(i + 1))];
    lines.push(
      // 1.2 MB in UTF-8, though 400,000 characters: the bound is in bytes.
      frame(301, "✓".repeat(400_000)),
      ...Array.from({ length: 10 }, (_, i) => frame(i + 302, "ünïcode ✓")),
    );
    await store.save(meta("rec"), lines);
    // 300 lines of about 250 bytes in two rows, the long line, the ten after it.
    expect(await rowsOf(store, "rec")).toEqual({ rows: 4, lines: 312 });
    expect(await store.read("rec")).toBe(text(lines));
    expect(await streamed(store, "rec")).toBe(text(lines));
    // Appended a save at a time, as a recording's copier saves.
    const more = Array.from({ length: 5 }, (_, i) => frame(i + 312));
    await store.save(meta("rec"), more.slice(0, 2), 312, 311);
    await store.save(meta("rec"), more.slice(2), 314, 313);
    expect(await rowsOf(store, "rec")).toEqual({ rows: 6, lines: 317 });
    expect(await store.read("rec")).toBe(text([...lines, ...more]));
    expect(await streamed(store, "rec")).toBe(text([...lines, ...more]));
  });

  it("keeps each line once when a save is made again after a lost commit, with the lines written since", async () => {
    const store = await open(await cluster.database("again"));
    const lines = [header("rec"), ...Array.from({ length: 8 }, (_, i) => frame(i + 1))];
    await store.save(meta("rec", true), lines.slice(0, 3));
    await store.save(meta("rec", true), lines.slice(3, 5), 3, 2);
    // Its answer lost: saved again from the same line, with what the recording wrote since.
    await store.save(meta("rec", true), lines.slice(3), 3, 2);
    expect(await rowsOf(store, "rec")).toEqual({ rows: 3, lines: 9 });
    expect(await store.read("rec")).toBe(text(lines));
    // The same hits and calls as the same lines saved once.
    await store.save(meta("once"), [header("once"), ...lines.slice(1)]);
    const { hits } = await store.search({ q: "prompt", limit: 100 });
    const seqs = (id: string) => hits.filter((h) => h.transcript.id === id).map((h) => h.seq);
    expect(seqs("once").sort()).toEqual([1, 3, 5, 7]);
    expect(seqs("rec").sort()).toEqual([1, 3, 5, 7]);
    const { rows: calls } = await store.pool.query<{ id: string; n: number }>(
      "SELECT transcript_id AS id, count(*)::int AS n FROM calls GROUP BY 1 ORDER BY 1",
    );
    expect(calls).toEqual([
      { id: "once", n: 4 },
      { id: "rec", n: 4 },
    ]);
  });

  it("reads a library kept a line to a row before migration 7, and appends to its recording", async () => {
    const url = await cluster.database("before_rows");
    const pool = new pg.Pool({ connectionString: url, max: 2 });
    pools.push(pool);
    await migrate(pool, MIGRATIONS.slice(0, 6));
    const lines = [header("rec"), frame(1), frame(2), frame(3)];
    await pool.query("INSERT INTO transcripts (id, created_at, meta, joint_line) VALUES ('rec', $1, $2, $3)", [
      CREATED,
      meta("rec", true),
      lines.length,
    ]);
    for (const [n, line] of lines.entries())
      await pool.query("INSERT INTO transcript_lines (transcript_id, line_no, line) VALUES ('rec', $1, $2)", [n, line]);
    const store = await open(url);
    expect(await store.read("rec")).toBe(text(lines));
    expect(await streamed(store, "rec")).toBe(text(lines));
    const more = [frame(4), frame(5)];
    await store.save(meta("rec"), more, 4, 3);
    expect(await rowsOf(store, "rec")).toEqual({ rows: 5, lines: 6 });
    expect(await streamed(store, "rec")).toBe(text([...lines, ...more]));
  });

  it("deletes a transcript's lines and calls with it", async () => {
    const store = await open(await cluster.database("deleted"));
    for (const id of ["gone", "kept"]) await store.save(meta(id), [header(id), frame(1), frame(2)]);
    expect(await store.delete("gone")).toBe(true);
    for (const table of ["transcript_lines", "calls"]) {
      const { rows } = await store.pool.query<{ id: string }>(`SELECT DISTINCT transcript_id AS id FROM ${table}`);
      expect(rows.map((r) => r.id)).toEqual(["kept"]);
    }
    expect(await store.read("gone")).toBeUndefined();
  });
});
