import { describe, expect, it } from "vitest";
import type { Frame } from "../../protocol/frame";
import { FrameSequencer } from "../../protocol/frame-sequencer";
import { alignTranscripts } from "./transcript-align";
import { diffRuns, fieldDiffs, parseIgnorePath, structuralChanges } from "./transcript-diff";
import { APP_SERVER_SESSION, appServerRecording, codexCaptureResequenced } from "../../../test/fixtures/codex-captures";

function run(sessionId: string, chunks: string[], opts: { toolId?: string; cwd?: string; id?: number } = {}) {
  const s = new FrameSequencer();
  const id = opts.id ?? 1;
  const cwd = opts.cwd ?? "/w";
  const frames = [
    s.line("to-agent", JSON.stringify({ jsonrpc: "2.0", id, method: "session/new", params: { cwd } })),
    s.line("from-agent", JSON.stringify({ jsonrpc: "2.0", id, result: { sessionId } })),
    ...chunks.map((text) =>
      s.line(
        "from-agent",
        JSON.stringify({
          jsonrpc: "2.0",
          method: "session/update",
          params: { sessionId, update: { sessionUpdate: "agent_message_chunk", content: { type: "text", text } } },
        }),
      ),
    ),
    s.line(
      "from-agent",
      JSON.stringify({
        jsonrpc: "2.0",
        method: "session/update",
        params: {
          sessionId,
          update: {
            sessionUpdate: "tool_call_update",
            toolCallId: opts.toolId ?? "t-1",
            timestamp: 5,
            locations: [{ path: `${cwd}/a.txt` }],
          },
        },
      }),
    ),
  ];
  return { frames, cwd };
}

