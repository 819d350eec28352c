import { describe, expect, it } from "vitest";
import { FrameSequencer, type Clock } from "./frame-sequencer";

function fakeClock(): Clock & { advance(ms: number): void } {
  let t = 0;
  return { wall: () => 1_700_000_000_000 + t, mono: () => t, advance: (ms) => (t += ms) };
}

describe("FrameSequencer", () => {
  it("makes a line that is not UTF-8 an invalid frame that keeps its bytes, never parsed nor paired", () => {
    const s = new FrameSequencer(fakeClock());
    s.line("to-agent", '{"jsonrpc":"2.0","id":1,"method":"x"}');
    const f = s.line("from-agent", '{"jsonrpc":"2.0","id":1,"result":"\uFFFD"}', "AAAA");
    expect(f).toMatchObject({ seq: 2, kind: "invalid", rawBase64: "AAAA", message: undefined });
    expect(f.error).toMatch(/transport violation.*UTF-8/);
    expect(s.correlator.unanswered("to-agent")).toHaveLength(1);
  });

  it("numbers frames from 1 without gaps, invalid ones included", () => {
    const s = new FrameSequencer(fakeClock());
    expect(s.line("to-agent", "nope").seq).toBe(1);
    expect(s.invalid("from-agent", "", "too long").seq).toBe(2);
    expect(s.line("from-agent", '{"jsonrpc":"2.0","method":"x"}').seq).toBe(3);
  });

  it("correlates a response to its request, adding method and latency", () => {
    const clock = fakeClock();
    const s = new FrameSequencer(clock);
    s.line("to-agent", '{"jsonrpc":"2.0","id":1,"method":"initialize"}');
    clock.advance(12.5);
    const res = s.line("from-agent", '{"jsonrpc":"2.0","id":1,"result":{}}');
    expect(res).toMatchObject({ kind: "response", method: "initialize", latencyMs: 12.5, id: 1 });
    expect(res.error).toBeUndefined();
  });

  it("correlates each direction separately, and string ids apart from numbers", () => {
    const clock = fakeClock();
    const s = new FrameSequencer(clock);
    s.line("from-agent", '{"jsonrpc":"2.0","id":0,"method":"session/request_permission"}');
    s.line("to-agent", '{"jsonrpc":"2.0","id":"0","method":"session/prompt"}');
    clock.advance(3);
    expect(s.line("to-agent", '{"jsonrpc":"2.0","id":0,"result":{}}')).toMatchObject({
      method: "session/request_permission",
      latencyMs: 3,
    });
    expect(s.line("from-agent", '{"jsonrpc":"2.0","id":"0","result":{}}')).toMatchObject({ method: "session/prompt" });
  });

  it("flags a response whose id matches no request, and a second answer to the same id", () => {
    const s = new FrameSequencer(fakeClock());
    expect(s.line("from-agent", '{"jsonrpc":"2.0","id":9,"result":{}}').error).toMatch(/no pending request/);
    s.line("to-agent", '{"jsonrpc":"2.0","id":1,"method":"m"}');
    expect(s.line("from-agent", '{"jsonrpc":"2.0","id":1,"result":{}}').error).toBeUndefined();
    expect(s.line("from-agent", '{"jsonrpc":"2.0","id":1,"result":{}}').error).toMatch(/no pending request/);
  });

  it("lists unanswered requests", () => {
    const s = new FrameSequencer(fakeClock());
    s.line("from-agent", '{"jsonrpc":"2.0","id":5,"method":"fs/read_text_file"}');
    expect(s.correlator.unanswered("from-agent")).toEqual([{ id: "5", method: "fs/read_text_file", at: 0, seq: 1 }]);
  });
});

describe("lineEvent", () => {
  it("makes a line's frame, keeping bytes that are not UTF-8, and an over-long line's preview an invalid frame", () => {
    const s = new FrameSequencer(fakeClock());
    expect(s.lineEvent("from-agent", { type: "line", text: '{"jsonrpc":"2.0","method":"x"}' }, 100)).toMatchObject({
      seq: 1,
      kind: "notification",
      method: "x",
    });
    expect(s.lineEvent("from-agent", { type: "line", text: "\uFFFD", base64: "/w==" }, 100)).toMatchObject({
      seq: 2,
      kind: "invalid",
      rawBase64: "/w==",
    });
    expect(s.lineEvent("from-agent", { type: "oversize", bytes: 500, preview: '{"jsonrpc"' }, 100)).toMatchObject({
      seq: 3,
      kind: "invalid",
      raw: '{"jsonrpc"',
      error: "line of 500 bytes exceeds the maximum of 100 and was dropped",
    });
  });
});
