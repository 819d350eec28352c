import { describe, expect, it } from "vitest";
import {
  commandLine,
  denyAnswer,
  describePending,
  elicitationAnswer,
  errorDraft,
  permissionAnswer,
} from "./agent-answers";
import { FrameSequencer } from "../../protocol/frame-sequencer";

const s = new FrameSequencer();
const agentRequest = (id: number | string, method: string, params: object) =>
  s.line("from-agent", JSON.stringify({ jsonrpc: "2.0", id, method, params }));

describe("answering the agent", () => {
  it("a permission request: its tool call and options; the answers select or cancel", () => {
    const f = agentRequest(0, "session/request_permission", {
      sessionId: "s",
      toolCall: {
        toolCallId: "write-1",
        title: "Write a.txt",
        kind: "edit",
        status: "pending",
        locations: [{ path: "/w/a.txt" }, { line: 3 }],
        content: [{ type: "diff", path: "/w/a.txt", oldText: "a\n", newText: "b\n" }],
      },
      options: [
        { optionId: "proceed_always", name: "Allow always", kind: "allow_always" },
        { optionId: "proceed_once", name: "Allow", kind: "allow_once" },
        { name: "broken" },
      ],
    });
    const v = describePending(f);
    expect(v).toMatchObject({
      kind: "permission",
      sessionId: "s",
      toolCall: { toolCallId: "write-1", title: "Write a.txt", kind: "edit", locations: [{ path: "/w/a.txt" }] },
      options: [
        { optionId: "proceed_always", name: "Allow always", kind: "allow_always" },
        { optionId: "proceed_once", name: "Allow", kind: "allow_once" },
      ],
    });
    expect(permissionAnswer(f, "proceed_once")).toEqual({
      jsonrpc: "2.0",
      id: 0,
      result: { outcome: { outcome: "selected", optionId: "proceed_once" } },
    });
    expect(permissionAnswer(f, null)).toEqual({ jsonrpc: "2.0", id: 0, result: { outcome: { outcome: "cancelled" } } });
  });

  it("fs and terminal requests; Deny sends the policy's error", () => {
    const read = agentRequest("r1", "fs/read_text_file", { sessionId: "s", path: "/w/a.txt", line: 2, limit: 5 });
    expect(describePending(read)).toEqual({ kind: "fs-read", path: "/w/a.txt", line: 2, limit: 5 });
    expect(denyAnswer(read)).toEqual({
      jsonrpc: "2.0",
      id: "r1",
      error: { code: -32000, message: "fs/read_text_file was denied by the playground's policy" },
    });
    const write = agentRequest(2, "fs/write_text_file", { sessionId: "s", path: "/w/a.txt", content: "new" });
    expect(describePending(write)).toEqual({ kind: "fs-write", path: "/w/a.txt", content: "new" });
    const term = agentRequest(3, "terminal/create", {
      sessionId: "s",
      command: "ls",
      args: ["-la", "my dir"],
      cwd: "/w",
      env: [{ name: "A", value: "1" }],
    });
    const tv = describePending(term);
    expect(tv).toMatchObject({
      kind: "terminal-create",
      command: "ls",
      args: ["-la", "my dir"],
      cwd: "/w",
      env: [{ name: "A", value: "1" }],
    });
    expect(commandLine(tv as { command?: string; args: string[] })).toBe("ls -la 'my dir'");
    expect(describePending(agentRequest(4, "terminal/kill", { sessionId: "s", terminalId: "t1" }))).toEqual({
      kind: "terminal",
      method: "terminal/kill",
      terminalId: "t1",
    });
    expect(describePending(agentRequest(5, "x/y", {}))).toEqual({ kind: "other", method: "x/y" });
  });

  it("elicitation: the agent's patterns are never kept to run in the page (a bad or backtracking one would hang or crash it)", () => {
    const f = agentRequest(7, "elicitation/create", {
      sessionId: "s",
      mode: "form",
      message: "Code?",
      requestedSchema: {
        type: "object",
        properties: {
          a: { type: "string", pattern: "^(a+)+$", default: "aaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaa!" },
          b: { type: "string", pattern: "(" },
        },
      },
    });
    const view = describePending(f) as { requestedSchema?: object };
    expect(JSON.stringify(view.requestedSchema)).not.toContain("pattern");
    expect(view.requestedSchema).toMatchObject({ properties: { a: { type: "string" }, b: { type: "string" } } });
  });

  it("elicitation: form mode with its schema; accept carries the content", () => {
    const f = agentRequest(6, "elicitation/create", {
      sessionId: "s",
      mode: "form",
      message: "Name?",
      requestedSchema: { type: "object", properties: { n: { type: "string" } } },
    });
    expect(describePending(f)).toMatchObject({
      kind: "elicitation",
      mode: "form",
      message: "Name?",
      requestedSchema: { type: "object" },
    });
    expect(elicitationAnswer(f, "accept", { n: "x" })).toEqual({
      jsonrpc: "2.0",
      id: 6,
      result: { action: "accept", content: { n: "x" } },
    });
    expect(elicitationAnswer(f, "decline")).toEqual({ jsonrpc: "2.0", id: 6, result: { action: "decline" } });
    expect(JSON.parse(errorDraft(f))).toEqual({
      jsonrpc: "2.0",
      id: 6,
      error: { code: -32000, message: "elicitation/create refused by the user" },
    });
  });
});
