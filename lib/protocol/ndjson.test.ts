import { describe, expect, it } from "vitest";
import { LineSplitter } from "./ndjson";

const bytes = (s: string) => new TextEncoder().encode(s);

describe("LineSplitter", () => {
  it("buffers a partial line across chunks", () => {
    const s = new LineSplitter();
    expect(s.push(bytes('{"a":'))).toEqual([]);
    expect(s.push(bytes("1"))).toEqual([]);
    expect(s.push(bytes("}\n"))).toEqual([{ type: "line", text: '{"a":1}' }]);
  });

  it("keeps a partial line when the caller reads the next chunk into the same Buffer", () => {
    const s = new LineSplitter();
    const chunk = Buffer.from('{"a":');
    expect(s.push(chunk)).toEqual([]);
    chunk.write("XXXXX");
    expect(s.push(bytes("1}\n"))).toEqual([{ type: "line", text: '{"a":1}' }]);
  });

  it("splits many lines in one chunk and keeps the tail", () => {
    const s = new LineSplitter();
    expect(s.push(bytes("a\nb\nc\nd"))).toEqual([
      { type: "line", text: "a" },
      { type: "line", text: "b" },
      { type: "line", text: "c" },
    ]);
    expect(s.push(bytes("e\n"))).toEqual([{ type: "line", text: "de" }]);
  });

  it("does not split a multi-byte character cut between chunks", () => {
    const s = new LineSplitter();
    const all = bytes("héllo ✓\n");
    expect(s.push(all.subarray(0, 2))).toEqual([]);
    expect(s.push(all.subarray(2, 9))).toEqual([]);
    expect(s.push(all.subarray(9))).toEqual([{ type: "line", text: "héllo ✓" }]);
  });

  it("keeps the CR of CRLF and skips blank lines", () => {
    const s = new LineSplitter();
    expect(s.push(bytes("x\r\n\n\r\n\ny\n"))).toEqual([
      { type: "line", text: "x\r" },
      { type: "line", text: "y" },
    ]);
    expect([...s.push(bytes("a\r")), ...s.push(bytes("\nb\r")), ...s.end()]).toEqual([
      { type: "line", text: "a\r" },
      { type: "line", text: "b\r" },
    ]);
  });

  it("keeps a byte-order mark", () => {
    const s = new LineSplitter();
    expect(s.push(bytes("\uFEFF{}\n"))).toEqual([{ type: "line", text: "\uFEFF{}" }]);
  });

  it("keeps the exact bytes of a line that is not UTF-8, in base64 beside a lenient decoding", () => {
    const s = new LineSplitter();
    const line = new Uint8Array([0x7b, 0xff, 0xfe, 0xc3, 0x7d]);
    const nl = new Uint8Array([0x0a]);
    expect(s.push(new Uint8Array([...line, ...nl]))).toEqual([
      { type: "line", text: "{\uFFFD\uFFFD\uFFFD}", base64: "e//+w30=" },
    ]);
    // The same across chunks (the slow path), and a valid line after it has no base64.
    expect([
      ...s.push(line.subarray(0, 2)),
      ...s.push(new Uint8Array([...line.subarray(2), ...nl, 0x31, 0x0a])),
    ]).toEqual([
      { type: "line", text: "{\uFFFD\uFFFD\uFFFD}", base64: "e//+w30=" },
      { type: "line", text: "1" },
    ]);
  });

  it("drops an over-long line, reports its size and goes on", () => {
    const s = new LineSplitter(10);
    const events = [...s.push(bytes("0123456789abc")), ...s.push(bytes("def\nok\n"))];
    expect(events).toEqual([
      { type: "oversize", bytes: 16, preview: "0123456789abc" },
      { type: "line", text: "ok" },
    ]);
  });

  it("keeps a preview of an over-long line that grew across chunks", () => {
    const s = new LineSplitter(8);
    expect(s.push(bytes("abcdef"))).toEqual([]);
    expect(s.push(bytes("ghij\n"))).toEqual([{ type: "oversize", bytes: 10, preview: "abcdefghij" }]);
  });

  it("accepts a line of exactly the maximum", () => {
    const s = new LineSplitter(4);
    expect(s.push(bytes("abcd\n"))).toEqual([{ type: "line", text: "abcd" }]);
  });

  it("flushes a last line without newline at end of stream", () => {
    const s = new LineSplitter();
    s.push(bytes("tail"));
    expect(s.end()).toEqual([{ type: "line", text: "tail" }]);
    expect(s.end()).toEqual([]);
  });

  it("copes with 10,000 lines in one chunk", () => {
    const s = new LineSplitter();
    const chunk = Array.from({ length: 10_000 }, (_, i) => `{"i":${i}}`).join("\n") + "\n";
    const events = s.push(bytes(chunk));
    expect(events).toHaveLength(10_000);
    expect(events[9_999]).toEqual({ type: "line", text: '{"i":9999}' });
  });
});
