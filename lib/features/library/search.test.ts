import { describe, expect, it } from "vitest";
import type { FrameEvent } from "../../contracts/transcript";
import { callTiming, ftsQuery, latencyRows, matchLine, queryTerms, searchDoc, searchTerms } from "./search";
import { indexPercent, MAX_PHRASE_WORDS, MAX_QUERY_TERMS } from "../../contracts/library-search";
import { codexCapture } from "../../../test/fixtures/codex-captures";

const frame = (seq: number, message: object, extra: Partial<FrameEvent> = {}): FrameEvent => ({
  type: "frame",
  seq,
  ts: 1000 + seq,
  dir: "from-agent",
  raw: JSON.stringify(message),
  kind: "notification",
  ...extra,
});

describe("searchDoc", () => {
  it("keeps an agent message chunk's text as a message", () => {
    const doc = searchDoc(
      frame(
        3,
        {
          jsonrpc: "2.0",
          method: "session/update",
          params: {
            sessionId: "s1",
            update: { sessionUpdate: "agent_message_chunk", content: { type: "text", text: "Hello there" } },
          },
        },
        { method: "session/update" },
      ),
      2,
    );
    expect(doc).toMatchObject({
      seq: 3,
      field: "message",
      body: "Hello there",
      error: false,
      method: "session/update",
    });
    // Its other strings (session id, kind) are left out: chunks are most of a recording.
    expect(doc!.extra).toBe("");
  });

  it("keeps a tool call's title and paths, a prompt's text, an error's message", () => {
    const tool = searchDoc(
      frame(
        4,
        {
          method: "session/update",
          params: {
            update: {
              sessionUpdate: "tool_call",
              title: "Read file",
              locations: [{ path: "/w/src/app.ts" }],
              rawInput: { pattern: "TODO" },
            },
          },
        },
        { method: "session/update" },
      ),
      3,
    );
    expect(tool).toMatchObject({ field: "tool", body: "Read file\n/w/src/app.ts" });
    expect(tool!.extra).toContain("TODO");
    const prompt = searchDoc(
      frame(
        5,
        { id: 2, method: "session/prompt", params: { prompt: [{ type: "text", text: "fix the build" }] } },
        {
          dir: "to-agent",
          kind: "request",
          method: "session/prompt",
        },
      ),
      4,
    );
    expect(prompt).toMatchObject({ field: "prompt", body: "fix the build" });
    const error = searchDoc(
      frame(6, { id: 2, error: { code: -32603, message: "quota exceeded" } }, { kind: "response" }),
      5,
    );
    expect(error).toMatchObject({ field: "error", error: true, body: "quota exceeded" });
  });

  it("keeps stderr and agent errors under the frame before them; an invalid frame as its raw text", () => {
    expect(searchDoc({ type: "stderr", ts: 1, text: "Ripgrep missing" }, 7)).toMatchObject({
      seq: 7,
      field: "stderr",
      body: "Ripgrep missing",
    });
    expect(searchDoc({ type: "lifecycle", ts: 1, event: "error", message: "spawn ENOENT" }, 0)).toMatchObject({
      error: true,
      field: "error",
    });
    expect(searchDoc({ type: "lifecycle", ts: 1, event: "spawned", pid: 3 }, 0)).toBeUndefined();
    expect(
      searchDoc({ type: "frame", seq: 9, ts: 1, dir: "from-agent", raw: "not json {", kind: "invalid" }, 8),
    ).toMatchObject({ field: "frame", body: "not json {", error: true });
  });

  it("caps what a huge frame adds", () => {
    const doc = searchDoc(frame(1, { method: "x", params: { a: "y".repeat(500_000) } }), 0);
    expect(doc!.extra.length).toBeLessThanOrEqual(32 * 1024);
  });
});

