import { readFileSync } from "node:fs";
import { describe, expect, it } from "vitest";
import { classifyLine, type Frame, type FrameDirection } from "../../protocol/frame";
import { readAll } from "../../folds/transcript-stream";
import { codexCapture } from "../../../test/fixtures/codex-captures";
import { createRedactor } from "../library/redact";
import { SessionSpans, type SessionSpanOptions } from "./session-spans";
import type { TraceSpan } from "./trace-span";

const LINK = "http://localhost:3000";

function demo() {
  const { reader, part } = readAll(readFileSync(new URL("../../../demo/gemini-demo.jsonl", import.meta.url), "utf8"));
  return { header: reader.header!, frames: part.frames };
}

function mapAll(frames: Frame[], options: Partial<SessionSpanOptions> = {}, source = { transcriptId: "t1" }) {
  const m = new SessionSpans(source, { linkBase: LINK, ...options });
  return [...frames.flatMap((f) => m.add(f)), ...m.finish()];
}

const byName = (spans: TraceSpan[], name: string) => spans.filter((s) => s.name === name);

describe("SessionSpans: the demo recording", () => {
  const { header, frames } = demo();
  const spans = mapAll(frames, {}, { transcriptId: header.id, profile: header.agent.profile } as never);
  const at = (seq: number) => frames.find((f) => f.seq === seq)!.ts;

  it("makes one trace per turn, rooted at invoke_agent, with the tool and the permission wait under it", () => {
    const turns = byName(spans, "invoke_agent gemini-cli");
    expect(turns).toHaveLength(2);
    expect(new Set(spans.map((s) => s.traceId)).size).toBe(2);
    for (const t of turns) expect(t.parentSpanId).toBeUndefined();
    const [first, second] = turns as [TraceSpan, TraceSpan];
    expect(spans.filter((s) => s.traceId === first.traceId)).toHaveLength(1);
    const tool = spans.find((s) => s.name.startsWith("execute_tool"))!;
    expect(tool.parentSpanId).toBe(second.spanId);
    expect(tool.traceId).toBe(second.traceId);
    const permission = byName(spans, "session/request_permission")[0]!;
    expect(permission.parentSpanId).toBe(tool.spanId);
    expect(spans).toHaveLength(4);
    // The second turn links to the first.
    expect(second.links).toEqual([
      { traceId: first.traceId, spanId: first.spanId, attributes: { "acp_playground.link": "previous_turn" } },
    ]);
  });

  it("takes the frames' own times and the gen_ai attributes", () => {
    const [first, second] = byName(spans, "invoke_agent gemini-cli") as [TraceSpan, TraceSpan];
    expect([first.start, first.end]).toEqual([at(6), at(12)]);
    expect([second.start, second.end]).toEqual([at(13), at(19)]);
    expect(first.attributes).toMatchObject({
      "gen_ai.operation.name": "invoke_agent",
      "gen_ai.agent.name": "gemini-cli",
      "gen_ai.provider.name": "gcp.gemini",
      "gen_ai.response.finish_reasons": ["end_turn"],
      "acp_playground.transcript.id": header.id,
      "acp_playground.seq": 6,
      "acp_playground.frame.url": `${LINK}/transcripts/${header.id}#seq=6`,
    });
    expect(first.attributes["gen_ai.conversation.id"]).toMatch(/.+/);
    const permission = byName(spans, "session/request_permission")[0]!;
    expect([permission.start, permission.end]).toEqual([at(14), at(15)]);
    expect(permission.attributes).toMatchObject({
      "acp_playground.request.outcome": "proceed_once",
      "acp_playground.request.waits_for": "user",
      "acp_playground.seq": 14,
    });
    const tool = spans.find((s) => s.name.startsWith("execute_tool"))!;
    expect([tool.start, tool.end]).toEqual([at(14), at(16)]);
    expect(tool.attributes).toMatchObject({
      "gen_ai.operation.name": "execute_tool",
      "gen_ai.tool.call.id": "write_file__write_file_1795315189537_0",
      "acp_playground.tool.status": "completed",
    });
    // Contents are opt-in.
    expect(JSON.stringify(spans)).not.toContain("gen_ai.input.messages");
  });

  it("gives the same ids every time, and new ones only with another salt", () => {
    expect(mapAll(frames)).toEqual(mapAll(frames));
    const a = mapAll(frames).map((s) => s.spanId);
    const b = mapAll(frames, { salt: "again" }).map((s) => s.spanId);
    expect(a.filter((id) => b.includes(id))).toEqual([]);
    for (const s of spans) {
      expect(s.traceId).toMatch(/^[0-9a-f]{32}$/);
      expect(s.spanId).toMatch(/^[0-9a-f]{16}$/);
    }
    expect(new Set(spans.map((s) => s.spanId)).size).toBe(spans.length);
  });

  it("adds the prompt and the answer with contents on", () => {
    const withContent = mapAll(frames, { content: true });
    const first = withContent.find((s) => s.attributes["acp_playground.seq"] === 6)!;
    const input = JSON.parse(first.attributes["gen_ai.input.messages"] as string);
    expect(input[0].role).toBe("user");
    expect(input[0].parts[0].content.length).toBeGreaterThan(0);
    const output = JSON.parse(first.attributes["gen_ai.output.messages"] as string);
    expect(output[0]).toMatchObject({ role: "assistant", finish_reason: "end_turn" });
  });
});

