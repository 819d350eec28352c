import { existsSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { afterEach, describe, expect, it, vi } from "vitest";
import { serialize, serializeFrame } from "../../lib/contracts/transcript";
import type { TranscriptMeta } from "../../lib/contracts/transcript-meta";
import { SharedTranscripts, TEAM_COPIES, type TeamLibrary } from "./shared-transcripts";
import { TranscriptStore } from "./transcript-store";
import { testHeader } from "../../test/transcripts";

const dirs: string[] = [];
afterEach(() => {
  for (const dir of dirs.splice(0)) rmSync(dir, { recursive: true, force: true });
});
const tempDir = () => {
  const dir = mkdtempSync(path.join(tmpdir(), "acp-shared-"));
  dirs.push(dir);
  return dir;
};

function jsonl(title: string): string {
  const raw = JSON.stringify({ jsonrpc: "2.0", method: "session/update", params: { sessionId: "s" } });
  return (
    serialize(
      testHeader({ id: "t", createdAt: "2026-11-22T00:00:00.000Z", title, agent: { command: "c", cwd: "/" } }),
    ) + serializeFrame({ seq: 1, ts: 1, dir: "from-agent", raw, kind: "notification", method: "session/update" })
  );
}

/** A local store holding one finished transcript (uploaded, as the HTTP API imports one). */
function localStore(): { store: TranscriptStore; id: string } {
  const store = new TranscriptStore(tempDir());
  const temp = store.tempFile();
  writeFileSync(temp, jsonl("local"));
  return { store, id: store.import(temp).id };
}

const REMOTE = "20261122-000000-0123abcd";
/** The team library in memory: one transcript recorded elsewhere, or a database that is away. */
function team(away = false): TeamLibrary {
  const meta = { id: REMOTE, title: "remote", recording: false, frames: 1 } as TranscriptMeta;
  const ask = <T>(v: T) =>
    away ? Promise.reject(new Error("connect ECONNREFUSED 10.0.0.7:5432")) : Promise.resolve(v);
  return {
    ready: Promise.resolve(),
    list: () => ask([meta]),
    meta: (id) => ask(id === REMOTE ? meta : undefined),
    read: (id) => ask(id === REMOTE ? jsonl("remote") : undefined),
  };
}

describe("SharedTranscripts", () => {
  it("without a team library reads this instance's files only", async () => {
    const { store, id } = localStore();
    const shared = new SharedTranscripts(store);
    expect((await shared.meta(id))?.id).toBe(id);
    expect(await shared.read(id)).toBe(store.read(id));
    expect((await shared.newest(5)).map((m) => m.id)).toEqual([id]);
    expect(await shared.read(REMOTE)).toBeUndefined();
    expect(await shared.meta("../etc/passwd")).toBeUndefined();
  });

  it("reads one recorded on another instance from the team library, a replay's copy in a folder of its own", async () => {
    const { store, id } = localStore();
    const shared = new SharedTranscripts(store, team());
    expect((await shared.meta(REMOTE))?.title).toBe("remote");
    expect((await shared.newest(5)).map((m) => m.id)).toEqual([REMOTE]);
    const scratchRoot = path.join(tempDir(), TEAM_COPIES);
    const copy = await shared.file(REMOTE, scratchRoot);
    expect(copy?.scratch && path.dirname(copy.scratch)).toBe(scratchRoot);
    expect(readFileSync(copy!.file, "utf8")).toBe(jsonl("remote"));
    expect(copy!.jsonl).toBe(jsonl("remote"));
    // This instance's own finished recording is replayed from its file: no copy.
    expect(await shared.file(id, scratchRoot)).toEqual({ file: store.file(id), jsonl: store.read(id) });
    expect(await shared.file("nope", scratchRoot)).toBeUndefined();
  });

  it("with the database away: this instance's answer where it has one, else the failure said", async () => {
    const { store, id } = localStore();
    const shared = new SharedTranscripts(store, team(true));
    expect((await shared.newest(5)).map((m) => m.id)).toEqual([id]);
    expect(await shared.read(id)).toBe(store.read(id));
    const logged = vi.spyOn(console, "error").mockImplementation(() => {});
    // Said to whoever asked; the driver's words (the database's address) only to the log.
    await expect(shared.read(REMOTE)).rejects.toThrow(
      `cannot read transcript ${REMOTE} from the team library (--database): the database did not answer`,
    );
    await expect(shared.read(REMOTE)).rejects.not.toThrow("ECONNREFUSED");
    expect(logged).toHaveBeenCalledWith(`database: transcript ${REMOTE}: connect ECONNREFUSED 10.0.0.7:5432`);
    logged.mockRestore();
    const scratchRoot = path.join(tempDir(), TEAM_COPIES);
    await expect(shared.file(REMOTE, scratchRoot)).rejects.toThrow("team library");
    expect(existsSync(scratchRoot)).toBe(false);
  });
});
