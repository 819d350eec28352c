import { describe, expect, it } from "vitest";
import type { Frame, FrameDirection } from "../../protocol/frame";
import { FrameSequencer } from "../../protocol/frame-sequencer";
import { insightsOf, ITEMS_PER_INSIGHT, type InsightKind } from "./insights";
import { codexCapture } from "../../../test/fixtures/codex-captures";
import type { ProtocolName } from "../../protocol/protocols";

function script() {
  let now = 0;
  const s = new FrameSequencer({ wall: () => now, mono: () => now });
  const frames: Frame[] = [];
  const at = (ts: number, dir: FrameDirection, m: object | string) => {
    now = ts;
    frames.push(s.line(dir, typeof m === "string" ? m : JSON.stringify({ jsonrpc: "2.0", ...m })));
    return frames.at(-1)!.seq;
  };
  return { frames, at };
}

const find = (frames: Frame[], kind: InsightKind, protocol?: ProtocolName) =>
  insightsOf(frames, { protocol }).find((i) => i.kind === kind);

describe("insightsOf", () => {
  it("says nothing about a clean, quick session but its slowest requests", () => {
    const { frames, at } = script();
    at(0, "to-agent", { id: 1, method: "initialize", params: {} });
    at(5, "from-agent", { id: 1, result: { protocolVersion: 1 } });
    expect(insightsOf(frames).map((i) => i.kind)).toEqual(["slowest"]);
  });

  it("lists the slowest requests, slowest first, linking request and answer", () => {
    const { frames, at } = script();
    for (let i = 1; i <= 8; i++) {
      at(i * 1000, "to-agent", { id: i, method: "session/new", params: { i } });
      at(i * 1000 + i * 10, "from-agent", { id: i, result: { sessionId: `s${i}` } });
    }
    const slowest = find(frames, "slowest")!;
    expect(slowest.items).toHaveLength(5);
    expect(slowest.items[0]).toEqual({
      label: "session/new: 80 ms",
      detail: "request #15, answer #16",
      seqs: [15, 16],
    });
  });

  it("groups errors by code with their messages, and lists requests never answered", () => {
    const { frames, at } = script();
    at(0, "to-agent", { id: 1, method: "session/load", params: { a: 1 } });
    at(1, "from-agent", { id: 1, error: { code: -32601, message: "Method not found" } });
    at(2, "to-agent", { id: 2, method: "session/list", params: {} });
    at(3, "from-agent", { id: 2, error: { code: -32601, message: "Method not found" } });
    at(4, "to-agent", { id: 3, method: "session/new", params: {} });
    at(5, "from-agent", { id: 3, error: { code: -32603, message: "Internal\n error" } });
    at(6, "to-agent", { id: 4, method: "session/prompt", params: { sessionId: "s", prompt: [] } });
    at(60_006, "from-agent", { id: "a", method: "fs/read_text_file", params: { path: "/x" } });
    const errors = find(frames, "errors")!;
    expect(errors.items).toEqual([
      { label: "error -32601 ×2", detail: "Method not found (×2)", seqs: [2, 4] },
      { label: "error -32603 ×1", detail: "Internal error", seqs: [6] },
    ]);
    const unanswered = find(frames, "unanswered")!;
    expect(unanswered.items.map((i) => [i.label, i.detail, i.seqs])).toEqual([
      ["#7 session/prompt to the agent", "no answer after 1 min 0 s", [7]],
      ["#8 fs/read_text_file from the agent", "no answer after 0 ms", [8]],
    ]);
  });

  it("finds stdout that was not JSON-RPC, retries and broken protocol rules", () => {
    const { frames, at } = script();
    at(0, "from-agent", "Loaded cached credentials.");
    at(1, "to-agent", { id: 1, method: "session/new", params: { cwd: "/w" } });
    at(2, "from-agent", { id: 1, error: { code: -32000, message: "Authentication required" } });
    at(3, "to-agent", { id: 2, method: "session/new", params: { cwd: "/w" } }); // retry after an error
    at(4, "from-agent", { id: 2, result: { sessionId: "s" } });
    at(5, "to-agent", { id: 3, method: "session/new", params: { cwd: "/w" } }); // a repeat after success: no retry
    at(6, "from-agent", { id: 3, result: { sessionId: "t" } });
    at(7, "from-agent", { method: "session/update", id: 9, params: {} }); // a notification sent with an id
    at(8, "from-agent", { id: 77, result: {} }); // an answer to nothing
    const kinds = insightsOf(frames).map((i) => i.kind);
    expect(kinds).toEqual(["protocol", "errors", "unanswered", "not-json-rpc", "retries", "slowest"]);
    expect(find(frames, "not-json-rpc")!.items[0]).toMatchObject({
      label: "#1 agent stdout: Loaded cached credentials.",
      seqs: [1],
    });
    expect(find(frames, "retries")!.items).toEqual([
      { label: "#4 session/new sent again", detail: "the same request as #2, which failed", seqs: [4, 2] },
    ]);
    const protocol = find(frames, "protocol")!;
    expect(protocol.items.map((i) => [i.label, i.seqs])).toEqual([
      ["notification with id: 1 frame", [8]],
      ["orphan response: 1 frame", [9]],
    ]);
  });

  it("finds turns where the user's wait dominated, and token use per turn", () => {
    const { frames, at } = script();
    at(0, "to-agent", { id: 1, method: "session/prompt", params: { sessionId: "s", prompt: [] } });
    at(100, "from-agent", {
      id: "p",
      method: "session/request_permission",
      params: { sessionId: "s", toolCall: { toolCallId: "t" }, options: [] },
    });
    at(9_100, "to-agent", { id: "p", result: { outcome: { outcome: "selected", optionId: "allow" } } });
    at(10_000, "from-agent", {
      id: 1,
      result: { stopReason: "end_turn", usage: { inputTokens: 1200, outputTokens: 34, totalTokens: 1234 } },
    });
    at(10_001, "to-agent", { id: 2, method: "session/prompt", params: { sessionId: "s", prompt: [] } });
    at(20_001, "from-agent", { id: 2, result: { stopReason: "end_turn" } });
    const wait = find(frames, "user-wait")!;
    expect(wait.items).toEqual([
      {
        label: "turn 1: 9.000 s of 10.000 s waiting for the user",
        detail: "90% of the turn; the agent worked 1.000 s",
        seqs: [1, 2, 3],
      },
    ]);
    expect(find(frames, "tokens")!.items).toEqual([
      { label: "turn 1: 1,234 tokens", detail: "in 1200 · out 34", seqs: [1, 4] },
    ]);
  });

  it("caps every list and counts the rest", () => {
    const { frames, at } = script();
    for (let i = 0; i < 25; i++) at(i, "from-agent", `garbage ${i}`);
    const notRpc = find(frames, "not-json-rpc")!;
    expect(notRpc.items).toHaveLength(ITEMS_PER_INSIGHT);
    expect(notRpc.more).toBe(25 - ITEMS_PER_INSIGHT);
  });
});