/** Frames as the relay records them, each at the given ts. */
function script() {
  const frames: Frame[] = [];
  let seq = 0;
  const push = (dir: FrameDirection, message: object, ts: number) => {
    const raw = JSON.stringify(message);
    frames.push({ seq: ++seq, ts, dir, raw, ...classifyLine(raw), message });
  };
  const update = (ts: number, update: object) =>
    push("from-agent", { jsonrpc: "2.0", method: "session/update", params: { sessionId: "s1", update } }, ts);
  const prompt = (ts: number, text: string, id = 10) =>
    push(
      "to-agent",
      { jsonrpc: "2.0", id, method: "session/prompt", params: { sessionId: "s1", prompt: [{ type: "text", text }] } },
      ts,
    );
  return { frames, push, update, prompt };
}

describe("SessionSpans: errors, usage, client requests, redaction", () => {
  it("maps usage, fs requests, a failed tool and an error turn", () => {
    const s = script();
    s.prompt(1000, "hi");
    s.update(1100, { sessionUpdate: "tool_call", toolCallId: "c1", title: "Read a", kind: "read", status: "pending" });
    s.push(
      "from-agent",
      { jsonrpc: "2.0", id: 5, method: "fs/read_text_file", params: { sessionId: "s1", path: "/a" } },
      1200,
    );
    s.push("to-agent", { jsonrpc: "2.0", id: 5, error: { code: -32002, message: "nope" } }, 1250);
    s.update(1300, { sessionUpdate: "tool_call_update", toolCallId: "c1", status: "failed" });
    s.update(1350, { sessionUpdate: "usage_update", used: 1234, size: 200000 });
    s.push(
      "from-agent",
      { jsonrpc: "2.0", id: 10, result: { stopReason: "end_turn", usage: { inputTokens: 40, outputTokens: 7 } } },
      1400,
    );
    s.prompt(2000, "again", 11);
    s.push("from-agent", { jsonrpc: "2.0", id: 11, error: { code: -32603, message: "model overloaded" } }, 2100);
    const spans = mapAll(s.frames);
    const [turn1, turn2] = spans.filter((x) => x.name.startsWith("invoke_agent"));
    expect(turn1!.attributes).toMatchObject({
      "gen_ai.usage.input_tokens": 40,
      "gen_ai.usage.output_tokens": 7,
      "acp_playground.context.used": 1234,
      "gen_ai.response.time_to_first_chunk": 0.1,
    });
    const fs = spans.find((x) => x.name === "fs/read_text_file")!;
    expect(fs).toMatchObject({ start: 1200, end: 1250, parentSpanId: turn1!.spanId, status: { code: "error" } });
    expect(fs.attributes["acp_playground.request.waits_for"]).toBe("client");
    const tool = spans.find((x) => x.name === "execute_tool read")!;
    expect(tool).toMatchObject({ start: 1100, end: 1300, status: { code: "error" } });
    expect(turn2!.status).toEqual({ code: "error", message: "model overloaded" });
    expect(turn2!.events).toEqual([
      { name: "exception", time: 2100, attributes: { "exception.message": "model overloaded" } },
    ]);
  });

  it("ends a turn the agent never finished at its exit, as an error, with its unanswered request", () => {
    const s = script();
    s.prompt(1000, "hi");
    s.push(
      "from-agent",
      { jsonrpc: "2.0", id: 7, method: "terminal/create", params: { sessionId: "s1", command: "ls" } },
      1100,
    );
    const m = new SessionSpans({ transcriptId: "t" }, { linkBase: LINK });
    expect(s.frames.flatMap((f) => m.add(f))).toEqual([]);
    const spans = m.lifecycle({ ts: 1500, event: "exited", code: 1, signal: null });
    expect(spans.map((x) => [x.name, x.end, x.status.code])).toEqual([
      ["terminal/create", 1500, "error"],
      ["invoke_agent agent", 1500, "error"],
    ]);
    expect(m.finish()).toEqual([]);
  });

  it("redacts every string it sends, contents included", () => {
    const s = script();
    const key = "sk-proj-abcdefghijklmnopqrstuvwxyz0123456789";
    s.prompt(1000, `use ${key}`);
    s.update(1100, { sessionUpdate: "tool_call", toolCallId: "c1", title: `curl -H 'Authorization: Bearer ${key}'` });
    s.update(1200, { sessionUpdate: "agent_message_chunk", content: { type: "text", text: `done with ${key}` } });
    s.push("from-agent", { jsonrpc: "2.0", id: 10, result: { stopReason: "end_turn" } }, 1300);
    const redactor = createRedactor([]);
    const spans = mapAll(s.frames, { content: true, redact: (t) => redactor.text(t).text });
    const sent = JSON.stringify(spans);
    expect(sent).toContain("[REDACTED]");
    expect(sent).not.toContain(key);
  });

  it("cuts what an agent makes long (a title, a tool name, the answer), after redacting", () => {
    const s = script();
    const key = "sk-proj-abcdefghijklmnopqrstuvwxyz0123456789";
    s.prompt(1000, "hi");
    const name = "n".repeat(50_000);
    s.update(1100, { sessionUpdate: "tool_call", toolCallId: "c1", name, title: "t".repeat(100_000) });
    // The key straddles the 16 KiB cut: redacted whole before the cut.
    const text = `${"a".repeat(16 * 1024 - 10)}${key} and more`;
    s.update(1200, { sessionUpdate: "agent_message_chunk", content: { type: "text", text } });
    s.push("from-agent", { jsonrpc: "2.0", id: 10, result: { stopReason: "end_turn" } }, 1300);
    const redactor = createRedactor([]);
    const spans = mapAll(s.frames, { content: true, redact: (t) => redactor.text(t).text });
    const tool = spans.find((x) => x.name.startsWith("execute_tool"))!;
    expect(tool.name.length).toBeLessThan(250);
    expect((tool.attributes["acp_playground.tool.title"] as string).length).toBeLessThan(17_000);
    expect((tool.attributes["gen_ai.tool.name"] as string).length).toBeLessThan(17_000);
    const output = spans.find((x) => x.name.startsWith("invoke_agent"))!.attributes["gen_ai.output.messages"];
    expect(output).not.toContain("sk-proj-");
    expect((output as string).length).toBeLessThan(17_000);
  });

  it("maps a 100,000-frame session turn by turn, each turn as it ends", () => {
    const m = new SessionSpans({ transcriptId: "big" }, { linkBase: LINK, content: true });
    let seq = 0;
    let spans = 0;
    const add = (dir: FrameDirection, message: object, ts: number) => {
      const raw = JSON.stringify(message);
      spans += m.add({ seq: ++seq, ts, dir, raw, ...classifyLine(raw), message }).length;
    };
    for (let turn = 0; seq < 100_000; turn++) {
      add(
        "to-agent",
        { jsonrpc: "2.0", id: turn, method: "session/prompt", params: { sessionId: "s", prompt: [] } },
        seq,
      );
      for (let i = 0; i < 98; i++) {
        const update = { sessionUpdate: "agent_message_chunk", content: { type: "text", text: "x".repeat(100) } };
        add("from-agent", { jsonrpc: "2.0", method: "session/update", params: { sessionId: "s", update } }, seq);
      }
      add("from-agent", { jsonrpc: "2.0", id: turn, result: { stopReason: "end_turn" } }, seq);
    }
    expect(spans).toBe(1000);
  });
});