describe("callTiming", () => {
  it("reads a response's method, the request's direction, latency and error", () => {
    expect(
      callTiming(
        frame(
          4,
          { id: 1, error: { code: 1, message: "x" } },
          { kind: "response", method: "session/new", latencyMs: 12 },
        ),
      ),
    ).toEqual({ seq: 4, method: "session/new", dir: "to-agent", ms: 12, error: true });
    expect(
      callTiming(frame(4, { id: 1, result: { error: 1 } }, { kind: "response", method: "a", latencyMs: 1 }))!.error,
    ).toBe(false);
    expect(callTiming(frame(4, { id: 1, result: {} }, { kind: "response", method: "a" }))).toBeUndefined();
  });
});

describe("ftsQuery", () => {
  it("quotes every word, so nothing typed is FTS5 syntax; the last word is a prefix", () => {
    expect(ftsQuery("read file")).toBe('"read" AND "file"*');
    expect(ftsQuery('NEAR(a b) OR "x*" -c')).toBe('"near a" AND "b" AND "or" AND "x" AND "c"*');
    expect(ftsQuery('"exact phrase" src/app.ts')).toBe('"exact phrase" AND "src app ts"*');
    expect(ftsQuery('say "hello world"')).toBe('"say" AND "hello world"');
    expect(ftsQuery(" ** () ")).toBeUndefined();
    expect(queryTerms("Été x")).toEqual([["été"], ["x"]]);
  });

  it("looks for a term typed twice once, where it was typed last (the word being typed stays last)", () => {
    expect(queryTerms('a b A "b" a')).toEqual([["b"], ["a"]]);
    expect(queryTerms(`${"x ".repeat(250)}y`)).toEqual([["x"], ["y"]]);
    expect(ftsQuery("fix build fix")).toBe('"build" AND "fix"*');
  });

  it("caps the terms and a phrase's words, and says so", () => {
    const words = Array.from({ length: MAX_QUERY_TERMS + 4 }, (_, i) => `w${i}`);
    const { terms, cut } = searchTerms(words.join(" "));
    expect(terms).toEqual(words.slice(0, MAX_QUERY_TERMS).map((w) => [w]));
    expect(cut).toBe(
      `The query was cut: only the first ${MAX_QUERY_TERMS} of its ${MAX_QUERY_TERMS + 4} different words or phrases were searched.`,
    );
    const long = searchTerms(`"${words.join(" ")}"`);
    expect(long.terms).toEqual([words.slice(0, MAX_PHRASE_WORDS)]);
    expect(long.cut).toContain(`a phrase was searched by its first ${MAX_PHRASE_WORDS} words`);
    expect(searchTerms("a b").cut).toBeUndefined();
  });
});

describe("indexPercent", () => {
  it("is the share of bytes read, 100 only when every transcript is read", () => {
    expect(indexPercent({ indexedDocs: 1, totalDocs: 4, indexedBytes: 250, totalBytes: 1000 })).toBe(25);
    expect(indexPercent({ indexedDocs: 3, totalDocs: 4, indexedBytes: 1000, totalBytes: 1000 })).toBe(99);
    expect(indexPercent({ indexedDocs: 4, totalDocs: 4, indexedBytes: 1000, totalBytes: 1000 })).toBe(100);
    expect(indexPercent({ indexedDocs: 0, totalDocs: 0, indexedBytes: 0, totalBytes: 0 })).toBe(100);
  });
});

describe("matchLine", () => {
  it("shows the line that matches, marked, cut around the match", () => {
    const text = `first line\n${"a ".repeat(100)}the quota was exceeded today ${"b ".repeat(100)}\nlast`;
    const { line, marks } = matchLine(text, "quota exceed");
    expect(line.startsWith("…")).toBe(true);
    expect(line.endsWith("…")).toBe(true);
    expect(marks.map(([a, b]) => line.slice(a, b))).toEqual(["quota", "exceeded"]);
  });

  it("falls back to the first line when no word is found (a match in another field)", () => {
    expect(matchLine("one\ntwo", "zzz")).toEqual({ line: "one", marks: [] });
  });
});

