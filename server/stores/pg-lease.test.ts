/**
 * Instances' leases on a throw-away PostgreSQL cluster: a recording whose writer stopped renewing
 * (its pool gone, as in a crash) is marked ended by a crash by a live instance once the lease has
 * run out, or by the next instance at its start; a live writer's recording never is.
 */
import { afterAll, afterEach, beforeAll, describe, expect, it, vi } from "vitest";
import { serialize } from "../../lib/contracts/transcript";
import type { TranscriptMeta } from "../../lib/contracts/transcript-meta";
import { pgSkipReason, startPgCluster, type PgCluster } from "../../test/pg-cluster";
import { PgStore } from "./pg-store";
import { testHeader, testMeta } from "../../test/transcripts";

const skip = pgSkipReason();
const LEASE_MS = 600;

function recording(id: string): { meta: TranscriptMeta; lines: string[] } {
  const createdAt = new Date().toISOString();
  const header = serialize(testHeader({ id, createdAt }));
  const meta: TranscriptMeta = {
    ...testMeta(id, createdAt, true),
    bytes: header.length,
    writer: { host: "h", pid: 1 },
  };
  return { meta, lines: [header.trimEnd()] };
}

/** Polls until `done` holds; fails after `ms`. */
async function until(what: string, done: () => Promise<boolean>, ms = 10_000): Promise<void> {
  const deadline = Date.now() + ms;
  while (!(await done())) {
    if (Date.now() > deadline) throw new Error(`never: ${what}`);
    await new Promise((r) => setTimeout(r, 50));
  }
}

describe.skipIf(skip !== undefined)("instances' leases", () => {
  let cluster: PgCluster;
  const stores: PgStore[] = [];
  const open = async (leaseMs = LEASE_MS) => {
    const s = await PgStore.open(cluster.url, { leaseMs });
    stores.push(s);
    return s;
  };
  /** As a SIGKILL leaves it: the lease is not given back, nothing more is written. */
  const crash = async (s: PgStore) => {
    stores.splice(stores.indexOf(s), 1);
    await s.pool.end();
  };
  beforeAll(async () => {
    cluster = await startPgCluster();
  }, 60_000);
  afterEach(() => vi.restoreAllMocks());
  afterAll(async () => {
    await Promise.all(stores.map((s) => s.close()));
    cluster?.stop();
  });

  it("a live instance marks a dead one's recording ended by a crash once its lease runs out, not before", async () => {
    vi.spyOn(console, "error").mockImplementation(() => undefined);
    const a = await open();
    const b = await open();
    // A dead instance whose lease (a minute) has not run out yet.
    const slow = await open(60_000);
    const dead = recording("dead-writer");
    const live = recording("live-writer");
    const notYet = recording("lease-left");
    await a.save(dead.meta, dead.lines);
    await b.save(live.meta, live.lines);
    await slow.save(notYet.meta, notYet.lines);
    expect(await b.renew()).toEqual([]);
    await crash(a);
    await crash(slow);
    await until("b marks a's recording", async () => (await b.meta(dead.meta.id))?.recording === false);
    expect(await b.meta(dead.meta.id)).toMatchObject({ recording: false, endedBy: "crash" });
    expect(await b.meta(notYet.meta.id)).toMatchObject({ recording: true });
    // The live writer's recording is left alone, however many renewals pass.
    await new Promise((r) => setTimeout(r, LEASE_MS * 2));
    expect(await b.meta(live.meta.id)).toMatchObject({ recording: true });
    expect((await b.meta(live.meta.id))!.endedBy).toBeUndefined();
  });

  it("the next instance marks at its start what a crash left; a writer that comes back says recording again", async () => {
    vi.spyOn(console, "error").mockImplementation(() => undefined);
    await Promise.all(stores.splice(0).map((s) => s.close()));
    const c = await open();
    const left = recording("left-by-crash");
    await c.save(left.meta, left.lines);
    await crash(c);
    await new Promise((r) => setTimeout(r, LEASE_MS + 100));
    const d = await open(); // its start is its first renewal
    expect(await d.meta(left.meta.id)).toMatchObject({ recording: false, endedBy: "crash" });
    await d.save(left.meta, []);
    const back = (await d.meta(left.meta.id))!;
    expect(back.recording).toBe(true);
    expect(back.endedBy).toBeUndefined();
    // A clean close gives the lease back; its finished recording stays finished.
    await d.save({ ...left.meta, recording: false }, [], 1);
    await d.close();
    stores.splice(stores.indexOf(d), 1);
    const e = await open();
    expect(await e.meta(left.meta.id)).toMatchObject({ recording: false });
    expect((await e.meta(left.meta.id))!.endedBy).toBeUndefined();
  });
});
