/**
 * Remote agents over ACP's Streamable HTTP and WebSocket transports: the
 * fixture agent (test/fixtures/remote-agent.ts) runs in its own process with
 * the SDK's server handlers; the relay reaches it through a URL profile loaded
 * from a config file, and the same journey as a stdio agent must hold.
 */
import { execa, type ResultPromise } from "execa";
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { afterAll, afterEach, beforeAll, describe, expect, it } from "vitest";
import type { Frame } from "../../lib/protocol/frame";
import type { AttachedEvent } from "../../lib/contracts/wire";
import { parseTranscript } from "../../lib/contracts/transcript";
import { ConfigError, loadConfig, type ProfileConfig } from "../../server/config";
import { startTestRelay, TestClient, waitUntil, type TestRelay } from "../relay-harness";

const projectRoot = path.resolve(import.meta.dirname, "../..");
const fixture = path.join(projectRoot, "test/fixtures/remote-agent.ts");
const TOKEN_VAR = "REMOTE_FIXTURE_TOKEN";
const TOKEN = "remote-fixture-token-7f3a9c";

interface Served {
  port: number;
  http: string;
  ws: string;
  stop(): Promise<void>;
}

const running = new Set<ResultPromise>();

async function serve(args: string[] = []): Promise<Served> {
  const child = execa(process.execPath, ["--import", "tsx", fixture, "--token", TOKEN, ...args], {
    cwd: projectRoot,
    reject: false,
  });
  running.add(child);
  const url = await new Promise<string>((resolve, reject) => {
    child.stdout.on("data", (d: Buffer) => {
      const m = /listening (http:\/\/\S+)/.exec(String(d));
      if (m) resolve(m[1]!);
    });
    void child.then((r) => reject(new Error(`fixture exited: ${String(r.stderr)}`)));
  });
  return {
    port: Number(new URL(url).port),
    http: url,
    ws: url.replace(/^http/, "ws"),
    async stop() {
      child.kill("SIGTERM");
      await child;
      running.delete(child);
    },
  };
}

