/**
 * The MCP server's reads are bounded (issue #34): a tool call on a large transcript reads from
 * the frame asked for and at most a byte budget, and says so when it was cut. In process, over
 * the SDK's in-memory transport (test/integration/mcp.test.ts drives the real command).
 */
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { Client } from "@modelcontextprotocol/sdk/client/index.js";
import { InMemoryTransport } from "@modelcontextprotocol/sdk/inMemory.js";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { serialize, serializeFrame } from "../../lib/contracts/transcript";
import { transcriptLimits } from "../config";
import { SearchIndex } from "../transcripts/search-index";
import { TranscriptStore } from "../transcripts/transcript-store";
import { createLibraryServer } from "./mcp-server";
import { testHeader } from "../../test/transcripts";

const FRAMES = 20_000;
const LIMIT = 1024 * 1024;
const BIG = "20261120-100000-aaaaaaaa";
const OTHER = "20261121-100000-bbbbbbbb";

/** About 6 MB: FRAMES message chunks of some 300 bytes each. */
function large(createdAt: string): string {
  let out = serialize(testHeader({ createdAt, agent: { profile: "gemini", command: "gemini" } }));
  for (let seq = 1; seq <= FRAMES; seq++)
    out += serializeFrame({
      seq,
      ts: 1_700_000_000_000 + seq,
      dir: "from-agent",
      kind: "notification",
      method: "session/update",
      raw: JSON.stringify({
        jsonrpc: "2.0",
        method: "session/update",
        params: {
          sessionId: "s1",
          update: {
            sessionUpdate: "agent_message_chunk",
            content: { type: "text", text: `chunk ${seq} ${"x".repeat(150)}` },
          },
        },
      }),
    });
  return out;
}

let dir = "";
let client: Client;
let index: SearchIndex;
let catchingUp = true;

beforeAll(async () => {
  dir = mkdtempSync(path.join(tmpdir(), "acp-mcp-reads-"));
  const storeDir = path.join(dir, "transcripts");
  mkdirSync(storeDir, { mode: 0o700 });
  writeFileSync(path.join(storeDir, `${BIG}.jsonl`), large("2026-11-20T10:00:00.000Z"), { mode: 0o600 });
  writeFileSync(path.join(storeDir, `${OTHER}.jsonl`), large("2026-11-21T10:00:00.000Z"), { mode: 0o600 });
  const store = new TranscriptStore(dir, {}, transcriptLimits({}));
  index = new SearchIndex(store.dir);
  const server = createLibraryServer({
    store,
    index,
    secrets: [],
    maxReadBytes: LIMIT,
    catchingUp: () => catchingUp,
  });
  const [a, b] = InMemoryTransport.createLinkedPair();
  await server.connect(a);
  client = new Client({ name: "test", version: "1" });
  await client.connect(b);
}, 60_000);

afterAll(async () => {
  await client?.close();
  index?.close();
  rmSync(dir, { recursive: true, force: true });
});

async function call(name: string, args: Record<string, unknown>) {
  const result = (await client.callTool({ name, arguments: args })) as {
    isError?: boolean;
    content: { text: string }[];
  };
  expect(result.isError ? result.content[0]!.text : "").toBe("");
  return JSON.parse(result.content[0]!.text) as Record<string, unknown> & { cut?: string };
}

/** The MiB a cut answer says were read. */
const mibRead = (cut: string | undefined) => Number(/stopped after ([\d.]+) MiB/.exec(cut ?? "")?.[1] ?? NaN);

describe("MCP reads on a large transcript", () => {
  it("reads frames from the start, only as far as asked", async () => {
    const answer = await call("read_frames", { id: BIG, from: 1, to: 50 });
    expect((answer.frames as { seq: number }[]).map((f) => f.seq)).toEqual(Array.from({ length: 50 }, (_, i) => i + 1));
    expect(answer.next).toBe(51);
    expect(answer.cut).toBeUndefined();
  });

  it("reads frames far into the file without reading what comes before them (over the budget)", async () => {
    const answer = await call("read_frames", { id: BIG, from: FRAMES - 100 });
    const seqs = (answer.frames as { seq: number }[]).map((f) => f.seq);
    expect(seqs[0]).toBe(FRAMES - 100);
    expect(seqs.at(-1)).toBe(FRAMES);
    expect(answer.lastSeq).toBe(FRAMES);
    expect(answer.next).toBeUndefined();
    expect(answer.cut).toBeUndefined();
  });

  it("cuts a whole-transcript read at the budget and says so: insights, latency, a diff", async () => {
    for (const [tool, args] of [
      ["transcript_insights", { id: BIG }],
      ["latency_table", { id: BIG }],
    ] as const) {
      const answer = await call(tool, args);
      expect(answer.cut).toMatch(/^Reading transcript 20261120-100000-aaaaaaaa stopped after [\d.]+ MiB at frame \d+/);
      expect(mibRead(answer.cut)).toBeLessThanOrEqual(1.1);
    }
    const diff = await call("diff_transcripts", { a: BIG, b: OTHER });
    expect(diff.cut).toContain(`Reading transcript ${BIG} stopped after`);
    expect(diff.cut).toContain(`Reading transcript ${OTHER} stopped after`);
    const counts = diff.counts as Record<string, number>;
    // Only what was read is compared: a few thousand frames of the 20,000 per side.
    expect(Object.values(counts).reduce((a, b) => a + b, 0)).toBeLessThan(FRAMES / 2);
  });

  it("says how far the index has got while it catches up, and nothing once it has", async () => {
    index.stale();
    catchingUp = true;
    const early = await call("search_transcripts", { q: "chunk" });
    expect(early.progress).toMatchObject({ indexedDocs: 0, totalDocs: 2, indexedBytes: 0 });
    index.updateAll();
    catchingUp = false;
    const late = await call("search_transcripts", { q: "chunk" });
    expect(late.progress).toBeUndefined();
    expect((late.hits as unknown[]).length).toBeGreaterThan(0);
  });
});
