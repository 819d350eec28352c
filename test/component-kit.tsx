/**
 * Components over a real SessionStore whose relay is a fake socket in memory: what a card
 * sends goes out as `agent:send` and waits for the ack the test gives; the relay's events
 * (an agent started, frames, an exit) are fired by the test.
 */
import { render } from "@testing-library/react";
import type { ReactNode } from "react";
import type { AgentInfo } from "@/lib/contracts/wire";
import { FrameSequencer } from "@/lib/protocol/frame-sequencer";
import type { Frame, FrameDirection, WireFrame } from "@/lib/protocol/frame";
import type { OpenSocket, RelaySocket } from "@/components/state/relay-connection";
import { SessionStore } from "@/components/state/session-store";
import { TabContext } from "@/components/state/use-session";

type Handler = (...args: unknown[]) => void;
type Ack = (res: unknown) => void;

export const AGENT: AgentInfo = { profile: "echo", pid: 42, command: "echo-agent", args: [], cwd: "/w" };

export class FakeRelay {
  /** The frames the page sent, in order, each with the ack that answers it. */
  readonly sent: Array<{ frame: unknown; ack: Ack }> = [];
  private readonly handlers = new Map<string, Handler[]>();
  private readonly seq = new FrameSequencer();
  private connected = false;

  readonly open: OpenSocket = (options) => {
    (options.auth as (cb: (a: unknown) => void) => void)(() => undefined);
    return this.socket;
  };

  private readonly socket = {
    on: (event: string, handler: Handler) => {
      this.handlers.set(event, [...(this.handlers.get(event) ?? []), handler]);
    },
    emit: (event: string, payload: unknown, ack: Ack) => {
      if (event === "agent:send") this.sent.push({ frame: (payload as { frame: unknown }).frame, ack });
      else if (event === "relay:info") ack({ ok: false, error: { code: "test", message: "no info here" } });
      else ack({ ok: true });
    },
    disconnect: () => {
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

  /** A frame as the relay numbers and pairs it (without `message`). */
  frame(dir: FrameDirection, message: object): WireFrame {
    const { message: _m, ...lean }: Frame = this.seq.line(dir, JSON.stringify({ jsonrpc: "2.0", ...message }));
    return lean;
  }
}

/** A connected store with a running agent, and its relay. */
export function runningSession(agent: AgentInfo = AGENT): { store: SessionStore; relay: FakeRelay } {
  const relay = new FakeRelay();
  const store = new SessionStore({ token: "t0k", clientIdKey: "tab-1", openSocket: relay.open });
  store.connect();
  relay.fire("connect");
  relay.fire("agent:started", agent);
  return { store, relay };
}

/** The agent asks: its request arrives, and comes back as the store lists it waiting (with its parsed message). */
export function agentAsks(store: SessionStore, relay: FakeRelay, message: object): Frame {
  const wire = relay.frame("from-agent", message);
  relay.fire("frames", [wire]);
  return store.getSnapshot().pending.find((f) => f.seq === wire.seq)!;
}

/** Renders inside the tab of `store`, as the playground does. */
export function renderInTab(ui: ReactNode, store: SessionStore) {
  return render(<TabContext.Provider value={{ id: 1, store, ui: new Map() }}>{ui}</TabContext.Provider>);
}

/**
 * jsdom lays nothing out: scrolling into view is a no-op here, and ResizeObserver (which
 * react-resizable-panels and the views measure with) observes nothing. For a beforeAll.
 */
export function withoutLayout(): void {
  Element.prototype.scrollIntoView = () => undefined;
  globalThis.ResizeObserver ??= class {
    observe() {}
    unobserve() {}
    disconnect() {}
  } as unknown as typeof ResizeObserver;
}
