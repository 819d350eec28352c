/**
 * A re-run or a probe on a socket of its own, over a fake relay: the event goes
 * out once connected, progress counts the frames streamed meanwhile, and the
 * call ends exactly once, with the relay's answer or the reason it could not
 * get one (a refused token, no relay, a lost connection, Cancel).
 */
import { describe, expect, it } from "vitest";
import type { Ack } from "@/lib/contracts/wire";
import type { OpenSocket, RelaySocket } from "../state/relay-connection";
import { relayCall, type RelayProgress } from "./relay-call";

type Handler = (...args: unknown[]) => void;

/** The call's socket: how it was opened, what was emitted, and the relay's side (`fire`, `answer`). */
class FakeSocket {
  options?: Parameters<OpenSocket>[0];
  readonly emitted: Array<{ event: string; payload: unknown }> = [];
  private readonly handlers = new Map<string, Array<{ handler: Handler; once: boolean }>>();
  private ack?: (res: unknown) => void;
  disconnects = 0;

  readonly open: OpenSocket = (options) => {
    this.options = options;
    return this.socket;
  };

  private readonly socket = {
    on: (event: string, handler: Handler) => this.listen(event, handler, false),
    once: (event: string, handler: Handler) => this.listen(event, handler, true),
    emit: (event: string, payload: unknown, ack: (res: unknown) => void) => {
      this.emitted.push({ event, payload });
      this.ack = ack;
    },
    disconnect: () => {
      this.disconnects++;
      // As socket.io does: a disconnect the client asked for is still a "disconnect" event.
      this.fire("disconnect", "io client disconnect");
    },
  } as unknown as RelaySocket;

  private listen(event: string, handler: Handler, once: boolean) {
    this.handlers.set(event, [...(this.handlers.get(event) ?? []), { handler, once }]);
    return this.socket;
  }

  fire(event: string, ...args: unknown[]): void {
    const hs = this.handlers.get(event) ?? [];
    this.handlers.set(
      event,
      hs.filter((h) => !h.once),
    );
    for (const h of hs) h.handler(...args);
  }

  /** The relay acknowledges the event. */
  answer(res: Ack<Record<string, unknown>>): void {
    this.ack!(res);
  }
}

const agent = { profile: "echo", pid: 9, command: "echo-agent", args: [], cwd: "/w" };

/** Whether the promise has settled, without waiting for it. */
async function settled<T>(p: Promise<T>): Promise<boolean> {
  const pending = Symbol();
  return (await Promise.race([p, new Promise((r) => setTimeout(() => r(pending), 0))])) !== pending;
}

describe("a relay call on its own socket", () => {
  it("sends once connected, reports progress, and ends with the relay's answer and a closed socket", async () => {
    const relay = new FakeSocket();
    const progress: RelayProgress[] = [];
    const call = relayCall<{ report: string }>(
      "t0k",
      "agent:probe",
      { profile: "echo" },
      (p) => progress.push(p),
      undefined,
      relay.open,
    );
    // A fresh session that gives up rather than reconnecting into another run.
    expect(relay.options).toMatchObject({ auth: { token: "t0k" }, forceNew: true, reconnection: false });
    expect(relay.emitted).toEqual([]);
    relay.fire("connect");
    expect(relay.emitted).toEqual([{ event: "agent:probe", payload: { profile: "echo" } }]);

    relay.fire("agent:started", agent);
    relay.fire("frames", [{}, {}]);
    relay.fire("frames", [{}, {}, {}]);
    // Each report is a value of its own: a view keeping an earlier one sees it unchanged.
    expect(progress).toEqual([
      { frames: 0, agent },
      { frames: 2, agent },
      { frames: 5, agent },
    ]);
    expect(await settled(call)).toBe(false);

    relay.answer({ ok: true, report: "done" });
    expect(await call).toEqual({ ok: true, report: "done" });
    expect(relay.disconnects).toBe(1);
  });

  it.each([
    [
      "a refused token",
      (s: FakeSocket) => s.fire("connect_error", new Error("unauthorized")),
      "the access token was refused",
    ],
    [
      "no relay",
      (s: FakeSocket) => s.fire("connect_error", new Error("websocket error")),
      "cannot reach the relay: websocket error",
    ],
    [
      "a lost connection",
      (s: FakeSocket) => {
        s.fire("connect");
        s.fire("disconnect", "transport close");
      },
      "connection lost: transport close",
    ],
  ])("%s ends the call with the reason the user reads", async (_what, happen, message) => {
    const relay = new FakeSocket();
    const call = relayCall("t0k", "transcript:rerun", { id: "x" }, undefined, undefined, relay.open);
    happen(relay);
    expect(await call).toEqual({ ok: false, error: { code: "internal", message } });
  });

  it("Cancel ends the call at once and closes the socket; an answer after that changes nothing", async () => {
    const relay = new FakeSocket();
    const abort = new AbortController();
    const call = relayCall("t0k", "transcript:rerun", { id: "x" }, undefined, abort.signal, relay.open);
    relay.fire("connect");
    abort.abort();
    expect(await call).toEqual({ ok: false, error: { code: "internal", message: "cancelled" } });
    expect(relay.disconnects).toBe(1);
    relay.answer({ ok: true });
    relay.fire("connect_error", new Error("late"));
    expect(await call).toMatchObject({ error: { message: "cancelled" } });
    expect(relay.disconnects).toBe(1);
  });

  it("a call cancelled before it began opens no socket and ends cancelled", async () => {
    const relay = new FakeSocket();
    const abort = new AbortController();
    abort.abort();
    const call = relayCall("t0k", "agent:probe", { profile: "echo" }, undefined, abort.signal, relay.open);
    expect(await call).toEqual({ ok: false, error: { code: "internal", message: "cancelled" } });
    expect(relay.options).toBeUndefined();
  });
});