describe("diffRuns", () => {
  it("ignores ids, sessionIds, toolCallIds, timestamps, cwd and chunk boundaries", () => {
    const a = run("s-1", ["Hel", "lo"], { toolId: "x1", cwd: "/tmp/a", id: 1 });
    const b = run("s-2", ["H", "ello"], { toolId: "y9", cwd: "/tmp/bb", id: 7 });
    expect(diffRuns(a, b)).toMatchObject({ equal: true, patch: "", added: 0, removed: 0 });
  });

  it("reports real differences as a patch", () => {
    const d = diffRuns(run("s", ["Hello"]), run("s", ["Goodbye"]));
    expect(d.equal).toBe(false);
    expect(d).toMatchObject({ added: 1, removed: 1 });
    expect(d.patch).toMatch(/^-.*Hello/m);
    expect(d.patch).toMatch(/^\+.*Goodbye/m);
  });

  const line = (s: FrameSequencer, dir: "to-agent" | "from-agent", m: object) =>
    s.line(dir, JSON.stringify({ jsonrpc: "2.0", ...m }));
  /** A prompt turn whose agent sends `available_commands_update` after its response, with run-specific values. */
  function promptRun(o: {
    late?: boolean;
    uuid: string;
    branch: string;
    when: string;
    ms: number;
    text?: string;
    commands?: string[][];
    commandsFirst?: boolean;
  }) {
    const s = new FrameSequencer();
    const sessionId = "s";
    const frames = [
      line(s, "to-agent", { id: 1, method: "session/prompt", params: { sessionId, prompt: [] } }),
      line(s, "from-agent", {
        method: "session/update",
        params: {
          sessionId,
          update: {
            sessionUpdate: "agent_message_chunk",
            content: { type: "text", text: o.text ?? "hi" },
            messageId: o.uuid,
            _meta: { "qwen.branchPoint": { id: o.branch, at: o.when }, durationMs: o.ms, startedAt: Date.now() },
          },
        },
      }),
      line(s, "from-agent", {
        id: 1,
        result: {
          stopReason: "end_turn",
          _meta: { trace: `run ${o.uuid} at ${o.when}`, elapsedMs: o.ms, "qwen.branchPoint": { id: o.branch } },
        },
      }),
    ];
    if (o.late)
      frames.push(
        line(s, "from-agent", {
          method: "session/update",
          params: { sessionId, update: { sessionUpdate: "plan", entries: [] } },
        }),
      );
    for (const [i, commands] of (o.commands ?? []).entries())
      frames.splice(o.commandsFirst ? 1 + i : frames.length, 0, commandsUpdate(s, commands));
    return { frames };
  }

  const commandsUpdate = (s: FrameSequencer, names: string[]) =>
    line(s, "from-agent", {
      method: "session/update",
      params: {
        sessionId: "s",
        update: { sessionUpdate: "available_commands_update", availableCommands: names.map((name) => ({ name })) },
      },
    });

  it("compares state updates by their last value, wherever they arrive, and only when both sides have them", () => {
    const base = { uuid: "a", branch: "b", when: "w", ms: 1 };
    const early = promptRun({ ...base, commands: [["old"], ["memory"]], commandsFirst: true });
    const late = promptRun({ ...base, commands: [["memory"]] });
    expect(diffRuns(early, late, { window: "last-response" }).equal).toBe(true);
    expect(diffRuns(early, promptRun(base), { window: "last-response" }).equal).toBe(true);
    const other = promptRun({ ...base, commands: [["compress"]] });
    const diff = diffRuns(late, other);
    expect(diff.equal).toBe(false);
    expect(diff.patch).toContain("compress");
  });

  it("compares the same window on both sides: a late update after the last response does not differ", () => {
    const recorded = promptRun({ late: true, uuid: "a", branch: "b", when: "w", ms: 1 });
    const actual = promptRun({ uuid: "a", branch: "b", when: "w", ms: 1 });
    expect(diffRuns(recorded, actual).equal).toBe(false);
    expect(diffRuns(recorded, actual, { window: "last-response" }).equal).toBe(true);
  });

  it("normalises UUIDs anywhere, random ids under _meta, timestamps and durations by shape", () => {
    const a = promptRun({
      uuid: "0b7c5e2a-1d3f-4a5b-8c9d-0e1f2a3b4c5d",
      branch: "k3j4h5g6f7d8s9a0",
      when: "2026-11-22T10:00:00.000Z",
      ms: 120,
    });
    const b = promptRun({
      uuid: "9f8e7d6c-5b4a-4392-8170-6f5e4d3c2b1a",
      branch: "z9y8x7w6v5u4t3s2",
      when: "2026-11-23T11:30:12.5Z",
      ms: 7,
    });
    expect(diffRuns(a, b)).toMatchObject({ equal: true });
    const c = promptRun({
      ...{ uuid: "0b7c5e2a-1d3f-4a5b-8c9d-0e1f2a3b4c5d", branch: "k3j4h5g6f7d8s9a0" },
      when: "x",
      ms: 1,
      text: "other",
    });
    expect(diffRuns(a, c).equal).toBe(false);
  });

  it("leaves out the paths a user ignores", () => {
    const a = promptRun({ uuid: "a", branch: "b", when: "w", ms: 1, text: "one" });
    const b = promptRun({ uuid: "a", branch: "b", when: "w", ms: 1, text: "two" });
    expect(diffRuns(a, b, { ignore: ["text"] }).equal).toBe(true);
    const x = promptRun({ uuid: "a", branch: "plain", when: "w", ms: 1 });
    const y = promptRun({ uuid: "a", branch: "other", when: "w", ms: 1 });
    expect(diffRuns(x, y).equal).toBe(false);
    expect(diffRuns(x, y, { ignore: ["result._meta.trace"] }).equal).toBe(false);
    expect(diffRuns(x, y, { ignore: ["**._meta.qwen.branchPoint"] }).equal).toBe(true);
    expect(diffRuns(x, y, { ignore: ["result._meta.*"] }).equal).toBe(true);
    expect(parseIgnorePath("a..b")).toBeUndefined();
    expect(parseIgnorePath("result._meta")).toEqual(["result", "_meta"]);
  });
});

