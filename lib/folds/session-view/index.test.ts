import { describe, expect, it } from "vitest";
import {
  emptyView,
  reduceFrame,
  reduceFrames,
  SeqList,
  terminalOf,
  type EventItem,
  type MessageItem,
  type PlanItem,
  type ToolCallItem,
  type UnknownItem,
} from ".";
import { script, session, textOf, turn } from "./test-script";

describe("session view: messages", () => {
  it("merges consecutive agent message chunks into one item, with their seqs", () => {
    const s = script();
    s.prompt(1, "s1", "hi");
    s.say("s1", "Hello");
    s.say("s1", ", ");
    s.say("s1", "world");
    const view = reduceFrames(s.frames);
    const items = turn(view).items;
    expect(items.map((i) => i.type)).toEqual(["user_message", "agent_message"]);
    expect(textOf(items[0])).toBe("hi");
    expect(items[1]).toMatchObject({ type: "agent_message", blocks: [{ type: "text", text: "Hello, world" }] });
    expect(items[1]!.seqs.toArray()).toEqual([2, 3, 4]);
    expect(items[1]!.seqs.includes(3)).toBe(true);
    expect(items[1]!.seqs.includes(1)).toBe(false);
    expect(turn(view).agentMessageChunks).toBe(3);
  });

  it("keeps a non-text chunk as its own block and concatenates the text around it", () => {
    const s = script();
    s.prompt(1, "s1", "draw");
    s.say("s1", "a");
    s.say("s1", "b");
    s.update("s1", {
      sessionUpdate: "agent_message_chunk",
      content: { type: "image", data: "AAA", mimeType: "image/png" },
    });
    s.say("s1", "c");
    s.say("s1", "d");
    const item = turn(reduceFrames(s.frames)).items[1] as MessageItem;
    expect(item.blocks).toEqual([
      { type: "text", text: "ab" },
      { type: "image", data: "AAA", mimeType: "image/png" },
      { type: "text", text: "cd" },
    ]);
  });

  it("merges thought chunks, separately from the message that follows; a new messageId starts a new item", () => {
    const s = script();
    s.prompt(1, "s1", "think");
    s.update("s1", { sessionUpdate: "agent_thought_chunk", content: { type: "text", text: "Let me " } });
    s.update("s1", { sessionUpdate: "agent_thought_chunk", content: { type: "text", text: "think." } });
    s.say("s1", "Done.");
    s.update("s1", { sessionUpdate: "agent_message_chunk", messageId: "m1", content: { type: "text", text: "A" } });
    s.update("s1", { sessionUpdate: "agent_message_chunk", messageId: "m2", content: { type: "text", text: "B" } });
    const items = turn(reduceFrames(s.frames)).items;
    expect(items.map((i) => i.type)).toEqual(["user_message", "thought", "agent_message", "agent_message"]);
    expect(textOf(items[1])).toBe("Let me think.");
    expect(textOf(items[2])).toBe("Done.A"); // no messageId before "A": same message
    expect(textOf(items[3])).toBe("B");
  });

  it("merges user_message_chunk updates into the prompt's user message", () => {
    const s = script();
    s.request("to-agent", 1, "session/prompt", {
      sessionId: "s1",
      prompt: [
        { type: "text", text: "look at " },
        { type: "resource_link", uri: "file:///a.ts", name: "a.ts" },
      ],
    });
    s.update("s1", { sessionUpdate: "user_message_chunk", content: { type: "text", text: "please" } });
    const view = reduceFrames(s.frames);
    expect(turn(view).prompt).toHaveLength(2);
    const user = turn(view).items[0] as MessageItem;
    expect(user.blocks.map((b) => b.type)).toEqual(["text", "resource_link", "text"]);
    expect(user.seqs.toArray()).toEqual([1, 2]);
    expect(turn(view).prompt).toHaveLength(2); // the prompt itself is not extended
  });
});

