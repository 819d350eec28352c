import { describe, expect, it } from "vitest";
import type { FrameDirection } from "../protocol/frame";
import { FrameSequencer } from "../protocol/frame-sequencer";
import { RecordingRules, RECORDING_REQUIREMENTS, type RulesScope } from "./recording-rules";

const TO: FrameDirection = "to-agent";
const FROM: FrameDirection = "from-agent";

function run(lines: [FrameDirection, unknown][], scope?: RulesScope, stopped = false) {
  const seq = new FrameSequencer();
  const rules = new RecordingRules(scope);
  const frames = lines.map(([dir, m]) => seq.line(dir, typeof m === "string" ? m : JSON.stringify(m)));
  for (const f of frames) rules.add(f);
  rules.finish({ stopped }, (s) => frames[s - 1]);
  return { rules, findings: rules.findings.map((f) => [f.requirement, f.frames[0]]) };
}

const rpc = (m: Record<string, unknown>) => ({ jsonrpc: "2.0", ...m });
const init = (caps: unknown = {}): [FrameDirection, unknown][] => [
  [TO, rpc({ id: 0, method: "initialize", params: { protocolVersion: 1, clientCapabilities: caps } })],
  [FROM, rpc({ id: 0, result: { protocolVersion: 1 } })],
  [TO, rpc({ id: 1, method: "session/new", params: { cwd: "/", mcpServers: [] } })],
  [FROM, rpc({ id: 1, result: { sessionId: "s1" } })],
];
const update = (sessionId: string, u: Record<string, unknown>) =>
  rpc({ method: "session/update", params: { sessionId, update: u } });

describe("RecordingRules", () => {
  it("finds nothing in a conversation that keeps every rule", () => {
    const { findings, rules } = run([
      ...init({ fs: { readTextFile: true } }),
      [TO, rpc({ id: 2, method: "session/prompt", params: { sessionId: "s1", prompt: [] } })],
      [FROM, update("s1", { sessionUpdate: "tool_call", toolCallId: "t1", title: "read" })],
      [FROM, rpc({ id: 0, method: "fs/read_text_file", params: { sessionId: "s1", path: "/a" } })],
      [TO, rpc({ id: 0, result: { content: "" } })],
      [FROM, update("s1", { sessionUpdate: "tool_call_update", toolCallId: "t1", status: "completed" })],
      [FROM, rpc({ id: 2, result: { stopReason: "end_turn" } })],
    ]);
    expect(findings).toEqual([]);
    for (const r of RECORDING_REQUIREMENTS.filter((r) => r.id !== "PG-REC-003"))
      expect(rules.judged(r.id), r.id).toBeGreaterThan(0);
  });

  it("flags lines that are not JSON-RPC, on each side", () => {
    expect(
      run([
        [FROM, "Loading model..."],
        [TO, "{oops"],
      ]).findings,
    ).toEqual([
      ["PG-REC-001", 1],
      ["PG-REC-002", 2],
    ]);
  });

  it("flags a response without a request, an id reused in flight, and a notification with an id", () => {
    const { findings, rules } = run([
      ...init(),
      [FROM, rpc({ id: 99, result: {} })],
      [TO, rpc({ id: 5, method: "session/set_mode", params: { sessionId: "s1", modeId: "a" } })],
      [TO, rpc({ id: 5, method: "session/set_mode", params: { sessionId: "s1", modeId: "b" } })],
      [TO, rpc({ id: 6, method: "session/cancel", params: { sessionId: "s1" } })],
      [FROM, rpc({ method: "session/prompt", params: {} })],
    ]);
    expect(findings).toEqual([
      ["PG-REC-004", 5],
      ["PG-REC-005", 7],
      ["PG-REC-006", 8],
      ["PG-REC-006", 9],
      ["PG-REC-007", 9],
    ]);
    expect(rules.findingsOf(7)[0]!.frames).toEqual([7, 6]);
  });

  it("flags agent requests for capabilities the client did not advertise, elicitation modes included", () => {
    const { findings } = run([
      ...init({ fs: { readTextFile: true }, elicitation: { form: {} } }),
      [FROM, rpc({ id: 0, method: "fs/read_text_file", params: { sessionId: "s1", path: "/a" } })],
      [FROM, rpc({ id: 1, method: "fs/write_text_file", params: { sessionId: "s1", path: "/a", content: "" } })],
      [FROM, rpc({ id: 2, method: "terminal/create", params: { sessionId: "s1", command: "ls" } })],
      [FROM, rpc({ id: 3, method: "elicitation/create", params: { sessionId: "s1", mode: "form" } })],
      [FROM, rpc({ id: 4, method: "elicitation/create", params: { sessionId: "s1", mode: "url" } })],
    ]);
    expect(findings).toEqual([
      ["PG-REC-008", 6],
      ["PG-REC-008", 7],
      ["PG-REC-008", 9],
    ]);
  });

  it("flags updates for unknown sessions, and a prompt answered with tool calls pending (not when cancelled)", () => {
    const { findings, rules } = run([
      ...init(),
      [FROM, update("nope", { sessionUpdate: "agent_message_chunk", content: { type: "text", text: "" } })],
      [TO, rpc({ id: 2, method: "session/prompt", params: { sessionId: "s1", prompt: [] } })],
      [FROM, update("s1", { sessionUpdate: "tool_call", toolCallId: "t1", title: "x" })],
      [FROM, update("s1", { sessionUpdate: "tool_call", toolCallId: "t2", title: "y", status: "in_progress" })],
      [FROM, update("s1", { sessionUpdate: "tool_call_update", toolCallId: "t2", status: "failed" })],
      [FROM, rpc({ id: 2, result: { stopReason: "end_turn" } })],
      [TO, rpc({ id: 3, method: "session/prompt", params: { sessionId: "s1", prompt: [] } })],
      [FROM, update("s1", { sessionUpdate: "tool_call", toolCallId: "t3", title: "z" })],
      [FROM, rpc({ id: 3, result: { stopReason: "cancelled" } })],
    ]);
    expect(findings).toEqual([
      ["PG-REC-009", 5],
      ["PG-REC-010", 10],
    ]);
    expect(rules.findingsOf(10)[0]).toMatchObject({ frames: [10, 7] });
    expect(rules.findingsOf(10)[0]!.message).toMatch(/1 tool call is still pending: "t1"/);
  });

  it("flags a turn that never ended, unless the client stopped the agent", () => {
    const lines: [FrameDirection, unknown][] = [
      ...init(),
      [TO, rpc({ id: 2, method: "session/prompt", params: { sessionId: "s1", prompt: [] } })],
    ];
    expect(run(lines).findings).toEqual([["PG-REC-011", 5]]);
    expect(run(lines, undefined, true).findings).toEqual([]);
  });

  it("judges a one-sided capture only by what one side shows", () => {
    const { findings, rules } = run(
      [
        [FROM, rpc({ id: 1, result: { sessionId: "s1" } })],
        [FROM, update("s9", { sessionUpdate: "agent_message_chunk", content: { type: "text", text: "" } })],
        [FROM, rpc({ id: 0, method: "terminal/create", params: { sessionId: "s9", command: "ls" } })],
      ],
      { sides: new Set([FROM]), fromStart: false },
    );
    expect(findings).toEqual([]);
    expect(rules.judged("PG-REC-004")).toBe(0);
    expect(rules.judged("PG-REC-008")).toBe(0);
    expect(rules.judged("PG-REC-009")).toBe(0);
  });
});