describe("structural changes", () => {
  it("pairs changed entries by position and names the fields that differ, with both values", () => {
    const d = diffRuns(run("s1", ["hello"]), run("s2", ["goodbye"]));
    expect(d.changes).toEqual([
      {
        kind: "changed",
        label: "session/update agent_message_chunk",
        recordedIndex: 1,
        actualIndex: 1,
        fields: [{ path: "text", recorded: "hello", actual: "goodbye" }],
      },
    ]);
  });

  it("lists entries only one side has as missing or new, whole", () => {
    const a = ['{"responseTo":"session/new #1","result":{"sessionId":"<session-1>"}}'];
    const b = [...a, '{"request":"fs/read_text_file","params":{"path":"<cwd>/a"}}'];
    expect(structuralChanges(a, b)).toEqual([
      {
        kind: "new",
        label: "request fs/read_text_file",
        actualIndex: 1,
        fields: [{ path: "", actual: { request: "fs/read_text_file", params: { path: "<cwd>/a" } } }],
      },
    ]);
    expect(structuralChanges(b, a)[0]).toMatchObject({ kind: "missing", recordedIndex: 1 });
    expect(diffRuns(run("s", ["x"]), run("t", ["x"])).changes).toEqual([]);
  });

  it("walks arrays by index and reports a field absent on one side", () => {
    expect(fieldDiffs({ a: [1, 2], b: "x" }, { a: [1, 3, 4] })).toEqual([
      { path: "a[1]", recorded: 2, actual: 3 },
      { path: "a[2]", recorded: undefined, actual: 4 },
      { path: "b", recorded: "x", actual: undefined },
    ]);
  });

  it("app-server: the last-response window reaches the last turn's turn/completed", () => {
    const whole = appServerRecording();
    // A run cut right after turn/start's answer (its turn still streaming) differs from the whole turn...
    const cut = whole.slice(0, 9);
    const options = { window: "last-response" as const, protocol: "codex-app-server" as const };
    expect(diffRuns({ frames: whole }, { frames: cut }, options).equal).toBe(false);
    // ...and what follows turn/completed is out of the window (ACP's window would stop at the answer).
    expect(diffRuns({ frames: whole }, { frames: whole.slice(0, 15) }, options).equal).toBe(true);
    expect(diffRuns({ frames: whole }, { frames: cut }, { window: "last-response" }).equal).toBe(true);
  });
});

describe("app-server: an answer that races its own work", () => {
  const turnStart = APP_SERVER_SESSION.findIndex(([, m]) => (m as { method?: string }).method === "turn/start");
  /** The session with turn/start's answer after turn/started, as Codex's two tasks sometimes send them. */
  const answerLate = () => {
    const lines = [...APP_SERVER_SESSION];
    [lines[turnStart + 1], lines[turnStart + 2]] = [lines[turnStart + 2]!, lines[turnStart + 1]!];
    return appServerRecording(lines);
  };

  it("finds turn/start's answer before or after turn/started the same run", () => {
    const late = answerLate();
    expect(late[turnStart + 2]!.kind).toBe("response");
    const diff = diffRuns({ frames: appServerRecording() }, { frames: late }, { protocol: "codex-app-server" });
    expect(diff.patch).toBe("");
    // The rule is the app-server's: read as ACP, the answer's place is a difference.
    expect(diffRuns({ frames: appServerRecording() }, { frames: late }).equal).toBe(false);
  });

  it("anchors the answer on the agent's notification, not on when the client asked", () => {
    const threadStart = APP_SERVER_SESSION.findIndex(([, m]) => (m as { method?: string }).method === "thread/start");
    const warning: (typeof APP_SERVER_SESSION)[number] = ["from-agent", { method: "configWarning", params: {} }];
    // The user asked after Codex's warning; a re-run asks at once, and is answered before the warning.
    const userRun = [...APP_SERVER_SESSION];
    userRun.splice(threadStart, 0, warning);
    const rerun = [...APP_SERVER_SESSION];
    rerun.splice(threadStart + 2, 0, warning);
    const diff = diffRuns(
      { frames: appServerRecording(userRun) },
      { frames: appServerRecording(rerun) },
      {
        protocol: "codex-app-server",
      },
    );
    expect(diff.patch).toBe("");
  });

  it("still finds another answer, wherever it falls", () => {
    const other = answerLate().map((f) =>
      f.kind === "response" && f.raw.includes('"inProgress"')
        ? { ...f, message: { id: 3, result: { turn: null } } }
        : f,
    );
    const diff = diffRuns({ frames: appServerRecording() }, { frames: other }, { protocol: "codex-app-server" });
    expect(diff.equal).toBe(false);
    expect(diff.changes.flatMap((c) => c.fields.map((f) => f.path))).toContain("result.turn");
  });
});