describe("session view: tool calls", () => {
  it("merges tool_call and its updates by id, fields of updates overriding", () => {
    const s = script();
    s.prompt(1, "s1", "edit");
    s.update("s1", {
      sessionUpdate: "tool_call",
      toolCallId: "t1",
      title: "Edit a.ts",
      kind: "edit",
      status: "pending",
    });
    s.update("s1", { sessionUpdate: "tool_call", toolCallId: "t2", title: "Read b.ts", kind: "read" });
    s.update("s1", {
      sessionUpdate: "tool_call_update",
      toolCallId: "t1",
      status: "in_progress",
      rawInput: { path: "a.ts" },
    });
    s.say("s1", "working");
    const diff = { type: "diff", path: "a.ts", oldText: "a", newText: "b" };
    s.update("s1", {
      sessionUpdate: "tool_call_update",
      toolCallId: "t1",
      status: "completed",
      content: [diff],
      title: null,
    });
    const view = reduceFrames(s.frames);
    const items = turn(view).items;
    expect(items.map((i) => i.type)).toEqual(["user_message", "tool_call", "tool_call", "agent_message"]);
    const t1 = items[1] as ToolCallItem;
    expect(t1).toMatchObject({
      toolCallId: "t1",
      title: "Edit a.ts", // null leaves it unchanged
      kind: "edit",
      status: "completed",
      rawInput: { path: "a.ts" },
      content: [diff],
    });
    expect(t1.seqs.toArray()).toEqual([2, 4, 6]);
    expect((items[2] as ToolCallItem).title).toBe("Read b.ts");
  });

  it("shows every status along the way", () => {
    const s = script();
    s.prompt(1, "s1", "run");
    s.update("s1", { sessionUpdate: "tool_call", toolCallId: "t", title: "ls", status: "pending" });
    const statuses = ["pending"];
    let view = reduceFrames(s.frames);
    for (const status of ["in_progress", "failed"]) {
      view = reduceFrame(view, s.update("s1", { sessionUpdate: "tool_call_update", toolCallId: "t", status }));
      statuses.push((turn(view).items[1] as ToolCallItem).status!);
    }
    expect(statuses).toEqual(["pending", "in_progress", "failed"]);
    expect(turn(view).items).toHaveLength(2);
  });

  it("creates the item from a tool_call_update for an unknown id, and merges the later tool_call", () => {
    const s = script();
    s.prompt(1, "s1", "x");
    s.update("s1", { sessionUpdate: "tool_call_update", toolCallId: "t9", status: "in_progress" });
    s.update("s1", { sessionUpdate: "tool_call", toolCallId: "t9", title: "Search", kind: "search" });
    const items = turn(reduceFrames(s.frames)).items;
    expect(items).toHaveLength(2);
    expect(items[1]).toMatchObject({ type: "tool_call", toolCallId: "t9", status: "in_progress", title: "Search" });
  });

  it("merges a permission request's toolCall into the item, with the client's outcome (Gemini 0.61)", () => {
    const s = script();
    s.prompt(1, "s1", "write file");
    const options = [
      { optionId: "proceed_once", name: "Allow", kind: "allow_once" },
      { optionId: "cancel", name: "Reject", kind: "reject_once" },
    ];
    s.request("from-agent", 0, "session/request_permission", {
      sessionId: "s1",
      options,
      toolCall: {
        toolCallId: "w1",
        status: "pending",
        title: "Write a.txt",
        kind: "edit",
        content: [],
        locations: [{ path: "a.txt" }],
      },
    });
    let view = reduceFrames(s.frames);
    let item = turn(view).items[1] as ToolCallItem;
    expect(item).toMatchObject({
      toolCallId: "w1",
      title: "Write a.txt",
      status: "pending",
      locations: [{ path: "a.txt" }],
    });
    expect(item.permission).toEqual({ requestSeq: 2, requestId: 0, options });

    view = reduceFrames(
      [
        s.respond("to-agent", 0, { outcome: { outcome: "selected", optionId: "proceed_once" } }),
        s.update("s1", { sessionUpdate: "tool_call_update", toolCallId: "w1", status: "in_progress" }),
        s.update("s1", { sessionUpdate: "tool_call_update", toolCallId: "w1", status: "completed", rawOutput: "ok" }),
      ],
      view,
    );
    const items = turn(view).items;
    expect(items).toHaveLength(2);
    item = items[1] as ToolCallItem;
    expect(item.status).toBe("completed");
    expect(item.rawOutput).toBe("ok");
    expect(item.permission).toEqual({
      requestSeq: 2,
      requestId: 0,
      options,
      responseSeq: 3,
      outcome: { outcome: "selected", optionId: "proceed_once" },
    });
    expect(item.seqs.toArray()).toEqual([2, 3, 4, 5]);
    expect(Object.values(view.pending).map((p) => p.method)).toEqual(["session/prompt"]);
  });

  it("merges a permission request into an existing tool call item", () => {
    const s = script();
    s.prompt(1, "s1", "x");
    s.update("s1", { sessionUpdate: "tool_call", toolCallId: "t", title: "rm -rf", kind: "execute" });
    s.request("from-agent", "p", "session/request_permission", {
      sessionId: "s1",
      options: [],
      toolCall: { toolCallId: "t" },
    });
    s.respond("to-agent", "p", { outcome: { outcome: "cancelled" } });
    const items = turn(reduceFrames(s.frames)).items;
    expect(items).toHaveLength(2);
    expect(items[1]).toMatchObject({
      title: "rm -rf",
      permission: { outcome: { outcome: "cancelled" }, responseSeq: 4 },
    });
  });
});

