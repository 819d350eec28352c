import { describe, expect, it } from "vitest";
import { FrameSequencer } from "../protocol/frame-sequencer";
import { frameEvent, parseTranscript, serialize, TRANSCRIPT_FORMAT, type TranscriptHeader } from "./transcript";
import { TranscriptLines, type TranscriptLine } from "./transcript-lines";

const header: TranscriptHeader = {
  type: "header",
  format: TRANSCRIPT_FORMAT,
  version: "1.2",
  id: "t1",
  createdAt: "2026-11-22T00:00:00.000Z",
  playground: { version: "0.1.0" },
  agent: { profile: "gemini", command: "gemini", args: ["--acp"], cwd: "/w" },
};

function sample(): string[] {
  const s = new FrameSequencer();
  return [
    serialize(header),
    serialize({ type: "lifecycle", ts: 1, event: "spawned", pid: 42 }),
    serialize(frameEvent(s.line("to-agent", '{"jsonrpc":"2.0","id":1,"method":"session/prompt","params":{}}'))),
    serialize({ type: "stderr", ts: 2, text: "héllo ✓\n" }),
    serialize(frameEvent(s.line("from-agent", '{"jsonrpc":"2.0","id":1,"result":{"stopReason":"end_turn"}}'))),
  ];
}

const bytes = (text: string) => new TextEncoder().encode(text);

/** Every line of `data` read through a reader fed `size` bytes at a time. */
function readIn(data: Uint8Array, size: number, reader = new TranscriptLines()): TranscriptLine[] {
  const out: TranscriptLine[] = [];
  for (let at = 0; at < data.length; at += size) out.push(...reader.push(data.subarray(at, at + size)));
  return [...out, ...reader.end()];
}

const errors = (lines: TranscriptLine[]) => lines.flatMap((l) => (l.error ? [l.error.message] : []));

describe("TranscriptLines", () => {
  it("reads what parseTranscript reads, in chunks of any size, with each line's place in bytes", () => {
    const text = sample().join("");
    const data = bytes(text);
    const whole = parseTranscript(text);
    for (const size of [1, 3, 64, data.length]) {
      const lines = readIn(data, size);
      expect(errors(lines)).toEqual([]);
      expect(lines.map((l) => l.value)).toEqual([whole.header, ...whole.events]);
      expect(lines.map((l) => l.line)).toEqual([1, 2, 3, 4, 5]);
      // Offsets in bytes (the stderr line holds multi-byte characters): each line read back from there is itself.
      for (const l of lines)
        expect(JSON.parse(Buffer.from(data.subarray(l.offset, l.offset + l.bytes)).toString())).toEqual(l.value);
    }
  });

  it("keeps a line's start when the caller reads the next chunk into the same Buffer", () => {
    const data = Buffer.from(sample().join(""));
    const reader = new TranscriptLines();
    const chunk = Buffer.alloc(50);
    const lines: TranscriptLine[] = [];
    for (let at = 0; at < data.length; at += chunk.length) {
      const n = data.copy(chunk, 0, at, at + chunk.length);
      lines.push(...reader.push(chunk.subarray(0, n)));
    }
    lines.push(...reader.end());
    expect(errors(lines)).toEqual([]);
    expect(lines).toHaveLength(5);
  });

  it("names a bad line and why, and reads every line after it", () => {
    const [h, spawned, prompt, stderr, answer] = sample();
    const noDir = JSON.stringify({ ...JSON.parse(prompt!), dir: undefined, seq: 9 }) + "\n";
    const lines = readIn(bytes([h, spawned, "{not json\n", noDir, stderr, prompt, answer].join("")), 5);
    expect(errors(lines)).toEqual([
      expect.stringMatching(/^line 3: not JSON/),
      expect.stringMatching(/^line 4: frame .*dir/),
    ]);
    expect(lines.filter((l) => l.value).map((l) => l.line)).toEqual([1, 2, 5, 6, 7]);
  });

  it("refuses a frame whose seq does not follow, and goes on from the last good one", () => {
    const [h, , prompt, , answer] = sample();
    const lines = readIn(bytes([h, answer, prompt, answer].join("")), 1024);
    // The answer again (seq 2) does not follow 2 either: the refused prompt moved nothing.
    expect(errors(lines)).toEqual(["line 3: frame seq 1 does not follow 2", "line 4: frame seq 2 does not follow 2"]);
    expect(lines.filter((l) => l.value).map((l) => l.line)).toEqual([1, 2]);
  });

  it("refuses a line over its bound without holding it, and reads the next", () => {
    const [h, spawned, prompt] = sample();
    const long = serialize({ type: "stderr", ts: 3, text: "x".repeat(5000) });
    const reader = new TranscriptLines({ maxLineBytes: 1000 });
    const lines = readIn(bytes([h, long, spawned, prompt].join("")), 100, reader);
    expect(errors(lines)).toEqual(["line 2: longer than 1000 bytes: not read"]);
    expect(lines.map((l) => l.line)).toEqual([1, 2, 3, 4]);
    expect(lines[1]!.bytes).toBe(long.length - 1);
    expect(lines[2]!.offset).toBe(bytes(h! + long).length);
  });

  it("leaves out a last line cut off mid-write, and reads a whole last line without its newline", () => {
    const [h, spawned, prompt] = sample();
    const cut = readIn(bytes(h! + spawned + prompt!.slice(0, 30)), 7);
    expect(errors(cut)).toEqual([]);
    expect(cut).toHaveLength(2);
    const whole = new TranscriptLines();
    const lines = readIn(bytes(h! + spawned + prompt!.trimEnd()), 7, whole);
    expect(lines).toHaveLength(3);
    expect(whole.truncated).toBe(false);
  });

  it("says an empty file has no header, and a bad header why", () => {
    expect(errors(readIn(bytes(""), 1))).toEqual(["line 1: empty file: no header"]);
    expect(errors(readIn(bytes("\n"), 1))).toEqual(["line 1: empty file: no header"]);
    const other = serialize({ ...header, format: "other" } as unknown as TranscriptHeader);
    expect(errors(readIn(bytes(other), 64))).toEqual([`line 1: format must be "${TRANSCRIPT_FORMAT}"`]);
  });

  it("goes on from where an earlier reader stopped, as if it had read the whole file", () => {
    const data = bytes(sample().join(""));
    const first = new TranscriptLines();
    const head = first.push(data.subarray(0, 260));
    const rest = readIn(
      data.subarray(first.offset),
      16,
      new TranscriptLines({ offset: first.offset, line: first.line, lastSeq: first.lastSeq }),
    );
    expect([...head, ...rest]).toEqual(readIn(data, data.length));
  });
});
