/**
 * `acp-playground mcp` through real MCP clients over stdio: the official SDK's (every tool,
 * read-only, redacted as a share link is) and MCP Inspector's CLI, configured as an editor would be.
 */
import { mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { Client } from "@modelcontextprotocol/sdk/client/index.js";
import { StdioClientTransport } from "@modelcontextprotocol/sdk/client/stdio.js";
import { execa } from "execa";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { serialize, serializeFrame } from "../../lib/contracts/transcript";
import { testHeader } from "../transcripts";

const ROOT = path.resolve(import.meta.dirname, "../..");
// Pinned in test/agents. Its launcher declares Node 22.19 but its CLI runs on Node 20.
const INSPECTOR = path.join(
  ROOT,
  "test/agents/node_modules/@modelcontextprotocol/inspector/clients/launcher/build/index.js",
);
const SECRET = "plainvalue-0123456789-abcdef";
const WORKSPACE = "/home/someone/secret-project";

const say = (seq: number, text: string) =>
  serializeFrame({
    seq,
    ts: 1_700_000_000_000 + seq * 10,
    dir: "from-agent",
    kind: "notification",
    method: "session/update",
    raw: JSON.stringify({
      jsonrpc: "2.0",
      method: "session/update",
      params: { sessionId: "s1", update: { sessionUpdate: "agent_message_chunk", content: { type: "text", text } } },
    }),
  });

function transcript(answer: string, slow: number, createdAt: string): string {
  const frame = (
    seq: number,
    dir: "to-agent" | "from-agent",
    kind: "request" | "response",
    method: string,
    message: object,
    latencyMs?: number,
  ) =>
    serializeFrame({
      seq,
      ts: 1_700_000_000_000 + seq * 10,
      dir,
      kind,
      method,
      raw: JSON.stringify({ jsonrpc: "2.0", ...message }),
      ...(latencyMs !== undefined ? { latencyMs, requestSeq: seq - 1 } : {}),
    });
  return (
    serialize(
      testHeader({
        createdAt,
        agent: { profile: "gemini", command: "/opt/bin/gemini", args: ["--acp"], cwd: WORKSPACE },
      }),
    ) +
    frame(1, "to-agent", "request", "initialize", { id: 0, method: "initialize", params: { protocolVersion: 1 } }) +
    frame(
      2,
      "from-agent",
      "response",
      "initialize",
      { id: 0, result: { protocolVersion: 1, agentInfo: { name: "gemini-cli" } } },
      12,
    ) +
    frame(3, "to-agent", "request", "session/prompt", {
      id: 1,
      method: "session/prompt",
      params: { sessionId: "s1", prompt: [{ type: "text", text: "find the bug" }] },
    }) +
    say(4, `${answer} in ${WORKSPACE}/src/app.ts with key ${SECRET}`) +
    frame(5, "from-agent", "response", "session/prompt", { id: 1, result: { stopReason: "end_turn" } }, slow)
  );
}

let dir = "";
let client: Client;

beforeAll(async () => {
  dir = mkdtempSync(path.join(tmpdir(), "acp-mcp-"));
  const store = path.join(dir, "transcripts");
  rmSync(store, { recursive: true, force: true });
  // Written by hand, as another machine's recording would be: the secret was never redacted here.
  const { mkdirSync } = await import("node:fs");
  mkdirSync(store, { recursive: true, mode: 0o700 });
  writeFileSync(
    path.join(store, "20261120-100000-aaaaaaaa.jsonl"),
    transcript("The bug is a missing semicolon", 300, "2026-11-20T10:00:00.000Z"),
  );
  writeFileSync(
    path.join(store, "20261121-100000-bbbbbbbb.jsonl"),
    transcript("The bug is an off-by-one", 900, "2026-11-21T10:00:00.000Z"),
  );
  client = new Client({ name: "acp-playground-test", version: "1.0.0" });
  await client.connect(
    new StdioClientTransport({
      command: process.execPath,
      args: ["--import", "tsx", path.join(ROOT, "server/cli/cli.ts"), "mcp", "--data", dir],
      cwd: ROOT,
      env: { ...(process.env as Record<string, string>), TEST_SERVICE_API_KEY: SECRET },
      stderr: "pipe",
    }),
  );
}, 60_000);

afterAll(async () => {
  await client?.close();
  rmSync(dir, { recursive: true, force: true });
});

async function call(name: string, args: Record<string, unknown>) {
  const result = (await client.callTool({ name, arguments: args })) as {
    isError?: boolean;
    content: { text: string }[];
  };
  const text = result.content[0]!.text;
  return { isError: result.isError === true, text, value: () => JSON.parse(text) };
}

describe("acp-playground mcp", () => {
  it("lists its tools, every one read-only", async () => {
    const { tools } = await client.listTools();
    expect(tools.map((t) => t.name).sort()).toEqual([
      "diff_transcripts",
      "latency_table",
      "list_transcripts",
      "read_frames",
      "read_turn",
      "search_transcripts",
      "transcript_insights",
    ]);
    expect(tools.every((t) => t.annotations?.readOnlyHint === true)).toBe(true);
  });

  it("lists and searches the library", async () => {
    const list = (await call("list_transcripts", { kind: "session" })).value().transcripts;
    expect(list.map((t: { id: string }) => t.id)).toEqual(["20261121-100000-bbbbbbbb", "20261120-100000-aaaaaaaa"]);
    expect((await call("list_transcripts", {})).value().transcripts.map((t: { kind: string }) => t.kind)).toContain(
      "demo",
    );
    expect((await call("list_transcripts", { kind: "session", from: "2026-11-21" })).value().transcripts).toHaveLength(
      1,
    );
    // The index catches up in the background.
    await expect
      .poll(async () => (await call("search_transcripts", { q: "semicolon" })).value().hits.length, { timeout: 15_000 })
      .toBe(1);
    const hit = (await call("search_transcripts", { q: "semicolon" })).value().hits[0];
    expect(hit).toMatchObject({ seq: 4, field: "message", transcript: { id: "20261120-100000-aaaaaaaa" } });
    expect(hit.line).toContain("missing semicolon");
    expect(hit.line).not.toContain(SECRET);
    expect(hit.line).not.toContain(WORKSPACE);
    expect((await call("search_transcripts", { q: "bug", errors: true })).value().hits).toEqual([]);
  });

  it("reads frames and turns redacted as a share link: secrets and local paths hidden", async () => {
    const frames = (await call("read_frames", { id: "20261120-100000-aaaaaaaa", from: 3, to: 4 })).value();
    expect(frames.frames.map((f: { seq: number }) => f.seq)).toEqual([3, 4]);
    expect(frames.lastSeq).toBe(5);
    const text = JSON.stringify(frames);
    expect(text).not.toContain(SECRET);
    expect(text).not.toContain(WORKSPACE);
    expect(text).toContain("<workspace>/src/app.ts");
    expect(text).toContain("[REDACTED]");
    const turn = (await call("read_turn", { id: "20261120-100000-aaaaaaaa", turn: 1 })).value();
    expect(turn.turn).toMatchObject({ number: 1, firstSeq: 3, lastSeq: 5, prompt: "find the bug" });
    expect(turn.frames.map((f: { seq: number }) => f.seq)).toEqual([3, 4, 5]);
    const missing = await call("read_turn", { id: "20261120-100000-aaaaaaaa", turn: 2 });
    expect(missing).toMatchObject({ isError: true, text: "transcript 20261120-100000-aaaaaaaa has 1 turn(s)" });
    expect((await call("read_frames", { id: "../../etc/passwd" })).isError).toBe(true);
    expect((await call("read_frames", { id: "nope" })).text).toMatch(/^no transcript nope/);
  });

  it("gives insights, the latency table of one transcript and of the library, and a diff", async () => {
    const insights = (await call("transcript_insights", { id: "20261121-100000-bbbbbbbb" })).value().insights;
    expect(insights.find((i: { kind: string }) => i.kind === "slowest")?.items[0].seqs).toContain(5);
    const one = (await call("latency_table", { id: "20261121-100000-bbbbbbbb" })).value().rows;
    expect(one.find((r: { method: string }) => r.method === "session/prompt")).toMatchObject({ p50: 900, answered: 1 });
    await expect
      .poll(async () => (await call("latency_table", { kind: "session" })).value().transcripts, { timeout: 15_000 })
      .toBe(2);
    const all = (await call("latency_table", { kind: "session" })).value().rows;
    expect(all.find((r: { method: string }) => r.method === "session/prompt")).toMatchObject({
      requests: 2,
      p50: 300,
      max: 900,
    });
    const diff = (
      await call("diff_transcripts", { a: "20261120-100000-aaaaaaaa", b: "20261121-100000-bbbbbbbb" })
    ).value();
    expect(diff.counts.changed).toBe(1);
    expect(diff.differences[0]).toMatchObject({ op: "changed", a: { seq: 4 }, b: { seq: 4 } });
    expect(JSON.stringify(diff.differences[0].fields)).toContain("off-by-one");
  });
});

describe("acp-playground mcp through MCP Inspector's CLI", () => {
  /** Runs the Inspector's CLI against the server as an editor's `mcpServers` entry names it. */
  async function inspect(...args: string[]) {
    const home = path.join(dir, "inspector-home");
    const config = path.join(dir, "mcp.json");
    const server = {
      command: process.execPath,
      args: ["--import", "tsx", path.join(ROOT, "server/cli/cli.ts"), "mcp", "--data", dir],
      env: { TEST_SERVICE_API_KEY: SECRET },
    };
    writeFileSync(config, JSON.stringify({ mcpServers: { "acp-playground": server } }));
    const r = await execa(
      process.execPath,
      [INSPECTOR, "--cli", "--config", config, "--server", "acp-playground", ...args],
      // Its own home, and secrets kept in memory: the Inspector writes nothing of the user's.
      { cwd: ROOT, env: { HOME: home, MCP_INSPECTOR_SECRET_STORE: "memory" }, reject: false },
    );
    expect(r.exitCode, r.stderr).toBe(0);
    return JSON.parse(r.stdout);
  }

  it("lists the tools and reads a turn, redacted", async () => {
    const { tools } = await inspect("--method", "tools/list");
    expect(tools.map((t: { name: string }) => t.name)).toContain("read_turn");
    const result = await inspect(
      "--method",
      "tools/call",
      "--tool-name",
      "read_turn",
      "--tool-arg",
      "id=20261120-100000-aaaaaaaa",
      "--tool-arg",
      "turn=1",
    );
    const text = result.content[0].text as string;
    expect(JSON.parse(text).turn).toMatchObject({ number: 1, prompt: "find the bug" });
    expect(text).toContain("missing semicolon");
    expect(text).not.toContain(SECRET);
    expect(text).not.toContain(WORKSPACE);
  }, 60_000);
});