describe("session view: terminals", () => {
  it("keeps what the agent read of a client terminal, by id, for its tool call", () => {
    const s = script();
    s.prompt(1, "s1", "run it");
    s.request("from-agent", 7, "terminal/create", { sessionId: "s1", command: "npm", args: ["test", 3], cwd: "/w" });
    s.respond("to-agent", 7, { terminalId: "t1" });
    s.update("s1", {
      sessionUpdate: "tool_call",
      toolCallId: "c1",
      title: "npm test",
      kind: "execute",
      content: [{ type: "terminal", terminalId: "t1" }],
    });
    const created = reduceFrames(s.frames);
    expect(terminalOf(created, "t1")).toMatchObject({ command: "npm", args: ["test"], cwd: "/w", truncated: false });
    expect(terminalOf(created, "t1")!.output).toBeUndefined();

    s.request("from-agent", 8, "terminal/output", { sessionId: "s1", terminalId: "t1" });
    s.respond("to-agent", 8, { output: "1 passing\n", truncated: true });
    s.request("from-agent", 9, "terminal/wait_for_exit", { sessionId: "s1", terminalId: "t1" });
    s.respond("to-agent", 9, { exitCode: 0, signal: null });
    s.request("from-agent", 10, "terminal/release", { sessionId: "s1", terminalId: "t1" });
    s.respond("to-agent", 10, null);
    const v = reduceFrames(s.frames);
    const t = terminalOf(v, "t1")!;
    expect(t).toMatchObject({
      output: "1 passing\n",
      truncated: true,
      exitStatus: { exitCode: 0, signal: null },
      released: true,
    });
    expect([...t.seqs]).toEqual([3, 6, 8, 10]);
    // The earlier state is untouched.
    expect(terminalOf(created, "t1")!.output).toBeUndefined();
  });

  it("ignores error answers and unknown ids, and never reads the prototype", () => {
    const s = script();
    s.request("from-agent", 1, "terminal/create", { sessionId: "s1", command: "x" });
    s.fail("to-agent", 1, { code: -32603, message: "spawn failed" });
    s.request("from-agent", 2, "terminal/output", { sessionId: "s1", terminalId: "__proto__" });
    s.respond("to-agent", 2, { output: "hi", truncated: false });
    const v = reduceFrames(s.frames);
    expect(Object.keys(v.terminals)).toEqual(["__proto__"]);
    expect(terminalOf(v, "toString")).toBeUndefined();
    expect(terminalOf(v, "__proto__")!.output).toBe("hi");
  });
});