describe("app-server: what differs between two runs of Codex", () => {
  const framesOf = (edit?: (raw: string) => string): Frame[] => codexCaptureResequenced("patches", edit);
  /**
   * The same session run again, as a re-run sees it: Codex names the thread, its turns and items anew
   * (UUIDs of another time; the fake model numbers its items over its life), the command gets another
   * process, the rollout file another day and time, every time and duration moves.
   */
  const again = (raw: string) =>
    raw
      .replaceAll("01a217d3", "01b4c0de")
      .replace(/\b(msg|call)_(\d+)/g, (_, kind: string, n: string) => `${kind}_${Number(n) + 5}`)
      .replace(/"processId":"\d+"/g, '"processId":"77001"')
      .replace(/2026\/11\/26\/rollout-2026-11-26T12-28-12/g, "2026/11/27/rollout-2026-11-27T08-01-59")
      .replace(/\b1795696(\d{3,6})\b/g, "1795782$1")
      .replace(/"durationMs":(\d+)/g, (_, n: string) => `"durationMs":${Number(n) + 17}`);
  const cwd = "/tmp/codex-fixture/ws";
  const protocol = "codex-app-server" as const;

  it("finds two runs equal whatever Codex named anew: thread, turn, item and process ids, the rollout file's time, timings", () => {
    const a = framesOf();
    const b = framesOf(again);
    expect(b.map((f) => f.raw)).not.toEqual(a.map((f) => f.raw));
    const diff = diffRuns({ frames: a, cwd }, { frames: b, cwd }, { protocol });
    expect(diff.patch).toBe("");
    expect(diff.equal).toBe(true);
    // The diff page's alignment too.
    const al = alignTranscripts({ frames: a, cwd, protocol }, { frames: b, cwd, protocol });
    expect(al.counts).toMatchObject({ changed: 0, removed: 0, inserted: 0 });
  });

  it("read as ACP, the app-server's item and process ids and the rollout file's time are differences", () => {
    const diff = diffRuns({ frames: framesOf(), cwd }, { frames: framesOf(again), cwd });
    expect(diff.equal).toBe(false);
    const paths = diff.changes.flatMap((c) => c.fields.map((f) => f.path));
    expect(paths).toContain("params.itemId");
    expect(paths).toContain("params.item.processId");
    expect(paths).toContain("result.thread.path");
  });

  it("still finds what Codex did differently: another reply, a delta naming another item", () => {
    const other = diffRuns(
      { frames: framesOf(), cwd },
      { frames: framesOf((raw) => again(raw).replace("Running it.", "Not running it.")), cwd },
      { protocol },
    );
    expect(other.equal).toBe(false);
    expect(other.patch).toContain("Not running it.");
    // The first reply's delta names the second message: the aliases keep which item is which.
    const swapped = diffRuns(
      { frames: framesOf(), cwd },
      {
        frames: framesOf((raw) =>
          raw.includes('"item/agentMessage/delta"') ? raw.replace('"itemId":"msg_1"', '"itemId":"msg_2"') : raw,
        ),
        cwd,
      },
      { protocol },
    );
    expect(swapped.equal).toBe(false);
    expect(swapped.changes.flatMap((c) => c.fields.map((f) => f.path))).toContain("params.itemId");
  });
});
