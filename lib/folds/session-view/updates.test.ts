import { describe, expect, it } from "vitest";
import { reduceFrames, subagentShownElsewhere, terminalOf } from ".";
import { script, session, textOf, turn } from "./test-script";
import type {
  CompactionItem,
  EventItem,
  MessageItem,
  PlanItem,
  SessionMessageItem,
  StateItem,
  SubagentItem,
  ToolCallItem,
  UnknownItem,
} from "./types";
import { decodeBase64Text } from "./v2";

const b64 = (s: string) => Buffer.from(s, "utf8").toString("base64");

describe("session view: plans (plan_update, plan_removed)", () => {
  it("applies items, markdown and file forms to one card per plan id, and marks removal", () => {
    const s = script();
    s.prompt(1, "s1", "go");
    const entries = [{ content: "read", priority: "high", status: "in_progress" }];
    s.update("s1", { sessionUpdate: "plan_update", plan: { type: "items", planId: "p1", entries } });
    s.update("s1", { sessionUpdate: "plan_update", plan: { type: "markdown", planId: "p2", content: "# Steps" } });
    s.update("s1", { sessionUpdate: "plan_update", plan: { type: "file", planId: "p1", uri: "file:///w/PLAN.md" } });
    s.update("s1", { sessionUpdate: "plan_removed", planId: "p2" });
    const items = turn(reduceFrames(s.frames)).items;
    expect(items.map((i) => i.type)).toEqual(["user_message", "plan", "plan"]);
    const [p1, p2] = items.slice(1) as PlanItem[];
    expect(p1).toMatchObject({ planId: "p1", form: "file", uri: "file:///w/PLAN.md", entries: [] });
    expect(p1!.markdown).toBeUndefined();
    expect(p1!.seqs.toArray()).toEqual([2, 4]);
    expect(p2).toMatchObject({ planId: "p2", form: "markdown", markdown: "# Steps", removed: true });
  });

  it("shows the removal of a plan never seen as a card of its own", () => {
    const s = script();
    s.update("s1", { sessionUpdate: "plan_removed", planId: "gone" });
    expect(session(reduceFrames(s.frames)).preamble[0]).toMatchObject({ type: "plan", planId: "gone", removed: true });
  });

  it("keeps the stable plan apart from plans with an id, and cleans hostile entries", () => {
    const s = script();
    s.update("s1", { sessionUpdate: "plan_update", plan: { type: "items", planId: "p1", entries: [] } });
    s.update("s1", {
      sessionUpdate: "plan",
      entries: [{ content: { evil: 1 }, priority: 7, status: "weird" }, "not an entry", null],
    });
    const items = session(reduceFrames(s.frames)).preamble as PlanItem[];
    expect(items).toHaveLength(2);
    expect(items[1]!.entries).toEqual([{ content: '{"evil":1}', priority: "low", status: "pending" }]);
  });
});

describe("session view: compaction", () => {
  it("makes one marker per compaction, summary chunks appended and updates patching it", () => {
    const s = script();
    s.prompt(1, "s1", "go");
    s.update("s1", { sessionUpdate: "compaction_update", compactionId: "c1", status: "in_progress" });
    s.update("s1", {
      sessionUpdate: "compaction_summary_chunk",
      compactionId: "c1",
      content: { type: "text", text: "We " },
    });
    s.update("s1", {
      sessionUpdate: "compaction_summary_chunk",
      compactionId: "c1",
      content: { type: "text", text: "read" },
    });
    s.update("s1", { sessionUpdate: "compaction_update", compactionId: "c1", status: "completed" });
    const items = turn(reduceFrames(s.frames)).items;
    expect(items.map((i) => i.type)).toEqual(["user_message", "compaction"]);
    const c = items[1] as CompactionItem;
    expect(c.status).toBe("completed");
    expect(c.summary).toEqual([{ type: "text", text: "We read" }]);
  });

  it("clears the summary with null or [], and records an error", () => {
    const s = script();
    s.update("s1", {
      sessionUpdate: "compaction_summary_chunk",
      compactionId: "c",
      content: { type: "text", text: "x" },
    });
    s.update("s1", {
      sessionUpdate: "compaction_update",
      compactionId: "c",
      status: "failed",
      summary: null,
      error: "boom",
    });
    const c = session(reduceFrames(s.frames)).preamble[0] as CompactionItem;
    expect(c).toMatchObject({ status: "failed", summary: [], error: "boom" });
  });
});

