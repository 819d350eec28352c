/** The fault suite: each case asserts the outcome, not just "no crash". */
import { execFileSync } from "node:child_process";
import { existsSync, mkdtempSync, readFileSync, realpathSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { afterAll, afterEach, beforeAll, describe, expect, it } from "vitest";
import { parseTranscript } from "../../lib/contracts/transcript";
import type { AttachedEvent } from "../../lib/contracts/wire";
import { alive, processTree, startTestRelay, TestClient, waitUntil, type TestRelay } from "../relay-harness";

const stub = path.resolve(import.meta.dirname, "../fixtures/stub-agent.mjs");
const benchAgent = path.resolve(import.meta.dirname, "../fixtures/bench-agent.mjs");
const node = (...args: string[]) => ({ command: process.execPath, args, env: {} });

let relay: TestRelay;
const clients: TestClient[] = [];
const client = async (auth: Record<string, unknown> = {}) => {
  const c = new TestClient(relay.url, { token: "test-token", ...auth });
  clients.push(c);
  await c.connected();
  return c;
};

beforeAll(async () => {
  relay = await startTestRelay({
    graceMs: 2_000,
    killGraceMs: 500,
    requestTimeoutMs: 300,
    maxLineBytes: 64 * 1024,
    profiles: {
      echo: node(stub, "echo"),
      mute: node(stub, "mute"),
      crash: node(stub, "prompt-crash"),
      huge: node(stub, "huge", "20"),
      stream: node(benchAgent, "rate", "2000", "4000"),
    },
  });
});
afterEach(() => {
  for (const c of clients.splice(0)) c.close();
});
afterAll(async () => {
  await relay.close();
});

describe("faults", () => {
  it("agent crashes mid-turn: the in-flight request fails with process_exited; the transcript keeps everything", async () => {
    const c = await client();
    const seen = c.errors;
    const agent = await c.start({ profile: "crash" });
    await c.send({ jsonrpc: "2.0", id: 1, method: "initialize", params: {} });
    await c.response(1);
    await c.send({ jsonrpc: "2.0", id: 2, method: "session/prompt", params: { sessionId: "s", prompt: [] } });
    await c.waitFor(() => c.exits[0], "exit");
    expect(c.exits[0]).toEqual({ code: 1, signal: null });
    const exited = await c.waitFor(() => seen.find((e) => e.code === "process_exited"), "process_exited");
    expect(exited.data?.requests).toEqual([expect.objectContaining({ id: "2", method: "session/prompt", seq: 3 })]);
    expect(exited.message).toMatch(/1 request unanswered: session\/prompt \(id 2\)/);
    await waitUntil(
      () => relay.server.relay.transcripts.meta(agent.transcriptId!)?.recording === false,
      "transcript closed",
    );
    const t = parseTranscript(readFileSync(relay.server.relay.transcripts.file(agent.transcriptId!), "utf8"));
    expect(t.frames.map((f) => f.method)).toEqual([
      "initialize",
      "initialize",
      "session/prompt",
      "session/update",
      "session/update",
    ]);
    expect(t.events.filter((e) => e.type === "lifecycle").map((e) => (e as { event: string }).event)).toEqual([
      "spawned",
      "error",
      "exited",
    ]);
  });

  it("a 20 MiB line is flagged and dropped, and the relay stays responsive", async () => {
    const c = await client();
    await c.start({ profile: "huge" });
    const after = await c.frame((f) => f.method === "after/huge", "the frame after the huge line", 30_000);
    expect(c.frames[0]).toMatchObject({
      kind: "invalid",
      error: `line of ${20 * 1024 * 1024} bytes exceeds the maximum of ${64 * 1024} and was dropped`,
    });
    expect(after.seq).toBe(2);
    await c.send({ jsonrpc: "2.0", id: 1, method: "ping" });
    await c.response(1);
  });

  it("an agent that never answers initialize: the user is told, can stop it, nothing is left running", async () => {
    const c = await client();
    const seen = c.errors;
    const agent = await c.start({ profile: "mute" });
    await c.send({ jsonrpc: "2.0", id: 1, method: "initialize", params: {} });
    const late = await c.waitFor(() => seen.find((e) => e.code === "request_timeout"), "request_timeout", 5_000);
    expect(late.message).toMatch(/^initialize \(id 1\) has had no answer/);
    const tree = processTree(agent.pid);
    expect(await c.emit("agent:stop", {})).toEqual({ ok: true });
    expect(tree.every((p) => !alive(p))).toBe(true);
    expect(seen.find((e) => e.code === "process_exited")?.data?.requests?.[0]).toMatchObject({ method: "initialize" });
  });

  it("a reload in the middle of a streamed turn re-attaches gapless by seq", async () => {
    const first = await client({});
    await first.start({ profile: "stream" });
    await first.send("go");
    await first.waitFor(() => first.frames.length > 500, "streaming");
    const clientId = first.clientId!;
    first.close();
    const held = first.frames.at(-1)!.seq;
    const second = await client({ clientId, lastSeq: held });
    await second.waitFor(() => second.frames.some((f) => f.raw.includes("bench/done")), "end of stream", 20_000);
    const seqs = [...first.frames.map((f) => f.seq), ...second.frames.map((f) => f.seq)];
    expect(seqs).toEqual(Array.from({ length: seqs.length }, (_, i) => i + 1));
    expect(JSON.parse(second.frames.at(-1)!.raw).method).toBe("bench/done");
  });

  it("100 start/stop and 100 connect/disconnect cycles leave no process and no growth", async () => {
    const handles = () => (process as unknown as { _getActiveHandles(): unknown[] })._getActiveHandles().length;
    const baseHandles = handles();
    const baseRss = process.memoryUsage().rss;
    const pids: number[] = [];
    const c = await client();
    for (let i = 0; i < 100; i++) {
      pids.push((await c.start({ profile: "echo" })).pid);
      expect(await c.emit("agent:stop", {})).toEqual({ ok: true });
    }
    c.close();
    for (let i = 0; i < 100; i++) {
      const d = new TestClient(relay.url, { token: "test-token" });
      await d.connected();
      d.close();
    }
    await waitUntil(() => relay.server.relay.sessions.size === 0, "sessions disposed");
    expect(pids.filter(alive)).toEqual([]);
    await waitUntil(() => handles() <= baseHandles + 2, "handles back to the baseline", 5_000);
    expect(process.memoryUsage().rss - baseRss).toBeLessThan(64 * 1024 * 1024);
  }, 120_000);

  it("garbage from the browser is refused; the connection and the relay survive", async () => {
    const c = await client();
    await c.start({ profile: "echo" });
    const bad: unknown[] = [
      null,
      0,
      "x",
      [],
      true,
      { frame: null },
      { frame: "a\nb" },
      { frame: "x".repeat(100 * 1024) },
    ];
    for (const payload of bad) expect((await c.emit("agent:send", payload)).ok).toBe(false);
    expect((await (c.socket as any).timeout(2000).emitWithAck("no:such:event", {})).error.code).toBe("invalid_payload");
    (c.socket as any).emit("agent:send"); // no payload, no ack
    expect(c.socket.connected).toBe(true);
    await c.send({ jsonrpc: "2.0", id: 1, method: "still/alive" });
    await c.response(1);

    // A payload over the transport's limit closes that connection only; the browser re-attaches.
    const disconnected = new Promise((resolve) => c.socket.once("disconnect", resolve));
    (c.socket as any).emit("agent:send", { frame: "x".repeat(1024 * 1024) });
    await disconnected;
    const again = await client({ clientId: c.clientId, lastSeq: c.frames.at(-1)!.seq });
    await again.send({ jsonrpc: "2.0", id: 2, method: "after/reconnect" });
    expect((await again.response(2)).seq).toBe(c.frames.at(-1)!.seq + 2);
  });
});

describe("hostile agents", () => {
  let hostile: TestRelay;
  let base: string;
  const hostileClients: TestClient[] = [];
  const connect = async (auth: Record<string, unknown> = {}) => {
    const c = new TestClient(hostile.url, { token: "test-token", ...auth });
    hostileClients.push(c);
    await c.connected();
    return c;
  };
  const background = `nohup sh -c 'trap "" TERM; exec sleep 993' >/dev/null 2>&1 & echo "nohup $!"; setsid sh -c 'trap "" TERM; exec sleep 994' >/dev/null 2>&1 & echo "setsid $!"`;

  beforeAll(async () => {
    base = realpathSync(mkdtempSync(path.join(tmpdir(), "acp-hostile-")));
    hostile = await startTestRelay({
      graceMs: 2_000,
      killGraceMs: 300,
      maxLineBytes: 128 * 1024,
      replayBytes: 1024 * 1024,
      stderrBytes: 256 * 1024,
      workspaceRoots: [base],
      profiles: {
        echo: node(stub, "echo"),
        big: node(stub, "big-lines", "100", "64"),
        env: node(stub, "env"),
        setsid: node(stub, "setsid-child"),
        envTerminal: node(stub, "shell", "env"),
        background: node(stub, "shell", background),
      },
    });
  });
  afterEach(() => {
    for (const c of hostileClients.splice(0)) c.close();
  });
  afterAll(async () => {
    await hostile.close();
    rmSync(base, { recursive: true, force: true });
  });

  /** An initialize advertising fs: the relay serves only what the client advertised. */
  async function advertiseFs(c: TestClient): Promise<void> {
    const fs = { readTextFile: true, writeTextFile: true };
    await c.initialize({ fs });
  }

  /** initialize, session/new and a prompt whose turn runs the profile's terminal; resolves with the output answer. */
  async function terminalTurn(c: TestClient): Promise<{ output: string; truncated: boolean }> {
    const terminalMethods = ["create", "output", "wait_for_exit", "release", "kill"].map((m) => `terminal/${m}`);
    await c.emit("policy:set", { policies: Object.fromEntries(terminalMethods.map((m) => [m, "auto"])) });
    // The relay serves only what initialize advertised.
    await c.send({
      jsonrpc: "2.0",
      id: 1,
      method: "initialize",
      params: { protocolVersion: 1, clientCapabilities: { terminal: true } },
    });
    await c.send({ jsonrpc: "2.0", id: 2, method: "session/new", params: { cwd: base, mcpServers: [] } });
    await c.send({
      jsonrpc: "2.0",
      id: 3,
      method: "session/prompt",
      params: { sessionId: "terminal-session", prompt: [] },
    });
    await c.response(3);
    const answer = await c.frame((f) => f.dir === "to-agent" && f.id === "output", "terminal/output answer");
    return (answer.message as { result: { output: string; truncated: boolean } }).result;
  }

  it("an agent printing many large valid lines: the relay keeps its caps in bytes and a re-attach is told of the gap", async () => {
    const c = await connect();
    await c.start({ profile: "big" });
    await c.frame((f) => f.method === "stub/big-done", "the last line", 60_000);
    await c.waitFor(() => c.stderr.join("").includes("stderr 99 "), "the last stderr line");
    const session = hostile.server.relay.sessions.get(c.clientId!)!;
    expect(session.host.keptChars.frames).toBeGreaterThan(0);
    expect(session.host.keptChars.frames).toBeLessThanOrEqual(1024 * 1024);
    expect(session.host.keptChars.stderr).toBeLessThanOrEqual(256 * 1024);
    expect(c.frames).toHaveLength(101);
    c.close();

    const again = new TestClient(hostile.url, { token: "test-token", clientId: c.clientId, lastSeq: 0 });
    hostileClients.push(again);
    const attached = new Promise<AttachedEvent>((resolve) => again.socket.once("agent:attached", resolve));
    const event = await attached;
    await again.frame((f) => f.method === "stub/big-done", "the resent last line");
    expect(event.firstSeq).toBe(again.frames[0]!.seq);
    expect(event.missed).toBe(event.firstSeq - 1);
    expect(event.missed).toBeGreaterThan(50);
    expect(again.frames.map((f) => f.seq)).toEqual(
      Array.from({ length: 101 - event.missed }, (_, i) => event.firstSeq + i),
    );
    expect(again.stderr.join("").length).toBeLessThanOrEqual(256 * 1024);
  });

  it("fs/read_text_file of a FIFO answers an error at once, and another agent can still start", async () => {
    const fifo = path.join(base, "pipe");
    execFileSync("mkfifo", [fifo]);
    const c = await connect();
    await c.start({ profile: "echo" });
    await advertiseFs(c);
    await c.emit("policy:set", { policies: { "fs/read_text_file": "auto" } });
    for (let i = 0; i < 6; i++) {
      await c.send({
        jsonrpc: "2.0",
        method: "stub/request",
        params: { id: `fifo-${i}`, method: "fs/read_text_file", params: { sessionId: "s", path: fifo } },
      });
    }
    const answer = await c.frame((f) => f.dir === "to-agent" && f.id === "fifo-5", "the read's answer", 5_000);
    expect(answer.message).toMatchObject({ error: { code: -32000, message: `not a regular file (a FIFO): ${fifo}` } });
    const other = await connect();
    await other.start({ profile: "echo" });
    await other.send({ jsonrpc: "2.0", id: 1, method: "ping" });
    await other.response(1, 5_000);
  });

  it("agent requests with malformed params get -32602 naming the field, and nothing is done", async () => {
    const target = path.join(base, "never-written.txt");
    const c = await connect();
    await c.start({ profile: "echo" });
    await advertiseFs(c);
    const auto = { "fs/write_text_file": "auto", "session/request_permission": "auto" };
    await c.emit("policy:set", { policies: auto });
    const ask = (id: string, method: string, params: unknown) =>
      c.send({ jsonrpc: "2.0", method: "stub/request", params: { id, method, params } });
    await ask("bad-write", "fs/write_text_file", { sessionId: "s", path: target, content: 5 });
    await ask("bad-permission", "session/request_permission", { sessionId: "s", toolCall: {}, options: "x" });
    const write = await c.frame((f) => f.dir === "to-agent" && f.id === "bad-write", "the write's answer", 5_000);
    expect(write.message).toMatchObject({
      error: {
        code: -32602,
        message: "Invalid params: params.content: expected string, got integer",
        data: { issues: [{ path: "params.content" }] },
      },
    });
    const permission = await c.frame((f) => f.dir === "to-agent" && f.id === "bad-permission", "its answer", 5_000);
    expect(permission.message).toMatchObject({ error: { code: -32602, message: /params\.toolCall\.toolCallId/ } });
    expect(existsSync(target)).toBe(false);
  });

  it("no child sees the playground's own variables: agents and terminals get only their spawn marker", async () => {
    const saved = { ...process.env };
    process.env.ACP_PLAYGROUND_TOKEN = "test-token";
    process.env.ACP_PLAYGROUND_ANYTHING = "secret-to-the-relay";
    try {
      const c = await connect();
      await c.start({ profile: "env" });
      const env = (await c.frame((f) => f.method === "stub/env", "the agent's env")).message as {
        params: Record<string, string>;
      };
      const playground = (e: Record<string, string>) => Object.keys(e).filter((k) => k.startsWith("ACP_PLAYGROUND_"));
      expect(playground(env.params)).toEqual(["ACP_PLAYGROUND_SPAWN"]);
      expect(JSON.stringify(env.params)).not.toContain("test-token");

      const t = await connect();
      await t.start({ profile: "envTerminal" });
      const { output } = await terminalTurn(t);
      const terminalEnv = Object.fromEntries(
        output.split("\n").map((l) => [l.split("=")[0]!, l.slice(l.indexOf("=") + 1)]),
      );
      expect(playground(terminalEnv)).toEqual(["ACP_PLAYGROUND_SPAWN"]);
      expect(terminalEnv.ACP_PLAYGROUND_SPAWN).not.toBe(env.params.ACP_PLAYGROUND_SPAWN);
      expect(output).not.toContain("test-token");
    } finally {
      process.env = saved;
    }
  });

  it("nothing a terminal or an agent starts survives it: nohup, setsid, SIGTERM ignored", async () => {
    const c = await connect();
    await c.start({ profile: "background" });
    const { output } = await terminalTurn(c);
    const pids = [...output.matchAll(/^(?:nohup|setsid) (\d+)$/gm)].map((m) => Number(m[1]));
    expect(pids).toHaveLength(2);
    expect(await c.emit("agent:stop", {})).toEqual({ ok: true });
    expect(pids.filter(alive)).toEqual([]);

    const d = await connect();
    const agent = await d.start({ profile: "setsid" });
    const child = (await d.frame((f) => f.method === "stub/child", "the setsid child")).message as {
      params: { pid: number };
    };
    expect(alive(child.params.pid)).toBe(true);
    expect(readFileSync(`/proc/${child.params.pid}/stat`, "utf8").split(" ")[4]).not.toBe(String(agent.pid));
    expect(await d.emit("agent:stop", {})).toEqual({ ok: true });
    expect(alive(child.params.pid)).toBe(false);
  });
});
