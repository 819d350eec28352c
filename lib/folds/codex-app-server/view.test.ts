import { describe, expect, it } from "vitest";
import type { Frame } from "../../protocol/frame";
import {
  EMPTY_APP_SERVER_VIEW,
  reduceAppServerFrame,
  reduceAppServerFrames,
  type AsItem,
  type MessageItem,
  type AppServerViewState,
} from "./view";
import { codexCapture, codexCaptureResequenced } from "../../../test/fixtures/codex-captures";

const FRAMES: Frame[] = codexCapture("patches");

const upTo = (pred: (f: Frame) => boolean) => FRAMES.slice(0, FRAMES.findIndex(pred) + 1);
const only = (s: AppServerViewState) => s.threads[s.order[0]!]!;
type ItemOf<T extends AsItem["type"]> = T extends MessageItem["type"] ? MessageItem : Extract<AsItem, { type: T }>;
const ofType = <T extends AsItem["type"]>(items: AsItem[], type: T) =>
  items.filter((it) => it.type === type) as Array<ItemOf<T>>;

describe("the app-server view of a captured Codex conversation", () => {
  const view = reduceAppServerFrames(FRAMES);
  const thread = only(view);

  it("has one thread, in the workspace, with two finished turns and nothing pending", () => {
    expect(view.order).toHaveLength(1);
    expect(thread.cwd).toBe("/tmp/codex-fixture/ws");
    expect(thread.model).toBe("fake-model");
    expect(thread.settings).toMatchObject({ approvalPolicy: "on-request" });
    expect(thread.status).toBe("idle");
    expect(thread.turns.map((t) => t.status)).toEqual(["completed", "completed"]);
    expect(thread.turns.every((t) => typeof t.durationMs === "number" && t.endSeq !== undefined)).toBe(true);
    expect(view.pending).toEqual({});
    expect(view.open).toEqual({});
    // The turn starts at its turn/start request.
    const start = FRAMES.find((f) => f.method === "turn/start" && f.kind === "request")!;
    expect(thread.turns[0]!.seq).toBe(start.seq);
  });

  it("decodes the first turn: the user's text, the agent's Markdown, its token usage", () => {
    const turn = thread.turns[0]!;
    expect(turn.items.map((it) => it.type)).toEqual(["userMessage", "agentMessage"]);
    expect(ofType(turn.items, "userMessage")[0]!.text).toBe("say hello");
    const reply = ofType(turn.items, "agentMessage")[0]!;
    expect(reply.text).toBe("# Hello\n\nSome **bold** text and `code`.\n\n- one\n- two");
    expect(reply.completed).toBe(true);
    // item/started, two deltas, item/completed.
    expect(reply.seqs.length).toBe(4);
    expect(turn.usage?.last).toMatchObject({ totalTokens: 30, inputTokens: 21, outputTokens: 9 });
    expect(turn.usage?.total?.totalTokens).toBe(30);
  });

  it("decodes the second turn: the approved command with its output, the file changes, the turn's diff", () => {
    const turn = thread.turns[1]!;
    expect(turn.items.map((it) => it.type)).toEqual([
      "userMessage",
      "agentMessage",
      "commandExecution",
      "fileChange",
      "fileChange",
      "agentMessage",
    ]);
    const cmd = ofType(turn.items, "commandExecution")[0]!;
    expect(cmd).toMatchObject({
      command: "/bin/bash -lc 'echo approved | tee approved.txt'",
      cwd: "/tmp/codex-fixture/ws",
      output: "approved\n",
      exitCode: 0,
      status: "completed",
      completed: true,
    });
    const request = FRAMES.find((f) => f.method === "item/commandExecution/requestApproval" && f.kind === "request")!;
    const answer = FRAMES.find((f) => f.kind === "response" && f.requestSeq === request.seq)!;
    expect(cmd.approval).toMatchObject({
      method: "item/commandExecution/requestApproval",
      requestSeq: request.seq,
      requestId: 0,
      result: { decision: "accept" },
      responseSeq: answer.seq,
    });
    expect(cmd.seqs.includes(request.seq) && cmd.seqs.includes(answer.seq)).toBe(true);
    const [add, update] = ofType(turn.items, "fileChange");
    expect(add!.changes).toEqual([{ path: "/tmp/codex-fixture/ws/notes.md", kind: "add", diff: "# Notes\nhello\n" }]);
    expect(update!.changes[0]).toMatchObject({
      kind: "update",
      diff: "@@ -1,2 +1,2 @@\n # Notes\n-hello\n+hello world\n",
    });
    expect(turn.diff).toContain("+hello world");
    expect(ofType(turn.items, "agentMessage")[1]!.text).toBe("Done: `approved.txt` and `notes.md`.");
    expect(turn.usage?.total?.totalTokens).toBeGreaterThan(thread.turns[0]!.usage!.total!.totalTokens!);
  });

  it("keeps the warnings that came before the turn started with the thread", () => {
    expect(thread.outside.map((it) => it.type === "notice" && it.message)).toEqual([
      expect.stringContaining("Model metadata for `fake-model` not found"),
      expect.stringContaining("Model metadata for `fake-model` not found"),
    ]);
    expect(view.notices[0]).toMatchObject({ method: "configWarning", level: "warning" });
  });

  it("streams: mid-message, the text is the deltas so far and the item is not completed", () => {
    const mid = only(reduceAppServerFrames(upTo((f) => f.method === "item/agentMessage/delta")));
    const reply = ofType(mid.turns[0]!.items, "agentMessage")[0]!;
    expect(reply).toMatchObject({ text: "# Hello\n\n", completed: false });
    expect(mid.turns[0]!.status).toBe("inProgress");
  });

  it("shows the approval pending until it is answered", () => {
    const waiting = reduceAppServerFrames(upTo((f) => f.method === "item/commandExecution/requestApproval"));
    const pending = Object.values(waiting.pending);
    expect(pending).toHaveLength(1);
    expect(pending[0]!.params.availableDecisions).toEqual(expect.arrayContaining(["accept", "cancel"]));
    expect(only(waiting).activeFlags).toEqual(["waitingOnApproval"]);
    const cmd = ofType(only(waiting).turns[1]!.items, "commandExecution")[0]!;
    expect(cmd.approval).toBe(pending[0]);
    expect(cmd.approval?.result).toBeUndefined();
  });

  it("is pure and incremental: folding in pieces equals folding at once, and earlier states stay as they were", () => {
    let s = EMPTY_APP_SERVER_VIEW;
    const before: Array<[AppServerViewState, string]> = [];
    for (let i = 0; i < FRAMES.length; i += 7) {
      s = reduceAppServerFrames(FRAMES.slice(i, i + 7), s);
      before.push([s, JSON.stringify(s)]);
    }
    expect(s).toEqual(view);
    for (const [state, json] of before) expect(JSON.stringify(state)).toBe(json);
    const rateLimits = FRAMES.find((f) => f.method === "account/rateLimits/updated")!;
    expect(reduceAppServerFrame(view, rateLimits)).toBe(view);
  });
});