describe("session view: subagents", () => {
  it("lists the child under the tool call that started it; the child's updates fold into its own session", () => {
    const s = script();
    s.prompt(1, "s1", "go");
    s.update("s1", { sessionUpdate: "tool_call", toolCallId: "t1", title: "Task", status: "in_progress" });
    s.update("s1", {
      sessionUpdate: "subagent_update",
      sessionId: "child",
      title: "Explorer",
      state: { state: "running" },
    });
    s.update("child", { sessionUpdate: "agent_message_chunk", content: { type: "text", text: "found it" } });
    s.update("s1", {
      sessionUpdate: "subagent_update",
      sessionId: "child",
      state: { state: "idle", stopReason: "end_turn" },
    });
    const view = reduceFrames(s.frames);
    const sub = turn(view).items[2] as SubagentItem;
    expect(sub).toMatchObject({
      type: "subagent",
      sessionId: "child",
      title: "Explorer",
      toolCallId: "t1",
      state: "idle",
      stopReason: "end_turn",
    });
    expect(session(view, "child").parentSessionId).toBe("s1");
    expect(textOf(session(view, "child").preamble[0])).toBe("found it");
  });

  it("refuses a child naming its own session, and never makes a parent cycle", () => {
    const s = script();
    s.update("a", { sessionUpdate: "subagent_update", sessionId: "a" });
    s.update("a", { sessionUpdate: "subagent_update", sessionId: "b" });
    s.update("b", { sessionUpdate: "subagent_update", sessionId: "a" });
    const view = reduceFrames(s.frames);
    expect((session(view, "a").preamble[0] as UnknownItem).reason).toMatch(/itself/);
    expect(session(view, "b").parentSessionId).toBe("a");
    expect(session(view, "a").parentSessionId).toBeUndefined();
  });
});

describe("session view: session messages", () => {
  it("upserts participants and appends chunks by messageId", () => {
    const s = script();
    s.update("s1", { sessionUpdate: "session_message_chunk", messageId: "m", content: { type: "text", text: "hi " } });
    s.update("s1", {
      sessionUpdate: "session_message",
      messageId: "m",
      senderSessionId: "child",
      recipientSessionId: "s1",
    });
    s.update("s1", {
      sessionUpdate: "session_message_chunk",
      messageId: "m",
      content: { type: "text", text: "there" },
    });
    const it = session(reduceFrames(s.frames)).preamble[0] as SessionMessageItem;
    expect(it).toMatchObject({ senderSessionId: "child", recipientSessionId: "s1" });
    expect(textOf(it)).toBe("hi there");
  });
});

describe("session view: notices and session events", () => {
  it("keeps a notice's shown fields only, each a string, severity info by default", () => {
    const s = script();
    s.update("s1", { sessionUpdate: "notice", title: "Quota low", severity: "warning", description: { x: 1 } });
    s.update("s1", { sessionUpdate: "notice", title: "Hi" });
    const [a, b] = session(reduceFrames(s.frames)).preamble as EventItem[];
    expect(a!.update).toEqual({ sessionUpdate: "notice", title: "Quota low", severity: "warning" });
    expect(b!.update).toMatchObject({ severity: "info" });
  });
});