/** Profiles as the relay reads them: from a config file, through loadConfig. */
function profilesFrom(
  profiles: Record<string, unknown>,
  env: Record<string, string> = {},
): Record<string, ProfileConfig> {
  const dir = mkdtempSync(path.join(tmpdir(), "acp-remote-config-"));
  try {
    const file = path.join(dir, "config.json");
    writeFileSync(file, JSON.stringify({ profiles, workspaceRoots: [projectRoot] }));
    return loadConfig({ ...env, ACP_PLAYGROUND_CONFIG: file, ACP_PLAYGROUND_DATA: dir }, projectRoot).profiles;
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}

const auth = { Authorization: `Bearer \${${TOKEN_VAR}}` };
const remote = (url: string, transport: "http" | "websocket") => ({ url, transport, headers: auth });

let relay: TestRelay;
let agent: Served;
let failing: Served;
let conflicting: Served;
const clients: TestClient[] = [];

type RemoteClient = TestClient & {
  transport: string[];
  /** Resolves with the first transport event, past or future, that matches. */
  transportEvent(match: RegExp): Promise<string>;
};

/** A relay client that also keeps the transport events. */
async function client(url = relay.url): Promise<RemoteClient> {
  const transport: string[] = [];
  const waiters = new Set<() => void>();
  const c = Object.assign(new TestClient(url, { token: "test-token" }), {
    transport,
    transportEvent: (match: RegExp) =>
      new Promise<string>((resolve) => {
        const check = () => {
          const found = transport.find((t) => match.test(t));
          if (found === undefined) return;
          waiters.delete(check);
          resolve(found);
        };
        waiters.add(check);
        check();
      }),
  });
  c.socket.on("agent:transport", (e) => {
    transport.push(e.text);
    for (const w of [...waiters]) w();
  });
  clients.push(c);
  await c.connected();
  return c;
}

beforeAll(async () => {
  process.env[TOKEN_VAR] = TOKEN;
  [agent, failing, conflicting] = await Promise.all([
    serve(),
    serve(["--fail-session-post", "500", "--hang-delete"]),
    serve(["--conflict-session-stream"]),
  ]);
  relay = await startTestRelay({
    graceMs: 500,
    killGraceMs: 500,
    profiles: profilesFrom({
      "remote-http": remote(agent.http, "http"),
      "remote-ws": remote(agent.ws, "websocket"),
      "remote-failing": remote(failing.http, "http"),
      "remote-conflict": remote(conflicting.http, "http"),
      "remote-no-token": { url: agent.http, transport: "http" },
      "remote-nobody": remote("ws://127.0.0.1:9/acp", "websocket"),
    }),
  });
}, 60_000);
afterEach(() => {
  for (const c of clients.splice(0)) c.close();
});
afterAll(async () => {
  await relay?.close();
  for (const child of running) child.kill("SIGTERM");
  await Promise.all(running);
  delete process.env[TOKEN_VAR];
});

const fromAgent = (c: TestClient, method: string) =>
  c.frames.filter((f) => f.dir === "from-agent" && f.method === method);
const updates = (c: TestClient) =>
  fromAgent(c, "session/update").map(
    (f) => (f.message as { params: { update: Record<string, unknown> } }).params.update,
  );
const resultOf = (f: Frame) => (f.message as { result?: Record<string, unknown> }).result;

/** Sends initialize with this id. */
const initialize = (c: TestClient, id = 1) =>
  c.send({ jsonrpc: "2.0", id, method: "initialize", params: { protocolVersion: 1, clientCapabilities: {} } });

/** initialize (id 1), then session/new (id 2): the agent's initialize result and the new session's id. */
async function openSession(c: TestClient): Promise<{ init: Record<string, unknown>; sessionId: string }> {
  await initialize(c);
  const init = resultOf(await c.response(1))!;
  await c.send({ jsonrpc: "2.0", id: 2, method: "session/new", params: { cwd: projectRoot, mcpServers: [] } });
  return { init, sessionId: resultOf(await c.response(2))!.sessionId as string };
}

const prompt = (c: TestClient, id: number, sessionId: string, text = "hi") =>
  c.send({ jsonrpc: "2.0", id, method: "session/prompt", params: { sessionId, prompt: [{ type: "text", text }] } });

const loadSession = (c: TestClient, id: number, sessionId: string) =>
  c.send({ jsonrpc: "2.0", id, method: "session/load", params: { sessionId, cwd: projectRoot, mcpServers: [] } });

async function transcriptOf(id: string) {
  await waitUntil(() => relay.server.relay.transcripts.meta(id)?.recording === false, "transcript closed");
  return parseTranscript(readFileSync(relay.server.relay.transcripts.file(id), "utf8"));
}

describe.each([
  ["http", "remote-http", /^SSE stream opened \(connection\)$/],
  ["websocket", "remote-ws", /^WebSocket open: HTTP 101, connection \S+$/],
] as const)("a remote agent over %s", (transport, profile, opened) => {
  it("connect, prompt, permission answered, recorded, replayed as a mock agent", async () => {
    const c = await client();
    const started = await c.start({ profile });
    expect(started).toMatchObject({ profile, pid: 0, command: transport === "http" ? agent.http : agent.ws });

    const { init, sessionId } = await openSession(c);
    expect(init).toMatchObject({ agentInfo: { name: "remote-fixture" } });
    await prompt(c, 3, sessionId, "please write notes.txt");
    const permission = await c.frame(
      (f) => f.dir === "from-agent" && f.kind === "request" && f.method === "session/request_permission",
      "permission request",
    );
    const permissionId = (permission.message as { id: number | string }).id;
    await c.send({ jsonrpc: "2.0", id: permissionId, result: { outcome: { outcome: "selected", optionId: "allow" } } });
    expect(resultOf(await c.response(3))).toEqual({ stopReason: "end_turn" });
    expect(updates(c).map((u) => u.sessionUpdate)).toEqual([
      "agent_message_chunk",
      "tool_call",
      "tool_call_update",
      "agent_message_chunk",
    ]);
    expect(updates(c)[2]).toMatchObject({ toolCallId: "call-1", status: "completed" });
    // Each message the SDK hands over is serialised once: the raw line is its JSON text.
    for (const f of c.frames.filter((f) => f.dir === "from-agent"))
      expect(f.raw).toBe(JSON.stringify(JSON.parse(f.raw)));
    expect(c.transport).toContainEqual(expect.stringMatching(opened));
    expect(c.frames.map((f) => f.seq)).toEqual(c.frames.map((_, i) => i + 1));

    // A reloaded page gets the transport events back with agent:attached, as it gets the frames.
    c.close();
    const reloaded = new TestClient(relay.url, { token: "test-token", clientId: c.clientId });
    clients.push(reloaded);
    const attached = await new Promise<AttachedEvent>((resolve) => reloaded.socket.once("agent:attached", resolve));
    expect(attached.agent).toMatchObject({ profile });
    expect(attached.transport?.map((e) => e.text)).toEqual(c.transport);
    await reloaded.waitFor(() => reloaded.frames.length === c.frames.length || undefined, "the frames resent");

    expect((await reloaded.emit("agent:stop", {})).ok).toBe(true);
    await reloaded.waitFor(() => reloaded.exits[0], "exit");

    const t = await transcriptOf(started.transcriptId!);
    expect(t.header.agent).toMatchObject({ profile, command: started.command });
    expect(t.frames.map((f) => f.raw)).toEqual(c.frames.map((f) => f.raw));
    const lifecycle = t.events.flatMap((e) => (e.type === "lifecycle" ? [e] : []));
    expect(lifecycle.find((e) => e.event === "spawned")).toMatchObject({ pid: 0 });
    expect(lifecycle.filter((e) => e.event === "transport").map((e) => e.message)).toContainEqual(
      expect.stringMatching(opened),
    );
    expect(lifecycle.at(-1)).toMatchObject({ event: "exited" });
    expect(JSON.stringify(t)).not.toContain(TOKEN);

    // The recording plays back as a mock agent: the same agent frames for the same client frames.
    const r = await client();
    await r.start({ profile: `replay:${started.transcriptId}`, options: { speed: "instant" } });
    const sent = t.frames.filter((f) => f.dir === "to-agent");
    for (const f of sent) {
      if (f.kind === "response")
        await r.frame((g) => g.dir === "from-agent" && g.kind === "request" && g.id === f.id, `agent request ${f.id}`);
      await r.send(f.raw);
    }
    await r.response(3);
    expect(r.frames.filter((f) => f.dir === "from-agent").map((f) => f.raw)).toEqual(
      t.frames.filter((f) => f.dir === "from-agent").map((f) => f.raw),
    );

    // A live re-run of the recording against the remote agent: the same turn, answered by the recording.
    const rerun = await (await client()).emit("transcript:rerun", { id: started.transcriptId, profile });
    expect(rerun.ok).toBe(true);
    expect(rerun.problems).toEqual([]);
    expect(rerun.steps.map((s: { method: string; outcome: string }) => `${s.method}:${s.outcome}`)).toEqual([
      "initialize:answered",
      "session/new:answered",
      "session/prompt:answered",
    ]);
    expect(rerun.diff).toMatchObject({ equal: true, patch: "" });
  });

  it("is probed like a stdio agent", async () => {
    const c = await client();
    const res = await c.emit("agent:probe", { profile });
    expect(res.ok).toBe(true);
    const rows = res.report.rows as Array<{ check: string; outcome: string; conforms?: boolean }>;
    expect(res.report.agent).toEqual({ name: "remote-fixture", version: "1.0.0" });
    expect(rows.find((r) => r.check === "session/prompt (one text block)")).toMatchObject({ conforms: true });
    expect(rows.find((r) => r.check === "session/cancel during a turn")).toMatchObject({ conforms: true });
    const t = await transcriptOf(res.report.transcriptId);
    expect(t.events.some((e) => e.type === "lifecycle" && e.event === "transport")).toBe(true);
  });

  it("an agent that restarts mid-turn: the relay reports the lost connection and the open turn; a new start re-attaches the session", async () => {
    const own = await serve();
    const ownRelay = await startTestRelay({
      killGraceMs: 500,
      profiles: profilesFrom({ restarting: remote(transport === "http" ? own.http : own.ws, transport) }),
    });
    try {
      const c = await client(ownRelay.url);
      await c.start({ profile: "restarting" });
      const { sessionId } = await openSession(c);
      await prompt(c, 3, sessionId, "Count to 200");
      await c.frame((f) => f.method === "session/update", "first chunk");
      await own.stop();
      await c.waitFor(() => c.exits[0], "exit after the agent went away");
      await c.transportEvent(
        transport === "http" ? /^SSE stream closed \(connection\)/ : /^WebSocket closed: code \d+/,
      );
      await c.transportEvent(/^connection (lost|closed by the agent)/);
      const lost = await c.waitFor(() => c.errors.find((e) => e.code === "process_exited"), "process_exited");
      expect(lost.message).toMatch(/session\/prompt \(id 3\)/);

      const again = await serve(["--port", String(own.port)]);
      try {
        await c.start({ profile: "restarting" });
        // A new agent, a new log: seq starts at 1 again.
        const before = c.frames.length;
        const fresh = (id: number, what: string) =>
          c.waitFor(() => c.frames.slice(before).find((f) => f.kind === "response" && f.id === id), what);
        await initialize(c);
        const init = await fresh(1, "initialize again");
        expect(resultOf(init)).toMatchObject({ agentCapabilities: { loadSession: true } });
        await loadSession(c, 2, sessionId);
        const loaded = await fresh(2, "session/load");
        expect(resultOf(loaded)).toEqual({});
        await c.emit("agent:stop", {});
      } finally {
        await again.stop();
      }
    } finally {
      await ownRelay.close();
    }
  });
});

describe("transport failures", () => {
  it("a POST answered with an HTTP error: a clear error and a lifecycle entry; the agent and relay go on", async () => {
    const c = await client();
    const started = await c.start({ profile: "remote-failing" });
    const { sessionId } = await openSession(c);
    await prompt(c, 3, sessionId);
    const failed = (await c.response(3)).message as { error: { message: string; data: unknown } };
    expect(failed.error.message).toMatch(/500/);
    expect(failed.error.data).toEqual({ status: 500, body: "prompt store unavailable" });
    await c.transportEvent(/^POST session\/prompt \(id 3\): HTTP 500 Internal Server Error$/);
    expect(c.exits).toEqual([]);
    await prompt(c, 4, sessionId);
    expect(resultOf(await c.response(4))).toEqual({ stopReason: "end_turn" });
    await c.emit("agent:stop", {});
    const t = await transcriptOf(started.transcriptId!);
    expect(
      t.events.some((e) => e.type === "lifecycle" && e.event === "transport" && /HTTP 500/.test(e.message ?? "")),
    ).toBe(true);
    expect((await c.emit("relay:info", {})).ok).toBe(true);
  });

  it("an agent that never answers the DELETE: the stop ends within the kill grace", async () => {
    const c = await client();
    await c.start({ profile: "remote-failing" });
    await initialize(c);
    await c.response(1);
    expect((await c.emit("agent:stop", {})).ok).toBe(true);
    expect(c.exits).toHaveLength(1);
    await c.transportEvent(/^no answer to closing the connection within 500 ms; left behind$/);
  });

  it("a line that is not a JSON object is logged but not sent; the connection goes on", async () => {
    const c = await client();
    await c.start({ profile: "remote-http" });
    await c.send("not json at all");
    await c.transportEvent(/^not sent: the HTTP and WebSocket transports carry single JSON objects only$/);
    expect(c.frames[0]).toMatchObject({ dir: "to-agent", kind: "invalid", raw: "not json at all" });
    await initialize(c);
    expect(resultOf(await c.response(1))).toMatchObject({ protocolVersion: 1 });
    await c.emit("agent:stop", {});
  });

  it("a session stream refused with 409: the requests fail, the 409 is shown, session/load re-attaches", async () => {
    const c = await client();
    await c.start({ profile: "remote-conflict" });
    const { sessionId } = await openSession(c);
    await c.transportEvent(
      new RegExp(`session ${sessionId}\\) refused: HTTP 409 Conflict: the session must be re-attached`),
    );
    await prompt(c, 3, sessionId);
    expect((await c.response(3)).message).toMatchObject({ error: { data: { status: 409 } } });
    await loadSession(c, 4, sessionId);
    await c.response(4);
    expect(c.transport).toContain(`re-attaching session ${sessionId} with session/load (id 4)`);
    expect(c.transport).toContain(`SSE stream opened (session ${sessionId})`);
    await prompt(c, 5, sessionId);
    expect(resultOf(await c.response(5))).toEqual({ stopReason: "end_turn" });
    expect(c.exits).toEqual([]);
    await c.emit("agent:stop", {});
  });

  it("a wrong or missing token: the agent's 401 is shown and the connection ends", async () => {
    const c = await client();
    await c.start({ profile: "remote-no-token" });
    await initialize(c);
    await c.waitFor(() => c.exits[0], "exit");
    await c.transportEvent(/^POST initialize \(id 1\): HTTP 401 Unauthorized$/);
    await c.transportEvent(/^connection lost: ACP initialize failed: 401 Unauthorized: missing or wrong token$/);
  });

  it("nothing listening at a WebSocket URL: the start fails with the reason", async () => {
    const c = await client();
    const ack = await c.emit("agent:start", { profile: "remote-nobody" });
    expect(ack.ok).toBe(false);
    expect(ack.error.code).toBe("spawn_failed");
    expect(ack.error.message).toMatch(/ws:\/\/127\.0\.0\.1:9\/acp: .*ECONNREFUSED/);
    // As with a command that cannot be spawned: no agent, so no exit.
    expect(c.exits).toEqual([]);
    await c.transportEvent(/^WebSocket error: .*ECONNREFUSED/);
  });

  it("a header naming an unset variable: the start fails and says which", async () => {
    const own = await startTestRelay({
      profiles: profilesFrom({
        unset: { url: agent.http, transport: "http", headers: { Authorization: "Bearer ${NO_SUCH_TOKEN_VAR}" } },
      }),
    });
    try {
      const c = new TestClient(own.url, { token: "test-token" });
      clients.push(c);
      await c.connected();
      const ack = await c.emit("agent:start", { profile: "unset" });
      expect(ack.error).toMatchObject({ code: "spawn_failed", message: expect.stringMatching(/NO_SUCH_TOKEN_VAR/) });
    } finally {
      await own.close();
    }
  });
});

describe("security", () => {
  it("a non-loopback http:// or ws:// URL is refused at config load unless allowInsecure", () => {
    expect(() => profilesFrom({ far: { url: "http://agents.example.com/acp", transport: "http" } })).toThrow(
      ConfigError,
    );
    expect(() => profilesFrom({ far: { url: "ws://10.0.0.5/acp", transport: "websocket" } })).toThrow(/unencrypted/);
    expect(
      profilesFrom({ far: { url: "http://agents.example.com/acp", transport: "http", allowInsecure: true } }).far!
        .remote,
    ).toMatchObject({ url: "http://agents.example.com/acp" });
    expect(
      profilesFrom({ tls: { url: "https://agents.example.com/acp", transport: "http" } }).tls!.remote,
    ).toBeTruthy();
  });

  it("the browser can only pick a URL profile, never supply a URL", async () => {
    const c = await client();
    const refused = [
      { profile: "https://agents.example.com/acp" },
      { profile: "remote-http", url: "https://agents.example.com/acp" },
      { profile: "remote-http", options: { url: "https://agents.example.com/acp" } },
      { profile: "remote-http", options: { headers: { Authorization: "x" } } },
    ];
    const codes = [];
    for (const payload of refused) codes.push((await c.emit("agent:start", payload)).error?.code);
    expect(codes).toEqual(["unknown_profile", "invalid_payload", "invalid_payload", "invalid_payload"]);
    const { info } = await c.emit("relay:info", {});
    const listed = info.profiles.find((p: { name: string }) => p.name === "remote-http");
    expect(listed).toMatchObject({ command: agent.http, args: [], options: [], available: true });
    expect(JSON.stringify(info)).not.toContain(TOKEN);
  });
});