describe("an app-server recording (Codex)", () => {
  const scope: RulesScope = { sides: new Set([TO, FROM]), fromStart: true, protocol: "codex-app-server" };
  const lines: [FrameDirection, string][] = [
    [TO, '{"id":1,"method":"initialize","params":{"clientInfo":{"name":"p","version":"1"}}}'],
    [FROM, '{"id":1,"result":{"userAgent":"p/0.169.0"}}'],
    [TO, '{"method":"initialized"}'],
    [TO, '{"id":2,"method":"thread/start","params":{"cwd":"/ws"}}'],
    [FROM, '{"id":2,"result":{"thread":{"id":"th"}}}'],
    [FROM, '{"id":0,"method":"item/commandExecution/requestApproval","params":{"threadId":"th"}}'],
    [TO, '{"id":0,"result":{"decision":"accept"}}'],
    [FROM, "not json"],
  ];

  it("judges its lines and pairing, not ACP's own methods, and names its protocol", () => {
    const seq = new FrameSequencer(undefined, "codex-app-server");
    const rules = new RecordingRules(scope);
    for (const [dir, raw] of lines) rules.add(seq.line(dir, raw));
    expect(rules.findings.map((f) => [f.requirement, f.message])).toEqual([
      ["PG-REC-001", expect.stringMatching(/^not a valid Codex app-server message: /)],
    ]);
    expect(rules.judged("PG-REC-004")).toBe(3);
    for (const acpOnly of ["PG-REC-006", "PG-REC-007", "PG-REC-008", "PG-REC-011"] as const)
      expect(rules.judged(acpOnly), acpOnly).toBe(0);
  });
});
