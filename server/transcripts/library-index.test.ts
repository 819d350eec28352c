/**
 * The relay's index thread (LibraryIndex + index-worker.ts): a deleted transcript is purged
 * from the index file without anyone asking, and searches asked at once are all answered.
 */
import { existsSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { execa } from "execa";
import { afterEach, describe, expect, it } from "vitest";
import { serialize, serializeFrame } from "../../lib/contracts/transcript";
import { transcriptLimits } from "../config";
import { LibraryIndex } from "./library-index";
import { INDEX_FILE } from "./search-index";
import { TranscriptStore } from "./transcript-store";
import { testHeader } from "../../test/transcripts";

const cleanups: Array<() => Promise<void> | void> = [];
afterEach(async () => {
  for (const c of cleanups.splice(0).reverse()) await c();
});

function importSaying(store: TranscriptStore, texts: string[]): string {
  let out = serialize(
    testHeader({ createdAt: "2026-11-20T10:00:00.000Z", agent: { profile: "gemini", command: "gemini" } }),
  );
  texts.forEach((text, i) => {
    const message = {
      jsonrpc: "2.0",
      method: "session/update",
      params: { sessionId: "s1", update: { sessionUpdate: "agent_message", content: { type: "text", text } } },
    };
    out += serializeFrame({
      seq: i + 1,
      ts: 1000 + i,
      dir: "from-agent",
      kind: "notification",
      method: "session/update",
      raw: JSON.stringify(message),
    });
  });
  const temp = store.tempFile();
  writeFileSync(temp, out);
  return store.import(temp).id;
}

describe("LibraryIndex", () => {
  it("purges a deleted transcript's words from the index file once the index is idle", async () => {
    const dir = mkdtempSync(path.join(tmpdir(), "acp-library-index-"));
    cleanups.push(() => rmSync(dir, { recursive: true, force: true }));
    const store = new TranscriptStore(dir, {}, transcriptLimits({}));
    importSaying(store, ["a shared message"]);
    const secret = importSaying(
      store,
      Array.from({ length: 500 }, (_, i) => `wombatconfidential${i} line`),
    );
    const library = new LibraryIndex(store.dir);
    cleanups.push(() => library.close());
    store.index = library;
    await library.idle();
    const asked = await Promise.all([1, 2, 3].map(() => library.search({ q: `"wombatconfidential42"` })));
    expect(asked.map((a) => a.hits.length)).toEqual([1, 1, 1]);
    store.delete(secret);
    await library.idle();
    expect((await library.search({ q: `"wombatconfidential42"` })).hits).toEqual([]);
    const file = path.join(store.dir, INDEX_FILE);
    const bytes = Buffer.concat([file, `${file}-wal`].filter(existsSync).map((f) => readFileSync(f)));
    expect(bytes.includes("wombatconfidential")).toBe(false);
  });

  // A server whose port is taken closes its relay with nothing else running (server/cli/serve.ts): its
  // process ended with exit 0 and no word while the worker, unref'd, had yet to answer the close.
  it("keeps the process alive until its worker has closed", async () => {
    const dir = mkdtempSync(path.join(tmpdir(), "acp-index-close-"));
    cleanups.push(() => rmSync(dir, { recursive: true, force: true }));
    const script = `
      const { LibraryIndex } = await import(${JSON.stringify(path.join(import.meta.dirname, "library-index.ts"))});
      await new LibraryIndex(${JSON.stringify(dir)}).close();
      process.stdout.write("closed");
    `;
    const run = await execa(process.execPath, ["--import", "tsx", "--input-type=module", "-e", script], {
      reject: false,
      timeout: 60_000,
    });
    expect(run.stderr).toBe("");
    expect(run.stdout).toBe("closed");
  }, 90_000);
});
