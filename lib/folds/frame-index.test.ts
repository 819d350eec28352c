import { describe, expect, it } from "vitest";
import type { Frame } from "../protocol/frame";
import { FrameIndex, updateVariantOf } from "./frame-index";
import { FrameSequencer } from "../protocol/frame-sequencer";
import type { ProtocolName } from "../protocol/protocols";
import { codexCaptureResequenced } from "../../test/fixtures/codex-captures";

function feed(lines: Array<[Frame["dir"], string]>): { frames: Frame[]; index: FrameIndex } {
  const s = new FrameSequencer();
  const index = new FrameIndex();
  const frames = lines.map(([dir, raw]) => s.line(dir, raw));
  for (const f of frames) index.add(f);
  return { frames, index };
}

describe("FrameIndex", () => {
  it("pairs requests with responses both ways, by direction and id", () => {
    const { index } = feed([
      ["to-agent", '{"jsonrpc":"2.0","id":1,"method":"initialize","params":{}}'], // 1
      ["from-agent", '{"jsonrpc":"2.0","id":1,"method":"session/request_permission","params":{}}'], // 2
      ["from-agent", '{"jsonrpc":"2.0","id":1,"result":{}}'], // 3 answers 1
      ["to-agent", '{"jsonrpc":"2.0","id":1,"result":{}}'], // 4 answers 2
      ["to-agent", '{"jsonrpc":"2.0","id":"x","method":"session/prompt","params":{}}'], // 5
      ["from-agent", '{"jsonrpc":"2.0","id":9,"result":{}}'], // 6 orphan
    ]);
    expect(index.partnerOf(1)).toBe(3);
    expect(index.partnerOf(3)).toBe(1);
    expect(index.partnerOf(2)).toBe(4);
    expect(index.partnerOf(4)).toBe(2);
    expect(index.partnerOf(5)).toBeUndefined();
    expect(index.partnerOf(6)).toBeUndefined();
    expect(index.isUnanswered(5)).toBe(true);
    expect(index.isUnanswered(1)).toBe(false);
    expect(index.unanswered().map((f) => f.seq)).toEqual([5]);
    expect(index.unanswered("from-agent")).toEqual([]);
    expect(index.unansweredCount).toBe(1);
  });

  it("tells what each frame changed, for the pending list", () => {
    const index = new FrameIndex();
    const s = new FrameSequencer();
    const ask = s.line("from-agent", '{"jsonrpc":"2.0","id":0,"method":"fs/read_text_file","params":{}}');
    expect(index.add(ask)).toEqual({ opened: ask });
    expect(index.add(s.line("to-agent", '{"jsonrpc":"2.0","id":0,"result":{}}'))).toEqual({ closed: ask });
    expect(index.add(s.line("to-agent", '{"jsonrpc":"2.0","method":"session/cancel"}'))).toEqual({});
  });

  it("flags an id reused while in flight", () => {
    const { index } = feed([
      ["to-agent", '{"jsonrpc":"2.0","id":1,"method":"initialize"}'],
      ["to-agent", '{"jsonrpc":"2.0","id":1,"method":"session/new"}'],
      ["from-agent", '{"jsonrpc":"2.0","id":1,"result":{}}'],
      ["to-agent", '{"jsonrpc":"2.0","id":1,"method":"session/new"}'],
    ]);
    expect(index.isReusedId(1)).toBe(false);
    expect(index.isReusedId(2)).toBe(true);
    expect(index.isReusedId(4)).toBe(false);
    // The first request's answer went to the second: the first never gets one.
    expect(index.unanswered().map((f) => f.seq)).toEqual([1, 4]);
  });

  it("lists methods and session/update variants seen, keeping the arrays stable", () => {
    const { index, frames } = feed([
      ["to-agent", '{"jsonrpc":"2.0","id":1,"method":"session/prompt"}'],
      [
        "from-agent",
        '{"jsonrpc":"2.0","method":"session/update","params":{"update":{"sessionUpdate":"agent_message_chunk"}}}',
      ],
      ["from-agent", '{"jsonrpc":"2.0","method":"session/update","params":{"update":{"sessionUpdate":"plan"}}}'],
      ["from-agent", '{"jsonrpc":"2.0","method":"session/update","params":{"update":{}}}'],
      ["from-agent", '{"jsonrpc":"2.0","id":1,"result":{}}'],
    ]);
    expect(index.methods).toEqual(["session/prompt", "session/update"]);
    expect(index.updateVariants).toEqual(["agent_message_chunk", "plan"]);
    const before = index.methods;
    index.add({ ...frames[1]!, seq: 99 });
    expect(index.methods).toBe(before);
    expect(updateVariantOf(frames[1]!)).toBe("agent_message_chunk");
    expect(updateVariantOf(frames[3]!)).toBeUndefined();
    expect(updateVariantOf(frames[0]!)).toBeUndefined();
  });

  it("prunes pairs of frames no longer held, but keeps open requests", () => {
    const { index } = feed([
      ["to-agent", '{"jsonrpc":"2.0","id":1,"method":"initialize"}'],
      ["from-agent", '{"jsonrpc":"2.0","id":1,"result":{}}'],
      ["to-agent", '{"jsonrpc":"2.0","id":2,"method":"session/new"}'],
      ["to-agent", '{"jsonrpc":"2.0","id":3,"method":"session/new"}'],
      ["from-agent", '{"jsonrpc":"2.0","id":3,"result":{}}'],
    ]);
    index.prune(4);
    expect(index.partnerOf(1)).toBeUndefined();
    expect(index.partnerOf(4)).toBe(5);
    expect(index.isUnanswered(3)).toBe(true);
  });
});

describe("FrameIndex: the recording rules follow the log's protocol", () => {
  /** Frames captured from the pinned Codex over the relay, then two lines no client should write. */
  const codexLog = (): Frame[] => {
    const frames = codexCaptureResequenced("steered");
    const s = new FrameSequencer(undefined, "codex-app-server");
    const next = (raw: string) => ({ ...s.line("to-agent", raw), seq: frames.length + 1, ts: frames.at(-1)!.ts });
    // `initialize` without an id: ACP's PG-REC-006 (a request sent as a notification), not one of the app-server's rules.
    frames.push(next('{"method":"initialize","params":{"clientInfo":{"name":"x","version":"1"}}}'));
    frames.push(next("not json"));
    return frames;
  };
  const findings = (protocol?: ProtocolName) => {
    const frames = codexLog();
    const index = new FrameIndex();
    for (const f of frames) index.add(f, protocol);
    return frames.flatMap((f) => index.ruleFindings(f.seq).map((x) => `${x.requirement} ${x.message}`));
  };

  it("an app-server log is judged by the app-server's rules only", () => {
    const found = findings("codex-app-server");
    expect(found.filter((x) => x.startsWith("PG-REC-006") || x.startsWith("PG-REC-007"))).toEqual([]);
    expect(found).toContainEqual(expect.stringMatching(/^PG-REC-002 not a valid Codex app-server message/));
  });

  it("read as ACP (no protocol given), ACP's own rules judge the same frames", () => {
    const found = findings();
    expect(found).toContain("PG-REC-006 initialize is a request but was sent without an id: it can never be answered");
    expect(found).toContainEqual(expect.stringMatching(/^PG-REC-002 not a valid ACP message/));
  });
});
