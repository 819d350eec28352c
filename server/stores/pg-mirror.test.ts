/**
 * The database copy off the relay's thread (PgMirror + pg-copy-worker.ts), against a throw-away
 * PostgreSQL cluster: a live recording's lines reach the database through the copy's thread,
 * never through a save on this one, named with this instance as their writer (so a crash of it is
 * marked), kept from retention until copied, and copied whole with its end.
 */
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { isMainThread } from "node:worker_threads";
import { afterAll, beforeAll, describe, expect, it, vi } from "vitest";
import { FrameSequencer } from "../../lib/protocol/frame-sequencer";
import type { TranscriptMeta } from "../../lib/contracts/transcript-meta";
import { pgSkipReason, startPgCluster, type PgCluster } from "../../test/pg-cluster";
import { transcriptLimits } from "../config";
import { PACKAGE_ROOT } from "../runtime";
import { TranscriptRecorder } from "../transcripts/transcript-recorder";
import { TranscriptStore } from "../transcripts/transcript-store";
import { PgMirror } from "./pg-mirror";
import { PgStore } from "./pg-store";

const skip = pgSkipReason();
const agent = { profile: "p", command: "c", args: [], cwd: "/" };
const flushed = () => new Promise((resolve) => setImmediate(resolve));

describe.skipIf(skip !== undefined)("the database copy", () => {
  let cluster: PgCluster | undefined;
  let db: PgStore | undefined;
  const mirrors: PgMirror[] = [];
  const dir = mkdtempSync(path.join(tmpdir(), "acp-mirror-"));
  beforeAll(async () => {
    cluster = await startPgCluster();
    db = await PgStore.open(cluster.url);
  }, 60_000);
  afterAll(async () => {
    for (const m of mirrors) await m.close();
    await db?.close();
    cluster?.stop();
    rmSync(dir, { recursive: true, force: true });
  });

  it("copies a live recording in its own thread, as this instance's, kept from retention until copied", async () => {
    const save = vi.spyOn(PgStore.prototype, "save");
    const files = new TranscriptStore(dir, {}, transcriptLimits({}));
    const mirror = new PgMirror(files, db!);
    mirrors.push(mirror);
    files.index = mirror;
    const threads: number[] = [];
    mirror.onSettled = (_id, threadId) => threads.push(threadId);

    const recorder = new TranscriptRecorder(files, agent, []);
    const id = recorder.id;
    const seq = new FrameSequencer();
    for (let i = 0; i < 50; i++) {
      const line = JSON.stringify({ jsonrpc: "2.0", method: "session/update", params: { n: i, text: `word${i}` } });
      recorder.frame(seq.line("from-agent", line));
      await flushed();
    }
    expect(files.pinned.has(id)).toBe(true);
    await mirror.flush();

    const row = async () =>
      (
        await db!.pool.query<{ writer: string | null; meta: TranscriptMeta }>(
          "SELECT writer, meta FROM transcripts WHERE id = $1",
          [id],
        )
      ).rows[0];
    // Still recording (the copy's thread did not take it for a dead writer's), and named as this instance's.
    expect(await row()).toMatchObject({ writer: db!.instance, meta: { recording: true } });
    expect(files.storedMeta(id)?.recording).toBe(true);
    expect(files.pinned.has(id)).toBe(false);
    const local = () => readFileSync(files.file(id), "utf8").split("\n");
    expect((await db!.read(id))!.split("\n").slice(1)).toEqual(local().slice(1));

    recorder.close();
    await mirror.flush();
    expect(await row()).toMatchObject({ writer: null, meta: { recording: false } });
    expect((await db!.read(id))!.split("\n").slice(1)).toEqual(local().slice(1));

    // No save ran on this thread: every one ran in the copy's.
    expect(isMainThread).toBe(true);
    expect(save).not.toHaveBeenCalled();
    expect(threads.length).toBeGreaterThan(0);
    expect(threads.every((t) => t !== 0)).toBe(true);
    save.mockRestore();
  }, 60_000);

  it("keeps a transcript from retention while a change told after a copy began waits for the next", async () => {
    const files = new TranscriptStore(path.join(dir, "second"), {}, transcriptLimits({}));
    const mirror = new PgMirror(files, db!);
    mirrors.push(mirror);
    files.index = mirror;
    const temp = files.tempFile();
    writeFileSync(temp, readFileSync(path.join(PACKAGE_ROOT, "demo", "gemini-demo.jsonl")));
    const { id } = files.import(temp);
    expect(files.pinned.has(id)).toBe(true);
    const first = mirror.flush();
    // Told again while the first copy is on its way: that copy's answer must not unpin it.
    mirror.changed(id);
    const second = mirror.flush();
    await first;
    expect(files.pinned.has(id)).toBe(true);
    await second;
    expect(files.pinned.has(id)).toBe(false);
    expect(await db!.meta(id)).toMatchObject({ id });
  }, 60_000);
});
