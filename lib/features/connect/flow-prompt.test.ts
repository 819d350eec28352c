import { describe, expect, it } from "vitest";
import { codexCaptureResequenced } from "../../../test/fixtures/codex-captures";
import { EMPTY_FACTS, reduceAllFacts, type LogFolds } from "../../folds/agent-facts";
import type { RpcOutcome } from "../../protocol/jsonrpc";
import { FrameSequencer } from "../../protocol/frame-sequencer";
import { ok } from "../../protocol/result";
import { foldAppServerConversation, type AppServerConversation } from "../protocols/codex-app-server/conversation";
import { ACP_PROMPT_CLIENT, APP_SERVER_PROMPT_CLIENT, type PromptPort } from "./flow-prompt";

/** A port that records what is sent and answers every request with `answer`. */
function port(answer: RpcOutcome = { kind: "result", result: {}, frame: undefined as never }) {
  const sent: [string, string, unknown][] = [];
  const p: PromptPort = {
    request: async (method, params) => {
      sent.push(["request", method, params]);
      return answer;
    },
    notify: async (method, params) => {
      sent.push(["notify", method, params]);
      return ok(sent.length);
    },
  };
  return { port: p, sent };
}

const frames = codexCaptureResequenced("steered");
const THREAD = "01a217d5-d2a1-7e90-ba1a-3cb1276d7bac";
const SLOW_TURN = "01a217d5-d44f-7e32-8fc4-56bcdf77b7bb";
const appServerAt = (seq: number): LogFolds<AppServerConversation> => ({
  facts: EMPTY_FACTS,
  conversation: foldAppServerConversation(frames.slice(0, seq)),
});
const client = APP_SERVER_PROMPT_CLIENT;

describe("the prompt box on Codex's app-server", () => {
  it("prompts the thread Connect opened, with turn/start when no turn runs", async () => {
    const state = appServerAt(8);
    expect(client.sessionId(state)).toBe(THREAD);
    expect(client.turn(state, THREAD)).toBeUndefined();
    const p = port();
    await client.send(p.port, state, THREAD, "say hello");
    expect(p.sent).toEqual([
      ["request", "turn/start", { threadId: THREAD, input: [{ type: "text", text: "say hello", text_elements: [] }] }],
    ]);
  });

  it("shows the turn running, then how it ended and its usage", () => {
    expect(client.turn(appServerAt(20), THREAD)).toMatchObject({ ended: false });
    expect(client.turn(appServerAt(23), THREAD)).toEqual({
      ts: frames[8]!.ts,
      ended: true,
      end: { label: "status", value: '"completed"' },
      usage: expect.objectContaining({ inputTokens: 21, outputTokens: 9, totalTokens: 30, thoughtTokens: 0 }),
      emptyResponse: false,
    });
  });

  it("steers the running turn with the turn id it expects, and interrupts it", async () => {
    const running = appServerAt(60);
    expect(client.turn(running, THREAD)?.ended).toBe(false);
    const p = port();
    await client.send(p.port, running, THREAD, "steer");
    expect(await client.cancel(p.port, running, THREAD)).toBeUndefined();
    expect(p.sent).toEqual([
      [
        "request",
        "turn/steer",
        {
          threadId: THREAD,
          expectedTurnId: SLOW_TURN,
          input: [{ type: "text", text: "steer", text_elements: [] }],
        },
      ],
      ["request", "turn/interrupt", { threadId: THREAD, turnId: SLOW_TURN }],
    ]);
    // What the playground sent when recording was the same.
    const recorded = frames.filter((f) => f.method === "turn/steer" || f.method === "turn/interrupt");
    expect(recorded.filter((f) => f.kind === "request").map((f) => (f.message as { params: unknown }).params)).toEqual(
      p.sent.map(([, , params]) => expect.objectContaining(params as object)),
    );
    expect(client.turn(appServerAt(70), THREAD)?.end).toEqual({ label: "status", value: '"interrupted"' });
  });

  it("says why it cannot steer or interrupt a turn whose id is not known yet, or none", async () => {
    const s = new FrameSequencer(undefined, "codex-app-server");
    const start = s.line(
      "to-agent",
      JSON.stringify({ id: 1, method: "turn/start", params: { threadId: "t", input: [] } }),
    );
    const state = { facts: EMPTY_FACTS, conversation: foldAppServerConversation([start]) };
    const p = port();
    expect(await client.send(p.port, state, "t", "more")).toMatchObject({ kind: "failed" });
    expect(await client.cancel(p.port, state, "t")).toMatch(/no id yet/);
    expect(await client.cancel(p.port, appServerAt(23), THREAD)).toBe("no turn is running");
    expect(p.sent).toEqual([]);
  });

  it("reports a failed interrupt", async () => {
    const p = port({ kind: "error", error: { code: -32600, message: "no active turn" }, frame: undefined as never });
    expect(await client.cancel(p.port, appServerAt(60), THREAD)).toBe("turn/interrupt failed: no active turn (-32600)");
  });
});

describe("the prompt box on ACP", () => {
  const acp = ACP_PROMPT_CLIENT;
  const s = new FrameSequencer();
  const log = [
    s.line("to-agent", '{"jsonrpc":"2.0","id":1,"method":"session/new","params":{"cwd":"/w","mcpServers":[]}}'),
    s.line("from-agent", '{"jsonrpc":"2.0","id":1,"result":{"sessionId":"s1"}}'),
    s.line(
      "to-agent",
      '{"jsonrpc":"2.0","id":2,"method":"session/prompt","params":{"sessionId":"s1","prompt":[{"type":"text","text":"hi"}]}}',
    ),
  ];

  it("prompts the session opened last with session/prompt; Cancel is session/cancel; no steering", async () => {
    const running = { facts: reduceAllFacts(log), conversation: undefined };
    expect(acp.sessionId(running)).toBe("s1");
    expect(acp.steers).toBe(false);
    expect(acp.turn(running, "s1")).toMatchObject({ ended: false });
    const p = port();
    await acp.send(p.port, running, "s1", "again");
    await acp.cancel(p.port, running, "s1");
    expect(p.sent).toEqual([
      ["request", "session/prompt", { sessionId: "s1", prompt: [{ type: "text", text: "again" }] }],
      ["notify", "session/cancel", { sessionId: "s1" }],
    ]);
  });

  it("shows the stopReason and the result's usage once the turn ends", () => {
    const done = s.line(
      "from-agent",
      '{"jsonrpc":"2.0","id":2,"result":{"stopReason":"end_turn","usage":{"inputTokens":3,"outputTokens":4,"totalTokens":7}}}',
    );
    const state = { facts: reduceAllFacts([...log, done]), conversation: undefined };
    expect(acp.turn(state, "s1")).toMatchObject({
      ended: true,
      end: { label: "stopReason", value: '"end_turn"' },
      usage: { inputTokens: 3, outputTokens: 4, totalTokens: 7, from: "result.usage" },
    });
  });
});
