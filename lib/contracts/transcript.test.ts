import { describe, expect, it } from "vitest";
import { FrameSequencer } from "../protocol/frame-sequencer";
import {
  countTurns,
  frameEvent,
  parseTranscript,
  serialize,
  serializeFrame,
  TRANSCRIPT_FORMAT,
  type TranscriptHeader,
} from "./transcript";

const header: TranscriptHeader = {
  type: "header",
  format: TRANSCRIPT_FORMAT,
  version: "1.0",
  id: "t1",
  createdAt: "2026-11-22T00:00:00.000Z",
  playground: { version: "0.1.0" },
  agent: { profile: "gemini", command: "gemini", args: ["--acp"], cwd: "/w" },
};

function sample(): string {
  const s = new FrameSequencer();
  const lines = [serialize(header)];
  lines.push(serialize({ type: "lifecycle", ts: 1, event: "spawned", pid: 42 }));
  lines.push(
    serialize(frameEvent(s.line("to-agent", '{"jsonrpc":"2.0","id":1,"method":"session/prompt","params":{}}'))),
  );
  lines.push(serialize({ type: "stderr", ts: 2, text: "hello\n" }));
  lines.push(
    serialize(frameEvent(s.line("from-agent", '{"jsonrpc":"2.0","id":1,"result":{"stopReason":"end_turn"}}'))),
  );
  lines.push(serialize(frameEvent(s.line("from-agent", "garbage"))));
  return lines.join("");
}

describe("serializeFrame", () => {
  it("writes exactly what serialize(frameEvent(...)) writes", () => {
    const s = new FrameSequencer();
    const frames = [
      s.line("to-agent", '{"jsonrpc":"2.0","id":"a\\"b","method":"x/y","params":{"q":"\\u2028"}}'),
      s.line("from-agent", '{"jsonrpc":"2.0","id":"a\\"b","result":null}'),
      s.line("from-agent", 'not json "quoted"'),
      s.line("from-agent", '{"jsonrpc":"2.0","method":"n"}'),
    ];
    for (const f of frames) {
      expect(serializeFrame(f)).toBe(serialize(frameEvent(f)));
      expect(serializeFrame(f, "[REDACTED]", 2)).toBe(serialize(frameEvent(f, "[REDACTED]", 2)));
    }
  });
});

describe("parseTranscript", () => {
  it("reads what the writer writes", () => {
    const t = parseTranscript(sample());
    expect(t.header.agent.profile).toBe("gemini");
    expect(t.events).toHaveLength(5);
    expect(t.frames.map((f) => [f.seq, f.kind, f.method])).toEqual([
      [1, "request", "session/prompt"],
      [2, "response", "session/prompt"],
      [3, "invalid", undefined],
    ]);
    expect(t.frames[1]!.message).toEqual({ jsonrpc: "2.0", id: 1, result: { stopReason: "end_turn" } });
    expect(t.truncated).toBe(false);
    expect(countTurns(t.frames)).toBe(1);
  });

  it("tolerates a half-written last line", () => {
    const text = sample() + '{"type":"frame","seq":4,"ts":5,"dir":"from-ag';
    const t = parseTranscript(text);
    expect(t.truncated).toBe(true);
    expect(t.frames).toHaveLength(3);
  });

  it("rejects corruption elsewhere, naming the line", () => {
    const lines = sample().split("\n");
    lines[2] = "{broken";
    expect(() => parseTranscript(lines.join("\n"))).toThrow(/^line 3: not JSON/);
  });

  it("rejects an unknown major version with a clear message", () => {
    const text = sample().replace('"version":"1.0"', '"version":"2.0"');
    expect(() => parseTranscript(text)).toThrow(
      "line 1: unsupported transcript version 2.0: this playground reads version 1.x",
    );
    expect(() => parseTranscript(sample().replace('"version":"1.0"', '"version":"1.7"'))).not.toThrow();
  });

  it.each([
    ["", /empty file/],
    ['{"type":"frame"}\n', /first line must be a header/],
    [JSON.stringify({ ...header, format: "other" }) + "\n", /format must be/],
    [serialize(header) + '{"type":"mystery","ts":1}\n', /line 2: unknown event type "mystery"/],
    [serialize(header) + '{"type":"frame","ts":1,"seq":1,"dir":"up","raw":"","kind":"request"}\n', /line 2: frame dir/],
    [
      serialize(header) +
        '{"type":"frame","ts":1,"seq":2,"dir":"to-agent","raw":"x","kind":"invalid"}\n{"type":"frame","ts":1,"seq":2,"dir":"to-agent","raw":"x","kind":"invalid"}\n',
      /line 3: frame seq 2 does not follow 2/,
    ],
  ])("rejects %j", (text, message) => {
    expect(() => parseTranscript(text)).toThrow(message);
  });
});
