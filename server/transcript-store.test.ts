import { appendFileSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { hostname } from "node:os";
import { tmpdir } from "node:os";
import path from "node:path";
import type { ReadStream } from "node:fs";
import { afterEach, describe, expect, it } from "vitest";
import {
  serialize,
  serializeFrame,
  TRANSCRIPT_FORMAT,
  TRANSCRIPT_VERSION,
  type TranscriptHeader,
} from "../lib/transcript";
import { TranscriptStore, type TranscriptMeta } from "./transcript-store";

const dirs: string[] = [];
afterEach(() => {
  for (const dir of dirs.splice(0)) rmSync(dir, { recursive: true, force: true });
});

function store(): TranscriptStore {
  const dir = mkdtempSync(path.join(tmpdir(), "acp-store-"));
  dirs.push(dir);
  return new TranscriptStore(dir, {});
}

function transcript(frames: number, options: Record<string, unknown> = {}): string {
  const header: TranscriptHeader = {
    type: "header",
    format: TRANSCRIPT_FORMAT,
    version: TRANSCRIPT_VERSION,
    id: "t",
    createdAt: "2026-11-22T00:00:00.000Z",
    playground: { version: "test" },
    agent: { profile: "p", command: "c", args: [], cwd: "/", options },
  };
  let text = serialize(header);
  for (let seq = 1; seq <= frames; seq++) {
    const raw = JSON.stringify({ jsonrpc: "2.0", method: "session/update", params: { sessionId: "s", n: seq } });
    text += serializeFrame({ seq, ts: seq, dir: "from-agent", raw, kind: "notification", method: "session/update" });
  }
  return text;
}

async function collect(s: { header: string; rest: ReadStream | undefined }): Promise<string> {
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
      const { id } = st.import(text);
      st.rename(id, "Renamed");
      const streamed = await collect(st.stream(id)!);
      expect(streamed).toBe(st.read(id));
      expect(JSON.parse(streamed.slice(0, streamed.indexOf("\n"))).title).toBe("Renamed");
    }
    expect(st.stream("missing")).toBeUndefined();
  });

  it("sends what the file held when it was opened, even if lines are appended or it is deleted meanwhile", async () => {
    const st = store();
    const { id } = st.import(transcript(2_000));
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
    const { id } = st.import(transcript(3));
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
