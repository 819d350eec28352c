import { describe, expect, it } from "vitest";
import { permissionSubject, replayFromOf, structuredDiff } from "./shapes";

describe("v2 shapes", () => {
  it("reads a structured diff: changes (moves with their old path), the patch, and what is not a change", () => {
    expect(
      structuredDiff({
        type: "diff",
        changes: [
          { operation: "modify", path: "/w/a.ts", fileType: "text" },
          { operation: "move", oldPath: "/w/b.ts", path: "/w/c.ts" },
          { operation: "copy", path: "/w/d.ts" },
          "nonsense",
          { operation: "_vendor/touch", path: "/w/e" },
        ],
        patch: { format: "git_patch", text: "--- a\n+++ b\n" },
      }),
    ).toEqual({
      changes: [
        { operation: "modify", path: "/w/a.ts", fileType: "text" },
        { operation: "move", oldPath: "/w/b.ts", path: "/w/c.ts" },
        { operation: "_vendor/touch", path: "/w/e" },
      ],
      patch: { format: "git_patch", text: "--- a\n+++ b\n" },
      skipped: 2,
    });
    // v1's diff (path, oldText, newText) is not v2's.
    expect(structuredDiff({ type: "diff", path: "/w/a", newText: "x" })).toBeUndefined();
  });

  it("reads what a permission request is about", () => {
    expect(
      permissionSubject({ subject: { type: "tool_call", toolCall: { toolCallId: "t1", title: "Edit" } } }),
    ).toEqual({
      type: "tool_call",
      toolCallId: "t1",
      title: "Edit",
    });
    expect(
      permissionSubject({ subject: { type: "command", command: "rm -rf x", cwd: "/w", terminalId: "k" } }),
    ).toEqual({
      type: "command",
      command: "rm -rf x",
      cwd: "/w",
      terminalId: "k",
    });
    expect(permissionSubject({ subject: { type: "command", cwd: "/w" } })).toEqual({ type: "command", other: true });
    expect(permissionSubject({ subject: { type: "_x/browse", url: "u" } })).toEqual({ type: "_x/browse", other: true });
    expect(permissionSubject({ toolCall: { toolCallId: "v1" } })).toBeUndefined();
  });

  it("reads session/resume's replayFrom", () => {
    expect(replayFromOf({ sessionId: "s" })).toBe("none");
    expect(replayFromOf({ replayFrom: null })).toBe("none");
    expect(replayFromOf({ replayFrom: { type: "start" } })).toBe("start");
    expect(replayFromOf({ replayFrom: { type: "_x/seq", seq: 4 } })).toEqual({ other: "_x/seq" });
    expect(replayFromOf({ replayFrom: 3 })).toEqual({ other: "malformed" });
  });
});
