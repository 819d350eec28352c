import {
  appendFileSync,
  mkdirSync,
  mkdtempSync,
  readFileSync,
  renameSync,
  rmSync,
  statSync,
  utimesSync,
  writeFileSync,
} from "node:fs";
import { homedir, hostname } from "node:os";
import { tmpdir } from "node:os";
import path from "node:path";
import type { Readable } from "node:stream";
import { afterEach, describe, expect, it } from "vitest";
import { serialize, serializeFrame } from "../../lib/contracts/transcript";
import { withMessage } from "../../lib/folds/frame-log";
import { FrameSequencer } from "../../lib/protocol/frame-sequencer";
import { transcriptLimits, type TranscriptLimits } from "../config";
import { TranscriptRecorder } from "./transcript-recorder";
import { TranscriptStore, type TranscriptMeta } from "./transcript-store";
import { testHeader } from "../../test/transcripts";

const dirs: string[] = [];
afterEach(() => {
  for (const dir of dirs.splice(0)) rmSync(dir, { recursive: true, force: true });
});

function store(limits: Partial<TranscriptLimits> = {}, dir = mkdtempSync(path.join(tmpdir(), "acp-store-"))) {
  dirs.push(dir);
  return new TranscriptStore(dir, {}, { ...transcriptLimits({}), ...limits });
}

/** An upload as the HTTP API hands it over: a file in the store's directory. */
function upload(st: TranscriptStore, text: string): TranscriptMeta {
  const temp = st.tempFile();
  writeFileSync(temp, text);
  return st.import(temp);
}

function transcript(frames: number, options: Record<string, unknown> = {}): string {
  const header = testHeader({
    id: "t",
    createdAt: "2026-11-22T00:00:00.000Z",
    agent: { command: "c", cwd: "/", options },
  });
  let text = serialize(header);
  for (let seq = 1; seq <= frames; seq++) {
    const raw = JSON.stringify({ jsonrpc: "2.0", method: "session/update", params: { sessionId: "s", n: seq } });
    text += serializeFrame({ seq, ts: seq, dir: "from-agent", raw, kind: "notification", method: "session/update" });
  }
  return text;
}

async function collect(s: { header: string; rest: Readable | undefined }): Promise<string> {
  let text = s.header;
  if (s.rest) for await (const chunk of s.rest) text += String(chunk);
  return text;
}

describe("transcript store: streamed reads", () => {
  it("streams exactly what read() returns, with the current title, for small and large files and headers", async () => {
    const st = store();
    for (const text of [
      transcript(0),
      transcript(3),
      transcript(5_000),
      transcript(2, { huge: "x".repeat(200_000) }),
    ]) {
      const { id } = upload(st, text);
      st.rename(id, "Renamed");
      const streamed = await collect(st.stream(id)!);
      expect(streamed).toBe(st.read(id));
      expect(JSON.parse(streamed.slice(0, streamed.indexOf("\n"))).title).toBe("Renamed");
    }
    expect(st.stream("missing")).toBeUndefined();
  });

  it("sends what the file held when it was opened, even if lines are appended or it is deleted meanwhile", async () => {
    const st = store();
    const { id } = upload(st, transcript(2_000));
    const before = st.read(id);
    const opened = st.stream(id)!;
    appendFileSync(path.join(st.dir, `${id}.jsonl`), '{"type":"lifecycle","ts":1,"event":"stopping"}\n');
    rmSync(path.join(st.dir, `${id}.jsonl`));
    expect(await collect(opened)).toBe(before);
  });
});

