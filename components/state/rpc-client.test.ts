/**
 * A tab's requests to its agent: ids above any the log has seen, the answer
 * paired by the relay's `requestSeq`, and every way a request can end without
 * one (not sent, no answer in time, the agent gone) surfacing as "failed".
 */
import { afterEach, describe, expect, it, vi } from "vitest";
import { FrameSequencer } from "@/lib/protocol/frame-sequencer";
import type { Frame, FrameDirection, WireFrame } from "@/lib/protocol/frame";
import { emptyLogState, FrameLogState, type SnapshotHost } from "./frame-log-state";
import { RpcClient } from "./rpc-client";
import type { SendResult, SessionSnapshot } from "./snapshot";

/** A host over a plain snapshot, as the session store is for its parts. */
function host(): SnapshotHost {
  let snap = { ...emptyLogState(0), lifecycle: [], agent: { state: "not-started" } } as unknown as SessionSnapshot;
  return { get: () => snap, set: (patch) => (snap = { ...snap, ...patch }) };
}

/**
 * A tab over an in-memory relay: what the client sends is numbered and echoed
 * into the log (as the relay's `frames` event does), and `answer` plays the agent.
 * `echoBeforeAck`: the relay's echo (and the agent's answer) arrive before the send's ack.
 */
function tab(options: { echoBeforeAck?: (request: WireFrame) => object | undefined } = {}) {
  const h = host();
  const log = new FrameLogState(h);
  const seq = new FrameSequencer();
  const sent: Array<Record<string, unknown>> = [];
  let refuse: SendResult | undefined;
  const line = (dir: FrameDirection, message: object): WireFrame => {
    const { message: _m, ...lean }: Frame = seq.line(dir, JSON.stringify({ jsonrpc: "2.0", ...message }));
    return lean;
  };
  // The session store's order: the log holds the frames before whoever waits hears of them.
  const deliver = (frames: WireFrame[]) => rpc.received(log.append(frames));
  const rpc = new RpcClient(h, log, (frame) => {
    if (refuse) return Promise.resolve(refuse);
    sent.push(frame as Record<string, unknown>);
    const request = line("to-agent", frame as object);
    const early = options.echoBeforeAck?.(request);
    deliver(early ? [request, line("from-agent", early)] : [request]);
    return Promise.resolve<SendResult>({ ok: true, seq: request.seq });
  });
  const answer = (message: object) => deliver([line("from-agent", message)]);
  return { h, log, rpc, sent, answer, refuseWith: (res: SendResult) => (refuse = res) };
}

/** Lets the send's ack come back (a few microtasks). */
const acked = () => new Promise((r) => setTimeout(r, 0));

afterEach(() => {
  vi.useRealTimers();
});

describe("a tab's requests to its agent", () => {
  it("takes ids above any seen going to the agent, and never the same one twice", async () => {
    const { h, rpc, sent } = tab();
    // A hand-typed frame's ack raised the snapshot's id before its echo reached the log.
    h.set({ maxRequestId: 41 });
    expect(rpc.peekRequestId()).toBe(42);
    void rpc.request("session/list", {});
    void rpc.request("session/list", {});
    await acked();
    expect(sent.map((f) => f.id)).toEqual([42, 43]);
    expect(h.get().maxRequestId).toBe(43);
    expect(rpc.peekRequestId()).toBe(44);
  });

  it("an error answer comes back as the agent's error, paired with its request", async () => {
    const { rpc, sent, answer } = tab();
    const outcome = rpc.request("session/load", { sessionId: "gone" });
    await acked();
    answer({ id: sent[0]!.id as number, error: { code: -32002, message: "Resource not found" } });
    expect(await outcome).toMatchObject({
      kind: "error",
      error: { code: -32002, message: "Resource not found" },
      frame: { seq: 2, requestSeq: 1 },
    });
  });

  it("a hand-composed frame is paired by the relay's seq, whatever its id", async () => {
    const { rpc, answer } = tab();
    const first = rpc.sendRequest({ jsonrpc: "2.0", id: "same", method: "session/list", params: {} });
    await acked();
    answer({ id: "same", result: { first: true } });
    expect(await first).toMatchObject({ kind: "result", result: { first: true } });
    const second = rpc.sendRequest({ jsonrpc: "2.0", id: "same", method: "session/list", params: {} });
    await acked();
    answer({ id: "same", result: { second: true } });
    expect(await second).toMatchObject({ kind: "result", result: { second: true }, frame: { requestSeq: 3 } });
  });

  it("an answer that arrives before the send's ack still resolves the request", async () => {
    const { rpc } = tab({ echoBeforeAck: (request) => ({ id: request.id, result: { fast: true } }) });
    expect(await rpc.request("initialize", { protocolVersion: 1 })).toMatchObject({
      kind: "result",
      result: { fast: true },
    });
  });

  it("a request the relay did not take fails at once with the relay's reason", async () => {
    const { rpc, refuseWith } = tab();
    refuseWith({ ok: false, error: { code: "internal", message: "not connected to the relay" } });
    expect(await rpc.request("session/list", {})).toEqual({
      kind: "failed",
      reason: "unsent",
      message: "not connected to the relay",
    });
    refuseWith({ ok: false });
    expect(await rpc.notify("session/cancel", { sessionId: "s" })).toEqual({ ok: false, error: "not sent" });
  });

  it("a request nobody answers in time fails with the time it waited; a late answer changes nothing", async () => {
    vi.useFakeTimers();
    const { rpc, sent, answer } = tab();
    let outcome: unknown;
    void rpc.request("session/prompt", { sessionId: "s", prompt: [] }, { timeoutMs: 1_500 }).then((o) => (outcome = o));
    await vi.advanceTimersByTimeAsync(1_499);
    expect(outcome).toBeUndefined();
    await vi.advanceTimersByTimeAsync(1);
    expect(outcome).toEqual({ kind: "failed", reason: "timeout", message: "no answer within 1.5 s" });
    answer({ id: sent[0]!.id as number, result: {} });
    expect(outcome).toMatchObject({ reason: "timeout" });
  });

  it("whoever waits for a frame gets it, or nothing once the agent is gone", async () => {
    const { rpc, answer } = tab();
    const seen = rpc.waitForFrame((f) => f.method === "session/update", 60_000);
    answer({ method: "other/notice", params: {} });
    answer({ method: "session/update", params: { sessionId: "s", update: {} } });
    expect(await seen).toMatchObject({ method: "session/update", seq: 2 });

    const never = rpc.waitForFrame(() => false, 60_000);
    const waiting = rpc.request("session/prompt", { sessionId: "s", prompt: [] });
    await acked();
    rpc.fail("the agent was replaced");
    expect(await never).toBeUndefined();
    expect(await waiting).toEqual({ kind: "failed", reason: "gone", message: "the agent was replaced" });
  });
});
