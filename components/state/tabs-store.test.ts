/**
 * The playground's tabs over fake relay sockets and an in-memory
 * sessionStorage: what a tab keeps across a reload (its place, the active tab,
 * its clientId, so it re-attaches to its agent), what closing one stops and
 * forgets, tapped conversations, and a link's profile.
 */
import { afterEach, beforeEach, describe, expect, it, vi } from "vitest";
import type { OpenSocket, RelaySocket } from "./relay-connection";
import { clientIdKey, PROFILE_UI_KEY, TabsStore, type Tab } from "./tabs-store";

type Handler = (...args: unknown[]) => void;

/** One tab's socket to the relay: what it was opened with and sent, in order; acks at once unless held. */
class FakeSocket {
  readonly auth: Record<string, unknown> = {};
  /** Events emitted, and "disconnect" when the tab closed it. */
  readonly log: string[] = [];
  readonly payloads = new Map<string, unknown>();
  readonly handlers = new Map<string, Handler[]>();
  connected = false;
  /** Acks of these events wait for `release`. */
  readonly held = new Map<string, () => void>();
  holding = new Set<string>();

  readonly socket = {
    on: (event: string, handler: Handler) => {
      this.handlers.set(event, [...(this.handlers.get(event) ?? []), handler]);
    },
    emit: (event: string, payload: unknown, ack: (res: unknown) => void) => {
      this.log.push(event);
      this.payloads.set(event, payload);
      if (this.holding.has(event)) this.held.set(event, () => ack({ ok: true }));
      else ack({ ok: true });
    },
    disconnect: () => {
      this.log.push("disconnect");
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
}

/** The relay the page's tabs reach: one fake socket per tab, in the order they were opened. */
class FakeRelay {
  readonly sockets: FakeSocket[] = [];
  readonly open: OpenSocket = (options) => {
    const fake = new FakeSocket();
    (options.auth as (cb: (a: Record<string, unknown>) => void) => void)((a) => Object.assign(fake.auth, a));
    this.sockets.push(fake);
    return fake.socket;
  };

  /** The socket a tab opened last. */
  of(tab: Tab): FakeSocket {
    const clientId = tab.store.getSnapshot().clientId;
    return this.sockets.findLast((s) => s.auth.clientId === clientId)!;
  }
}

/** sessionStorage survives a reload; the page's address is what the last page left in it. */
let storage: Map<string, string>;
let href: string;
const opened: TabsStore[] = [];

/** Loads the playground: a fresh TabsStore (as after a reload) over this tab's storage. */
function load(relay: FakeRelay, profile?: string): TabsStore {
  const tabs = new TabsStore(relay.open);
  opened.push(tabs);
  tabs.init(profile);
  return tabs;
}

const ids = (tabs: TabsStore) => tabs.getSnapshot().tabs.map((t) => t.id);
const tabOf = (tabs: TabsStore, id: number) => tabs.getSnapshot().tabs.find((t) => t.id === id)!;

beforeEach(() => {
  storage = new Map();
  href = "http://localhost:3000/";
  (globalThis as { sessionStorage?: unknown }).sessionStorage = {
    getItem: (k: string) => storage.get(k) ?? null,
    setItem: (k: string, v: string) => storage.set(k, String(v)),
    removeItem: (k: string) => storage.delete(k),
  };
  (globalThis as { window?: unknown }).window = {
    get location() {
      return { href };
    },
    history: {
      state: null,
      replaceState: (_state: unknown, _unused: string, url: string) => (href = new URL(url, href).href),
    },
  };
});

afterEach(() => {
  for (const tabs of opened.splice(0)) for (const tab of tabs.getSnapshot().tabs) tab.store.dispose();
  delete (globalThis as { sessionStorage?: unknown }).sessionStorage;
  delete (globalThis as { window?: unknown }).window;
});

describe("the playground's tabs", () => {
  it("a reload brings back the same tabs, the active one, and each tab's agent (its clientId)", () => {
    href = "http://localhost:3000/?token=t0k";
    const relay = new FakeRelay();
    const before = load(relay);
    expect(before.getSnapshot()).toMatchObject({ ready: true, activeId: 1 });
    expect(relay.sockets[0]!.auth).toMatchObject({ token: "t0k", lastSeq: 0 });
    before.add();
    before.add();
    before.activate(2);
    const clientIds = before.getSnapshot().tabs.map((t) => t.store.getSnapshot().clientId);
    expect(new Set(clientIds).size).toBe(3);

    // The token left the address bar; the reloaded page takes it from the tab's storage.
    expect(href).toBe("http://localhost:3000/");
    const after = load(relay);
    expect(ids(after)).toEqual([1, 2, 3]);
    expect(after.getSnapshot().activeId).toBe(2);
    const reattached = relay.sockets.slice(3);
    expect(reattached.map((s) => s.auth.clientId)).toEqual(clientIds);
    expect(reattached.every((s) => s.auth.token === "t0k")).toBe(true);
  });

  it("opening the page again in the same tab (React's second effect) opens no second set of tabs", () => {
    storage.set("acp-playground.token", "t0k");
    const relay = new FakeRelay();
    const tabs = load(relay);
    tabs.init();
    expect(ids(tabs)).toEqual([1]);
    expect(relay.sockets).toHaveLength(1);
  });

  it("closing a tab stops its agent before closing its socket, and a reload forgets it", async () => {
    storage.set("acp-playground.token", "t0k");
    const relay = new FakeRelay();
    const tabs = load(relay);
    tabs.add();
    const third = tabs.add();
    const socket = relay.of(third);
    const closedClientId = third.store.getSnapshot().clientId;
    socket.fire("connect");
    socket.fire("agent:started", { profile: "echo", pid: 1, command: "echo", args: [], cwd: "/w" });
    socket.holding.add("agent:stop");

    const closing = tabs.close(3);
    // Gone from the tab bar at once; the socket stays open until the relay confirms the stop.
    expect(ids(tabs)).toEqual([1, 2]);
    expect(tabs.getSnapshot().activeId).toBe(2);
    await new Promise((r) => setTimeout(r, 0));
    expect(socket.log.at(-1)).toBe("agent:stop");
    socket.held.get("agent:stop")!();
    await closing;
    expect(socket.log.slice(-2)).toEqual(["agent:stop", "disconnect"]);

    expect(storage.has(clientIdKey(3))).toBe(false);
    expect(ids(load(relay))).toEqual([1, 2]);
    // The tab opened in its place has an agent of its own.
    const reopened = tabs.add();
    expect(reopened.id).toBe(3);
    expect(reopened.store.getSnapshot().clientId).not.toBe(closedClientId);
  });

  it("a stop the relay confirms leaves no fallback timer behind", async () => {
    vi.useFakeTimers({ toFake: ["setTimeout", "clearTimeout"] });
    try {
      storage.set("acp-playground.token", "t0k");
      const relay = new FakeRelay();
      const tabs = load(relay);
      const second = tabs.add();
      const socket = relay.of(second);
      socket.fire("connect");
      socket.fire("agent:started", { profile: "echo", pid: 1, command: "echo", args: [], cwd: "/w" });
      const timers = vi.getTimerCount();
      await tabs.close(2);
      expect(socket.log.slice(-2)).toEqual(["agent:stop", "disconnect"]);
      // The 10 s wait for a stop that never comes ended with the stop.
      expect(vi.getTimerCount()).toBe(timers);
    } finally {
      vi.useRealTimers();
    }
  });

  it("closing the active tab shows its right neighbour (the left one at the end); the last tab stays", async () => {
    const relay = new FakeRelay();
    const tabs = load(relay);
    tabs.add();
    tabs.add();
    tabs.activate(2);
    await tabs.close(2);
    expect([ids(tabs), tabs.getSnapshot().activeId]).toEqual([[1, 3], 3]);
    await tabs.close(3);
    expect([ids(tabs), tabs.getSnapshot().activeId]).toEqual([[1], 1]);
    await tabs.close(1);
    expect(ids(tabs)).toEqual([1]);
    // Closing a tab that is not active leaves the active one.
    tabs.add();
    tabs.add();
    await tabs.close(1);
    expect(tabs.getSnapshot().activeId).toBe(3);
  });

  it("a tapped conversation opens in one tab whose clientId names the tap; asking again shows that tab", () => {
    storage.set("acp-playground.token", "t0k");
    const relay = new FakeRelay();
    const tabs = load(relay);
    const watching = tabs.addTap("tap-0a1b");
    expect(relay.of(watching).auth.clientId).toBe("tap-0a1b-t2");
    tabs.activate(1);
    expect(tabs.addTap("tap-0a1b")).toBe(watching);
    expect(tabs.getSnapshot()).toMatchObject({ activeId: 2 });
    expect(ids(tabs)).toEqual([1, 2]);
    // Another tap is another tab; so is one whose clientId merely starts the same.
    expect(tabs.addTap("tap-0a1bff").id).toBe(3);
    expect(ids(tabs)).toEqual([1, 2, 3]);
  });

  it("the single-tab playground's clientId becomes tab 1's, so its agent is not lost", () => {
    storage.set("acp-playground.token", "t0k");
    storage.set("acp-playground.clientId", "from-before-tabs");
    const relay = new FakeRelay();
    load(relay);
    expect(relay.sockets[0]!.auth.clientId).toBe("from-before-tabs");
    expect(storage.has("acp-playground.clientId")).toBe(false);
  });

  it("a link's profile is the first tab's on a fresh page, and a new tab's on a page with tabs", () => {
    storage.set("acp-playground.token", "t0k");
    const relay = new FakeRelay();
    const fresh = load(relay, "replay:one");
    expect(tabOf(fresh, 1).ui.get(PROFILE_UI_KEY)).toBe("replay:one");

    const reloaded = load(relay, "replay:two");
    expect(ids(reloaded)).toEqual([1, 2]);
    expect(reloaded.getSnapshot().activeId).toBe(2);
    expect(tabOf(reloaded, 1).ui.get(PROFILE_UI_KEY)).toBeUndefined();
    // The relay lists only a few replays: the tab names its profile when asking for them.
    const socket = relay.of(tabOf(reloaded, 2));
    socket.fire("connect");
    expect(socket.payloads.get("relay:info")).toEqual({ profile: "replay:two" });

    // Another link followed while the page is open: one more tab.
    reloaded.init("replay:three");
    expect(ids(reloaded)).toEqual([1, 2, 3]);
    expect(tabOf(reloaded, 3).ui.get(PROFILE_UI_KEY)).toBe("replay:three");
  });

  it("saved tabs that do not parse start over with tab 1; bad entries are dropped", () => {
    storage.set("acp-playground.token", "t0k");
    const relay = new FakeRelay();
    storage.set("acp-playground.tabs", "{");
    storage.set(clientIdKey(2), "an-old-tab-2");
    const restarted = load(relay);
    expect(ids(restarted)).toEqual([1]);
    // What the lost list's tab 2 left behind is not the next tab 2's: that agent is someone else's.
    expect(restarted.add().store.getSnapshot().clientId).not.toBe("an-old-tab-2");

    storage.set("acp-playground.tabs", JSON.stringify({ ids: [3, 3, "x", -1, 1.5, 5], activeId: 9 }));
    const tabs = load(relay);
    expect(ids(tabs)).toEqual([3, 5]);
    expect(tabs.getSnapshot().activeId).toBe(3);
  });
});