describe("transcript store: recordings written by another relay", () => {
  /** Marks an imported transcript as being recorded by `writer`, as a recorder elsewhere would. */
  function recordingBy(st: TranscriptStore, writer: TranscriptMeta["writer"]): string {
    const { id } = upload(st, transcript(3));
    const file = path.join(st.dir, `${id}.meta.json`);
    const meta = JSON.parse(readFileSync(file, "utf8")) as TranscriptMeta;
    writeFileSync(file, JSON.stringify({ ...meta, frames: 0, recording: true, writer }));
    return id;
  }

  it("leaves a live writer's recording alone: still recording, not deletable, not offered for replay", () => {
    const st = store();
    // The test runner's parent is alive and is not this process: a sibling worker on this host.
    for (const writer of [
      { host: hostname(), pid: process.ppid },
      { host: "another-machine", pid: 1 },
    ]) {
      const id = recordingBy(st, writer);
      expect(st.meta(id)).toMatchObject({ recording: true, frames: 0, writer });
      expect(st.delete(id)).toBe(false);
      expect(st.list().find((m) => m.id === id)?.recording).toBe(true);
    }
  });

  it("recounts a recording whose writer on this host is gone (a crash)", () => {
    const st = store();
    const id = recordingBy(st, { host: hostname(), pid: 2 ** 22 + 12345 });
    expect(st.meta(id)).toMatchObject({ recording: false, frames: 3 });
    expect(st.meta(id)?.writer).toBeUndefined();
    expect(st.delete(id)).toBe(true);
  });
});

const mode = (file: string) => statSync(file).mode & 0o777;

describe("transcript store: files are private", () => {
  it("creates the data and transcripts directories 0700 and every transcript and meta file 0600", () => {
    const parent = mkdtempSync(path.join(tmpdir(), "acp-perm-"));
    dirs.push(parent);
    const data = path.join(parent, "data");
    const st = store({}, data);
    const { id } = upload(st, transcript(2));
    const recorder = new TranscriptRecorder(st, { profile: "p", command: "c", args: [], cwd: "/" }, []);
    recorder.close();
    expect(mode(data)).toBe(0o700);
    expect(mode(st.dir)).toBe(0o700);
    for (const t of [id, recorder.id]) {
      expect(mode(st.file(t))).toBe(0o600);
      expect(mode(path.join(st.dir, `${t}.meta.json`))).toBe(0o600);
    }
  });

  it("closes up a store made before (0755 directory, 0644 files) when it opens it", () => {
    const data = mkdtempSync(path.join(tmpdir(), "acp-perm-"));
    dirs.push(data);
    const dir = path.join(data, "transcripts");
    mkdirSync(dir, { mode: 0o755 });
    writeFileSync(path.join(dir, "old.jsonl"), transcript(1), { mode: 0o644 });
    const st = store({}, data);
    expect(mode(st.dir)).toBe(0o700);
    expect(mode(st.file("old"))).toBe(0o600);
  });
});

describe("transcript store: share links", () => {
  it("has no share token until shared; revoking removes it, sharing again makes a new one", () => {
    const st = store();
    const { id } = upload(st, transcript(1));
    expect(st.meta(id)!.shareToken).toBeUndefined();
    const first = st.share(id)!.shareToken!;
    expect(first).toMatch(/^[\w-]{24}$/);
    expect(st.share(id)!.shareToken).toBe(first);
    expect(st.unshare(id)!.shareToken).toBeUndefined();
    expect(st.meta(id)!.shareToken).toBeUndefined();
    const second = st.share(id)!.shareToken!;
    expect(second).not.toBe(first);
  });

  it("revokes the tokens every transcript used to get automatically", () => {
    const st = store();
    const { id } = upload(st, transcript(1));
    const file = path.join(st.dir, `${id}.meta.json`);
    writeFileSync(file, JSON.stringify({ ...st.meta(id), shareToken: "made-automatically" }));
    expect(st.meta(id)!.shareToken).toBeUndefined();
    expect(JSON.parse(readFileSync(file, "utf8")).shareToken).toBeUndefined();
  });
});

