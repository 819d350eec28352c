/**
 * The agent host and its answerer over an in-memory connection (memory-connection.ts):
 * the agent is a script reading and writing lines, no process is spawned.
 */
import { mkdtempSync, readFileSync, realpathSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { afterAll, afterEach, describe, expect, it } from "vitest";
import { agent as acpAgent, ndJsonStream } from "@agentclientprotocol/sdk";
import type { Frame, WireFrame } from "../../lib/protocol/frame";
import { DEFAULT_CLIENT_CAPABILITIES } from "../../lib/protocol/client-capabilities";
import type { ConnectSpec, Connector } from "./agent-connection";
import { AgentDriver } from "./agent-driver";
import type { AgentHost, HostWatcher } from "./agent-host";
import { memoryPair, type MemoryAgent } from "./memory-connection";
import { FrameOutbox } from "../wire/attachment";
import { testHost } from "../../test/host-harness";

const base = realpathSync(mkdtempSync(path.join(tmpdir(), "agent-host-")));
afterAll(() => rmSync(base, { recursive: true, force: true }));

const rpc = (message: object) => JSON.stringify({ jsonrpc: "2.0", ...message });

const hosts: AgentHost[] = [];
afterEach(async () => {
  await Promise.all(hosts.splice(0).map((h) => h.stop()));
});

/** A host whose every start reaches a fresh in-memory agent (`agent()`: the latest), watched by a recorder. */
function memoryHost(overrides: { maxLineBytes?: number } = {}) {
  let latest: MemoryAgent | undefined;
  const specs: ConnectSpec[] = [];
  const connect: Connector = (spec, events) => {
    specs.push(spec);
    const pair = memoryPair();
    latest = pair.agent;
    return pair.connect(spec, events);
  };
  const { host, store } = testHost(
    base,
    // A command that exists: the memory connector never runs it.
    { mem: { command: process.execPath, args: ["--memory"], env: {} } },
    { connect, config: overrides },
  );
  hosts.push(host);
  const events: [string, unknown][] = [];
  const watcher: HostWatcher = {
    frame: (lean) => events.push(["frame", lean]),
    emit: (event, payload) => events.push([event, payload]),
  };
  host.watch(watcher);
  const frames: Frame[] = [];
  host.onFrame((frame) => frames.push(frame));
  return { host, agent: () => latest!, events, frames, specs, store };
}

/** Starts the agent and initializes it advertising `caps`; the agent answers `result`. */
async function initialized(h: ReturnType<typeof memoryHost>, caps: object = DEFAULT_CLIENT_CAPABILITIES, result = {}) {
  expect(await h.host.start({ profile: "mem" })).toMatchObject({ ok: true, agent: { profile: "mem", pid: 0 } });
  expect(
    h.host.send(rpc({ id: 0, method: "initialize", params: { protocolVersion: 1, clientCapabilities: caps } })),
  ).toEqual({ ok: true, seq: 1 });
  expect(await h.agent().next()).toMatchObject({ id: 0, method: "initialize" });
  await h.agent().send({ jsonrpc: "2.0", id: 0, result: { protocolVersion: 1, ...result } });
  await frameWhere(h, (f) => f.dir === "from-agent" && f.id === 0);
}

/** The first frame, made or to come, that satisfies `predicate`: waits on the host's frames, never on a clock. */
function frameWhere(h: ReturnType<typeof memoryHost>, predicate: (frame: Frame) => boolean): Promise<Frame> {
  const made = h.frames.find(predicate);
  if (made) return Promise.resolve(made);
  return new Promise((resolve) => {
    const stop = h.host.onFrame((frame) => {
      if (!predicate(frame)) return;
      stop();
      resolve(frame);
    });
  });
}

describe("AgentHost over an in-memory agent", () => {
  it("makes frames both ways, pairs the answer, logs and records them, and tells its watchers in seq order", async () => {
    const h = memoryHost();
    await initialized(h);
    expect(h.frames.map((f) => [f.seq, f.dir, f.kind, f.method])).toEqual([
      [1, "to-agent", "request", "initialize"],
      [2, "from-agent", "response", "initialize"],
    ]);
    expect(h.frames[1]!.requestSeq).toBe(1);
    const leans = h.events.filter(([e]) => e === "frame").map(([, f]) => f as WireFrame);
    expect(leans.map((f) => f.seq)).toEqual([1, 2]);
    expect(leans.every((f) => !("message" in f))).toBe(true);
    expect(h.events[0]![0]).toBe("agent:started");
    expect(h.host.frames.map((f) => f.seq)).toEqual([1, 2]);
    expect(h.host.log.position(0)).toEqual({ lastSeq: 2, firstSeq: 1, missed: 0 });
  });

  it("hands a turn's frames to the sockets before the transcript's write, and records every one of them", async () => {
    const h = memoryHost();
    const started = await h.host.start({ profile: "mem" });
    const file = h.store.file((started as { agent: { transcriptId: string } }).agent.transcriptId);
    const recorded = () =>
      readFileSync(file, "utf8")
        .split("\n")
        .filter((l) => l.startsWith('{"type":"frame"'))
        .map((l) => (JSON.parse(l) as { seq: number }).seq);
    // As a browser's attachment does (server/wire/attachment.ts): one emit per event-loop turn.
    const onDiskAtEmit: number[][] = [];
    const emitted: number[] = [];
    const outbox = new FrameOutbox((frames) => {
      onDiskAtEmit.push(recorded());
      emitted.push(...frames.map((f) => f.seq));
    });
    h.host.watch({ frame: (lean) => outbox.push(lean), emit: () => outbox.flush() });
    // The start's own lines (spawned) are written in its turn; the frames come in a later one.
    await new Promise((resolve) => setImmediate(resolve));
    for (let n = 0; n < 3; n++) h.host.send(rpc({ method: "note", params: { n } }));
    await new Promise((resolve) => setImmediate(resolve));
    expect(emitted).toEqual([1, 2, 3]);
    expect(onDiskAtEmit).toEqual([[]]);
    expect(recorded()).toEqual([1, 2, 3]);
  });

  it("keeps the agent's stderr and tells its watchers; an over-long line is an invalid frame", async () => {
    const h = memoryHost({ maxLineBytes: 100 });
    await h.host.start({ profile: "mem" });
    h.agent().stderr("warming up\n");
    await h.agent().send("x".repeat(500));
    expect(await frameWhere(h, () => true)).toMatchObject({
      kind: "invalid",
      error: expect.stringMatching(/exceeds the maximum of 100/),
    });
    expect(h.events).toContainEqual(["agent:stderr", { ts: expect.any(Number), text: "warming up\n" }]);
    expect(h.host.log.stderr.map((e) => e.text)).toEqual(["warming up\n"]);
  });

  it("refuses a second start while one runs, and reports the requests an exit leaves unanswered before the exit", async () => {
    const h = memoryHost();
    await initialized(h);
    expect(await h.host.start({ profile: "mem" })).toMatchObject({ ok: false, error: { code: "agent_running" } });
    h.host.send(rpc({ id: 1, method: "session/new", params: { cwd: base, mcpServers: [] } }));
    const exited = new Promise<void>((resolve) => h.host.onExit(resolve));
    await h.agent().exit(3);
    await exited;
    const after = h.events.slice(h.events.findIndex(([e]) => e === "agent:error"));
    expect(after.map(([e]) => e)).toEqual(["agent:error", "agent:exit"]);
    expect(after[0]![1]).toMatchObject({
      code: "process_exited",
      data: { requests: [expect.objectContaining({ id: "1", method: "session/new" })] },
    });
    expect(after[1]![1]).toEqual({ code: 3, signal: null });
    expect(h.host.running).toBe(false);
    expect(h.host.send(rpc({ id: 2, method: "session/new", params: {} }))).toMatchObject({ ok: false });
    // The log outlives the agent, for clients that re-attach.
    expect(h.host.idle).toBe(false);
  });

  it("a start's typed env is taken only for a variable an env_var method of the last initialize named", async () => {
    const h = memoryHost();
    const env = { MEM_API_KEY: "typed-secret-value" };
    expect(await h.host.start({ profile: "mem", env })).toMatchObject({
      ok: false,
      error: { code: "invalid_payload" },
    });
    await initialized(h, DEFAULT_CLIENT_CAPABILITIES, {
      authMethods: [{ id: "key", name: "Key", type: "env_var", vars: [{ name: "MEM_API_KEY" }] }],
    });
    await h.host.stop();
    expect(await h.host.start({ profile: "mem", env })).toMatchObject({ ok: true });
    expect(h.specs.at(-1)!.env).toMatchObject(env);
    // Typed values never reach watchers as they were typed.
    await h.agent().send(rpc({ method: "note", params: { echo: env.MEM_API_KEY } }));
    await frameWhere(h, (f) => f.method === "note");
    const lean = h.events.filter(([e]) => e === "frame").at(-1)![1] as WireFrame;
    expect(lean.raw).not.toContain(env.MEM_API_KEY);
  });
});

describe("the answerer over an in-memory agent", () => {
  it("carries out an advertised request under auto and answers the agent", async () => {
    const h = memoryHost();
    writeFileSync(path.join(base, "a.txt"), "hello\n");
    h.host.answerer.setPolicies({ "fs/read_text_file": "auto" });
    await initialized(h);
    await h
      .agent()
      .send(rpc({ id: 7, method: "fs/read_text_file", params: { sessionId: "s", path: path.join(base, "a.txt") } }));
    expect(await h.agent().next()).toEqual({ jsonrpc: "2.0", id: 7, result: { content: "hello\n" } });
  });

  it("refuses what the client's initialize did not advertise, whatever the policy", async () => {
    const h = memoryHost();
    h.host.answerer.setPolicies({ "terminal/create": "auto" });
    await initialized(h, { fs: { readTextFile: true, writeTextFile: true }, terminal: false });
    await h.agent().send(rpc({ id: 8, method: "terminal/create", params: { sessionId: "s", command: "id" } }));
    expect(await h.agent().next()).toMatchObject({ id: 8, error: { code: -32601 } });
  });

  it("answers a request the agent withdraws -32800, and a later answer from the page never reaches the agent", async () => {
    const h = memoryHost();
    await initialized(h);
    // Ask mode (the default): the request waits for the user.
    await h.agent().send(rpc({ id: 9, method: "fs/read_text_file", params: { sessionId: "s", path: "/x" } }));
    await h.agent().send(rpc({ method: "$/cancel_request", params: { requestId: 9 } }));
    expect(await h.agent().next()).toMatchObject({ id: 9, error: { code: -32800 } });
    const late = h.host.send(rpc({ id: 9, result: { content: "too late" } }));
    expect(late).toMatchObject({
      ok: false,
      error: { code: "invalid_payload", message: expect.stringMatching(/cancel/) },
    });
    // Nothing was logged for it either; the next line the agent gets is the next request.
    expect(h.host.frames.some((f) => f.raw.includes("too late"))).toBe(false);
    h.host.send(rpc({ id: 2, method: "session/new", params: { cwd: base, mcpServers: [] } }));
    expect(await h.agent().next()).toMatchObject({ id: 2, method: "session/new" });
    // A new request reusing the id is answered as usual.
    await h.agent().send(rpc({ id: 9, method: "fs/read_text_file", params: { sessionId: "s", path: "/x" } }));
    await frameWhere(h, (f) => f.dir === "from-agent" && f.kind === "request" && f.id === 9 && f.seq > 6);
    expect(h.host.send(rpc({ id: 9, result: { content: "now" } }))).toMatchObject({ ok: true });
    expect(await h.agent().next()).toEqual({ jsonrpc: "2.0", id: 9, result: { content: "now" } });
  });
});

describe("an ACP SDK agent over the in-memory pair's byte streams", () => {
  it("runs a turn in which the agent reads a file the answerer serves", async () => {
    const h = memoryHost();
    writeFileSync(path.join(base, "sdk.txt"), "from disk\n");
    h.host.answerer.setPolicies({ "fs/read_text_file": "auto" });
    expect((await h.host.start({ profile: "mem" })).ok).toBe(true);
    const app = acpAgent()
      .onRequest("initialize", () => ({ protocolVersion: 1, agentCapabilities: {}, authMethods: [] }))
      .onRequest("session/new", () => ({ sessionId: "sdk-session" }))
      .onRequest("session/prompt", async ({ params, client }) => {
        const read = await client.request("fs/read_text_file", {
          sessionId: params.sessionId,
          path: path.join(base, "sdk.txt"),
        });
        await client.notify("session/update", {
          sessionId: params.sessionId,
          update: { sessionUpdate: "agent_message_chunk", content: { type: "text", text: read.content } },
        });
        return { stopReason: "end_turn" };
      });
    const connection = app.connect(ndJsonStream(h.agent().writable, h.agent().readable));
    const driver = new AgentDriver(h.host);
    try {
      const init = await driver.request("initialize", {
        protocolVersion: 1,
        clientCapabilities: DEFAULT_CLIENT_CAPABILITIES,
      });
      expect(init.frame?.message).toMatchObject({ result: { protocolVersion: 1 } });
      await driver.request("session/new", { cwd: base, mcpServers: [] });
      const turn = await driver.request("session/prompt", {
        sessionId: "sdk-session",
        prompt: [{ type: "text", text: "read it" }],
      });
      expect(turn.frame?.message).toMatchObject({ result: { stopReason: "end_turn" } });
      const update = h.frames.find((f) => f.method === "session/update");
      expect(update?.message).toMatchObject({ params: { update: { content: { text: "from disk\n" } } } });
      // The read was answered by the relay, paired with the agent's request.
      const answer = h.frames.find((f) => f.dir === "to-agent" && f.kind === "response");
      expect(answer?.method).toBe("fs/read_text_file");
    } finally {
      driver.close();
      connection.close();
    }
  });
});
