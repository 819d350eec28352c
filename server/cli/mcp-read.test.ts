/**
 * Reading a transcript for an MCP tool (issue #34): the header line counts against the read
 * budget like every other byte, and a header that is no JSON is a tool error, not a crash.
 */
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { serialize, serializeFrame } from "../../lib/contracts/transcript";
import { createRedactor } from "../../lib/features/library/redact";
import { transcriptLimits } from "../config";
import { TranscriptStore } from "../transcripts/transcript-store";
import { readFrames, ToolError } from "./mcp-read";
import { testHeader } from "../../test/transcripts";

const ID = "20261120-100000-aaaaaaaa";
let dir = "";
let store: TranscriptStore;

function write(header: string): void {
  const frame = serializeFrame({
    seq: 1,
    ts: 1_700_000_000_000,
    dir: "from-agent",
    kind: "notification",
    method: "session/update",
    raw: JSON.stringify({ jsonrpc: "2.0", method: "session/update", params: { sessionId: "s1" } }),
  });
  writeFileSync(path.join(store.dir, `${ID}.jsonl`), header + frame, { mode: 0o600 });
}

const header = (args: string[]) =>
  serialize(
    testHeader({
      id: ID,
      createdAt: "2026-11-20T10:00:00.000Z",
      agent: { profile: "gemini", command: "gemini", args },
    }),
  );

beforeEach(() => {
  dir = mkdtempSync(path.join(tmpdir(), "acp-mcp-read-"));
  mkdirSync(path.join(dir, "transcripts"), { mode: 0o700 });
  store = new TranscriptStore(dir, {}, transcriptLimits({}));
});

afterEach(() => rmSync(dir, { recursive: true, force: true }));

const redactor = createRedactor([]);

describe("readFrames", () => {
  it("reads a transcript whose header fits the budget", async () => {
    write(header([]));
    const read = await readFrames(store, ID, redactor, { maxBytes: 64 * 1024 });
    expect(read.frames.map((f) => f.seq)).toEqual([1]);
  });

  it("does not read a header line longer than the read budget", async () => {
    write(header(["x".repeat(512 * 1024)]));
    const read = readFrames(store, ID, redactor, { maxBytes: 64 * 1024 });
    await expect(read).rejects.toBeInstanceOf(ToolError);
    await expect(read).rejects.toThrow(
      /transcript 20261120-100000-aaaaaaaa does not parse: its header line is longer than 64 KiB/,
    );
  });

  it("answers a tool error for a header that is no JSON", async () => {
    write(header([]));
    const meta = store.meta(ID);
    expect(meta).toBeDefined();
    write('{"type":"header", not json\n');
    const read = readFrames(store, ID, redactor);
    await expect(read).rejects.toBeInstanceOf(ToolError);
    await expect(read).rejects.toThrow(`transcript ${ID} does not parse`);
  });
});