describe("SessionSpans: Codex app-server", () => {
  it("maps turns, command and file-change items and an approval, with the thread as the conversation", () => {
    const frames = codexCapture("patches");
    const spans = mapAll(frames, {}, { transcriptId: "cx", protocol: "codex-app-server" } as never);
    const turns = spans.filter((s) => s.name === "invoke_agent codex");
    expect(turns).toHaveLength(2);
    const second = turns[1]!;
    expect(second.attributes).toMatchObject({
      "gen_ai.provider.name": "openai",
      "gen_ai.response.finish_reasons": ["completed"],
    });
    expect(second.attributes["gen_ai.usage.input_tokens"]).toBeGreaterThan(0);
    const tools = spans.filter((s) => s.parentSpanId === second.spanId && s.name.startsWith("execute_tool"));
    expect(tools.map((t) => t.name)).toEqual([
      "execute_tool commandExecution",
      "execute_tool fileChange",
      "execute_tool fileChange",
    ]);
    const at = (seq: number) => frames.find((f) => f.seq === seq)!.ts;
    expect([tools[0]!.start, tools[0]!.end]).toEqual([at(35), at(40)]);
    const approval = spans.find((s) => s.name === "item/commandExecution/requestApproval")!;
    expect(approval.parentSpanId).toBe(tools[0]!.spanId);
    expect([approval.start, approval.end]).toEqual([at(36), at(37)]);
    expect(second.attributes["gen_ai.conversation.id"]).toBe(turns[0]!.attributes["gen_ai.conversation.id"]);
  });
});
