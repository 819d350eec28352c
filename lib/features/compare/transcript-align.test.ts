import { describe, expect, it } from "vitest";
import type { Frame, FrameDirection } from "../../protocol/frame";
import { FrameSequencer } from "../../protocol/frame-sequencer";
import { align, alignTranscripts, alignTurns, stepsOf, turnRanges, Normaliser } from "./transcript-align";

/** A conversation made by the real sequencer, with a clock the test moves. */
function conversation(o: { session?: string; cwd?: string } = {}) {
  let now = 1_000;
  const s = new FrameSequencer({ wall: () => now, mono: () => now });
  const frames: Frame[] = [];
  const sessionId = o.session ?? "sess-1";
  let id = 0;
  const send = (dir: FrameDirection, m: object, after = 10) => {
    now += after;
    frames.push(s.line(dir, JSON.stringify({ jsonrpc: "2.0", ...m })));
  };
  const c = {
    frames,
    init() {
      send("to-agent", { id: ++id, method: "initialize", params: { protocolVersion: 1 } });
      send("from-agent", { id, result: { protocolVersion: 1, agentCapabilities: {} } }, 50);
      send("to-agent", { id: ++id, method: "session/new", params: { cwd: o.cwd ?? "/w", mcpServers: [] } });
      send("from-agent", { id, result: { sessionId } }, 20);
      return c;
    },
    prompt(
      text: string,
      answer: string[],
      o2: { tool?: string; tokens?: number; latency?: number; error?: boolean } = {},
    ) {
      const pid = ++id;
      send("to-agent", { id: pid, method: "session/prompt", params: { sessionId, prompt: [{ type: "text", text }] } });
      for (const t of answer)
        send("from-agent", {
          method: "session/update",
          params: { sessionId, update: { sessionUpdate: "agent_message_chunk", content: { type: "text", text: t } } },
        });
      if (o2.tool)
        send("from-agent", {
          method: "session/update",
          params: { sessionId, update: { sessionUpdate: "tool_call", toolCallId: `call-${pid}`, title: o2.tool } },
        });
      send(
        "from-agent",
        o2.error
          ? { id: pid, error: { code: -32603, message: "boom" } }
          : {
              id: pid,
              result: {
                stopReason: "end_turn",
                ...(o2.tokens
                  ? { usage: { inputTokens: 1, outputTokens: o2.tokens - 1, totalTokens: o2.tokens } }
                  : {}),
              },
            },
        o2.latency ?? 100,
      );
      return c;
    },
  };
  return c;
}

describe("stepsOf", () => {
  it("makes one step per frame, one per run of chunks, with timing and tokens", () => {
    const c = conversation().init().prompt("hi", ["Hel", "lo", "!"], { tokens: 42, latency: 300 });
    const steps = stepsOf(c.frames);
    expect(steps.map((s) => s.label)).toEqual([
      "→ initialize",
      "← response initialize",
      "→ session/new",
      "← response session/new",
      "→ session/prompt",
      "← session/update agent_message_chunk ×3",
      "← response session/prompt",
    ]);
    const chunks = steps[5]!;
    expect(chunks).toMatchObject({ seq: 6, lastSeq: 8, frames: 3, durationMs: 20 });
    expect(chunks.text).toContain('"text":"Hello!"');
    expect(steps[6]).toMatchObject({ durationMs: 330, usage: { totalTokens: 42 } });
    expect(steps[1]).toMatchObject({ durationMs: 50, at: 50 });
  });

  it("normalises ids, session ids and the working directory", () => {
    const a = stepsOf(conversation({ session: "A-1", cwd: "/tmp/one" }).init().frames, { cwds: ["/tmp/one"] });
    const b = stepsOf(conversation({ session: "B-2", cwd: "/home/x" }).init().frames, { cwds: ["/home/x"] });
    expect(a.map((s) => s.text)).toEqual(b.map((s) => s.text));
  });

  it("survives a hostile file: deep nesting, invalid lines, answers to nothing", () => {
    const deep = `${"[".repeat(5_000)}1${"]".repeat(5_000)}`;
    const s = new FrameSequencer();
    const frames = [
      s.line("from-agent", `{"jsonrpc":"2.0","method":"x","params":{"deep":${deep}}}`),
      s.line("from-agent", "not json"),
      s.line("from-agent", JSON.stringify({ jsonrpc: "2.0", id: 9, result: null })),
    ];
    const steps = stepsOf(frames);
    expect(steps.map((x) => x.label)).toEqual(["← x", "← invalid line", "← response ?"]);
    expect(steps[0]!.text).toContain("<too deep>");
    expect(new Normaliser().value({ ts: 5, sessionId: "q" })).toEqual({ ts: "<time>", sessionId: "<session-1>" });
  });
});