describe("the app-server view of what the capture does not hold", () => {
  let seq = 0;
  const frame = (dir: Frame["dir"], message: Record<string, unknown>, extra: Partial<Frame> = {}): Frame => {
    const kind = "method" in message ? ("id" in message ? "request" : "notification") : "response";
    return {
      seq: ++seq,
      ts: 1000 + seq,
      dir,
      raw: JSON.stringify(message),
      kind,
      method: message.method as string | undefined,
      id: message.id as number | undefined,
      message,
      ...extra,
    };
  };
  const note = (method: string, params: Record<string, unknown>) => frame("from-agent", { method, params });
  const ids = { threadId: "t1", turnId: "u1" };

  it("decodes reasoning summary and text deltas by index, then the completed item", () => {
    const s = reduceAppServerFrames([
      note("turn/started", { threadId: "t1", turn: { id: "u1", status: "inProgress" } }),
      note("item/started", { ...ids, item: { type: "reasoning", id: "r1", summary: [], content: [] } }),
      note("item/reasoning/summaryTextDelta", { ...ids, itemId: "r1", delta: "Think", summaryIndex: 0 }),
      note("item/reasoning/summaryTextDelta", { ...ids, itemId: "r1", delta: "ing", summaryIndex: 0 }),
      note("item/reasoning/summaryTextDelta", { ...ids, itemId: "r1", delta: "More", summaryIndex: 1 }),
      note("item/reasoning/textDelta", { ...ids, itemId: "r1", delta: "raw", contentIndex: 0 }),
    ]);
    expect(only(s).turns[0]!.items[0]).toMatchObject({
      type: "reasoning",
      summary: ["Thinking", "More"],
      content: ["raw"],
    });
    const done = reduceAppServerFrame(
      s,
      note("item/completed", { ...ids, item: { type: "reasoning", id: "r1", summary: ["Final"], content: [] } }),
    );
    expect(only(done).turns[0]!.items[0]).toMatchObject({ summary: ["Final"], content: [], completed: true });
  });

  it("appends command output deltas; other items are kept as sent; a failed turn keeps its error", () => {
    const s = reduceAppServerFrames([
      note("item/started", {
        ...ids,
        item: { type: "commandExecution", id: "c1", command: "ls", status: "inProgress" },
      }),
      note("item/commandExecution/outputDelta", { ...ids, itemId: "c1", delta: "a\n" }),
      note("item/commandExecution/outputDelta", { ...ids, itemId: "c1", delta: "b\n" }),
      note("item/completed", {
        ...ids,
        item: { type: "mcpToolCall", id: "m1", server: "s", tool: "t", status: "completed" },
      }),
      note("error", { ...ids, error: { message: "boom" }, willRetry: false }),
      note("turn/completed", { threadId: "t1", turn: { id: "u1", status: "failed", error: { message: "boom" } } }),
    ]);
    const turn = only(s).turns[0]!;
    expect(turn.items[0]).toMatchObject({ type: "commandExecution", output: "a\nb\n", completed: false });
    expect(turn.items[1]).toMatchObject({ type: "other", itemType: "mcpToolCall", item: { tool: "t" } });
    expect(turn.items[2]).toMatchObject({ type: "notice", level: "error", message: "boom", willRetry: false });
    expect(turn).toMatchObject({ status: "failed", error: { message: "boom" } });
  });

  it("marks an approval resolved when the server stops waiting without an answer", () => {
    const ask = frame("from-agent", {
      method: "item/fileChange/requestApproval",
      id: 7,
      params: { ...ids, itemId: "f1", reason: "write" },
    });
    const s = reduceAppServerFrames([ask, note("serverRequest/resolved", { threadId: "t1", requestId: 7 })]);
    expect(s.pending).toEqual({});
    expect(only(s).turns[0]!.items[0]).toMatchObject({
      type: "fileChange",
      approval: { requestSeq: ask.seq, resolvedSeq: ask.seq + 1 },
    });
  });

  it("lists the turns a resumed thread already had, with their items", () => {
    const resume = frame("to-agent", { id: 9, method: "thread/resume", params: { threadId: "t1" } });
    const history = {
      id: "t1",
      turns: [
        {
          id: "old",
          status: "completed",
          items: [
            { type: "userMessage", id: "u", content: [{ type: "text", text: "before" }] },
            { type: "agentMessage", id: "m", text: "**then**" },
          ],
        },
      ],
    };
    const answer = frame(
      "from-agent",
      { id: 9, result: { thread: history, model: "m1", cwd: "/w" } },
      { requestSeq: resume.seq },
    );
    const s = reduceAppServerFrames([resume, answer]);
    expect(only(s)).toMatchObject({ model: "m1", cwd: "/w" });
    expect(only(s).turns).toHaveLength(1);
    expect(only(s).turns[0]).toMatchObject({ id: "old", status: "completed", seq: answer.seq });
    expect(only(s).turns[0]!.items).toMatchObject([
      { type: "userMessage", text: "before", completed: true },
      { type: "agentMessage", text: "**then**", completed: true },
    ]);
  });
});

describe("the app-server view of a steered, then interrupted turn (captured)", () => {
  it("shows the steer as the user's second message and the turn interrupted after turn/interrupt", () => {
    const thread = only(reduceAppServerFrames(codexCaptureResequenced("steered")));
    const last = thread.turns.at(-1)!;
    expect(last.status).toBe("interrupted");
    expect(last.interruptSeq).toBeDefined();
    expect(ofType(last.items, "userMessage")).toHaveLength(2);
    // The relay of that capture refused the approval -32601 (before app-server policies): the error is the answer shown.
    const cmd = ofType(thread.turns[1]!.items, "commandExecution")[0]!;
    expect(cmd.approval?.error).toMatchObject({ code: -32601 });
  });
});
