/**
 * On a team server a person changes only their own recordings (issue #37's security review): with
 * named tokens alice and bob and the relay's own token (the admin), bob cannot delete, rename,
 * share or unshare alice's transcript; alice and the admin can; one with no owner is the admin's.
 * Reading stays open to everyone. Once on the file store, once on PostgreSQL (`serve --database`).
 */
import { mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { probeStoreBeside } from "../../server/transcripts/probe-store";
import { pgSkipReason, startPgCluster, type PgCluster } from "../pg-cluster";
import { startTestRelay, type TestRelay } from "../relay-harness";
import { initializeRecording } from "../transcripts";

const ADMIN = "test-token";
const ALICE = "alice-owner-token-0123456789";
const BOB = "bob-owner-token-0123456789ab";
const TOKENS = { alice: ALICE, bob: BOB };

const pgSkip = pgSkipReason();

describe.each([
  { store: "the file store", pg: false, skip: undefined },
  { store: "PostgreSQL", pg: true, skip: pgSkip },
])("on $store, a person changes only their own recordings", ({ pg, skip }) => {
  let cluster: PgCluster | undefined;
  let relay: TestRelay | undefined;
  const configDir = mkdtempSync(path.join(tmpdir(), "acp-owners-config-"));
  const configFile = path.join(configDir, "config.json");
  writeFileSync(configFile, JSON.stringify({ tokens: TOKENS }));

  beforeAll(async () => {
    if (skip !== undefined) return;
    cluster = pg ? await startPgCluster() : undefined;
    relay = await startTestRelay({ tokens: TOKENS, configFile, ...(cluster ? { database: cluster.url } : {}) });
    await relay.server.relay.team?.ready;
  }, 60_000);
  afterAll(async () => {
    await relay?.close();
    cluster?.stop();
    rmSync(configDir, { recursive: true, force: true });
  });

  async function http(token: string, method: string, route: string, body?: string) {
    const res = await fetch(`${relay!.url}/api/${route}`, {
      method,
      headers: { authorization: `Bearer ${token}`, "content-type": "application/json" },
      body,
    });
    const text = await res.text();
    return { status: res.status, text, json: () => JSON.parse(text) as Record<string, unknown> };
  }

  /** Uploads a recording with `token` and waits until the library lists it (the copy to PostgreSQL is asynchronous). */
  async function upload(token: string, profile: string): Promise<string> {
    const up = await http(token, "POST", "transcripts", initializeRecording({ agent: { profile } }));
    expect(up.status, up.text).toBe(201);
    const id = up.json().id as string;
    const deadline = Date.now() + 20_000;
    for (;;) {
      const list = (await http(ADMIN, "GET", "transcripts")).json().transcripts as { id: string }[];
      if (list.some((m) => m.id === id)) return id;
      if (Date.now() > deadline) throw new Error(`${id} never listed`);
      await new Promise((r) => setTimeout(r, 100));
    }
  }

  const changes = (id: string) =>
    [
      ["DELETE", `transcripts/${id}`, undefined, "delete"],
      ["PATCH", `transcripts/${id}`, JSON.stringify({ title: "taken" }), "rename"],
      ["POST", `transcripts/${id}/share`, "{}", "share"],
      ["DELETE", `transcripts/${id}/share`, undefined, "unshare"],
    ] as const;

  it.skipIf(skip !== undefined)("tells each token who it is (GET /api/me)", async () => {
    expect((await http(ALICE, "GET", "me")).json()).toEqual({ owner: "alice" });
    expect((await http(ADMIN, "GET", "me")).json()).toEqual({});
    expect((await http("nobody-0123456789abcdef", "GET", "me")).status).toBe(401);
  });

  it.skipIf(skip !== undefined)(
    "refuses bob every change to alice's recording with 403; he still reads it",
    async () => {
      const id = await upload(ALICE, "alices");
      for (const [method, route, body, action] of changes(id)) {
        const res = await http(BOB, method, route, body);
        expect([method, route, res.status]).toEqual([method, route, 403]);
        expect(res.json().error).toEqual({
          code: "not_owner",
          message: `only its owner, alice, or the server's admin can ${action} it`,
        });
      }
      // Nothing changed: still there, its title and sharing as they were.
      const meta = (await http(BOB, "GET", "transcripts")).json().transcripts as { id: string; title: string }[];
      const mine = meta.find((m) => m.id === id)!;
      expect(mine).toMatchObject({ owner: "alice" });
      expect(mine.title).not.toBe("taken");
      expect(mine).not.toHaveProperty("shareToken");
      expect((await http(BOB, "GET", `transcripts/${id}`)).status).toBe(200);
    },
  );

  it.skipIf(skip !== undefined)("lets alice change her own, and the admin anyone's", async () => {
    const id = await upload(ALICE, "alices-own");
    expect((await http(ALICE, "PATCH", `transcripts/${id}`, JSON.stringify({ title: "Mine" }))).json()).toMatchObject({
      title: "Mine",
    });
    expect((await http(ALICE, "POST", `transcripts/${id}/share`, "{}")).json()).toHaveProperty("shareToken");
    expect((await http(ADMIN, "DELETE", `transcripts/${id}/share`)).json()).not.toHaveProperty("shareToken");
    expect((await http(ADMIN, "PATCH", `transcripts/${id}`, JSON.stringify({ title: "Admin's" }))).status).toBe(200);
    expect((await http(ALICE, "DELETE", `transcripts/${id}`)).status).toBe(204);
    const other = await upload(ALICE, "alices-other");
    expect((await http(ADMIN, "DELETE", `transcripts/${other}`)).status).toBe(204);
  });

  it.skipIf(skip !== undefined)("keeps a recording with no owner the admin's", async () => {
    const id = await upload(ADMIN, "nobodys");
    for (const token of [ALICE, BOB])
      for (const [method, route, body, action] of changes(id)) {
        const res = await http(token, method, route, body);
        expect([method, route, res.status]).toEqual([method, route, 403]);
        expect(res.json().error).toMatchObject({
          message: expect.stringMatching(`^only the server's admin can ${action} it`),
        });
      }
    expect((await http(ADMIN, "POST", `transcripts/${id}/share`, "{}")).status).toBe(200);
    expect((await http(ADMIN, "DELETE", `transcripts/${id}`)).status).toBe(204);
  });

  it.skipIf(skip !== undefined)("keeps a comparison its saver's, and its transcripts their owners'", async () => {
    const sides = async (token: string) => [await upload(token, "left"), await upload(token, "right")];
    const input = ([a, b]: string[]) =>
      JSON.stringify({
        prompt: "hello",
        sides: [a, b].map((transcriptId, i) => ({ label: `side ${i}`, profile: "p", transcriptId })),
      });
    const alices = await sides(ALICE);
    // Saving files both transcripts under the comparison (their kind): bob may not do that to alice's.
    const taken = await http(BOB, "POST", "comparisons", input(alices));
    expect([taken.status, taken.json().error]).toEqual([
      403,
      {
        code: "not_owner",
        message: `transcript ${alices[0]}: only its owner, alice, or the server's admin can save it in a comparison`,
      },
    ]);
    const saved = await http(ALICE, "POST", "comparisons", input(alices));
    expect(saved.status, saved.text).toBe(201);
    const { id, owner } = saved.json() as { id: string; owner: string };
    expect(owner).toBe("alice");
    for (const [method, route, action] of [
      ["DELETE", `comparisons/${id}`, "delete"],
      ["POST", `comparisons/${id}/share`, "share"],
      ["DELETE", `comparisons/${id}/share`, "unshare"],
    ] as const) {
      const res = await http(BOB, method, route);
      expect([route, res.status, res.json().error]).toEqual([
        route,
        403,
        {
          code: "not_owner",
          message: `this comparison: only its owner, alice, or the server's admin can ${action} it`,
        },
      ]);
    }
    // Sharing it shares both transcripts: still alice's.
    for (const t of alices)
      expect(
        ((await http(BOB, "GET", "transcripts")).json().transcripts as { id: string; shareToken?: string }[]).find(
          (m) => m.id === t,
        ),
      ).not.toHaveProperty("shareToken");
    expect((await http(ALICE, "POST", `comparisons/${id}/share`)).status).toBe(200);
    expect((await http(ADMIN, "DELETE", `comparisons/${id}/share`)).status).toBe(200);
    expect((await http(ALICE, "DELETE", `comparisons/${id}`)).status).toBe(204);
    // The admin may save one of anyone's, and it is then the admin's alone.
    const admins = await http(ADMIN, "POST", "comparisons", input(alices));
    expect(admins.status, admins.text).toBe(201);
    expect(admins.json()).not.toHaveProperty("owner");
    const other = admins.json().id as string;
    expect((await http(ALICE, "DELETE", `comparisons/${other}`)).json().error).toMatchObject({
      message: expect.stringMatching(/^this comparison: only the server's admin can delete it/),
    });
    expect((await http(ADMIN, "DELETE", `comparisons/${other}`)).status).toBe(204);
  });

  it.skipIf(skip !== undefined)("keeps a probe report its probe's transcript's owner's", async () => {
    /** A report as a probe keeps it (on a team server, copied to the database), naming its transcript. */
    const probe = async (transcriptId: string) => {
      const report = { profile: "p", startedAt: new Date().toISOString(), durationMs: 1, rows: [], transcriptId };
      const { id } = probeStoreBeside(relay!.server.relay.transcripts).save(report);
      const deadline = Date.now() + 20_000;
      while ((await http(BOB, "GET", `probes/${id}`)).status !== 200) {
        if (Date.now() > deadline) throw new Error(`probe report ${id} never readable`);
        await new Promise((r) => setTimeout(r, 100));
      }
      return id;
    };
    const id = await probe(await upload(ALICE, "probed"));
    expect((await http(BOB, "DELETE", `probes/${id}`)).json().error).toEqual({
      code: "not_owner",
      message: "only its owner, alice, or the server's admin can delete it",
    });
    expect((await http(ALICE, "DELETE", `probes/${id}`)).status).toBe(204);
    const admins = await probe(await upload(ADMIN, "probed-by-admin"));
    expect((await http(ALICE, "DELETE", `probes/${admins}`)).status).toBe(403);
    expect((await http(ADMIN, "DELETE", `probes/${admins}`)).status).toBe(204);
  });
});
