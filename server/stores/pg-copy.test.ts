import { mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { afterAll, describe, expect, it, vi } from "vitest";
import { pgSkipReason, startPgCluster } from "../../test/pg-cluster";
import { headerLine, messageChunk, testMeta } from "../../test/transcripts";
import { transcriptLimits } from "../config";
import { TranscriptStore } from "../transcripts/transcript-store";
import { PgCopy, wholeLines } from "./pg-copy";
import { PgStore } from "./pg-store";

const dir = mkdtempSync(path.join(tmpdir(), "acp-mirror-"));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

describe("wholeLines", () => {
  const file = path.join(dir, "t.jsonl");

  it("reads whole lines a chunk at a time, leaving a line being written for later", () => {
    writeFileSync(file, "aaaa\nbbbb\ncccc\ndd");
    expect(wholeLines(file, 0)).toEqual({ lines: ["aaaa", "bbbb", "cccc"], end: 15, more: false, size: 17 });
    const first = wholeLines(file, 0, 12);
    expect(first).toEqual({ lines: ["aaaa", "bbbb"], end: 10, more: true, size: 17 });
    expect(wholeLines(file, first.end, 12)).toEqual({ lines: ["cccc"], end: 15, more: false, size: 17 });
    expect(wholeLines(file, 15, 12)).toEqual({ lines: [], end: 15, more: false, size: 17 });
  });

  it("reads a line longer than a chunk whole", () => {
    writeFileSync(file, `${"x".repeat(40)}\nyy\n`);
    const long = wholeLines(file, 0, 8);
    expect(long.lines).toEqual(["x".repeat(40), "yy"]);
    expect(long.more).toBe(false);
  });
});

describe.skipIf(pgSkipReason() !== undefined)("the copier's indexing", () => {
  it("tries a transcript again after a failure that is not its own (a deadlock), skips it after one that is", async () => {
    const cluster = await startPgCluster();
    const db = await PgStore.open(cluster.url);
    const copy = new PgCopy(new TranscriptStore(path.join(dir, "files"), {}, transcriptLimits({})), db);
    const logged = vi.spyOn(console, "error").mockImplementation(() => undefined);
    try {
      const createdAt = "2026-11-28T10:00:00.000Z";
      for (const id of ["flaky", "bad"]) {
        await db.save(testMeta(id, createdAt), [headerLine(id, createdAt), messageChunk(1, "words").trimEnd()]);
      }
      // `flaky` meets a deadlock once (another transaction's trouble); `bad` is refused every time.
      await db.pool.query(`CREATE SEQUENCE tries;
        CREATE FUNCTION refuse() RETURNS trigger LANGUAGE plpgsql AS $$ BEGIN
          IF NEW.transcript_id = 'bad' THEN RAISE EXCEPTION 'refused'; END IF;
          IF NEW.transcript_id = 'flaky' AND nextval('tries') = 1 THEN
            RAISE EXCEPTION 'deadlock' USING ERRCODE = 'deadlock_detected';
          END IF;
          RETURN NEW; END $$;
        CREATE TRIGGER refuse BEFORE INSERT ON search_docs FOR EACH ROW EXECUTE FUNCTION refuse()`);
      const indexed = async () =>
        (await db.pool.query<{ id: string }>("SELECT id FROM transcripts WHERE docs_indexed ORDER BY id")).rows.map(
          (r) => r.id,
        );
      await copy.indexNow();
      await copy.indexNow();
      expect(await indexed()).toEqual(["flaky"]);
      expect(logged.mock.calls.map((c) => String(c[0])).join("\n")).toContain("transcript bad's search: refused");
    } finally {
      logged.mockRestore();
      await copy.close();
      await db.close();
      cluster.stop();
    }
  }, 60_000);

  it("copies and closes without waiting for a transcript's indexing to end; close waits for the one running", async () => {
    const cluster = await startPgCluster();
    const db = await PgStore.open(cluster.url);
    const copy = new PgCopy(new TranscriptStore(path.join(dir, "files2"), {}, transcriptLimits({})), db);
    const gate = await db.pool.connect();
    try {
      const id = "slow";
      const createdAt = "2026-11-28T10:00:00.000Z";
      await db.save(testMeta(id, createdAt), [headerLine(id, createdAt), messageChunk(1, "words").trimEnd()]);
      // Its documents wait at a table the test holds locked: a long transcript's indexing.
      await db.pool.query(`CREATE TABLE gate (); CREATE FUNCTION wait() RETURNS trigger LANGUAGE plpgsql AS $$
        BEGIN PERFORM * FROM gate; RETURN NEW; END $$;
        CREATE TRIGGER wait BEFORE INSERT ON search_docs FOR EACH ROW EXECUTE FUNCTION wait()`);
      await gate.query("BEGIN; LOCK TABLE gate IN ACCESS EXCLUSIVE MODE");
      const indexing = copy.indexNow();
      // A flush (a comparison waits for this instance's copies) is not held up by it.
      let timer: NodeJS.Timeout | undefined;
      const held = new Promise((resolve) => (timer = setTimeout(() => resolve("held up"), 20_000)));
      expect(await Promise.race([copy.flush().then(() => "flushed"), held])).toBe("flushed");
      clearTimeout(timer);
      const closed = copy.close();
      await gate.query("COMMIT");
      // Closed once the transcript it was at is indexed (not left half-way, nor running after).
      await closed;
      const { rows } = await db.pool.query("SELECT 1 FROM transcripts WHERE docs_indexed AND id = $1", [id]);
      expect(rows).toHaveLength(1);
      await indexing;
    } finally {
      await gate.query("ROLLBACK").catch(() => undefined);
      gate.release();
      await copy.close();
      await db.close();
      cluster.stop();
    }
  }, 60_000);
});
