import { describe, expect, it } from "vitest";
import { replyToPrompt, replyToResult, streamPieces } from "./scripted-model";

describe("the offline model's prompts", () => {
  it("turns a write, a read and a command into actions", () => {
    expect(replyToPrompt("write hello.txt saying hi").action).toEqual({
      kind: "write",
      path: "hello.txt",
      content: "hi\n",
    });
    expect(replyToPrompt('Please create a file named notes/todo.md containing "buy milk"').action).toEqual({
      kind: "write",
      path: "notes/todo.md",
      content: "buy milk\n",
    });
    expect(replyToPrompt("write a.txt").action).toMatchObject({ kind: "write", path: "a.txt" });
    expect(replyToPrompt("read README.md").action).toEqual({ kind: "read", path: "README.md" });
    expect(replyToPrompt("show me the file `src/index.ts`").action).toEqual({ kind: "read", path: "src/index.ts" });
    expect(replyToPrompt("run ls -la").action).toMatchObject({ kind: "shell", command: "ls -la" });
    expect(replyToPrompt("run `git status`").action).toMatchObject({ kind: "shell", command: "git status" });
  });

  it("answers anything else with what it can do, and no action", () => {
    const reply = replyToPrompt("Explain this repository");
    expect(reply.action).toBeUndefined();
    expect(reply.text).toContain("offline model");
    expect(reply.text).toContain("write hello.txt saying hi");
    expect(reply.thought).toMatch(/^\*\*\w/);
  });
});

describe("the offline model's replies to a tool's result", () => {
  it("says what was written, shows what was read (fenced past any backticks) and what a command printed", () => {
    expect(replyToResult({ kind: "write", path: "a.txt", content: "x" }, { output: "ok" }).text).toContain(
      "Wrote `a.txt`",
    );
    const read = replyToResult({ kind: "read", path: "R.md" }, { output: "# R\n```js\nx\n```\n" }).text;
    expect(read).toContain("````\n# R\n```js\nx\n```\n````");
    // Claude Code's Read: numbered lines and a reminder for the model, neither of them the file's.
    const numbered = "     1→# Hi\n     2→  x→y\n     3→\n\n<system-reminder>\nThink of malware.\n</system-reminder>\n";
    expect(replyToResult({ kind: "read", path: "a.md" }, { output: numbered }).text).toBe(
      "`a.md` says:\n\n```\n# Hi\n  x→y\n```",
    );
    const ls = replyToResult(
      { kind: "shell", command: "ls", description: "" },
      { output: "<untrusted_context>\nOutput: a.txt  b.txt\nProcess Group PGID: 42\n</untrusted_context>" },
    ).text;
    expect(ls).toBe("`ls` printed:\n\n```\na.txt  b.txt\n```");
    const qwen =
      "Command: ls -a\nDirectory: (root)\nOutput: .\n..\nhello.txt\nError: (none)\nExit Code: 0\nSignal: (none)";
    expect(replyToResult({ kind: "shell", command: "ls -a", description: "" }, { output: qwen }).text).toBe(
      "`ls -a` printed:\n\n```\n.\n..\nhello.txt\n```",
    );
    expect(
      replyToResult({ kind: "shell", command: "touch x", description: "" }, { output: "Output: (empty)" }).text,
    ).toBe("`touch x` ran and printed nothing.");
  });

  it("shows the first lines of a long file, and says why a rejected tool did nothing", () => {
    const long = Array.from({ length: 50 }, (_, i) => `line ${i + 1}`).join("\n");
    const text = replyToResult({ kind: "read", path: "long.txt" }, { output: long }).text;
    expect(text).toContain("line 20\n```");
    expect(text).not.toContain("line 21");
    expect(text).toContain("(30 more lines)");
    expect(
      replyToResult(
        { kind: "write", path: "a.txt", content: "x" },
        { error: 'Tool "write_file" was canceled by the user.' },
      ).text,
    ).toMatch(/^That did not happen: Tool "write_file" was canceled by the user\./);
  });
});

describe("the offline model's wording", () => {
  it("reads right in a terminal as in the page: nothing points at what only the page shows", () => {
    const texts = [
      ...["write a.txt", "read a.txt", "run ls", "hello"].map((p) => replyToPrompt(p).text),
      replyToResult({ kind: "write", path: "a.txt", content: "x" }, { output: "ok" }).text,
      replyToResult({ kind: "read", path: "a.txt" }, { output: "x" }).text,
      replyToResult({ kind: "shell", command: "ls", description: "" }, { output: "x" }).text,
      replyToResult({ kind: "write", path: "a.txt", content: "x" }, { error: "denied" }).text,
    ];
    for (const text of texts) expect(text).not.toMatch(/\b(?:above|below|card|click|view|button|tab)\b/i);
  });
});

describe("streamPieces", () => {
  it("splits text into a few words each and loses nothing", () => {
    const text = "one two  three\nfour five six seven eight nine";
    const pieces = streamPieces(text, 3);
    expect(pieces.join("")).toBe(text);
    expect(pieces.length).toBe(3);
    expect(streamPieces("")).toEqual([""]);
  });
});
