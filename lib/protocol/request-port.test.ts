import { afterEach, describe, expect, it, vi } from "vitest";
import type { Frame } from "./frame";
import { FrameSequencer } from "./frame-sequencer";
import { RequestClient } from "./request-port";
import { fail, ok, type Result } from "./result";

/**
 * A link over an in-memory agent: frames are made by one sequencer, as the
 * relay makes them; the test decides when (and whether) the agent answers and
 * when the send is acknowledged.
 */
function memoryLink(opts: { ackAfterEcho?: boolean; refuse?: string } = {}) {
  const frames = new FrameSequencer();
  const sent: Frame[] = [];
  let next = 1;
  const client: RequestClient = new RequestClient({
    send: (frame): Result<number> | Promise<Result<number>> => {
      if (opts.refuse) return fail(opts.refuse);
      const line = typeof frame === "string" ? frame : JSON.stringify(frame);
      const f = frames.line("to-agent", line);
      sent.push(f);
      if (!opts.ackAfterEcho) return ok(f.seq);
      // The answer reaches the client before the send's ack does.
      return new Promise((resolve) => {
        queueMicrotask(() => {
          agent.answer(f);
          resolve(ok(f.seq));
        });
      });
    },
    nextId: () => next++,
  });
  const agent = {
    /** The agent answers a request frame (ids echoed as the agent sees them). */
    answer(request: Frame, body: { result?: unknown; error?: unknown } = {}) {
      const msg = { jsonrpc: "2.0", id: request.id, ...("error" in body ? body : { result: body.result ?? {} }) };
      const f = frames.line("from-agent", JSON.stringify(msg));
      client.received([f]);
      return f;
    },
    line(raw: string) {
      const f = frames.line("from-agent", raw);
      client.received([f]);
      return f;
    },
  };
  return { client, sent, agent };
}

afterEach(() => vi.useRealTimers());

describe("RequestClient", () => {
  it("resolves a request with the response the sequencer paired to it, with the response frame", async () => {
    const { client, sent, agent } = memoryLink();
    const answer = client.request("session/new", { cwd: "/w" });
    await Promise.resolve();
    const response = agent.answer(sent[0]!, { result: { sessionId: "s" } });
    expect(await answer).toEqual({ kind: "result", result: { sessionId: "s" }, frame: response });
    expect(response.requestSeq).toBe(sent[0]!.seq);
    expect(client.pending).toBe(0);
  });

  it("pairs by requestSeq, not by id: a reused id answers only the request the sequencer paired", async () => {
    const { client, sent, agent } = memoryLink();
    // Two requests with the same id: the sequencer pairs a response with the latest one.
    const first = client.request("a", {}, { id: 7 });
    const second = client.request("b", {}, { id: 7 });
    await Promise.resolve();
    const response = agent.answer(sent[1]!, { error: { code: -32601, message: "no" } });
    expect(response.requestSeq).toBe(sent[1]!.seq);
    expect(await second).toMatchObject({ kind: "error", error: { code: -32601 }, frame: { seq: response.seq } });
    let settled = false;
    void first.then(() => (settled = true));
    await Promise.resolve();
    expect(settled).toBe(false);
    client.close("gone");
    expect(await first).toEqual({ kind: "failed", reason: "gone", message: "gone" });
  });

  it("finds an answer that arrived before the send was acknowledged", async () => {
    const { client } = memoryLink({ ackAfterEcho: true });
    expect(await client.request("initialize", {})).toMatchObject({ kind: "result" });
    expect(client.pending).toBe(0);
  });

  it("a send the link refuses fails at once; a request with no answer fails after its timeout", async () => {
    expect(await memoryLink({ refuse: "no agent running" }).client.request("x", {})).toEqual({
      kind: "failed",
      reason: "unsent",
      message: "no agent running",
    });
    vi.useFakeTimers();
    const { client } = memoryLink();
    const answer = client.request("session/prompt", {}, { timeoutMs: 1_500 });
    await vi.advanceTimersByTimeAsync(1_500);
    expect(await answer).toEqual({ kind: "failed", reason: "timeout", message: "no answer within 1.5 s" });
    expect(client.pending).toBe(0);
  });

  it("waits for a frame arriving from now on; the agent's exit ends the wait", async () => {
    const { client, agent } = memoryLink();
    agent.line('{"jsonrpc":"2.0","method":"session/update","params":{"n":1}}');
    const update = client.waitForFrame((f) => f.method === "session/update", 1_000);
    const later = agent.line('{"jsonrpc":"2.0","method":"session/update","params":{"n":2}}');
    expect(await update).toBe(later);
    const never = client.waitForFrame((f) => f.method === "nothing", 10_000);
    client.close("the agent exited");
    expect(await never).toBeUndefined();
  });

  it("sends notifications without an id, with fresh ids for requests", async () => {
    const { client, sent } = memoryLink();
    expect(await client.notify("session/cancel", { sessionId: "s" })).toEqual({ ok: true, value: 1 });
    void client.request("a", {});
    void client.request("b", {});
    await Promise.resolve();
    expect(sent.map((f) => [f.kind, f.id])).toEqual([
      ["notification", undefined],
      ["request", 1],
      ["request", 2],
    ]);
  });
});
