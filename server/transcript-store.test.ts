import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import type { ReadStream } from "node:fs";
import { afterEach, describe, expect, it } from "vitest";
import { serialize, serializeFrame, TRANSCRIPT_FORMAT, TRANSCRIPT_VERSION, type TranscriptHeader } from "../lib/transcript";
import { TranscriptStore } from "./transcript-store";

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
    for (const text of [transcript(0), transcript(3), transcript(5_000), transcript(2, { huge: "x".repeat(200_000) })]) {
      const { id } = st.import(text);
      st.rename(id, "Renamed");
      const streamed = await collect(st.stream(id)!);
      expect(streamed).toBe(st.read(id));
      expect(JSON.parse(streamed.slice(0, streamed.indexOf("\n"))).title).toBe("Renamed");
    }
    expect(st.stream("missing")).toBeUndefined();
  });
});
