/**
 * A v2 turn as compare, `record` and the prompt box see it, against the v2 reference agent run in
 * memory (test/fixtures/v2-reference-agent.mjs over PassThrough streams, the playground's request
 * port on the other end): the prompt's receipt comes at once, the turn ends at state_update idle.
 */
import { PassThrough } from "node:stream";
import { afterEach, describe, expect, it } from "vitest";
import { serve } from "@/test/fixtures/v2-reference-agent.mjs";
import { EMPTY_FACTS } from "../../../folds/agent-facts";
import { FrameSequencer } from "../../../protocol/frame-sequencer";
import type { Frame } from "../../../protocol/frame";
import { isObject } from "../../../protocol/json";
import { RequestClient } from "../../../protocol/request-port";
import { ok } from "../../../protocol/result";
import { runSide } from "../../compare/side";
import { emptyConversation, foldConversation, specOf, specState } from "../registry";

/** The reference agent behind a request port; its permission requests are answered with their first option. */
function referenceAgent() {
  const input = new PassThrough();
  const output = new PassThrough();
  const agent = serve({ input, output, delayMs: 1 });
  const sequencer = new FrameSequencer(undefined, "acp-v2");
  const frames: Frame[] = [];
  let next = 1;
  const write = (line: string) => {
    const frame = sequencer.line("to-agent", line);
    frames.push(frame);
    input.write(`${line}\n`);
    port.received([frame]);
    return frame;
  };
  const port = new RequestClient({
    send: (f) => ok(write(typeof f === "string" ? f : JSON.stringify(f)).seq),
    nextId: () => next++,
  });
  let buf = "";
  output.on("data", (chunk: Buffer) => {
    buf += chunk.toString("utf8");
    for (let nl = buf.indexOf("\n"); nl >= 0; nl = buf.indexOf("\n")) {
      const frame = sequencer.line("from-agent", buf.slice(0, nl));
      buf = buf.slice(nl + 1);
      frames.push(frame);
      port.received([frame]);
      const m = frame.message;
      if (
        frame.kind === "request" &&
        frame.method === "session/request_permission" &&
        isObject(m) &&
        isObject(m.params)
      ) {
        const [first] = m.params.options as Array<{ optionId: string }>;
        write(
          JSON.stringify({
            jsonrpc: "2.0",
            id: m.id,
            result: { outcome: { outcome: "selected", optionId: first!.optionId } },
          }),
        );
      }
    }
  });
  const close = () => {
    port.close("the test ended");
    input.end();
    agent.close();
  };
  return { port, frames, close };
}

const isIdle = (f: Frame) =>
  isObject(f.message) &&
  isObject(f.message.params) &&
  isObject(f.message.params.update) &&
  f.message.params.update.sessionUpdate === "state_update" &&
  f.message.params.update.state === "idle";

let agent: ReturnType<typeof referenceAgent> | undefined;
afterEach(() => agent?.close());

describe("a v2 turn ends at state_update idle, not at the prompt's receipt", () => {
  it("compare and record (the spec's side): the turn's stopReason is the idle's, and the idle has arrived", async () => {
    agent = referenceAgent();
    const end = await runSide(agent.port, { cwd: "/tmp/v2-side", prompt: "hello", protocol: "acp-v2" });
    expect(end).toEqual({ ok: true, stopReason: "end_turn" });
    expect(agent.frames.some(isIdle)).toBe(true);
    // The handshake asked for v2 and declared no client fs or terminal.
    const init = agent.frames.find((f) => f.method === "initialize")!;
    expect(isObject(init.message) && init.message.params).toEqual({
      protocolVersion: 2,
      info: expect.any(Object),
      capabilities: {},
    });
  }, 20_000);

  it("the prompt box: the turn runs from its receipt to its idle, even with initialize's answer gone from the log", async () => {
    agent = referenceAgent();
    await runSide(agent.port, { cwd: "/tmp/v2-side", prompt: "hello", protocol: "acp-v2" });
    const prompt = agent.frames.findIndex((f) => f.method === "session/prompt");
    const receipt = agent.frames.findIndex((f) => f.requestSeq === agent!.frames[prompt]!.seq);
    const idle = agent.frames.findIndex(isIdle);
    expect(prompt).toBeGreaterThan(0);
    expect(receipt).toBeGreaterThan(prompt);
    expect(idle).toBeGreaterThan(receipt);
    // What a page holds when the relay's buffer no longer has the handshake: from session/new's answer on.
    const from = agent.frames.findIndex(
      (f) => isObject(f.message) && isObject(f.message.result) && "sessionId" in f.message.result,
    );
    const spec = specOf("acp-v2");
    const at = (end: number) => {
      const folded = foldConversation("acp-v2", agent!.frames.slice(from, end + 1), {
        facts: EMPTY_FACTS,
        conversation: emptyConversation("acp-v2"),
      });
      return { facts: folded.facts, conversation: specState("acp-v2", folded.conversation) };
    };
    const sessionId = spec.promptClient.sessionId(at(receipt))!;
    expect(sessionId).toBeTruthy();
    expect(spec.promptClient.turn(at(receipt), sessionId)).toMatchObject({ ended: false });
    expect(spec.promptClient.turn(at(idle - 1), sessionId)).toMatchObject({ ended: false });
    expect(spec.promptClient.turn(at(idle), sessionId)).toMatchObject({
      ended: true,
      end: { label: "stopReason", value: '"end_turn"' },
    });
  }, 20_000);
});