describe("session view: v2", () => {
  const init = (s: ReturnType<typeof script>) => {
    s.request("to-agent", 0, "initialize", { protocolVersion: 2 });
    s.respond("from-agent", 0, { protocolVersion: 2, agentCapabilities: {} });
  };

  it("ends a turn on state_update idle, not on the prompt response", () => {
    const s = script();
    init(s);
    s.prompt(1, "s1", "go");
    s.respond("from-agent", 1, {});
    s.update("s1", { sessionUpdate: "state_update", state: "running" });
    s.update("s1", { sessionUpdate: "agent_message", messageId: "a1", content: [{ type: "text", text: "done" }] });
    const mid = reduceFrames(s.frames);
    expect(turn(mid).ended).toBe(false);
    expect(turn(mid).responseSeq).toBe(4);
    s.update("s1", {
      sessionUpdate: "state_update",
      state: "idle",
      stopReason: "end_turn",
      usage: { inputTokens: 5, outputTokens: 2, totalTokens: 7 },
    });
    const view = reduceFrames(s.frames);
    const t = turn(view);
    expect(t).toMatchObject({ ended: true, endedBy: "state", endSeq: 7, stopReason: "end_turn" });
    expect(t.usage?.inputTokens).toBe(5);
    expect(t.items.map((i) => i.type)).toEqual(["user_message", "state", "agent_message"]);
    expect((t.items[1] as StateItem).state).toBe("running");
    expect(session(view).activity).toBe("idle");
  });

  it("still ends a v1 turn on the prompt response", () => {
    const s = script();
    s.prompt(1, "s1", "go");
    s.respond("from-agent", 1, { stopReason: "end_turn" });
    expect(turn(reduceFrames(s.frames))).toMatchObject({ ended: true, endedBy: "response" });
  });

  it("upserts messages by id: content replaces, chunks append, the echoed prompt is not a second bubble", () => {
    const s = script();
    init(s);
    s.prompt(1, "s1", "go");
    s.update("s1", { sessionUpdate: "user_message", messageId: "u1", content: [{ type: "text", text: "go" }] });
    s.update("s1", { sessionUpdate: "agent_thought", messageId: "t1" });
    s.update("s1", { sessionUpdate: "agent_message_chunk", messageId: "a1", content: { type: "text", text: "ab" } });
    s.update("s1", { sessionUpdate: "agent_thought_chunk", messageId: "t1", content: { type: "text", text: "hmm" } });
    s.update("s1", { sessionUpdate: "agent_message_chunk", messageId: "a1", content: { type: "text", text: "c" } });
    s.update("s1", { sessionUpdate: "agent_message", messageId: "a1", content: [{ type: "text", text: "final" }] });
    const items = turn(reduceFrames(s.frames)).items as MessageItem[];
    expect(items.map((i) => [i.type, i.messageId, textOf(i)])).toEqual([
      ["user_message", "u1", "go"],
      ["thought", "t1", "hmm"],
      ["agent_message", "a1", "final"],
    ]);
  });

  it("appends tool call content chunks, and null clears a field in v2", () => {
    const s = script();
    init(s);
    s.prompt(1, "s1", "go");
    s.update("s1", { sessionUpdate: "tool_call_update", toolCallId: "t", title: "Run", kind: "execute" });
    s.update("s1", {
      sessionUpdate: "tool_call_content_chunk",
      toolCallId: "t",
      content: { type: "content", content: { type: "text", text: "1" } },
    });
    s.update("s1", {
      sessionUpdate: "tool_call_content_chunk",
      toolCallId: "t",
      content: { type: "terminal", terminalId: "term" },
    });
    s.update("s1", { sessionUpdate: "tool_call_update", toolCallId: "t", kind: null });
    const tc = turn(reduceFrames(s.frames)).items[1] as ToolCallItem;
    expect(tc.content).toHaveLength(2);
    expect(tc.kind).toBeUndefined();
    expect(tc.title).toBe("Run");
  });

  it("keeps an agent-owned terminal: snapshot, appended base64 chunks, exit status", () => {
    const s = script();
    s.prompt(1, "s1", "go");
    s.update("s1", { sessionUpdate: "terminal_update", terminalId: "t", command: "ls", output: { data: b64("a\n") } });
    s.update("s1", { sessionUpdate: "terminal_output_chunk", terminalId: "t", data: b64("é\n") });
    s.update("s1", { sessionUpdate: "terminal_update", terminalId: "t", exitStatus: { exitCode: 0 } });
    const view = reduceFrames(s.frames);
    expect(terminalOf(view, "t")).toMatchObject({
      command: "ls",
      output: "a\né\n",
      agentOwned: true,
      exitStatus: { exitCode: 0 },
    });
    expect(turn(view).items.map((i) => i.type)).toEqual(["user_message", "terminal"]);
  });

  it("decodes base64 leniently", () => {
    expect(decodeBase64Text(b64("héllo"))).toBe("héllo");
    expect(decodeBase64Text("!!!")).toBe("");
  });
});

describe("session view: session/load history", () => {
  it("puts what a load replays into the history, not into the turns, and replaces it on the next load", () => {
    const s = script();
    s.prompt(1, "s1", "hi");
    s.say("s1", "hello");
    s.respond("from-agent", 1, { stopReason: "end_turn" });
    s.request("to-agent", 2, "session/load", { sessionId: "s1", cwd: "/w", mcpServers: [] });
    s.update("s1", { sessionUpdate: "user_message_chunk", content: { type: "text", text: "hi" } });
    s.update("s1", { sessionUpdate: "agent_message_chunk", content: { type: "text", text: "hello" } });
    s.respond("from-agent", 2, {});
    s.say("s1", "late");
    const view = reduceFrames(s.frames);
    expect(session(view).history.map(textOf)).toEqual(["hi", "hello"]);
    expect(turn(view).items.map((i) => i.type)).toEqual(["user_message", "agent_message", "agent_message"]);
    expect(turn(view).items[2]!.outOfTurn).toBe(true);
    s.request("to-agent", 3, "session/resume", { sessionId: "s1", cwd: "/w" });
    s.update("s1", { sessionUpdate: "agent_message_chunk", content: { type: "text", text: "again" } });
    s.respond("from-agent", 3, {});
    expect(session(reduceFrames(s.frames)).history.map(textOf)).toEqual(["again"]);
  });
});