describe("transcript store: listing", () => {
  it("scans a crashed recording once, as a stream, and does not rescan unchanged files on later lists", () => {
    const st = store();
    // A dead writer's big recording (a crash mid-line), and a file that is no transcript at all.
    const big = "20260101-000000-deadbeef";
    const meta = {
      ...upload(st, transcript(0)),
      id: big,
      recording: true,
      writer: { host: hostname(), pid: 2 ** 22 + 7 },
    };
    writeFileSync(st.file(big), transcript(20_000) + '{"type":"frame","seq":20001,"ts":1,"dir":"from');
    writeFileSync(path.join(st.dir, `${big}.meta.json`), JSON.stringify(meta));
    writeFileSync(st.file("garbage"), "not a transcript\n");
    const before = st.scans;
    const first = st.list();
    expect(first.find((m) => m.id === big)).toMatchObject({ recording: false, frames: 20_000 });
    expect(first.find((m) => m.id === "garbage")).toBeUndefined();
    expect(st.scans - before).toBe(2);
    st.list();
    st.list();
    expect(st.scans - before).toBe(2);
    // A file that changes is read again.
    appendFileSync(st.file("garbage"), "more\n");
    utimesSync(st.file("garbage"), new Date(), new Date(Date.now() + 5_000));
    st.list();
    expect(st.scans - before).toBe(3);
  });
  it("answers the list from memory while the directory is unchanged, and sees a meta another process writes", () => {
    const st = store();
    const a = upload(st, transcript(1)).id;
    const b = upload(st, transcript(2)).id;
    // A directory last changed long ago (a change within the filesystem clock's tick is read again).
    const past = new Date(Date.now() - 60_000);
    utimesSync(st.dir, past, past);
    const before = st.listReads;
    expect(st.list().map((m) => m.id)).toEqual(expect.arrayContaining([a, b]));
    st.list();
    st.list();
    expect(st.listReads - before).toBe(1);
    // Another process (a cluster worker, the CLI) renames a new meta into place.
    const file = path.join(st.dir, `${a}.meta.json`);
    const meta = JSON.parse(readFileSync(file, "utf8")) as TranscriptMeta;
    writeFileSync(`${file}.other`, JSON.stringify({ ...meta, title: "Renamed elsewhere" }));
    renameSync(`${file}.other`, file);
    expect(st.list().find((m) => m.id === a)?.title).toBe("Renamed elsewhere");
    expect(st.listReads - before).toBe(2);
    // Its own changes at once, whatever the clock; a warm-pool agent's transcript is left out.
    st.rename(b, "Renamed here");
    expect(st.list().find((m) => m.id === b)?.title).toBe("Renamed here");
    st.unlisted.add(b);
    expect(st.list().map((m) => m.id)).not.toContain(b);
    st.delete(a);
    expect(st.list().map((m) => m.id)).toEqual([]);
  });
});

describe("transcript store: retention", () => {
  function aged(st: TranscriptStore, n: number, extra: Partial<TranscriptMeta> = {}): string {
    const { id } = upload(st, transcript(1));
    const file = path.join(st.dir, `${id}.meta.json`);
    const meta = JSON.parse(readFileSync(file, "utf8")) as TranscriptMeta;
    const { uploaded: _u, ...rest } = meta;
    writeFileSync(
      file,
      JSON.stringify({ ...rest, createdAt: `2026-01-${String(n).padStart(2, "0")}T00:00:00.000Z`, ...extra }),
    );
    return id;
  }

  it("drops the oldest first to keep the count, never shared, renamed, uploaded or recording ones", () => {
    const st = store({ count: 0, totalBytes: 0 });
    const shared = aged(st, 1);
    st.share(shared);
    const renamed = aged(st, 2);
    st.rename(renamed, "Keep me");
    const uploaded = aged(st, 3, { uploaded: true });
    const recording = aged(st, 4, { recording: true, writer: { host: "elsewhere", pid: 1 } });
    const old = aged(st, 5);
    const newer = aged(st, 6);
    const newest = aged(st, 7);
    st.limits.count = 3;
    expect(st.prune()).toEqual([old, newer, newest].slice(0, 3));
    expect(
      st
        .list()
        .map((m) => m.id)
        .sort(),
    ).toEqual([shared, renamed, uploaded, recording].sort());
  });

  it("drops the oldest first to keep the total size", () => {
    const st = store({ count: 0, totalBytes: 0 });
    const a = aged(st, 1);
    const b = aged(st, 2);
    const bytes = st.meta(b)!.bytes;
    st.limits.totalBytes = bytes + 1;
    expect(st.prune()).toEqual([a]);
    expect(st.list().map((m) => m.id)).toEqual([b]);
  });

  it("prunes when a new recording starts", () => {
    const st = store({ count: 0, totalBytes: 0 });
    const old = aged(st, 1);
    st.limits.count = 1;
    const recorder = new TranscriptRecorder(st, { profile: "p", command: "c", args: [], cwd: "/" }, []);
    expect(st.exists(old)).toBe(false);
    recorder.close();
  });
});

