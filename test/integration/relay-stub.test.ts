/** Relay behaviour against a small stub agent: framing, errors, lifecycle, re-attach. */
import path from "node:path";
import { afterAll, afterEach, beforeAll, describe, expect, it } from "vitest";
import { alive, processTree, startTestRelay, TestClient, waitUntil, type TestRelay } from "../relay-harness";

const stub = path.resolve(import.meta.dirname, "../fixtures/stub-agent.mjs");
const profile = (mode: string, ...extra: string[]) => ({
  command: process.execPath,
  args: [stub, mode, ...extra],
  env: {},
});

let relay: TestRelay;
const clients: TestClient[] = [];
const client = (auth: Record<string, unknown> = {}) => {
  const c = new TestClient(relay.url, { token: "test-token", ...auth });
  clients.push(c);
  return c;
};

beforeAll(async () => {
  relay = await startTestRelay({
    graceMs: 1_000,
    killGraceMs: 500,
    maxLineBytes: 4096,
    profiles: {
      echo: profile("echo"),
      noise: profile("noise", "20000"),
      bytes: profile("bytes"),
      family: profile("spawn-child"),
      missing: { command: "/nonexistent/acp-agent", args: [], env: {} },
    },
  });
});
afterEach(() => {
  for (const c of clients.splice(0)) c.close();
});
afterAll(async () => {
  await relay.close();
});

