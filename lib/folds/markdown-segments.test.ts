import { describe, expect, it } from "vitest";
import {
  emptySegments,
  MAX_SEGMENT,
  segmentMarkdown,
  segmentsOf,
  tailSegment,
  type SegmentState,
} from "./markdown-segments";

const texts = (s: SegmentState) => segmentsOf(s).map((x) => x.text);
/** Segments of a closed fence rejoined: what Markdown would see without the re-opened fences. */
const rejoin = (s: SegmentState) =>
  segmentsOf(s)
    .map((x) => x.text)
    .join("");

/** Feeds `text` in pieces of `step` characters, as a stream would. */
function stream(text: string, step: number, max?: number): SegmentState {
  let s = emptySegments();
  for (let i = step; i < text.length + step; i += step) s = segmentMarkdown(text.slice(0, i), s, max);
  return s;
}

describe("markdown segments", () => {
  it("cuts at blank lines between blocks, keeping the blank line with the block before", () => {
    const s = segmentMarkdown("# Title\n\nA paragraph\nof two lines.\n\n- a\n- b\n");
    expect(texts(s)).toEqual(["# Title\n\n", "A paragraph\nof two lines.\n\n", "- a\n- b\n"]);
    expect(segmentsOf(s).every((x) => !x.cont)).toBe(true);
    expect(rejoin(s)).toBe(s.source);
  });

  it("never cuts inside fenced code, nor before an indented continuation", () => {
    const md = "```js\nconst a = 1;\n\nconst b = 2;\n```\n\n1. item\n\n   more of the item\n\nend";
    expect(texts(segmentMarkdown(md))).toEqual([
      "```js\nconst a = 1;\n\nconst b = 2;\n```\n\n",
      "1. item\n\n   more of the item\n\n",
      "end",
    ]);
    expect(texts(segmentMarkdown("~~~\n```\n\nstill code\n~~~\n\nafter"))).toEqual([
      "~~~\n```\n\nstill code\n~~~\n\n",
      "after",
    ]);
  });

  it("waits for the next line before cutting at a blank line", () => {
    expect(texts(segmentMarkdown("para\n\n"))).toEqual(["para\n\n"]);
    expect(texts(segmentMarkdown("para\n\n\n\nnext"))).toEqual(["para\n\n\n\n", "next"]);
  });

  it("is incremental: closed segments keep their identity, and the result matches a one-shot split", () => {
    const md = "Hello **world**\n\n```py\nprint(1)\n```\n\nA list:\n\n- one\n- two\n\nDone.";
    const once = segmentMarkdown(md);
    for (const step of [1, 3, 7, 20]) expect(texts(stream(md, step))).toEqual(texts(once));
    const a = segmentMarkdown("one\n\ntwo");
    const b = segmentMarkdown("one\n\ntwo\n\nthree", a);
    expect(b.done[0]).toBe(a.done[0]);
    expect(segmentMarkdown(b.source, b)).toBe(b);
  });

  it("starts over when the text is not an extension of the previous one", () => {
    const a = segmentMarkdown("one\n\ntwo");
    expect(texts(segmentMarkdown("other\n\ntext", a))).toEqual(["other\n\n", "text"]);
  });

  it("cuts an over-long paragraph at line ends, marked as a continuation", () => {
    const md = Array.from({ length: 10 }, (_, i) => `line ${i} of a long paragraph`).join("\n");
    const s = segmentMarkdown(md, undefined, 80);
    const segs = segmentsOf(s);
    expect(segs.length).toBeGreaterThan(2);
    expect(segs[0]!.cont).toBe(false);
    expect(segs.slice(1).every((x) => x.cont)).toBe(true);
    expect(segs.every((x) => x.text.length <= 80)).toBe(true);
    expect(rejoin(s)).toBe(md);
  });

  it("cuts one giant line at a space before a letter, never before a marker", () => {
    const md = Array.from({ length: 400 }, (_, i) => `chunk ${i} lorem ipsum - 1. # dolor sit amet`).join("");
    const s = stream(md, 37, 500);
    const segs = segmentsOf(s);
    expect(segs.length).toBeGreaterThan(10);
    expect(segs.every((x) => x.text.length <= 500)).toBe(true);
    for (const x of segs.slice(1)) expect(x.text[0]).toMatch(/[A-Za-z]/);
    expect(rejoin(s)).toBe(md);
    expect(texts(s)).toEqual(texts(segmentMarkdown(md, undefined, 500)));
  });

  it("closes and re-opens a fence cut by size, so code stays code", () => {
    const code = Array.from({ length: 30 }, (_, i) => `x${i} = ${i}`).join("\n");
    const md = `Before\n\n\`\`\`python\n${code}\n\`\`\`\n\nAfter`;
    const segs = segmentsOf(segmentMarkdown(md, undefined, 60));
    const inCode = segs.filter((x) => x.text.includes("x1"));
    expect(inCode.length).toBeGreaterThan(1);
    for (const x of inCode) {
      expect(x.text.startsWith("```python\n")).toBe(true);
      expect(x.text.trimEnd().endsWith("```")).toBe(true);
    }
    expect(segs.at(-1)!.text).toBe("After");
    // The streamed result is the same.
    expect(segmentsOf(stream(md, 5, 60)).map((x) => x.text)).toEqual(segs.map((x) => x.text));
  });

  it("re-opens the fence for an open tail inside a cut code block", () => {
    const md = `\`\`\`\n${"a = 1\n".repeat(20)}`;
    const s = segmentMarkdown(md, undefined, 40);
    expect(tailSegment(s)?.text.startsWith("```\n")).toBe(true);
  });

  it("scans only the open tail of a long stream", () => {
    // 50,000 chunks: each call scans from the open tail, which stays within a segment or two of
    // the end, so the whole stream costs its length, not its length squared. Counted, not timed.
    let s = emptySegments();
    let text = "";
    let scanned = 0;
    for (let i = 0; i < 50_000; i++) {
      text += `chunk ${i} lorem ipsum dolor sit amet `;
      if (i % 100 === 0) {
        const closed = s.done.length;
        scanned += text.length - s.tailStart;
        s = segmentMarkdown(text, s);
        // Closed segments keep their identity: a call only appends to them.
        expect(s.done.length).toBeGreaterThanOrEqual(closed);
      }
    }
    s = segmentMarkdown(text, s);
    expect(text.length - s.tailStart).toBeLessThanOrEqual(2 * MAX_SEGMENT);
    // A rescan from the start at every call would be about 250 times the text.
    expect(scanned).toBeLessThan(3 * text.length);
    expect(rejoin(s)).toBe(text);
  });
});
