import { readFileSync } from "node:fs";
import { createRequire } from "node:module";
import { describe, expect, it } from "vitest";
import { FrameSequencer } from "./frame-sequencer";
import { createSchemaChecker } from "./schema-check";

const require = createRequire(import.meta.url);
const schema: unknown = JSON.parse(
  readFileSync(require.resolve("@agentclientprotocol/sdk/schema/v1/schema.json"), "utf8"),
);
const checker = createSchemaChecker(schema);
const s = new FrameSequencer();
const check = (dir: "to-agent" | "from-agent", message: object) =>
  checker.check(s.line(dir, JSON.stringify({ jsonrpc: "2.0", ...message })));

describe("schema checks against the SDK's JSON Schema", () => {
  it("accepts well-formed requests, notifications and responses", () => {
    expect(
      check("to-agent", {
        id: 1,
        method: "initialize",
        params: {
          protocolVersion: 1,
          clientCapabilities: { fs: { readTextFile: false, writeTextFile: false }, terminal: false },
        },
      }),
    ).toEqual([]);
    expect(
      check("from-agent", {
        id: 1,
        result: { protocolVersion: 1, agentCapabilities: { loadSession: true }, authMethods: [] },
      }),
    ).toEqual([]);
    expect(check("to-agent", { id: 2, method: "session/new", params: { cwd: "/w", mcpServers: [] } })).toEqual([]);
    expect(
      check("from-agent", {
        method: "session/update",
        params: {
          sessionId: "s",
          update: { sessionUpdate: "agent_message_chunk", content: { type: "text", text: "hi" } },
        },
      }),
    ).toEqual([]);
    expect(check("to-agent", { method: "session/cancel", params: { sessionId: "s" } })).toEqual([]);
    expect(check("from-agent", { id: 2, error: { code: -32601, message: "Method not found" } })).toEqual([]);
  });

  it("reports missing and mistyped fields with their path", () => {
    expect(check("to-agent", { id: 3, method: "session/new", params: { mcpServers: [] } })).toEqual([
      { path: "params.cwd", message: "missing (required)" },
    ]);
    expect(check("to-agent", { id: 4, method: "session/prompt", params: { sessionId: 7, prompt: [] } })).toEqual([
      { path: "params.sessionId", message: "expected string, got integer" },
    ]);
    expect(check("to-agent", { id: 5, method: "session/cancel" })).toEqual([
      { path: "params", message: "missing (expected object)" },
    ]);
    expect(check("from-agent", { id: 9, error: { code: "x" } })).toEqual([
      { path: "error.message", message: "missing (required)" },
      { path: "error.code", message: expect.stringMatching(/^expected integer/) },
    ]);
  });

  it("explains a tagged union by its tag: the chosen variant's issues, or an unknown tag", () => {
    const bad = check("from-agent", {
      method: "session/update",
      params: { sessionId: "s", update: { sessionUpdate: "agent_message_chunk", content: { type: "text" } } },
    });
    expect(bad).toEqual([{ path: "params.update.content.text", message: "missing (required)" }]);
    const unknown = check("from-agent", {
      method: "session/update",
      params: { sessionId: "s", update: { sessionUpdate: "mystery" } },
    });
    expect(unknown).toEqual([{ path: "params.update.sessionUpdate", message: 'unknown sessionUpdate "mystery"' }]);
  });

  it("validates a response's result by the method of its request", () => {
    check("to-agent", { id: 10, method: "session/prompt", params: { sessionId: "s", prompt: [] } });
    expect(check("from-agent", { id: 10, result: { stopReason: "bored" } })).toEqual([
      { path: "result.stopReason", message: expect.stringMatching(/^matches none|^expected one of/) },
    ]);
  });

  it("has nothing to say about unknown methods, extensions and invalid frames", () => {
    expect(check("to-agent", { id: 11, method: "_zed/thing", params: 5 })).toBeUndefined();
    expect(checker.check(s.line("to-agent", "{not json"))).toBeUndefined();
  });
});