describe("alignTranscripts", () => {
  it("finds two runs of the same conversation equal, whatever the ids, times and chunking", () => {
    const a = conversation({ session: "x" }).init().prompt("hi", ["Hel", "lo"], { latency: 100 });
    const b = conversation({ session: "y" }).init().prompt("hi", ["H", "ell", "o"], { latency: 900 });
    const d = alignTranscripts(a, b);
    expect(d.counts).toEqual({ same: 7, changed: 0, removed: 0, inserted: 0 });
    expect(d.approximate).toBe(false);
    // Timing is kept per step, to compare.
    const last = d.rows.at(-1)!;
    expect([d.a[last.a!]!.durationMs, d.b[last.b!]!.durationMs]).toEqual([120, 930]);
  });

  it("shows inserted, removed and changed steps with the fields that differ", () => {
    const a = conversation().init().prompt("hi", ["Hello"]).prompt("again", ["Sure"]);
    const b = conversation()
      .init()
      .prompt("hi", ["Goodbye"], { tool: "read a.txt" })
      .prompt("again", ["Sure"], { error: true });
    const d = alignTranscripts(a, b);
    const labelled = d.rows
      .filter((r) => r.op !== "same")
      .map((r) => [r.op, (r.a !== undefined ? d.a[r.a] : d.b[r.b!])!.label, r.fields?.map((f) => f.path)]);
    expect(labelled).toEqual([
      ["changed", "← session/update agent_message_chunk", ["params.update.content.text"]],
      ["inserted", "← session/update tool_call", undefined],
      ["changed", "← response session/prompt", ["error", "result"]],
    ]);
    expect(d.counts).toMatchObject({ changed: 2, inserted: 1, removed: 0 });
    const ch = d.rows[5]!;
    expect(ch.fields).toEqual([{ path: "params.update.content.text", recorded: "Hello", actual: "Goodbye" }]);
    // Swapped sides: the insertion becomes a removal.
    expect(alignTranscripts(b, a).counts).toMatchObject({ removed: 1, inserted: 0 });
  });

  it("aligns any two transcripts, not only a re-run: a different start still lines up the turns", () => {
    const a = conversation().init().prompt("one", ["1"]).prompt("two", ["2"]);
    const b = conversation().prompt("one", ["1"]).prompt("two", ["2"]);
    const d = alignTranscripts(a, b);
    expect(d.counts).toEqual({ same: 6, changed: 0, removed: 4, inserted: 0 });
    expect(d.rows.slice(0, 4).every((r) => r.op === "removed")).toBe(true);
  });

  it("stays bounded on large, different transcripts and says it approximated", () => {
    const a = conversation().init();
    const b = conversation().init();
    for (let i = 0; i < 300; i++) {
      a.prompt(`p${i}`, [`a${i}`], { tool: i % 2 ? "x" : undefined });
      b.prompt(`p${i}`, [`b${i}`], { tool: i % 3 ? "y" : undefined });
    }
    const exact = alignTranscripts(a, b);
    expect(exact.approximate).toBe(false);
    const bounded = alignTranscripts(a, b, 10);
    expect(bounded.approximate).toBe(true);
    // Every step of each side appears exactly once, in order, either way.
    for (const d of [exact, bounded]) {
      expect(d.rows.flatMap((r) => (r.a !== undefined ? [r.a] : []))).toEqual(d.a.map((_, i) => i));
      expect(d.rows.flatMap((r) => (r.b !== undefined ? [r.b] : []))).toEqual(d.b.map((_, i) => i));
    }
    // Cut at prompts, the turns still line up.
    const prompts = bounded.rows.filter(
      (r) => r.a !== undefined && bounded.a[r.a]!.method === "session/prompt" && r.b !== undefined,
    );
    expect(prompts.length).toBeGreaterThanOrEqual(600);
  });
});

describe("align", () => {
  const byChar = { key: (s: string) => s[0]!, same: (x: string, y: string) => x === y, loose: () => "" };
  it("is a longest common subsequence over keys; in a gap, loose keys pair up as changed", () => {
    const ops = align(["a1", "b1", "c1", "d1"], ["a1", "c2", "x1", "d1"], byChar).ops;
    expect(ops).toEqual([
      { op: "same", a: 0, b: 0 },
      { op: "removed", a: 1 },
      { op: "changed", a: 2, b: 1 },
      { op: "inserted", b: 2 },
      { op: "same", a: 3, b: 3 },
    ]);
    expect(align(["a1", "b1", "d1"], ["a1", "x1", "d1"], byChar).ops[1]).toEqual({ op: "changed", a: 1, b: 1 });
    expect(align(["a1", "b1", "d1"], ["a1", "x1", "d1"], { ...byChar, loose: undefined }).ops.slice(1, 3)).toEqual([
      { op: "removed", a: 1 },
      { op: "inserted", b: 1 },
    ]);
  });

  it("past its bound, does work in proportion to the lists, not to their product (counted, not timed)", () => {
    const n = 3_000;
    const a = Array.from({ length: n }, (_, i) => `${"abcdefg"[i % 7]}${i}`);
    const b = Array.from({ length: n }, (_, i) => `${"abcdefghijk"[i % 11]}${i}`);
    let calls = 0;
    const counted = {
      key: (s: string) => (calls++, s[0]!),
      same: (x: string, y: string) => (calls++, x === y),
      loose: (s: string) => (calls++, s[0]!),
      maxEdits: 10,
    };
    const { ops, approximate } = align(a, b, counted);
    expect(approximate).toBe(true);
    expect(ops.filter((o) => o.a !== undefined)).toHaveLength(n);
    expect(ops.filter((o) => o.b !== undefined)).toHaveLength(n);
    // Keys once per item, one comparison per pair, and gaps paired by loose key in one forward
    // pass: a few calls per item (pairing each gap's items against each other would be millions).
    expect(calls).toBeLessThan(4 * n);
  });
});

describe("turns", () => {
  it("lists the prompt turns and aligns two of them", () => {
    const c = conversation().init().prompt("first", ["A"], { tool: "t" }).prompt("second", ["B"]);
    const turns = turnRanges(c.frames, "acp");
    expect(turns.map((t) => [t.prompt, t.firstSeq, t.lastSeq])).toEqual([
      ["first", 5, 8],
      ["second", 9, 11],
    ]);
    const d = alignTurns(c.frames, 0, 1);
    expect(d.rows.map((r) => r.op)).toEqual(["changed", "changed", "removed", "same"]);
    expect(d.rows[0]!.fields?.map((f) => f.path)).toEqual(["params.prompt[0].text"]);
  });
});
