import { readFileSync } from "node:fs";
import path from "node:path";
import { describe, expect, it } from "vitest";
import { FrameSequencer } from "../protocol/frame-sequencer";
import {
  frameEvent,
  parseTranscript,
  serialize,
  TranscriptError,
  type TranscriptHeader,
} from "../contracts/transcript";
import { lifecycleEntry, readAll, TranscriptReader, type RecordedPart } from "./transcript-stream";

const header: TranscriptHeader = {
  type: "header",
  format: "acp-playground-transcript",
  version: "1.0",
  id: "t1",
  createdAt: "2026-01-01T00:00:00.000Z",
  playground: { version: "0.1.0" },
  agent: { profile: "stub", command: "/bin/stub", args: ["--acp"], cwd: "/w" },
};

function sample(): string {
  const seq = new FrameSequencer({ wall: () => 1000, mono: () => 0 });
  const lines = [serialize(header), serialize({ type: "lifecycle", ts: 999, event: "spawned", pid: 42 })];
  lines.push(serialize(frameEvent(seq.line("to-agent", '{"jsonrpc":"2.0","id":1,"method":"initialize","params":{}}'))));
  lines.push(serialize({ type: "stderr", ts: 1000, text: "hello\n" }));
  lines.push(serialize(frameEvent(seq.line("from-agent", '{"jsonrpc":"2.0","id":1,"result":{"protocolVersion":1}}'))));
  lines.push(serialize({ type: "agent-info", ts: 1000, agentInfo: { name: "stub", version: "1" } }));
  lines.push(
    serialize(
      frameEvent(
        seq.line("to-agent", '{"jsonrpc":"2.0","id":2,"method":"x","params":{"token":"[REDACTED]"}}'),
        undefined,
        1,
      ),
    ),
  );
  lines.push(serialize({ type: "lifecycle", ts: 1001, event: "stopping" }));
  lines.push(serialize({ type: "lifecycle", ts: 1002, event: "exited", code: 0, signal: null }));
  return lines.join("");
}

function merge(parts: RecordedPart[]): RecordedPart {
  return {
    frames: parts.flatMap((p) => p.frames),
    stderr: parts.flatMap((p) => p.stderr),
    lifecycle: parts.flatMap((p) => p.lifecycle),
  };
}

/** Feeds the text in pieces of `size` characters. */
function chunked(text: string, size: number) {
  const reader = new TranscriptReader();
  const parts: RecordedPart[] = [];
  for (let i = 0; i < text.length; i += size) parts.push(reader.push(text.slice(i, i + size)));
  parts.push(reader.end());
  return { reader, part: merge(parts) };
}

describe("TranscriptReader", () => {
  it("puts a remote agent's transport events on the timeline", () => {
    expect(
      lifecycleEntry({ type: "lifecycle", ts: 5, event: "transport", message: "SSE stream opened (connection)" }),
    ).toEqual({ ts: 5, type: "transport", text: "SSE stream opened (connection)" });
  });

  it("reads frames, stderr, lifecycle and agent info, whatever the chunk size", () => {
    const text = sample();
    const whole = parseTranscript(text);
    for (const size of [1, 7, 100, text.length]) {
      const { reader, part } = chunked(text, size);
      expect(part.frames).toEqual(whole.frames);
      expect(part.stderr).toEqual([{ ts: 1000, text: "hello\n" }]);
      expect(part.lifecycle.map((e) => e.type)).toEqual(["started", "exited"]);
      expect(part.lifecycle[0]!.text).toBe("agent started: stub · pid 42 · /bin/stub --acp · cwd /w");
      expect(part.lifecycle[1]!.text).toBe("agent exited (code 0)");
      expect(reader.header).toEqual(header);
      expect(reader.agentInfo?.agentInfo).toEqual({ name: "stub", version: "1" });
      expect(reader.exit?.code).toBe(0);
      expect(reader.redactions).toBe(1);
      expect(reader.frameCount).toBe(3);
      expect(reader.truncated).toBe(false);
    }
  });

  it("marks a cut-off last line as truncated and reads the rest", () => {
    const text = `${sample()}{"type":"frame","seq":4,"ts":1`;
    const { reader, part } = chunked(text, 50);
    expect(reader.truncated).toBe(true);
    expect(part.frames).toHaveLength(3);
  });

  it("reads a last line without its newline when it is complete", () => {
    const { reader, part } = readAll(sample().trimEnd());
    expect(reader.truncated).toBe(false);
    expect(part.lifecycle.at(-1)?.type).toBe("exited");
  });

  it("names the file's line in errors, across chunks", () => {
    const lines = sample().split("\n");
    lines.splice(5, 0, "{not json");
    const bad = lines.join("\n");
    for (const size of [10, 64, bad.length]) {
      expect(() => chunked(bad, size)).toThrowError(new TranscriptError(6, "not JSON: " + notJsonMessage()));
    }
  });

  it("catches a seq that goes back across chunk boundaries", () => {
    const text = sample();
    const again = text.split("\n").find((l) => l.includes('"seq":2'))!;
    const bad = `${text}${again}\n`;
    const reader = new TranscriptReader();
    reader.push(text);
    expect(() => reader.push(`${again}\n`)).toThrowError(/^line 10: frame seq 2 does not follow 3$/);
    expect(() => readAll(bad)).toThrowError(/^line 10: frame seq 2 does not follow 3$/);
  });

  it("rejects an empty file and a bad header", () => {
    expect(() => readAll("")).toThrowError(/^line 1: empty file/);
    expect(() => readAll('{"type":"frame"}\n')).toThrowError(/^line 1: the first line must be a header/);
  });

  it("reads the shipped demo transcript like parseTranscript does", () => {
    const text = readFileSync(path.join(import.meta.dirname, "..", "..", "demo", "gemini-demo.jsonl"), "utf8");
    const whole = parseTranscript(text);
    const { reader, part } = chunked(text, 1000);
    expect(part.frames).toEqual(whole.frames);
    expect(reader.redactions).toBe(whole.redactions);
    expect(reader.header?.title).toBe(whole.header.title);
  });
});

function notJsonMessage(): string {
  try {
    JSON.parse("{not json");
  } catch (err) {
    return (err as Error).message;
  }
  return "";
}
