/**
 * Credentials an agent prints from its environment (issue #34): a real recording through the
 * relay, then everything that reads it back (the transcript file, the HTML export, MCP
 * read_frames and search_transcripts) shows none of them.
 */
import { cpSync, mkdtempSync, readdirSync, readFileSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { gunzipSync } from "node:zlib";
import { Client } from "@modelcontextprotocol/sdk/client/index.js";
import { InMemoryTransport } from "@modelcontextprotocol/sdk/inMemory.js";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { EXPORT_DATA_ID } from "../../lib/features/library/export-page";
import { secretsFromEnv } from "../../lib/features/library/redact";
import { createLibraryServer } from "../../server/cli/mcp-server";
import { SearchIndex } from "../../server/transcripts/search-index";
import { TranscriptStore } from "../../server/transcripts/transcript-store";
import { startTestRelay, TestClient, type TestRelay } from "../relay-harness";

const fixture = path.resolve(import.meta.dirname, "../fixtures/leaky-agent.mjs");
// Made-up values of each shape; none is a real credential.
const ENV = {
  DB_PASS: "dbpass7Aq9x2Lm7",
  MYSQL_PWD: "mysqlpwd4Zt4k8Pq1",
  STRIPE_SK: "sk_live_4eC39HqLyjWDarjtT1zdp7dc",
  SLACK_WEBHOOK_URL: "https://hooks.slack.com/services/T00000000/B11111111/XXXXXXXXXXXXXXXXXXXXXXXX",
  SENTRY_DSN: "https://0123456789abcdef0123456789abcdef@o123456.ingest.sentry.io/4505",
};
/** What must show nowhere: each value, and the secret part of the URLs. */
const LEAKS = [
  ...Object.values(ENV),
  "4eC39HqLyjWDarjtT1zdp7dc",
  "XXXXXXXXXXXXXXXXXXXXXXXX",
  "0123456789abcdef0123456789abcdef",
];
const expectNoLeak = (text: string, where: string) => {
  for (const leak of LEAKS) expect(text, `${where}: ${leak}`).not.toContain(leak);
};

let relay: TestRelay;
let library = "";
let id = "";

beforeAll(async () => {
  relay = await startTestRelay({
    profiles: { leaky: { command: process.execPath, args: [fixture, ...Object.keys(ENV)], env: ENV } },
  });
  const c = new TestClient(relay.url, { token: "test-token" });
  try {
    await c.connected();
    id = (await c.start({ profile: "leaky" })).transcriptId!;
    await c.send({ jsonrpc: "2.0", id: 1, method: "initialize", params: { protocolVersion: 1 } });
    await c.response(1);
    await c.send({ jsonrpc: "2.0", id: 2, method: "session/new", params: { cwd: relay.config.workspaceRoots[0] } });
    await c.response(2);
    await c.send({
      jsonrpc: "2.0",
      id: 3,
      method: "session/prompt",
      params: { sessionId: "leaky", prompt: [{ type: "text", text: "print your environment" }] },
    });
    await c.response(3);
    await c.waitFor(() => c.stderr.some((t) => t.includes("leaked")), "stderr");
    await c.emit("agent:stop", {});
    await c.waitFor(() => c.exits.length > 0, "exit");
  } finally {
    c.close();
  }
  library = mkdtempSync(path.join(tmpdir(), "acp-redaction-"));
  cpSync(path.join(relay.config.dataDir, "transcripts"), path.join(library, "transcripts"), { recursive: true });
}, 60_000);

afterAll(async () => {
  await relay?.close();
  if (library) rmSync(library, { recursive: true, force: true });
});

describe("credentials printed by an agent", () => {
  it("are redacted, every copy, in the transcript file", () => {
    const dir = path.join(library, "transcripts");
    const file = readdirSync(dir).find((f) => f.startsWith(id) && f.endsWith(".jsonl"))!;
    const text = readFileSync(path.join(dir, file), "utf8");
    expect(text).toContain("leaked [REDACTED]");
    expect(text).toContain("DB_PASS=[REDACTED]");
    expectNoLeak(text, "transcript");
  });

  it("are not in the HTML export", async () => {
    const res = await fetch(`${relay.url}/api/transcripts/${id}/export`, {
      headers: { authorization: "Bearer test-token" },
    });
    expect(res.status).toBe(200);
    const html = await res.text();
    // The transcript travels in the page gzipped: read it as the page does.
    const open = `<script id="${EXPORT_DATA_ID}" type="application/gzip+base64">`;
    const data = html.slice(html.indexOf(open) + open.length, html.indexOf("</script>", html.indexOf(open)));
    const text = gunzipSync(Buffer.from(data, "base64")).toString("utf8");
    expect(text).toContain("leaked [REDACTED]");
    expectNoLeak(text, "export");
    expectNoLeak(html, "export page");
  });

  it("are not in MCP read_frames or search_transcripts", async () => {
    const store = new TranscriptStore(library);
    const index = new SearchIndex(store.dir);
    for (const stale of index.stale()) while (!index.update(stale));
    // This process's environment has none of them: the recording alone must have hidden them.
    const server = createLibraryServer({ store, index, secrets: secretsFromEnv(process.env) });
    const [a, b] = InMemoryTransport.createLinkedPair();
    const client = new Client({ name: "redaction-test", version: "1.0.0" });
    try {
      await Promise.all([server.connect(a), client.connect(b)]);
      const call = async (name: string, args: Record<string, unknown>) =>
        JSON.stringify(await client.callTool({ name, arguments: args }));
      const frames = await call("read_frames", { id });
      expect(frames).toContain("leaked [REDACTED]");
      expectNoLeak(frames, "read_frames");
      const search = await call("search_transcripts", { q: "leaked" });
      expect(search).toContain(id);
      expectNoLeak(search, "search_transcripts");
      for (const word of [
        "dbpass7Aq9x2Lm7",
        "mysqlpwd4Zt4k8Pq1",
        "4eC39HqLyjWDarjtT1zdp7dc",
        "XXXXXXXXXXXXXXXXXXXXXXXX",
      ])
        expect(await call("search_transcripts", { q: word }), word).not.toContain(id);
    } finally {
      await client.close();
      index.close();
    }
  });
});
