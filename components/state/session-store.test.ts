import { describe, expect, it } from "vitest";
import { FrameSequencer } from "@/lib/protocol/frame-sequencer";
import type { Frame, FrameDirection, WireFrame } from "@/lib/protocol/frame";
import { emptyLogState, FrameLogState, type SnapshotHost } from "./frame-log-state";
import { RpcClient } from "./rpc-client";
import { selectSessionId, withTransportEvents } from "./session-store";
import type { SendResult, SessionSnapshot } from "./snapshot";
import { AGENT_METHODS } from "@/lib/protocol/methods";

/** A host over a plain snapshot, as the session store is for its parts. */
function host(): SnapshotHost {
  let snap = { ...emptyLogState(0), lifecycle: [], agent: { state: "not-started" } } as unknown as SessionSnapshot;
  return { get: () => snap, set: (patch) => (snap = { ...snap, ...patch }) };
}

/** Frames as the relay sends them: numbered and paired by a sequencer, without `message`. */
function relay() {
  const seq = new FrameSequencer();
  return (dir: FrameDirection, message: object): WireFrame => {
    const { message: _m, ...lean }: Frame = seq.line(dir, JSON.stringify({ jsonrpc: "2.0", ...message }));
    return lean;
  };
}

describe("frame log state", () => {
  it("the prompt template's session follows session/load as well as session/new", () => {
    const h = host();
    const log = new FrameLogState(h);
    const wire = relay();
    log.append([
      wire("to-agent", { id: 1, method: "session/new", params: { cwd: "/w", mcpServers: [] } }),
      wire("from-agent", { id: 1, result: { sessionId: "new-one" } }),
    ]);
    expect(selectSessionId(h.get())).toBe("new-one");
    log.append([
      wire("to-agent", { id: 2, method: "session/load", params: { sessionId: "old-one", cwd: "/w", mcpServers: [] } }),
      wire("from-agent", { id: 2, result: {} }),
    ]);
    expect(selectSessionId(h.get())).toBe("old-one");
    expect(h.get().maxRequestId).toBe(2);
  });

  it("skips resends it holds and lists the agent's unanswered requests", () => {
    const h = host();
    const log = new FrameLogState(h);
    const wire = relay();
    const ask = wire("from-agent", { id: 0, method: "fs/read_text_file", params: { sessionId: "s", path: "/a" } });
    expect(log.append([ask]).length).toBe(1);
    expect(log.append([ask]).length).toBe(0);
    expect(h.get().pending.map((f) => f.seq)).toEqual([1]);
    log.append([wire("to-agent", { id: 0, result: { content: "" } })]);
    expect(h.get().pending).toEqual([]);
  });
});

describe("rpc client", () => {
  it("resolves a request with the response that names its seq; other responses leave it waiting", async () => {
    const h = host();
    const log = new FrameLogState(h);
    const wire = relay();
    const sent: WireFrame[] = [];
    const rpc = new RpcClient(h, log, (frame) => {
      const f = wire("to-agent", frame as object);
      sent.push(f);
      log.append([f]);
      return Promise.resolve<SendResult>({ ok: true, seq: f.seq });
    });
    const answer = rpc.request(AGENT_METHODS.session_list, {});
    await Promise.resolve();
    await Promise.resolve();
    const request = sent[0]!;
    // An answer to an id nobody asked for pairs with nothing.
    rpc.received(log.append([wire("from-agent", { id: 99, result: {} })]));
    let settled = false;
    void answer.then(() => (settled = true));
    await new Promise((r) => setTimeout(r, 0));
    expect(settled).toBe(false);
    rpc.received(log.append([wire("from-agent", { id: request.id, result: { sessions: [] } })]));
    expect(await answer).toMatchObject({ kind: "result", result: { sessions: [] }, frame: { seq: 3 } });
  });

  it("fails waiting requests when the agent goes away", async () => {
    const h = host();
    const log = new FrameLogState(h);
    const wire = relay();
    const rpc = new RpcClient(h, log, (frame) => {
      const f = wire("to-agent", frame as object);
      log.append([f]);
      return Promise.resolve<SendResult>({ ok: true, seq: f.seq });
    });
    const answer = rpc.request(AGENT_METHODS.initialize, {});
    await new Promise((r) => setTimeout(r, 0));
    rpc.fail("the agent exited (code 1)");
    expect(await answer).toEqual({ kind: "failed", reason: "gone", message: "the agent exited (code 1)" });
  });
});

describe("transport events on re-attach", () => {
  it("adds those the timeline lacks, in time order, and none twice", () => {
    const shown = [
      { ts: 10, type: "transport" as const, text: "SSE stream opened (connection)" },
      { ts: 30, type: "attached" as const, text: "attached to running agent" },
    ];
    const resent = [
      { ts: 10, text: "SSE stream opened (connection)" },
      { ts: 20, text: "POST session/new: HTTP 200" },
    ];
    expect(withTransportEvents(shown, resent).map((e) => `${e.ts} ${e.type}`)).toEqual([
      "10 transport",
      "20 transport",
      "30 attached",
    ]);
    expect(withTransportEvents(shown, resent.slice(0, 1))).toBe(shown);
    // A reloaded page starts empty and gets them all back.
    expect(withTransportEvents([], resent)).toHaveLength(2);
  });
});
