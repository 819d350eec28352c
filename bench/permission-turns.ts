/**
 * A generated recording of `frames` frames for the export benchmarks: prompt turns, each a tool
 * call behind a permission and then `chunksPerTurn` message chunks. Yielded line by line, so a
 * benchmark can hold it whole or write it as it goes.
 */
import { FrameSequencer } from "../lib/protocol/frame-sequencer";
import { frameEvent, serialize, type TranscriptHeader } from "../lib/contracts/transcript";

export function* permissionTurns(id: string, frames: number, chunksPerTurn: number): Generator<string> {
  let now = Date.parse("2026-11-22T02:35:12.331Z");
  const seq = new FrameSequencer({ wall: () => now, mono: () => now });
  const header: TranscriptHeader = {
    type: "header",
    format: "acp-playground-transcript",
    version: "1.2",
    id,
    createdAt: new Date(now).toISOString(),
    title: `Benchmark: ${frames.toLocaleString("en")} frames`,
    playground: { version: "0.1.0" },
    agent: { profile: "bench", command: "/usr/bin/bench-agent", args: ["--acp"], cwd: "/tmp/bench-project" },
  };
  yield serialize(header);
  const line = (dir: "to-agent" | "from-agent", message: object, gapMs = 3) => {
    now += gapMs;
    return serialize(frameEvent(seq.line(dir, JSON.stringify({ jsonrpc: "2.0", ...message }))));
  };
  const update = (u: object) =>
    line("from-agent", { method: "session/update", params: { sessionId: "s1", update: u } });
  let lastId = 1;
  for (let turn = 1; seq.seq < frames - 6; turn++) {
    const promptId = ++lastId;
    yield line("to-agent", {
      id: promptId,
      method: "session/prompt",
      params: { sessionId: "s1", prompt: [{ type: "text", text: `Turn ${turn}` }] },
    });
    yield update({ sessionUpdate: "tool_call", toolCallId: `t${turn}`, title: `edit file ${turn}`, kind: "edit" });
    // Far from the prompts' ids, so the two never meet however many turns there are.
    const askId = 1_000_000 + turn;
    yield line("from-agent", {
      id: askId,
      method: "session/request_permission",
      params: { sessionId: "s1", toolCall: { toolCallId: `t${turn}` }, options: [] },
    });
    yield line("to-agent", { id: askId, result: { outcome: { outcome: "selected", optionId: "allow" } } }, 400);
    yield update({ sessionUpdate: "tool_call_update", toolCallId: `t${turn}`, status: "completed" });
    for (let c = 0; c < chunksPerTurn && seq.seq < frames - 1; c++)
      yield update({
        sessionUpdate: "agent_message_chunk",
        content: { type: "text", text: `Turn ${turn}: word ${c} ` },
      });
    yield line("from-agent", {
      id: promptId,
      result: { stopReason: "end_turn", usage: { inputTokens: 10, outputTokens: 5 } },
    });
  }
}