describe("session view: plans, events, unknowns, preamble", () => {
  it("replaces the plan in place", () => {
    const s = script();
    s.prompt(1, "s1", "plan");
    s.update("s1", { sessionUpdate: "plan", entries: [{ content: "a", priority: "high", status: "pending" }] });
    s.say("s1", "step");
    s.update("s1", {
      sessionUpdate: "plan",
      entries: [
        { content: "a", priority: "high", status: "completed" },
        { content: "b", priority: "low", status: "in_progress" },
      ],
    });
    const items = turn(reduceFrames(s.frames)).items;
    expect(items.map((i) => i.type)).toEqual(["user_message", "plan", "agent_message"]);
    const plan = items[1] as PlanItem;
    expect(plan.entries.map((e) => `${e.content}:${e.status}`)).toEqual(["a:completed", "b:in_progress"]);
    expect(plan.seqs.toArray()).toEqual([2, 4]);
  });

  it("keeps unknown and malformed updates as unknown items", () => {
    const s = script();
    s.prompt(1, "s1", "x");
    s.update("s1", { sessionUpdate: "future_thing", payload: 1 });
    s.update("s1", { sessionUpdate: "agent_message_chunk" });
    s.update("s1", { nothing: true });
    s.request("from-agent", 5, "session/request_permission", { sessionId: "s1", options: [] });
    const view = reduceFrames(s.frames);
    const items = turn(view).items.slice(1) as UnknownItem[];
    expect(items.map((i) => [i.type, i.variant])).toEqual([
      ["unknown", "future_thing"],
      ["unknown", "agent_message_chunk"],
      ["unknown", "(malformed)"],
      ["unknown", "session/request_permission"],
    ]);
    expect(items[0]!.update).toEqual({ sessionUpdate: "future_thing", payload: 1 });
    expect(items[1]!.reason).toMatch(/content/);
    expect(session(view).unknown).toHaveLength(4);
  });

  it("registers a session from session/new and keeps updates before any prompt in the preamble", () => {
    const s = script();
    s.request("to-agent", 1, "session/new", { cwd: "/w", mcpServers: [] });
    const modes = {
      currentModeId: "default",
      availableModes: [
        { id: "default", name: "Default" },
        { id: "yolo", name: "YOLO" },
      ],
    };
    const models = { currentModelId: "gemini-2.5-pro", availableModels: [{ modelId: "gemini-2.5-pro", name: "Pro" }] };
    s.respond("from-agent", 1, { sessionId: "s1", modes, models, configOptions: [] });
    const commands = [{ name: "memory", description: "Manage memory" }];
    s.update("s1", { sessionUpdate: "available_commands_update", availableCommands: commands });
    s.update("s1", { sessionUpdate: "current_mode_update", currentModeId: "yolo" });
    s.update("s1", { sessionUpdate: "session_info_update", title: "Fixing bugs" });
    s.update("s1", { sessionUpdate: "usage_update", used: 10, size: 1000 });
    s.update("s1", { sessionUpdate: "usage_update", used: 20, size: 1000 });
    const view = reduceFrames(s.frames);
    const ss = session(view);
    expect(view.order).toEqual(["s1"]);
    expect(ss.origin).toEqual({ method: "session/new", requestSeq: 1, responseSeq: 2, cwd: "/w" });
    expect(ss.currentModeId).toBe("yolo");
    expect(ss.availableModes).toEqual(modes.availableModes);
    expect(ss.models).toEqual(models);
    expect(ss.availableCommands).toEqual(commands);
    expect(ss.info.title).toBe("Fixing bugs");
    expect(ss.usage).toMatchObject({ used: 20 });
    expect(ss.turns).toEqual([]);
    const events = ss.preamble as EventItem[];
    expect(events.map((e) => e.update.sessionUpdate)).toEqual([
      "available_commands_update",
      "current_mode_update",
      "session_info_update",
      "usage_update", // a run of usage updates folds into one item
    ]);
    expect(events[3]!.seqs.toArray()).toEqual([6, 7]);
    expect(view.pending).toEqual({});
  });

  it("registers session/load from its params and applies set_mode", () => {
    const s = script();
    s.request("to-agent", 1, "session/load", { sessionId: "old", cwd: "/w", mcpServers: [] });
    s.update("old", { sessionUpdate: "user_message_chunk", content: { type: "text", text: "earlier" } });
    s.respond("from-agent", 1, null);
    s.request("to-agent", 2, "session/set_mode", { sessionId: "old", modeId: "plan" });
    s.respond("from-agent", 2, {});
    const ss = session(reduceFrames(s.frames), "old");
    expect(ss.origin?.method).toBe("session/load");
    expect(ss.currentModeId).toBe("plan");
    // What the load replayed before answering is the session's history, not its preamble (#22).
    expect(ss.history.map((i) => i.type)).toEqual(["user_message"]);
    expect(ss.preamble).toEqual([]);
  });

  it("keeps two sessions apart, in order of appearance", () => {
    const s = script();
    s.prompt(1, "A", "to A");
    s.prompt(2, "B", "to B");
    s.say("A", "a1");
    s.say("B", "b1");
    s.say("A", "a2");
    s.respond("from-agent", 2, { stopReason: "end_turn" });
    const view = reduceFrames(s.frames);
    expect(view.order).toEqual(["A", "B"]);
    expect(textOf(turn(view, 0, "A").items[1])).toBe("a1a2");
    expect(textOf(turn(view, 0, "B").items[1])).toBe("b1");
    expect(turn(view, 0, "A").ended).toBe(false);
    expect(turn(view, 0, "B").ended).toBe(true);
  });

  it("marks updates after a turn ended as out of turn, in that turn", () => {
    const s = script();
    s.prompt(1, "s1", "x");
    s.say("s1", "done");
    s.respond("from-agent", 1, { stopReason: "end_turn" });
    s.say("s1", "late");
    const items = turn(reduceFrames(s.frames)).items;
    expect(items.map((i) => [i.type, i.outOfTurn ?? false])).toEqual([
      ["user_message", false],
      ["agent_message", false],
      ["agent_message", true],
    ]);
  });
});

