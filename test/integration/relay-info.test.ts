/**
 * relay:info with a store of many transcripts: the replay profiles it lists are
 * a bounded few (the demo, the newest, the one a page asked for), and the
 * answer reads no more transcripts than it lists.
 */
import { writeFileSync } from "node:fs";
import path from "node:path";
import { afterAll, beforeAll, describe, expect, it, vi } from "vitest";
import type { TranscriptMeta } from "../../lib/contracts/transcript-meta";
import type { ProfileSummary, RelayInfo } from "../../lib/contracts/wire";
import { LISTED_REPLAYS } from "../../server/agents/profiles";
import { startTestRelay, TestClient, type TestRelay } from "../relay-harness";

const STORED = 1_000;
let relay: TestRelay;
let ids: string[];

/** A transcript written as the store keeps one (a file and its meta); ids start with their time. */
function storeTranscript(at: Date, meta: Partial<TranscriptMeta>): string {
  const store = relay.server.relay.transcripts;
  const id = store.newId(at);
  const full: TranscriptMeta = {
    id,
    title: "",
    createdAt: at.toISOString(),
    profile: "gemini",
    kind: "session",
    turns: 1,
    frames: 2,
    bytes: 10,
    redactions: 0,
    recording: false,
    ...meta,
  };
  writeFileSync(store.file(id), "{}\n");
  writeFileSync(path.join(store.dir, `${id}.meta.json`), JSON.stringify(full));
  return id;
}

beforeAll(async () => {
  relay = await startTestRelay();
  // Oldest first.
  ids = Array.from({ length: STORED }, (_, i) =>
    storeTranscript(new Date(Date.UTC(2026, 0, 1) + i * 60_000), { title: `stored ${i}` }),
  );
});
afterAll(() => relay?.close());

const replays = (info: RelayInfo) => info.profiles.filter((p: ProfileSummary) => p.replayOf);

describe("relay:info with many transcripts", () => {
  it("lists the demo and the newest few as replay profiles, not one per transcript", async () => {
    const c = new TestClient(relay.url, { token: "test-token" });
    try {
      await c.connected();
      const metaReads = vi.spyOn(relay.server.relay.transcripts, "meta");
      const { info } = (await c.emit("relay:info", {})) as { info: RelayInfo };
      expect(metaReads.mock.calls.length).toBeLessThanOrEqual(LISTED_REPLAYS + 1);
      metaReads.mockRestore();
      const names = replays(info).map((p) => p.name);
      expect(names).toEqual([
        "replay:demo-gemini",
        ...ids
          .slice(-LISTED_REPLAYS)
          .reverse()
          .map((id) => `replay:${id}`),
      ]);
      expect(JSON.stringify(info).length).toBeLessThan(32 * 1024);
    } finally {
      c.close();
    }
  });

  it("describes the replay a page has chosen, however old; other names add nothing", async () => {
    const c = new TestClient(relay.url, { token: "test-token" });
    try {
      await c.connected();
      const oldest = `replay:${ids[0]}`;
      const { info } = (await c.emit("relay:info", { profile: oldest })) as { info: RelayInfo };
      expect(replays(info)).toHaveLength(LISTED_REPLAYS + 2);
      expect(info.profiles.find((p) => p.name === oldest)).toMatchObject({
        replayOf: { id: ids[0], title: "stored 0" },
        options: ["speed"],
      });
      for (const profile of ["replay:nope", "replay:../../etc/passwd", "gemini"]) {
        const res = (await c.emit("relay:info", { profile })) as { info: RelayInfo };
        expect(replays(res.info)).toHaveLength(LISTED_REPLAYS + 1);
      }
      expect((await c.emit("relay:info", { profile: 3 })).error.code).toBe("invalid_payload");
    } finally {
      c.close();
    }
  });

  it("GET /api/info and /api/profiles are bounded the same way", async () => {
    const get = async (route: string) =>
      (await fetch(`${relay.url}${route}`, { headers: { authorization: "Bearer test-token" } })).json() as Promise<{
        profiles: ProfileSummary[];
      }>;
    expect((await get("/api/profiles")).profiles.filter((p) => p.replayOf)).toHaveLength(LISTED_REPLAYS + 1);
    const chosen = await get(`/api/info?profile=${encodeURIComponent(`replay:${ids[1]}`)}`);
    expect(chosen.profiles.filter((p) => p.replayOf)).toHaveLength(LISTED_REPLAYS + 2);
    expect(chosen.profiles.some((p) => p.name === `replay:${ids[1]}`)).toBe(true);
  });

  it("lists a replay still recording only when asked for, saying why it cannot start, and refuses to start it", async () => {
    const id = storeTranscript(new Date(Date.UTC(2025, 0, 1)), {
      title: "still going",
      recording: true,
      // Written on another host: its word that it is recording stands.
      writer: { host: "another-host", pid: 1 },
    });
    const c = new TestClient(relay.url, { token: "test-token" });
    try {
      await c.connected();
      const { info } = (await c.emit("relay:info", { profile: `replay:${id}` })) as { info: RelayInfo };
      expect(info.profiles.find((p) => p.name === `replay:${id}`)).toMatchObject({
        available: false,
        unavailable: expect.stringContaining("still recording"),
        replayOf: { id, title: "still going" },
      });
      const started = await c.emit("agent:start", { profile: `replay:${id}` });
      expect(started.error).toMatchObject({
        code: "spawn_failed",
        message: expect.stringContaining("still recording"),
      });
    } finally {
      c.close();
    }
  });

  it("a session that never got a turn (a failed Connect) is no replay profile, unless a page asks for it", async () => {
    const id = storeTranscript(new Date(Date.UTC(2027, 0, 1)), {
      title: "gemini 2027-01-01",
      kind: "unstarted",
      turns: 0,
    });
    const get = async (route: string) =>
      (await fetch(`${relay.url}${route}`, { headers: { authorization: "Bearer test-token" } })).json() as Promise<{
        profiles: ProfileSummary[];
      }>;
    const listed = (await get("/api/profiles")).profiles.filter((p) => p.replayOf).map((p) => p.name);
    expect(listed).not.toContain(`replay:${id}`);
    expect(listed).toContain(`replay:${ids.at(-1)}`);
    const chosen = await get(`/api/info?profile=${encodeURIComponent(`replay:${id}`)}`);
    expect(chosen.profiles.some((p) => p.name === `replay:${id}`)).toBe(true);
  });
});