describe("relay with a stub agent", () => {
  it("echoes browser frames in the log and correlates responses", async () => {
    const c = client();
    await c.connected();
    const onWire: unknown[] = [];
    c.socket.on("frames", (frames) => onWire.push(...frames.map((f) => ({ ...f }))));
    const agent = await c.start({ profile: "echo" });
    expect(agent).toMatchObject({ profile: "echo", command: process.execPath });
    const seq = await c.send({ jsonrpc: "2.0", id: 7, method: "initialize", params: { protocolVersion: 1 } });
    expect(seq).toBe(1);
    const res = await c.response(7);
    expect(res).toMatchObject({ seq: 2, kind: "response", method: "initialize", dir: "from-agent" });
    expect(res.requestSeq).toBe(seq);
    expect(res.message).toEqual({ jsonrpc: "2.0", id: 7, result: { echo: { protocolVersion: 1 } } });
    // The socket carries no parsed `message`: the client parses `raw` itself.
    expect(onWire).toHaveLength(2);
    expect(onWire.every((f) => !("message" in (f as object)))).toBe(true);
    // A response names its request's seq on the wire.
    expect(onWire[1]).toMatchObject({ seq: 2, requestSeq: 1 });
    expect(c.frames[0]).toMatchObject({
      seq: 1,
      dir: "to-agent",
      kind: "request",
      raw: '{"jsonrpc":"2.0","id":7,"method":"initialize","params":{"protocolVersion":1}}',
    });
  });

  it("writes a string frame verbatim, so malformed input reaches the agent", async () => {
    const c = client();
    await c.connected();
    await c.start({ profile: "echo" });
    await c.send("{not json");
    const err = await c.frame((f) => f.dir === "from-agent" && f.id === null, "parse error from agent");
    expect(err.message).toMatchObject({ error: { code: -32700 } });
    expect(c.frames[0]).toMatchObject({ dir: "to-agent", kind: "invalid", raw: "{not json" });
    expect(c.frames[0]!.error).toMatch(/not JSON/);
  });

  it("flags non-JSON and over-long lines, reassembles split lines, and delivers 10,000 frames from one chunk", async () => {
    const c = client();
    await c.connected();
    await c.start({ profile: "noise" });
    await c.waitFor(() => c.frames.length >= 10_003, "all noise frames", 20_000);
    expect(c.frames[0]).toMatchObject({ kind: "invalid", raw: "this is not JSON" });
    expect(c.frames[1]).toMatchObject({ kind: "invalid" });
    expect(c.frames[1]!.error).toMatch(/^line of 20000 bytes exceeds the maximum of 4096 and was dropped$/);
    expect(c.frames[1]!.raw.length).toBeLessThanOrEqual(200);
    expect(c.frames[2]).toMatchObject({ kind: "notification", method: "split/line" });
    expect(c.frames.at(-1)).toMatchObject({ method: "bulk", message: { params: { i: 9_999 } } });
    expect(c.frames.map((f) => f.seq)).toEqual(Array.from({ length: c.frames.length }, (_, i) => i + 1));
    // Still responsive afterwards.
    await c.send({ jsonrpc: "2.0", id: 1, method: "ping" });
    await c.response(1);
  });

  it("keeps each line exactly: a CR, and bytes that are not UTF-8 (flagged invalid), on the wire and on disk", async () => {
    const c = client();
    await c.connected();
    const agent = await c.start({ profile: "bytes" });
    await c.waitFor(() => c.frames.length >= 2, "both lines", 10_000);
    expect(c.frames[0]).toMatchObject({
      kind: "notification",
      raw: '{"jsonrpc":"2.0","method":"stub/crlf","params":{}}\r',
    });
    const bytes = Buffer.concat([
      Buffer.from('{"jsonrpc":"2.0","method":"stub/bytes","params":{"b":"'),
      Buffer.from([0xff, 0xfe, 0xc3]),
      Buffer.from('"}}'),
    ]);
    expect(c.frames[1]).toMatchObject({ kind: "invalid", rawBase64: bytes.toString("base64") });
    expect(c.frames[1]!.raw).toContain("\uFFFD");
    expect(c.frames[1]!.error).toMatch(/not valid UTF-8/);
    await c.emit("agent:stop", {});
    const id = agent.transcriptId!;
    await waitUntil(() => relay.server.relay.transcripts.meta(id)?.recording === false, "recorded");
    const lines = relay.server.relay.transcripts.read(id)!.split("\n");
    const frames = lines.filter((l) => l.startsWith('{"type":"frame"')).map((l) => JSON.parse(l));
    expect(frames[0].raw.endsWith("\r")).toBe(true);
    expect(Buffer.from(frames[1].rawBase64, "base64").equals(bytes)).toBe(true);
  });

  it("reports a missing executable clearly and spawns nothing", async () => {
    const c = client();
    await c.connected();
    const errors: unknown[] = [];
    c.socket.on("agent:error", (e) => errors.push(e));
    const ack = await c.emit("agent:start", { profile: "missing" });
    expect(ack).toEqual({
      ok: false,
      error: {
        code: "spawn_failed",
        message: "Failed to start ACP agent: executable not found: /nonexistent/acp-agent",
        // For the doctor (lib/features/connect/doctor.ts): a path is not looked for on PATH.
        data: { start: { reason: "not-found", command: "/nonexistent/acp-agent", searched: [] } },
      },
    });
    expect(errors).toHaveLength(1);
    expect((await c.emit("agent:send", { frame: "{}" })).error.code).toBe("no_agent");
  });

  it("refuses malformed payloads and unknown events without changing anything", async () => {
    const c = client();
    await c.connected();
    for (const payload of ["x", 1, [], { profile: 1 }, { command: "sh" }, { profile: "echo", options: "x" }]) {
      expect((await c.emit("agent:start", payload)).error.code).toBe("invalid_payload");
    }
    expect((await c.emit("agent:send", { frame: { a: 1 }, to: "x" })).error.code).toBe("invalid_payload");
    expect((await c.emit("agent:stop", "now")).error.code).toBe("invalid_payload");
    const unknown = await (c.socket as any).timeout(5000).emitWithAck("agent:exec", { command: "id" });
    expect(unknown).toEqual({ ok: false, error: { code: "invalid_payload", message: "unknown event: agent:exec" } });
    expect((await c.emit("agent:start", { profile: "nope" })).error).toEqual({
      code: "unknown_profile",
      message: "unknown profile: nope",
    });
    expect((await c.emit("agent:start", { profile: "echo", cwd: "/" })).error.code).toBe("bad_cwd");
    expect((await c.emit("agent:start", { profile: "echo", cwd: "../.." })).error.code).toBe("bad_cwd");
    expect(c.socket.connected).toBe(true);
    expect(c.frames).toHaveLength(0);
  });

  it("refuses a second start while an agent runs, and stops on request", async () => {
    const c = client();
    await c.connected();
    const agent = await c.start({ profile: "echo" });
    expect((await c.emit("agent:start", { profile: "echo" })).error.code).toBe("agent_running");
    expect(await c.emit("agent:stop", {})).toEqual({ ok: true });
    await c.waitFor(() => c.exits.length > 0, "agent:exit");
    expect(alive(agent.pid)).toBe(false);
  });

  it("reports the agent's own exit, and stderr separately", async () => {
    const c = client();
    await c.connected();
    await c.start({ profile: "echo" });
    await c.waitFor(() => c.stderr.join("").includes("stub agent started"), "stderr");
    await c.send({ jsonrpc: "2.0", id: 1, method: "crash" });
    const exit = await c.waitFor(() => c.exits[0], "agent:exit");
    expect(exit).toEqual({ code: 3, signal: null });
  });

  it("stops the whole process group, even a descendant that ignores SIGTERM", async () => {
    const c = client();
    await c.connected();
    const agent = await c.start({ profile: "family" });
    const note = await c.frame((f) => f.method === "stub/child", "child pid");
    const childPid = (note.message as { params: { pid: number } }).params.pid;
    expect(processTree(agent.pid)).toContain(childPid);
    await c.emit("agent:stop", {});
    expect(alive(agent.pid)).toBe(false);
    expect(alive(childPid)).toBe(false);
  });

  it("keeps the agent through a reload and resends missed frames gapless", async () => {
    const first = client();
    await first.connected();
    const clientId = first.clientId!;
    expect(clientId).toBeTruthy();
    const agent = await first.start({ profile: "echo" });
    await first.send({ jsonrpc: "2.0", id: 1, method: "a" });
    await first.response(1);
    first.close();

    const second = client({ clientId, lastSeq: 1 });
    const attached = new Promise((resolve) => second.socket.once("agent:attached", resolve));
    await second.connected();
    expect(await attached).toMatchObject({ agent: { pid: agent.pid }, lastSeq: 2, missed: 0 });
    await second.waitFor(() => second.frames.length >= 1, "resent frames");
    expect(second.frames.map((f) => f.seq)).toEqual([2]);
    await second.send({ jsonrpc: "2.0", id: 2, method: "b" });
    expect((await second.response(2)).seq).toBe(4);
    expect(second.clientId).toBe(clientId);
  });

  it("gives a duplicated tab (same clientId, still connected) its own session", async () => {
    const first = client();
    await first.connected();
    await first.start({ profile: "echo" });
    const dup = client({ clientId: first.clientId });
    await dup.connected();
    await dup.waitFor(() => dup.clientId, "hello");
    expect(dup.clientId).not.toBe(first.clientId);
    expect((await dup.emit("agent:send", { frame: "{}" })).error.code).toBe("no_agent");
  });

  it("stops the agent when the grace period ends after a disconnect", async () => {
    const c = client();
    await c.connected();
    const agent = await c.start({ profile: "echo" });
    const sessions = relay.server.relay.sessions;
    expect(sessions.has(c.clientId!)).toBe(true);
    c.close();
    expect(alive(agent.pid)).toBe(true);
    await waitUntil(() => !alive(agent.pid), "agent stopped after grace");
    await waitUntil(() => !sessions.has(c.clientId!), "session disposed");
  });
});
