/**
 * A browser session over an in-memory agent (server/agents/memory-connection.ts)
 * and a fake socket: the tab attaches, leaves, comes back within the grace
 * period or not, and takes a warm host.
 */
import { mkdtempSync, realpathSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { afterAll, describe, expect, it } from "vitest";
import type { WireFrame } from "../../lib/protocol/frame";
import type { AgentHost } from "../agents/agent-host";
import { memoryPair, type MemoryAgent } from "../agents/memory-connection";
import { testHost } from "../../test/host-harness";
import { BrowserSession, type RelaySocket } from "./browser-session";

const base = realpathSync(mkdtempSync(path.join(tmpdir(), "browser-session-")));
afterAll(() => rmSync(base, { recursive: true, force: true }));

function memoryHost(): { host: AgentHost; agent: () => MemoryAgent } {
  let latest: MemoryAgent | undefined;
  const { host } = testHost(
    base,
    { mem: { command: process.execPath, args: [], env: {} } },
    {
      connect: (spec, events) => {
        const pair = memoryPair();
        latest = pair.agent;
        return pair.connect(spec, events);
      },
    },
  );
  return { host, agent: () => latest! };
}

function fakeSocket() {
  const sent: [string, unknown][] = [];
  const socket = {
    connected: true,
    emit: (event: string, payload: unknown) => sent.push([event, payload]),
  } as unknown as RelaySocket;
  return { socket, sent };
}

const seqs = (sent: [string, unknown][]) =>
  sent.filter(([e]) => e === "frames").flatMap(([, frames]) => (frames as WireFrame[]).map((f) => f.seq));
const nextTurn = () => new Promise((resolve) => setImmediate(resolve));
/** Resolves once the host has made a frame from the agent. */
const agentFrame = (host: AgentHost) =>
  new Promise<void>((resolve) => {
    const stop = host.onFrame((frame) => {
      if (frame.dir !== "from-agent") return;
      stop();
      resolve();
    });
  });

describe("BrowserSession", () => {
  it("a tab that leaves and comes back within the grace period gets the frames it missed; the agent runs on", async () => {
    const { host, agent } = memoryHost();
    const disposed: BrowserSession[] = [];
    const session = new BrowserSession("tab", host, 60_000, (s) => disposed.push(s));
    const first = fakeSocket();
    session.attach(first.socket, 0);
    expect((await host.start({ profile: "mem" })).ok).toBe(true);
    host.send(JSON.stringify({ jsonrpc: "2.0", id: 0, method: "initialize", params: {} }));
    await nextTurn();
    expect(first.sent.map(([e]) => e)).toEqual(["agent:attached", "agent:started", "frames"]);
    session.detach(first.socket);
    const answered = agentFrame(host);
    await agent().send({ jsonrpc: "2.0", id: 0, result: { protocolVersion: 1 } });
    await answered;
    const again = fakeSocket();
    session.attach(again.socket, 1);
    expect(again.sent[0]).toEqual([
      "agent:attached",
      expect.objectContaining({
        lastSeq: 2,
        firstSeq: 1,
        missed: 0,
        agent: expect.objectContaining({ profile: "mem" }),
      }),
    ]);
    expect(seqs(again.sent)).toEqual([2]);
    expect(host.running).toBe(true);
    expect(disposed).toEqual([]);
    await host.stop();
  });

  it("a tab gone past the grace period stops its agent, and the session is disposed", async () => {
    const { host } = memoryHost();
    const disposed = new Promise<BrowserSession>((resolve) => {
      const session = new BrowserSession("tab", host, 0, resolve);
      const { socket } = fakeSocket();
      session.attach(socket, 0);
      void host.start({ profile: "mem" }).then(() => session.detach(socket));
    });
    await disposed;
    expect(host.running).toBe(false);
  });

  it("a session that never held anything is disposed as soon as its tab leaves", () => {
    const { host } = memoryHost();
    const disposed: BrowserSession[] = [];
    const session = new BrowserSession("tab", host, 60_000, (s) => disposed.push(s));
    const { socket } = fakeSocket();
    session.attach(socket, 0);
    session.detach(socket);
    expect(disposed).toEqual([session]);
  });

  it("a warm host takes the session's place with the tab's policies, and the tab sees its log from the start", async () => {
    const own = memoryHost();
    const warm = memoryHost();
    expect((await warm.host.start({ profile: "mem" })).ok).toBe(true);
    warm.host.send(JSON.stringify({ jsonrpc: "2.0", id: "pool-initialize", method: "initialize", params: {} }));
    warm.host.markPooled();
    const session = new BrowserSession("tab", own.host, 60_000, () => {});
    own.host.answerer.setPolicies({ "fs/read_text_file": "deny" });
    const { socket, sent } = fakeSocket();
    session.attach(socket, 0);
    session.useHost(warm.host, socket);
    expect(session.host).toBe(warm.host);
    expect(warm.host.answerer.current["fs/read_text_file"]).toBe("deny");
    expect(sent.slice(1).map(([e]) => e)).toEqual(["agent:started", "agent:attached", "frames"]);
    expect(sent[1]![1]).toMatchObject({ pooled: true });
    expect(seqs(sent)).toEqual([1]);
    // The warm host's frames now reach the tab; the old host's no longer do.
    const answered = agentFrame(warm.host);
    await warm.agent().send({ jsonrpc: "2.0", id: "pool-initialize", result: { protocolVersion: 1 } });
    await answered;
    await nextTurn();
    expect(seqs(sent)).toEqual([1, 2]);
    await warm.host.stop();
  });
});