describe("session view: turns", () => {
  it("records stopReason, Gemini's _meta.quota usage, time to first chunk and duration", () => {
    const s = script();
    s.prompt(7, "s1", "hi", 1000);
    s.update("s1", { sessionUpdate: "agent_thought_chunk", content: { type: "text", text: "hmm" } }, 1250);
    s.say("s1", "hello", 1300);
    const quota = {
      token_count: { input_tokens: 100, output_tokens: 20 },
      model_usage: [{ model: "gemini-2.5-flash", token_count: { input_tokens: 100, output_tokens: 20 } }],
    };
    s.respond("from-agent", 7, { stopReason: "end_turn", _meta: { quota } }, 1900);
    const t = turn(reduceFrames(s.frames));
    expect(t).toMatchObject({
      requestId: 7,
      seq: 1,
      ts: 1000,
      ended: true,
      endSeq: 4,
      stopReason: "end_turn",
      timeToFirstChunkMs: 250,
      durationMs: 900,
      emptyResponse: false,
      meta: { quota },
    });
    expect(t.usage).toEqual({
      source: "_meta.quota",
      inputTokens: 100,
      outputTokens: 20,
      totalTokens: 120,
      models: [{ model: "gemini-2.5-flash", inputTokens: 100, outputTokens: 20 }],
      raw: quota,
    });
  });

  it("prefers a usage field on the response", () => {
    const s = script();
    s.prompt(1, "s1", "hi");
    s.respond("from-agent", 1, { stopReason: "end_turn", usage: { inputTokens: 5, outputTokens: 6, totalTokens: 11 } });
    expect(turn(reduceFrames(s.frames)).usage).toMatchObject({ source: "usage", inputTokens: 5, totalTokens: 11 });
  });

  it("does not turn an empty chunk carrying _meta.usage into an empty agent message (Qwen Code)", () => {
    const s = script();
    const usageChunk = (promptTokens: number, completionTokens: number) => ({
      sessionUpdate: "agent_message_chunk",
      content: { type: "text", text: "" },
      _meta: { usage: { promptTokens, completionTokens } },
    });
    s.prompt(1, "s1", "hi");
    s.say("s1", "OK");
    s.update("s1", usageChunk(12, 1));
    s.respond("from-agent", 1, { stopReason: "end_turn" });
    s.prompt(2, "s1", "again");
    s.update("s1", usageChunk(20, 0));
    s.respond("from-agent", 2, { stopReason: "end_turn" });
    const state = reduceFrames(s.frames);
    expect(turn(state, 0).items.map((i) => i.type)).toEqual(["user_message", "agent_message"]);
    expect(turn(state, 1).items.map((i) => i.type)).toEqual(["user_message"]);
  });

  it("counts a tool call as the first output too", () => {
    const s = script();
    s.prompt(1, "s1", "hi", 1000);
    s.request(
      "from-agent",
      0,
      "session/request_permission",
      { sessionId: "s1", options: [], toolCall: { toolCallId: "t" } },
      1040,
    );
    s.say("s1", "x", 1100);
    expect(turn(reduceFrames(s.frames)).timeToFirstChunkMs).toBe(40);
  });

  it("flags an empty response: no agent message chunk and no stopReason", () => {
    const s = script();
    s.prompt(1, "s1", "hi");
    s.update("s1", { sessionUpdate: "agent_thought_chunk", content: { type: "text", text: "?" } });
    s.respond("from-agent", 1, { _meta: {} });
    s.prompt(2, "s1", "again");
    s.respond("from-agent", 2, { stopReason: null });
    s.prompt(3, "s1", "and again");
    s.say("s1", "ok");
    s.respond("from-agent", 3, {});
    s.prompt(4, "s1", "once more");
    s.respond("from-agent", 4, { stopReason: "end_turn" });
    const turns = session(reduceFrames(s.frames)).turns;
    expect(turns.map((t) => [t.stopReason, t.emptyResponse])).toEqual([
      [null, true],
      [null, true],
      [null, false],
      ["end_turn", false],
    ]);
  });

  it("ends the turn with the error of an error response", () => {
    const s = script();
    s.prompt(1, "s1", "hi", 1000);
    s.fail("from-agent", 1, { code: -32603, message: "Internal error", data: { details: "model not found" } }, 1500);
    const t = turn(reduceFrames(s.frames));
    expect(t).toMatchObject({ ended: true, durationMs: 500, error: { code: -32603, message: "Internal error" } });
    expect(t.stopReason).toBeUndefined();
    expect(t.emptyResponse).toBe(false);
  });

  it("marks the running turn cancelRequested on session/cancel", () => {
    const s = script();
    s.prompt(1, "s1", "long task");
    s.say("s1", "working");
    s.notify("to-agent", "session/cancel", { sessionId: "s1" });
    s.respond("from-agent", 1, { stopReason: "cancelled" });
    s.notify("to-agent", "session/cancel", { sessionId: "s1" }); // no running turn: nothing to mark
    const t = turn(reduceFrames(s.frames));
    expect(t).toMatchObject({ cancelRequested: true, cancelSeq: 3, stopReason: "cancelled", ended: true });
  });

  it("matches responses by id, even when a later turn has started", () => {
    const s = script();
    s.prompt(1, "s1", "first");
    s.prompt(2, "s1", "second");
    s.respond("from-agent", 1, { stopReason: "end_turn" });
    const turns = session(reduceFrames(s.frames)).turns;
    expect(turns.map((t) => t.ended)).toEqual([true, false]);
  });
});