describe("latencyRows", () => {
  it("groups by method and direction, counts errors, slowest first", () => {
    const rows = latencyRows([
      { method: "session/prompt", dir: "to-agent", ms: 100, error: false },
      { method: "session/prompt", dir: "to-agent", ms: 300, error: true },
      { method: "fs/read_text_file", dir: "from-agent", ms: 2, error: false },
    ]);
    expect(rows).toEqual([
      // One row type with a transcript's table: every call timed was answered, none is pending.
      {
        method: "session/prompt",
        dir: "to-agent",
        requests: 2,
        answered: 2,
        errors: 1,
        pending: 0,
        p50: 100,
        p95: 300,
        p99: 300,
        max: 300,
      },
      {
        method: "fs/read_text_file",
        dir: "from-agent",
        requests: 1,
        answered: 1,
        errors: 0,
        pending: 0,
        p50: 2,
        p95: 2,
        p99: 2,
        max: 2,
      },
    ]);
  });

  it("rounds each call to 0.1 ms", () => {
    const rows = latencyRows([
      { method: "initialize", dir: "to-agent", ms: 12.34, error: false },
      { method: "initialize", dir: "to-agent", ms: 7.06, error: false },
    ]);
    expect(rows[0]).toMatchObject({ p50: 7.1, max: 12.3 });
  });
});

describe("searchDoc: Codex app-server frames (the real Codex)", () => {
  const events = new Map(
    codexCapture("turns").map((f): [number, FrameEvent] => [
      f.seq,
      {
        type: "frame",
        seq: f.seq,
        ts: f.ts,
        dir: f.dir,
        raw: f.raw,
        kind: f.kind,
        ...(f.method ? { method: f.method } : {}),
        ...(f.latencyMs !== undefined ? { latencyMs: f.latencyMs } : {}),
      },
    ]),
  );
  const doc = (seq: number) => searchDoc(events.get(seq)!, seq - 1)!;

  it("keeps the prompt of turn/start, agent message deltas and the completed message's text", () => {
    expect(doc(8)).toMatchObject({ field: "prompt", body: "say hello", method: "turn/start" });
    expect(doc(17)).toMatchObject({ field: "message", body: "Hello ", extra: "" });
    expect(doc(19)).toMatchObject({ field: "message", body: "Hello from the fake model", extra: "" });
  });

  it("keeps a command's line and output, and an approval's command and reason", () => {
    expect(doc(35)).toMatchObject({ field: "tool", body: "/bin/bash -lc 'echo hi > plain.txt && ls'\nplain.txt\n" });
    expect(doc(57)).toMatchObject({
      field: "tool",
      body: "/bin/bash -lc 'echo approved > approved.txt'\nThe user asked for it.",
      method: "item/commandExecution/requestApproval",
    });
    // Its other strings stay searchable in extra (the workspace, the decisions offered).
    expect(doc(57).extra).toContain("/tmp/acp-cap-JtRRpT/ws\n");
    expect(doc(57).extra).toContain("\ncancel");
  });

  it("keeps a file change's paths and an error notification's message", () => {
    const item = { type: "fileChange", id: "p", changes: [{ path: "/w/a.txt", kind: { type: "add" }, diff: "x" }] };
    const change = frame(
      1,
      { method: "item/completed", params: { threadId: "t", item } },
      { method: "item/completed" },
    );
    expect(searchDoc(change, 0)).toMatchObject({ field: "tool", body: "/w/a.txt" });
    const error = frame(
      2,
      { method: "error", params: { threadId: "t", error: { message: "stream disconnected" }, willRetry: false } },
      { method: "error" },
    );
    expect(searchDoc(error, 1)).toMatchObject({ field: "error", body: "stream disconnected" });
  });

  it("times app-server requests both ways", () => {
    expect(callTiming(events.get(11)!)).toMatchObject({ method: "turn/start", dir: "to-agent", error: false });
    expect(callTiming(events.get(58)!)).toMatchObject({
      method: "item/commandExecution/requestApproval",
      dir: "from-agent",
    });
  });
});
