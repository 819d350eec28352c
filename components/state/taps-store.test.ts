/**
 * The tab bar's tapped conversations over a fake relay socket: the list
 * follows the relay once the page has its token, and injection for a tab is
 * what the relay answered, with the reason shown when it could not be set.
 */
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import type { Socket } from "socket.io-client";
import type { TapInfo } from "@/lib/contracts/tap-wire";
import { TOKEN_KEY } from "../page-storage";
import { TapsStore, type FetchMe, type OpenTapsSocket } from "./taps-store";

type Handler = (...args: unknown[]) => void;

/** The relay's side of the taps socket: `reply` answers the next tap:injection (a value, or a rejection). */
class FakeTapsRelay {
  readonly opened: Array<Parameters<OpenTapsSocket>[0]> = [];
  readonly asked: Array<{ event: string; payload: unknown; timeoutMs: number }> = [];
  private readonly handlers = new Map<string, Handler[]>();
  reply: () => Promise<unknown> = () => Promise.resolve({ ok: true, injection: true });

  readonly open: OpenTapsSocket = (options) => {
    this.opened.push(options);
    return {
      on: (event: string, handler: Handler) => this.handlers.set(event, [...(this.handlers.get(event) ?? []), handler]),
      timeout: (timeoutMs: number) => ({
        emitWithAck: (event: string, payload: unknown) => {
          this.asked.push({ event, payload, timeoutMs });
          return this.reply();
        },
      }),
    } as unknown as Socket;
  };

  fire(event: string, ...args: unknown[]): void {
    for (const h of this.handlers.get(event) ?? []) h(...args);
  }
}

const tap = (id: string): TapInfo => ({
  id,
  clientId: `tap-${id}`,
  agent: { profile: "tap", pid: 1, command: "claude", args: [], cwd: "/w" },
  startedAt: 0,
  connected: true,
  exited: false,
});

/** No relay to ask who the token is: the page then knows nothing (the relay decides). */
const unknownMe: FetchMe = () => Promise.reject(new Error("no relay"));

let storage: Map<string, string>;
beforeEach(() => {
  storage = new Map();
  (globalThis as { sessionStorage?: unknown }).sessionStorage = {
    getItem: (k: string) => storage.get(k) ?? null,
    setItem: (k: string, v: string) => storage.set(k, String(v)),
    removeItem: (k: string) => storage.delete(k),
  };
});
afterEach(() => {
  delete (globalThis as { sessionStorage?: unknown }).sessionStorage;
});

describe("tapped conversations in the tab bar", () => {
  it("follow the relay's list once the page has its token, on one socket", () => {
    const relay = new FakeTapsRelay();
    const taps = new TapsStore(relay.open, unknownMe);
    taps.connect();
    expect(relay.opened).toEqual([]);
    storage.set(TOKEN_KEY, "t0k");
    taps.connect();
    taps.connect();
    expect(relay.opened).toHaveLength(1);
    expect(relay.opened[0]).toMatchObject({ auth: { token: "t0k", watch: "taps" } });
    relay.fire("taps", { taps: [tap("a1"), tap("b2")] });
    expect(taps.getSnapshot().taps.map((t) => t.id)).toEqual(["a1", "b2"]);
    relay.fire("taps", { taps: [tap("b2")] });
    expect(taps.getSnapshot().taps.map((t) => t.id)).toEqual(["b2"]);
  });

  it("injection for a tab is what the relay answered, tab by tab", async () => {
    storage.set(TOKEN_KEY, "t0k");
    const relay = new FakeTapsRelay();
    const taps = new TapsStore(relay.open, unknownMe);
    taps.connect();
    await taps.setInjection("tap-a1-t2", true);
    await taps.setInjection("tap-a1-t3", true);
    expect(relay.asked[0]).toEqual({
      event: "tap:injection",
      payload: { clientId: "tap-a1-t2", enabled: true },
      timeoutMs: 10_000,
    });
    expect([...taps.getSnapshot().injecting]).toEqual(["tap-a1-t2", "tap-a1-t3"]);
    relay.reply = () => Promise.resolve({ ok: true, injection: false });
    await taps.setInjection("tap-a1-t2", false);
    expect([...taps.getSnapshot().injecting]).toEqual(["tap-a1-t3"]);
    // The relay has the last word: asked to turn it on, it may leave it off.
    await taps.setInjection("tap-a1-t4", true);
    expect([...taps.getSnapshot().injecting]).toEqual(["tap-a1-t3"]);
  });

  it("a refusal, no answer in time or no connection says why and changes nothing; success clears it", async () => {
    const relay = new FakeTapsRelay();
    const taps = new TapsStore(relay.open, unknownMe);
    await taps.setInjection("tap-a1-t2", true);
    expect(taps.getSnapshot()).toMatchObject({ error: "not connected to the relay" });
    expect(taps.getSnapshot().injecting.size).toBe(0);

    storage.set(TOKEN_KEY, "t0k");
    taps.connect();
    await taps.setInjection("tap-a1-t2", true);
    expect(taps.getSnapshot()).toMatchObject({ error: undefined });
    const on = taps.getSnapshot().injecting;

    relay.reply = () => Promise.resolve({ ok: false, error: { code: "not-found", message: "no such tap" } });
    await taps.setInjection("tap-a1-t2", false);
    expect(taps.getSnapshot()).toMatchObject({ error: "no such tap" });
    relay.reply = () => Promise.reject(new Error("operation has timed out"));
    await taps.setInjection("tap-a1-t2", false);
    expect(taps.getSnapshot()).toMatchObject({ error: "operation has timed out" });
    expect(taps.getSnapshot().injecting).toBe(on);

    relay.reply = () => Promise.resolve({ ok: true, injection: false });
    await taps.setInjection("tap-a1-t2", false);
    expect(taps.getSnapshot().error).toBeUndefined();
    expect(taps.getSnapshot().injecting.size).toBe(0);
  });

  it("knows who the page's token is once connected, so a tap's controls can say what is not theirs", async () => {
    storage.set(TOKEN_KEY, "bob-t0k");
    const asked: string[] = [];
    const taps = new TapsStore(new FakeTapsRelay().open, (token) => {
      asked.push(token);
      return Promise.resolve({ owner: "bob" });
    });
    expect(taps.getSnapshot().me).toBeUndefined();
    taps.connect();
    taps.connect();
    await Promise.resolve();
    expect(asked).toEqual(["bob-t0k"]);
    expect(taps.getSnapshot().me).toEqual({ owner: "bob" });
  });
});