describe("session view: purity and scale", () => {
  it("never mutates its input and shares what did not change", () => {
    const s = script();
    s.prompt(1, "A", "a");
    s.say("A", "x");
    s.prompt(2, "B", "b");
    s.say("B", "y");
    const before = reduceFrames(s.frames);
    const snapshot = JSON.stringify(before);

    const after = reduceFrame(before, s.say("B", "z"));
    expect(JSON.stringify(before)).toBe(snapshot);
    expect(after).not.toBe(before);
    expect(after.sessions.A).toBe(before.sessions.A);
    expect(turn(after, 0, "B").items[0]).toBe(turn(before, 0, "B").items[0]);
    expect(textOf(turn(after, 0, "B").items[1])).toBe("yz");

    // Branching from the older state again sees only its own history.
    const other = reduceFrame(before, s.say("B", "w"));
    expect(textOf(turn(other, 0, "B").items[1])).toBe("yw");
    expect(turn(other, 0, "B").items[1]!.seqs.toArray()).toEqual([4, 6]);
    expect(turn(after, 0, "B").items[1]!.seqs.toArray()).toEqual([4, 5]);
    expect(JSON.stringify(before)).toBe(snapshot);

    // A frame the view does not use returns the very same state.
    const init = s.request("to-agent", 99, "initialize", { protocolVersion: 1 });
    expect(reduceFrame(after, init)).toBe(after);
    expect(reduceFrame(after, { ...init, kind: "invalid", message: undefined })).toBe(after);

    // Frames are not mutated either.
    const raw = s.frames.map((f) => JSON.stringify(f.message));
    reduceFrames(s.frames);
    expect(s.frames.map((f) => JSON.stringify(f.message))).toEqual(raw);
  });

  it("gives the same view whether frames are reduced one by one or in bulk", () => {
    const s = script();
    s.request("to-agent", 1, "session/new", { cwd: "/w" });
    s.respond("from-agent", 1, { sessionId: "s1" });
    s.update("s1", { sessionUpdate: "available_commands_update", availableCommands: [] });
    s.prompt(2, "s1", "go");
    s.say("s1", "a");
    s.update("s1", { sessionUpdate: "tool_call", toolCallId: "t", title: "T" });
    s.request("from-agent", 0, "session/request_permission", {
      sessionId: "s1",
      options: [],
      toolCall: { toolCallId: "t" },
    });
    s.respond("to-agent", 0, { outcome: { outcome: "cancelled" } });
    s.update("s1", { sessionUpdate: "plan", entries: [] });
    s.say("s1", "b");
    s.say("s1", "c");
    s.respond("from-agent", 2, { stopReason: "end_turn" });
    const folded = s.frames.reduce(reduceFrame, emptyView());
    expect(JSON.stringify(folded)).toBe(JSON.stringify(reduceFrames(s.frames)));
  });

  it("reduces 100,000 chunk frames into one message", () => {
    const s = script();
    s.prompt(1, "s1", "long");
    const n = 100_000;
    for (let i = 0; i < n; i++) s.say("s1", "x");
    const view = reduceFrames(s.frames);
    const item = turn(view).items[1] as MessageItem;
    expect(turn(view).items).toHaveLength(2);
    expect(item.blocks).toHaveLength(1);
    expect(textOf(item)).toHaveLength(n);
    expect(item.seqs.length).toBe(n);
    expect(item.seqs.last).toBe(n + 1);

    // Live: one reduceFrame per frame stays linear too (shared seq buffer, rope strings).
    let live = emptyView();
    for (const f of s.frames) live = reduceFrame(live, f);
    expect((turn(live).items[1] as MessageItem).seqs.length).toBe(n);
  });
});

describe("SeqList", () => {
  it("appends without disturbing older lists", () => {
    const a = SeqList.of(1, 2);
    const b = a.append(3);
    const c = a.append(9);
    expect([...a]).toEqual([1, 2]);
    expect(b.toArray()).toEqual([1, 2, 3]);
    expect(c.toArray()).toEqual([1, 2, 9]);
    expect(c.includes(3)).toBe(false);
    expect(SeqList.of(5, 1).append(3).includes(1)).toBe(true);
    expect(JSON.stringify({ s: b })).toBe('{"s":[1,2,3]}');
  });
});
