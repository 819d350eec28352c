import { mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { afterAll, describe, expect, it } from "vitest";
import { wholeLines } from "./pg-copy";

const dir = mkdtempSync(path.join(tmpdir(), "acp-mirror-"));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

describe("wholeLines", () => {
  const file = path.join(dir, "t.jsonl");

  it("reads whole lines a chunk at a time, leaving a line being written for later", () => {
    writeFileSync(file, "aaaa\nbbbb\ncccc\ndd");
    expect(wholeLines(file, 0)).toEqual({ lines: ["aaaa", "bbbb", "cccc"], end: 15, more: false, size: 17 });
    const first = wholeLines(file, 0, 12);
    expect(first).toEqual({ lines: ["aaaa", "bbbb"], end: 10, more: true, size: 17 });
    expect(wholeLines(file, first.end, 12)).toEqual({ lines: ["cccc"], end: 15, more: false, size: 17 });
    expect(wholeLines(file, 15, 12)).toEqual({ lines: [], end: 15, more: false, size: 17 });
  });

  it("reads a line longer than a chunk whole", () => {
    writeFileSync(file, `${"x".repeat(40)}\nyy\n`);
    const long = wholeLines(file, 0, 8);
    expect(long.lines).toEqual(["x".repeat(40), "yy"]);
    expect(long.more).toBe(false);
  });
});
