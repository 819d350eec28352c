import { describe, expect, it } from "vitest";
import type { Frame } from "../protocol/frame";
import { diffRuns } from "../features/compare/transcript-diff";
import { parsePatch, patchStats } from "./unified-diff";

const frame = (seq: number, dir: Frame["dir"], message: Record<string, unknown>): Frame => ({
  seq,
  ts: 0,
  dir,
  raw: JSON.stringify(message),
  message,
  kind: "method" in message ? "request" : "response",
  method: "x",
  id: 1,
});

describe("parsePatch", () => {
  it("types the lines of a patch from diffRuns", () => {
    const request = frame(1, "to-agent", { jsonrpc: "2.0", id: 1, method: "x" });
    const { patch } = diffRuns(
      { frames: [request, frame(2, "from-agent", { jsonrpc: "2.0", id: 1, result: { a: 1 } })] },
      { frames: [request, frame(2, "from-agent", { jsonrpc: "2.0", id: 1, result: { a: 2 } })] },
    );
    const lines = parsePatch(patch);
    expect(lines.map((l) => l.kind)).toEqual(["meta", "file", "file", "hunk", "del", "add"]);
    expect(lines[4]!.text).toBe('-{"responseTo":"x #1","result":{"a":1}}');
    expect(patchStats(lines)).toEqual({ added: 1, removed: 1 });
  });

  it("reads '--- ' inside a hunk as a removed line, and context lines", () => {
    const lines = parsePatch("--- a\n+++ b\n@@ -1,3 +1,2 @@\n same\n--- gone\n\\ No newline at end of file\n");
    expect(lines.map((l) => l.kind)).toEqual(["file", "file", "hunk", "context", "del", "meta"]);
  });

  it("is empty for an empty patch", () => {
    expect(parsePatch("")).toEqual([]);
  });
});
