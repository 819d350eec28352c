/**
 * SessionStore against a fake relay: the socket is handed in (RelayConnection's
 * OpenSocket), so the store's whole path (handshake, relay:info, agent events,
 * a request and its answer, exit, a refused token) runs without a server.
 */
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import type { AgentInfo, RelayInfo } from "@/lib/contracts/wire";
import { FrameSequencer } from "@/lib/protocol/frame-sequencer";
import type { Frame, FrameDirection, WireFrame } from "@/lib/protocol/frame";
import { AGENT_METHODS } from "@/lib/protocol/methods";
import type { OpenSocket, RelaySocket } from "./relay-connection";
import { SessionStore } from "./session-store";

type Handler = (...args: unknown[]) => void;

/** A relay in memory: records what the store emits, answers acks, and fires the relay's events. */
class FakeRelay {
  readonly emitted: Array<{ event: string; payload: unknown }> = [];
  readonly handlers = new Map<string, Handler[]>();
  connected = false;
  disconnected = false;
  auth?: Record<string, unknown>;
  private readonly seq = new FrameSequencer();
  readonly info: RelayInfo = {
    version: "test",
    profiles: [],
    defaultProfile: "echo",
    workspaceRoots: ["/w"],
    maxLineBytes: 1024,
    graceMs: 1000,
  };

  readonly open: OpenSocket = (options) => {
    const auth = options.auth as (cb: (a: Record<string, unknown>) => void) => void;
    auth((a) => (this.auth = a));
    return this.socket;
  };

  private readonly socket = {
    on: (event: string, handler: Handler) => {
      this.handlers.set(event, [...(this.handlers.get(event) ?? []), handler]);
    },
    emit: (event: string, payload: unknown, ack: (res: unknown) => void) => {
      this.emitted.push({ event, payload });
      if (event === "relay:info") ack({ ok: true, info: this.info });
      else if (event === "agent:send") {
        const frame = this.line("to-agent", (payload as { frame: object }).frame);
        ack({ ok: true, seq: frame.seq });
        this.fire("frames", [frame]);
      } else ack({ ok: true });
    },
    disconnect: () => {
      this.disconnected = true;
      this.connected = false;
    },
  } as unknown as RelaySocket;

  constructor() {
    Object.defineProperty(this.socket, "connected", { get: () => this.connected });
  }

  fire(event: string, ...args: unknown[]): void {
    if (event === "connect") this.connected = true;
    for (const h of this.handlers.get(event) ?? []) h(...args);
  }

  /** A frame as the relay numbers and pairs it, without `message`. */
  line(dir: FrameDirection, message: object): WireFrame {
    const { message: _m, ...lean }: Frame = this.seq.line(dir, JSON.stringify({ jsonrpc: "2.0", ...message }));
    return lean;
  }
}

const agent: AgentInfo = { profile: "echo", pid: 42, command: "echo-agent", args: [], cwd: "/w" };

describe("SessionStore over a fake relay", () => {
  let relay: FakeRelay;
  let store: SessionStore;
  beforeEach(() => {
    const items = new Map<string, string>();
    // The store keeps its clientId in the tab's sessionStorage.
    (globalThis as { sessionStorage?: unknown }).sessionStorage = {
      getItem: (k: string) => items.get(k) ?? null,
      setItem: (k: string, v: string) => items.set(k, v),
      removeItem: (k: string) => items.delete(k),
    };
    relay = new FakeRelay();
    store = new SessionStore({ token: "t0k", clientIdKey: "tab-1", openSocket: relay.open });
  });
  afterEach(() => {
    store.dispose();
    delete (globalThis as { sessionStorage?: unknown }).sessionStorage;
  });

  it("connects with its token and clientId, asks for the relay's info, follows the agent", async () => {
    store.connect();
    expect(store.getSnapshot().connection).toBe("connecting");
    expect(relay.auth).toMatchObject({ token: "t0k", lastSeq: 0 });
    expect(relay.auth!.clientId).toBe(store.getSnapshot().clientId);

    relay.fire("connect");
    expect(store.getSnapshot().connection).toBe("connected");
    expect(relay.emitted[0]).toEqual({ event: "relay:info", payload: {} });
    await Promise.resolve();
    expect(store.getSnapshot().info).toBe(relay.info);

    relay.fire("agent:started", agent);
    expect(store.getSnapshot().agent).toEqual({ state: "running", agent });

    // A request goes out as agent:send and resolves with the response the relay pairs with it.
    const answer = store.request(AGENT_METHODS.initialize, { protocolVersion: 1 });
    await new Promise((r) => setTimeout(r, 0));
    const sent = relay.emitted.find((e) => e.event === "agent:send")!.payload as { frame: { id: number } };
    relay.fire("frames", [relay.line("from-agent", { id: sent.frame.id, result: { protocolVersion: 1 } })]);
    expect(await answer).toMatchObject({ kind: "result", result: { protocolVersion: 1 }, frame: { seq: 2 } });
    const frames = store.getSnapshot().frames;
    expect([frames.at(0)?.seq, frames.at(1)?.seq, frames.length]).toEqual([1, 2, 2]);

    // A request still waiting when the agent exits fails with the reason.
    const waiting = store.request(AGENT_METHODS.session_new, { cwd: "/w", mcpServers: [] });
    await new Promise((r) => setTimeout(r, 0));
    relay.fire("agent:exit", { code: 1, signal: null });
    expect(await waiting).toEqual({ kind: "failed", reason: "gone", message: "the agent exited (code 1)" });
    expect(store.getSnapshot().agent).toMatchObject({ state: "exited", code: 1 });
  });

  it("the agent's exit ends every request waiting for the user; frames resent after it open none", () => {
    store.connect();
    relay.fire("connect");
    relay.fire("agent:started", agent);
    const ask = { id: 0, method: "session/request_permission", params: { sessionId: "s1", options: [] } };
    relay.fire("frames", [relay.line("from-agent", ask)]);
    expect(store.getSnapshot().pending.map((f) => f.seq)).toEqual([1]);

    relay.fire("agent:exit", { code: null, signal: "SIGTERM" });
    expect(store.getSnapshot().pending).toEqual([]);
    expect(store.getSnapshot().endedByExit.map((f) => f.seq)).toEqual([1]);

    // A page that comes back later: the relay says the agent is gone, then resends its frames.
    const again = new FakeRelay();
    const later = new SessionStore({ token: "t0k", clientIdKey: "tab-2", openSocket: again.open });
    later.connect();
    again.fire("connect");
    again.fire("agent:attached", { agent: null, lastSeq: 1, missed: 0 });
    again.fire("frames", [again.line("from-agent", ask)]);
    expect(later.getSnapshot().pending).toEqual([]);
    expect(later.getSnapshot().endedByExit.map((f) => f.seq)).toEqual([1]);
    later.dispose();
  });

  it("stops retrying once the relay refuses the token", () => {
    store.connect();
    relay.fire("connect_error", new Error("unauthorized"));
    expect(store.getSnapshot().connection).toBe("unauthorized");
    expect(relay.disconnected).toBe(true);
  });

  it("says it is not connected rather than sending into a closed socket", async () => {
    store.connect();
    expect(await store.send({ jsonrpc: "2.0", method: "x" })).toEqual({
      ok: false,
      error: { code: "internal", message: "not connected to the relay" },
    });
    expect(relay.emitted).toEqual([]);
  });
});
