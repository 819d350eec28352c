import { describe, expect, it } from "vitest";
import { codexCaptureResequenced } from "../../../../test/fixtures/codex-captures";
import { FrameSequencer } from "../../../protocol/frame-sequencer";
import { memoryAgent } from "../../../protocol/memory-agent";
import { EMPTY_APP_SERVER_STATE, foldAppServer, runAppServerHandshake } from "./handshake";

const frames = codexCaptureResequenced("steered");
const upTo = (seq: number) => foldAppServer(frames.slice(0, seq));
const THREAD = "01a217d5-d2a1-7e90-ba1a-3cb1276d7bac";

describe("the thread and turn the prompt box follows, folded from Codex's frames", () => {
  it("the thread opened by thread/start is the session", () => {
    expect(upTo(6)).toEqual({
      threadIds: [],
      open: { 6: { method: "thread/start", params: expect.any(Object) } },
      cursors: {},
      providers: [],
    });
    expect(upTo(7)).toMatchObject({ threadId: THREAD, threadIds: [THREAD], open: {} });
  });

  it("a turn runs from turn/start until its turn/completed, with its deltas and usage", () => {
    expect(upTo(9).turn).toMatchObject({ threadId: THREAD, requestId: 3, seq: 9, ended: false });
    expect(upTo(9).turn?.turnId).toBeUndefined();
    expect(upTo(11).turn).toMatchObject({ turnId: "01a217d5-d2bf-7352-a827-7cb46ec332ed", ended: false });
    const running = upTo(22).turn!;
    expect(running).toMatchObject({ ended: false, deltas: 2 });
    expect(running.usage).toEqual({
      inputTokens: 21,
      outputTokens: 9,
      totalTokens: 30,
      reasoningTokens: 0,
      cachedInputTokens: 0,
    });
    expect(upTo(23).turn).toMatchObject({ ended: true, endSeq: 23, status: "completed" });
  });

  it("sums the usage of a turn's model calls; an interrupted turn ends interrupted", () => {
    // The approval turn called the model twice.
    expect(upTo(50).turn).toMatchObject({ seq: 24, ended: true, status: "completed", usage: { totalTokens: 60 } });
    expect(upTo(67).turn).toMatchObject({ seq: 53, ended: false });
    expect(upTo(70).turn).toMatchObject({ seq: 53, ended: true, endSeq: 70, status: "interrupted" });
  });

  it("folds in batches as in one go", () => {
    let state = EMPTY_APP_SERVER_STATE;
    for (let i = 0; i < frames.length; i += 7) state = foldAppServer(frames.slice(i, i + 7), state);
    expect(state).toEqual(foldAppServer(frames));
  });

  it("a refused turn/start ends the turn with the server's message", () => {
    const s = new FrameSequencer(undefined, "codex-app-server");
    const sent = s.line("to-agent", '{"id":1,"method":"turn/start","params":{"threadId":"t","input":[]}}');
    const refused = s.line("from-agent", '{"id":1,"error":{"code":-32600,"message":"thread not found: t"}}');
    expect(foldAppServer([sent, refused]).turn).toMatchObject({
      ended: true,
      endSeq: 2,
      error: "thread not found: t",
    });
  });
});

describe("what the forms suggest, folded from the answers", () => {
  const s = new FrameSequencer(undefined, "codex-app-server");
  const ask = (id: number, method: string, result: unknown) => [
    s.line("to-agent", JSON.stringify({ id, method, params: { threadId: "t" } })),
    s.line("from-agent", JSON.stringify({ id, result })),
  ];

  it("keeps each listing's next cursor until an answer says there is no next page", () => {
    const page1 = foldAppServer([
      ...ask(1, "thread/turns/list", { data: [], nextCursor: "c1" }),
      ...ask(2, "thread/items/list", { data: [], nextCursor: "i1" }),
    ]);
    expect(page1.cursors).toEqual({ "thread/turns/list": "c1", "thread/items/list": "i1" });
    expect(page1.open).toEqual({});
    const last = foldAppServer(ask(3, "thread/turns/list", { data: [], nextCursor: null }), page1);
    expect(last.cursors).toEqual({ "thread/items/list": "i1" });
  });

  it("names the model providers modelProvider/list answered", () => {
    const data = [{ id: "offline", name: "offline model" }, { id: "openai" }, { name: "no id" }];
    expect(foldAppServer(ask(4, "modelProvider/list", { data, defaultProviderId: "offline" })).providers).toEqual([
      "offline",
      "openai",
    ]);
  });
});

describe("the app-server handshake over an in-memory server", () => {
  it("initialize, initialized, thread/start in the cwd; the thread id comes back as the session", async () => {
    const agent = memoryAgent({
      initialize: () => ({ result: { userAgent: "codex" } }),
      "thread/start": (params) => ({ result: { thread: { id: "t-9", cwd: (params as { cwd: string }).cwd } } }),
    });
    const steps: string[] = [];
    const end = await runAppServerHandshake({ port: agent.port, progress: (p) => steps.push(p.step) }, { cwd: "/w" });
    expect(end.progress).toEqual({ step: "ready", sessionId: "t-9" });
    expect(agent.sent().map(([m]) => m)).toEqual(["initialize", "initialized", "thread/start"]);
    expect(steps).toEqual(["initialize", "thread/start", "ready"]);
  });

  it("fails naming the step when the server has no thread for us", async () => {
    const agent = memoryAgent({
      initialize: () => ({ result: {} }),
      "thread/start": () => ({ result: { model: "m" } }),
    });
    const end = await runAppServerHandshake({ port: agent.port }, { cwd: "/w" });
    expect(end.progress).toEqual({ step: "failed", message: "thread/start answered without a thread id" });
  });
});