describe("transcript store: kinds, live counts, duplicates, share privacy", () => {
  it("tags each transcript with its kind, and infers it for files from before kinds", () => {
    const st = store();
    const agent = { profile: "p", command: "c", args: [], cwd: "/" };
    const probe = new TranscriptRecorder(st, agent, [], "probe");
    probe.close();
    const tapped = new TranscriptRecorder(st, agent, [], "tapped");
    tapped.close();
    const session = new TranscriptRecorder(st, agent, []);
    session.close();
    const { id: uploaded } = upload(st, transcript(1));
    writeFileSync(path.join(st.dir, "old.jsonl"), transcript(1));
    const kinds = Object.fromEntries(st.list().map((m) => [m.id, m.kind]));
    expect(kinds).toEqual({
      [probe.id]: "probe",
      [tapped.id]: "tapped",
      // Closed before any turn: a session that never started (transcript-recorder.test.ts).
      [session.id]: "unstarted",
      [uploaded]: "upload",
      old: "session",
    });
    expect(st.meta(probe.id)!.title).toMatch(/^probe p /);
    expect(st.meta(tapped.id)!.tapped).toBe(true);
  });

  it("lists a recording's counts and agent while it is still being written", async () => {
    const st = store();
    const recorder = new TranscriptRecorder(st, { profile: "p", command: "c", args: [], cwd: "/" }, []);
    const seq = new FrameSequencer();
    recorder.frame(
      withMessage(
        seq.line("from-agent", JSON.stringify({ jsonrpc: "2.0", id: 1, result: { agentInfo: { name: "a1" } } })),
      ),
    );
    recorder.frame(
      withMessage(
        seq.line("to-agent", JSON.stringify({ jsonrpc: "2.0", id: 2, method: "session/prompt", params: {} })),
      ),
    );
    await new Promise((resolve) => setImmediate(resolve));
    expect(st.meta(recorder.id)).toMatchObject({ recording: true, frames: 2, turns: 1 });
    recorder.close();
  });

  it("tells an import that the same bytes are already stored", () => {
    const st = store();
    const first = upload(st, transcript(3));
    expect(first.duplicateOf).toBeUndefined();
    const again = upload(st, transcript(3));
    expect(again.duplicateOf).toEqual({ id: first.id, title: first.title });
    expect(upload(st, transcript(4)).duplicateOf).toBeUndefined();
  });

  it("hides the command line, the workspace and the home directory from a share stream unless asked", async () => {
    const st = store();
    const cwd = "/srv/private-work";
    const text = transcript(50)
      .replace('"command":"c"', '"command":"/opt/bin/agent"')
      .replace('"cwd":"/"', `"cwd":"${cwd}"`)
      // Inside `raw`, a JSON text in a JSON string: its quotes are escaped.
      .replace('\\"n\\":7}', `\\"n\\":7,\\"path\\":\\"${cwd}/a.txt\\",\\"home\\":\\"${homedir()}/x\\"}`);
    const { id } = upload(st, text);
    const hidden = await collect(st.stream(id, { hideLocal: true })!);
    expect(hidden).not.toContain(cwd);
    expect(hidden).not.toContain("/opt/bin/agent");
    expect(hidden).toContain("<workspace>/a.txt");
    expect(hidden).toContain("~/x");
    expect(JSON.parse(hidden.slice(0, hidden.indexOf("\n"))).agent).toEqual({
      profile: "p",
      command: "(hidden)",
      args: [],
      cwd: "<workspace>",
    });
    expect(hidden.split("\n").length).toBe(text.split("\n").length);
    expect(await collect(st.stream(id)!)).toContain(cwd);
    expect(st.share(id)!.shareShowsCommand).toBeUndefined();
    expect(st.share(id, { showCommand: true })!.shareShowsCommand).toBe(true);
    expect(st.unshare(id)!.shareShowsCommand).toBeUndefined();
  });
});