describe("insightsOf: Codex app-server frames (the real Codex)", () => {
  const frames = codexCapture("turns");
  const codex: ProtocolName = "codex-app-server";

  it("finds nothing wrong in a clean session; names the turn the approval's wait dominated, with the approval", () => {
    expect(insightsOf(frames, { protocol: codex }).map((i) => i.kind)).toEqual(["slowest", "user-wait", "tokens"]);
    const wait = find(frames, "user-wait", codex)!;
    expect(wait.items).toHaveLength(1);
    expect(wait.items[0]!.label).toMatch(/^turn 3: .* waiting for the user$/);
    // The turn/start, then the approval request and its answer.
    expect(wait.items[0]!.seqs).toEqual([45, 57, 58]);
    expect(find(frames, "tokens", codex)!.items.map((i) => i.label)).toEqual([
      "turn 1: 30 tokens",
      "turn 2: 60 tokens",
      "turn 3: 60 tokens",
    ]);
  });

  it("lists a turn that never completed with the requests never answered (turn/start itself was answered)", () => {
    const cut = frames.filter((f) => f.seq <= 57);
    const unanswered = find(cut, "unanswered", codex)!;
    expect(unanswered.items.map((i) => i.label)).toEqual([
      "#57 item/commandExecution/requestApproval from the agent",
      "#45 turn/start: turn 3 never completed",
    ]);
    expect(unanswered.items[1]!.seqs).toEqual([45]);
  });
});
