import { describe, expect, it } from "vitest";
import type { Frame } from "../lib/frame";
import { FrameSequencer } from "../lib/frame-sequencer";
import { UNKNOWN_METHODS } from "../lib/policy";
import { AgentAnswerer } from "./agent-answerer";
import type { ClientServices } from "./client-services";

/** An answerer wired to a sequencer in memory: what it sends comes back as a frame, as on the relay. */
function wired(services?: Partial<ClientServices>) {
  const seq = new FrameSequencer();
  const sent: Frame[] = [];
  const answerer = new AgentAnswerer((line) => {
    const frame = seq.line("to-agent", line);
    sent.push(frame);
    answerer.track(frame);
    return { ok: true, seq: frame.seq };
  });
  answerer.reset({ handle: () => Promise.resolve({ content: "hello" }), ...services } as unknown as ClientServices);
  const fromAgent = (message: object) => {
    const frame = seq.line("from-agent", JSON.stringify({ jsonrpc: "2.0", ...message }));
    answerer.track(frame);
    return frame;
  };
  return { answerer, sent, fromAgent };
}

const read = (id: number) => ({ id, method: "fs/read_text_file", params: { sessionId: "s", path: "/w/a" } });

describe("agent answerer", () => {
  it("asks by default: nothing is sent until the user serves the request", async () => {
    const { answerer, sent, fromAgent } = wired();
    fromAgent(read(0));
    expect(sent).toEqual([]);
    expect(await answerer.serve(0)).toMatchObject({ ok: true });
    expect(JSON.parse(sent[0]!.raw)).toEqual({ jsonrpc: "2.0", id: 0, result: { content: "hello" } });
    expect(sent[0]!.requestSeq).toBe(1);
    // Answered: a second serve finds nothing pending.
    expect(await answerer.serve(0)).toMatchObject({ ok: false, error: { code: "invalid_payload" } });
  });

  it("a deny policy answers at once with an error; switching to auto serves what is waiting", async () => {
    const { answerer, sent, fromAgent } = wired();
    answerer.setPolicies({ "fs/write_text_file": "deny" });
    fromAgent({ id: 1, method: "fs/write_text_file", params: { sessionId: "s", path: "/w/a", content: "x" } });
    expect(JSON.parse(sent[0]!.raw)).toMatchObject({ id: 1, error: { code: expect.any(Number) } });
    fromAgent(read(2));
    expect(sent).toHaveLength(1);
    answerer.setPolicies({ "fs/read_text_file": "auto" });
    await new Promise((r) => setTimeout(r, 0));
    expect(sent.map((f) => JSON.parse(f.raw).id)).toEqual([1, 2]);
  });

  it("a response the browser sent closes the request it names by requestSeq", async () => {
    const { answerer, fromAgent } = wired();
    fromAgent(read(3));
    // The browser answers by hand; the relay pairs the response with seq 1.
    const seq = new FrameSequencer();
    seq.line("from-agent", JSON.stringify({ jsonrpc: "2.0", ...read(3) }));
    answerer.track(seq.line("to-agent", JSON.stringify({ jsonrpc: "2.0", id: 3, result: { content: "" } })));
    expect(await answerer.serve(3)).toMatchObject({ ok: false, error: { code: "invalid_payload" } });
  });

  it("permission requests are answered with a permission outcome under auto, never by services", async () => {
    const { answerer, sent, fromAgent } = wired({ handle: () => Promise.reject(new Error("not for permissions")) });
    answerer.setPolicies({ "session/request_permission": "auto" });
    fromAgent({
      id: 4,
      method: "session/request_permission",
      params: {
        sessionId: "s",
        toolCall: { toolCallId: "t" },
        options: [{ optionId: "ok", kind: "allow_once", name: "Allow" }],
      },
    });
    await new Promise((r) => setTimeout(r, 0));
    expect(JSON.parse(sent[0]!.raw).result.outcome).toMatchObject({ outcome: "selected", optionId: "ok" });
  });

  it("a malformed permission request under auto gets -32602 naming the field, not an outcome", async () => {
    const { answerer, sent, fromAgent } = wired();
    answerer.setPolicies({ "session/request_permission": "auto" });
    fromAgent({ id: 5, method: "session/request_permission", params: { sessionId: "s", toolCall: {}, options: "x" } });
    await new Promise((r) => setTimeout(r, 0));
    const { error } = JSON.parse(sent[0]!.raw) as { error: { code: number; message: string } };
    expect(error.code).toBe(-32602);
    expect(error.message).toContain("params.toolCall.toolCallId");
    expect(error.message).toContain("params.options");
  });
});

describe("agent answerer: methods outside ACP", () => {
  it("answers a request that is neither a client method nor an extension with -32601 by default", () => {
    const { sent, fromAgent } = wired();
    fromAgent({ id: 7, method: "craft/drainMidTurnQueue", params: {} });
    expect(sent).toHaveLength(1);
    expect(JSON.parse(sent[0]!.raw)).toMatchObject({ id: 7, error: { code: -32601 } });
    expect(JSON.parse(sent[0]!.raw).error.message).toContain("craft/drainMidTurnQueue");
  });

  it("leaves extensions and known client methods to their policies", () => {
    const { sent, fromAgent } = wired();
    fromAgent({ id: 8, method: "_zed/custom", params: {} });
    fromAgent(read(9));
    expect(sent).toEqual([]);
  });

  it('under "ask" an unknown method waits for the user, and switching back refuses it', () => {
    const { answerer, sent, fromAgent } = wired();
    answerer.setPolicies({ [UNKNOWN_METHODS]: "ask" });
    fromAgent({ id: 10, method: "craft/drainMidTurnQueue" });
    expect(sent).toEqual([]);
    answerer.setPolicies({ [UNKNOWN_METHODS]: "deny" });
    expect(JSON.parse(sent[0]!.raw)).toMatchObject({ id: 10, error: { code: -32601 } });
  });
});
