import { describe, expect, it } from "vitest";
import { FrameSequencer } from "../protocol/frame-sequencer";
import {
  countTurns,
  frameEvent,
  parseTranscript,
  serialize,
  serializeFrame,
  eventToFrame,
  TRANSCRIPT_FORMAT,
  type TranscriptHeader,
} from "./transcript";
import { FRAME_FIELDS, type WireFrame } from "../protocol/frame";

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

describe("the frame record, defined once", () => {
  /** A frame with every field of the record set (FRAME_FIELDS lists them): bytes that are not UTF-8 make it invalid. */
  const full: WireFrame = {
    seq: 2,
    ts: 5,
    dir: "to-agent",
    raw: '{"jsonrpc":"2.0","id":"x","result":1}',
    rawBase64: "/w==",
    kind: "invalid",
    method: "m",
    id: "x",
    requestSeq: 1,
    latencyMs: 1.5,
    error: "e",
    injected: true,
  };

  it("every field survives writing, parsing and reading back, whichever writer wrote it", () => {
    expect(Object.keys(full).sort()).toEqual(Object.keys(FRAME_FIELDS).sort());
    const line = serializeFrame(full, full.raw, 3);
    expect(line).toBe(serialize(frameEvent(full, full.raw, 3)));
    const back = parseTranscript(serialize(header) + line);
    expect(back.events[0]).toEqual({ type: "frame", ...full, redacted: 3 });
    // Its bytes were not UTF-8: never parsed, whatever `raw` shows.
    expect(back.frames[0]).toEqual({ ...full, message: undefined });
    expect(eventToFrame(frameEvent(full))).toEqual({ ...full, message: undefined });
    const parsed = { ...full, rawBase64: undefined, kind: "response" as const };
    expect(eventToFrame(frameEvent(parsed)).message).toEqual({ jsonrpc: "2.0", id: "x", result: 1 });
  });

  it("a converter copies only the record's fields", () => {
    const extra = { ...full, message: { big: true }, somethingElse: 1 } as WireFrame;
    expect(frameEvent(extra)).not.toHaveProperty("message");
    expect(frameEvent(extra)).not.toHaveProperty("somethingElse");
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
    // An app-server turn is a turn/start; a session/prompt is no turn there.
    expect(countTurns(t.frames, "codex-app-server")).toBe(0);
    expect(countTurns([{ dir: "to-agent", kind: "request", method: "turn/start" }], "codex-app-server")).toBe(1);
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
    // Every field of every line is checked by the one schema: what the rest of the playground reads is what was declared.
    [
      serialize(header) + '{"type":"frame","ts":1,"seq":1,"dir":"to-agent","raw":"","kind":"request","id":{}}\n',
      /line 2: frame id must be a string, a number or null$/,
    ],
    [
      serialize(header) + '{"type":"frame","ts":1,"seq":1,"dir":"to-agent","raw":"","kind":"request","method":7}\n',
      /line 2: frame method must be a string$/,
    ],
    [
      serialize(header) +
        '{"type":"frame","ts":1,"seq":3,"dir":"to-agent","raw":"","kind":"response","requestSeq":-1}\n',
      /line 2: frame requestSeq must be the seq of an earlier frame$/,
    ],
    [
      serialize(header) + '{"type":"stderr","ts":1,"text":"x","redacted":-2}\n',
      /line 2: stderr redacted must be an integer from 0$/,
    ],
    [
      serialize(header) + '{"type":"lifecycle","ts":1,"event":"exited","code":"1"}\n',
      /line 2: lifecycle code must be an integer or null$/,
    ],
    [serialize(header) + '{"type":"stderr","ts":"1","text":"x"}\n', /line 2: stderr ts must be a number$/],
    [
      JSON.stringify({ ...header, agent: { ...header.agent, args: [1] } }) + "\n",
      /^line 1: header agent.args must be strings$/,
    ],
    [JSON.stringify({ ...header, playground: undefined }) + "\n", /^line 1: header needs playground$/],
    [JSON.stringify({ ...header, playground: 1 }) + "\n", /^line 1: header playground must be an object$/],
    [serialize(header) + '{"type":"stderr","ts":1}\n', /^line 2: stderr needs text$/],
    [JSON.stringify({ ...header, version: "one" }) + "\n", /^line 1: header version must look like "1.0"$/],
  ])("rejects %j", (text, message) => {
    expect(() => parseTranscript(text)).toThrow(message);
  });
});