describe("session view: hostile updates", () => {
  const cases: Array<[string, object]> = [
    ["plan_update", { plan: "x" }],
    ["plan_update", { plan: { type: "items", planId: 1, entries: [] } }],
    ["plan_update", { plan: { type: "pictures", planId: "p" } }],
    ["plan_removed", { planId: {} }],
    ["compaction_update", { compactionId: "c" }],
    ["compaction_summary_chunk", { compactionId: "c", content: { type: "text", text: 5 } }],
    ["subagent_update", { sessionId: ["a"] }],
    ["session_message", { messageId: null }],
    ["session_message_chunk", { messageId: "m", content: "text" }],
    ["user_message", { messageId: 3 }],
    ["state_update", { state: { idle: true } }],
    ["tool_call_content_chunk", { toolCallId: "t", content: [] }],
    ["terminal_update", { terminalId: 9 }],
    ["terminal_output_chunk", { terminalId: "t", data: 12 }],
    ["notice", { title: ["x"] }],
  ];
  it.each(cases)("keeps a malformed %s as one item naming its schema, without throwing", (kind, fields) => {
    const s = script();
    s.prompt(1, "s1", "go");
    s.update("s1", { sessionUpdate: kind, ...fields });
    const it = turn(reduceFrames(s.frames)).items[1] as UnknownItem;
    expect(it.type).toBe("unknown");
    expect(it.variant).toBe(kind);
    expect(it.validIn).toBeDefined();
  });

  it("tells a kind in no schema from a valid one", () => {
    const s = script();
    s.update("s1", { sessionUpdate: "vendor_sparkles", x: 1 });
    const it = session(reduceFrames(s.frames)).preamble[0] as UnknownItem;
    expect(it.validIn).toBeUndefined();
  });

  it("keeps only commands and config options it can render by name", () => {
    const s = script();
    s.update("s1", {
      sessionUpdate: "available_commands_update",
      availableCommands: [{ name: { x: 1 } }, 5, { name: "ok", description: 7 }],
    });
    s.update("s1", { sessionUpdate: "config_option_update", configOptions: [null, 3, { id: "m", name: "Model" }] });
    const ss = session(reduceFrames(s.frames));
    expect(ss.availableCommands).toEqual([{ name: "ok", description: "" }]);
    expect(ss.configOptions).toEqual([{ id: "m", name: "Model" }]);
    expect((ss.preamble[0] as EventItem).update).toMatchObject({ availableCommands: [{ name: "ok" }] });
  });

  it("survives wrong types in every optional field and huge strings", () => {
    const s = script();
    s.prompt(1, "s1", "go");
    const huge = "x".repeat(1_000_000);
    s.update("s1", { sessionUpdate: "compaction_update", compactionId: "c", status: huge, summary: "no", error: 5 });
    s.update("s1", { sessionUpdate: "subagent_update", sessionId: "k", title: 5, state: "running", cwd: {} });
    s.update("s1", { sessionUpdate: "session_message", messageId: "m", senderSessionId: 5, content: "x" });
    s.update("s1", {
      sessionUpdate: "agent_message",
      messageId: "a",
      content: [null, 5, { type: "text", text: huge }],
    });
    s.update("s1", {
      sessionUpdate: "terminal_update",
      terminalId: "t",
      output: { data: 5 },
      exitStatus: "0",
      command: 1,
    });
    s.update("s1", { sessionUpdate: "terminal_output_chunk", terminalId: "t", data: b64("y").repeat(200_000) });
    s.update("s1", { sessionUpdate: "state_update", state: "idle", usage: "lots", stopReason: 7 });
    const view = reduceFrames(s.frames);
    const items = turn(view).items;
    expect(items.map((i) => i.type)).toEqual([
      "user_message",
      "compaction",
      "subagent",
      "session_message",
      "agent_message",
      "terminal",
    ]);
    expect((items[2] as SubagentItem).title).toBeUndefined();
    expect(terminalOf(view, "t")!.output!.length).toBeLessThanOrEqual(256 * 1024);
    expect(terminalOf(view, "t")!.truncated).toBe(true);
    // Idle ends the turn even with a hostile stop reason and usage.
    expect(turn(view)).toMatchObject({ ended: true, stopReason: null });
  });
});

describe("subagentShownElsewhere", () => {
  it("shows a child's conversation once, under the session that adopted it, never inside itself", () => {
    const sessions = { A: {}, B: { parentSessionId: "A" }, C: { parentSessionId: "A" } };
    expect(subagentShownElsewhere(sessions, "B", ["A"])).toBeUndefined();
    // B's card inside C (an agent naming B in C's updates): B is shown under A.
    expect(subagentShownElsewhere(sessions, "B", ["A", "C"])).toBe("shown under session A");
    // A card for a session on the path (A inside B inside A...): never again.
    expect(subagentShownElsewhere(sessions, "A", ["A", "B"])).toBe("shown above");
    expect(subagentShownElsewhere(sessions, "unknown", ["A"])).toBeUndefined();
  });
});
