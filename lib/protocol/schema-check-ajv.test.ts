/**
 * lib/protocol/schema-check.ts is a small validator of its own (so its messages can
 * follow tagged unions and say which variant was closest). This test holds it
 * to Ajv's 2020-12 verdict on the same SDK schema, with the SDK's deserialiser
 * rules (the `x-` keywords, oneOf taken as the first variant that fits)
 * applied to the schema first.
 */
import { readFileSync } from "node:fs";
import { createRequire } from "node:module";
import Ajv2020 from "ajv/dist/2020";
import { describe, expect, it } from "vitest";
import { isObject } from "./json";
import { createSchemaChecker } from "./schema-check";

const require = createRequire(import.meta.url);
const schema = JSON.parse(readFileSync(require.resolve("@agentclientprotocol/sdk/schema/v1/schema.json"), "utf8")) as {
  $defs: Record<string, unknown>;
};

/** The SDK's deserialiser rules, written into the schema for Ajv. */
function sdkRules(node: unknown): unknown {
  if (Array.isArray(node)) return node.map(sdkRules);
  if (!isObject(node)) return node;
  if (node["x-deserialize-default-on-error"] === true) return true;
  const out: Record<string, unknown> = {};
  for (const [k, v] of Object.entries(node)) {
    if (k === "discriminator" || (k === "items" && node["x-deserialize-skip-invalid-items"] === true)) continue;
    out[k === "oneOf" ? "anyOf" : k] = k === "properties" || k === "$defs" ? mapValues(v) : sdkRules(v);
  }
  return node["x-deserialize-default-on-null"] === true ? { anyOf: [{ type: "null" }, out] } : out;
}
const mapValues = (v: unknown) =>
  isObject(v) ? Object.fromEntries(Object.entries(v).map(([k, s]) => [k, sdkRules(s)])) : v;

const ajv = new Ajv2020({ strict: false, allErrors: false });
const int = (min: number) => ({ type: "number" as const, validate: (n: number) => Number.isInteger(n) && n >= min });
for (const f of ["int32", "int64"]) ajv.addFormat(f, int(-Infinity));
for (const f of ["uint16", "uint32", "uint64"]) ajv.addFormat(f, int(0));
ajv.addFormat("double", { type: "number", validate: () => true });
ajv.addFormat("uri", true);
ajv.addSchema({ ...(sdkRules(schema) as object), $id: "acp" });
const ajvValid = (def: string, value: unknown) => ajv.validate({ $ref: `acp#/$defs/${def}` }, value);

const ours = createSchemaChecker(schema);

const text = (t: string) => ({ type: "text", text: t });
const CASES: Array<[string, unknown]> = [
  ["InitializeRequest", { protocolVersion: 1, clientCapabilities: { fs: { readTextFile: true }, terminal: false } }],
  ["InitializeRequest", { protocolVersion: -1 }],
  ["InitializeRequest", { protocolVersion: "1" }],
  ["InitializeResponse", { protocolVersion: 1, agentCapabilities: { loadSession: true }, authMethods: [] }],
  ["InitializeResponse", { protocolVersion: 1, authMethods: [{ id: "x", name: "X" }] }],
  ["InitializeResponse", { agentCapabilities: {} }],
  ["NewSessionRequest", { cwd: "/w", mcpServers: [] }],
  ["NewSessionRequest", { mcpServers: [] }],
  ["NewSessionRequest", { cwd: "/w", mcpServers: [{ name: "m", command: "c", args: [], env: [] }] }],
  ["NewSessionRequest", { cwd: "/w", mcpServers: [{ type: "http", name: "m", url: "http://x", headers: [] }] }],
  ["NewSessionRequest", { cwd: "/w", mcpServers: [{ type: "http", name: "m" }] }],
  ["NewSessionResponse", { sessionId: "s" }],
  ["NewSessionResponse", { sessionId: "s", modes: { currentModeId: "a", availableModes: [{ id: "a", name: "A" }] } }],
  ["NewSessionResponse", { sessionId: 5 }],
  ["PromptRequest", { sessionId: "s", prompt: [text("hi")] }],
  ["PromptRequest", { sessionId: "s", prompt: [{ type: "image", data: "AA==", mimeType: "image/png" }] }],
  ["PromptRequest", { sessionId: "s", prompt: [{ type: "text" }] }],
  ["PromptRequest", { sessionId: 7, prompt: [] }],
  ["PromptResponse", { stopReason: "end_turn" }],
  ["PromptResponse", { stopReason: "bored" }],
  ["SessionNotification", { sessionId: "s", update: { sessionUpdate: "agent_message_chunk", content: text("a") } }],
  [
    "SessionNotification",
    { sessionId: "s", update: { sessionUpdate: "agent_message_chunk", content: { type: "text" } } },
  ],
  ["SessionNotification", { sessionId: "s", update: { sessionUpdate: "mystery" } }],
  ["SessionNotification", { sessionId: "s", update: { sessionUpdate: "tool_call", toolCallId: "t", title: "T" } }],
  [
    "SessionNotification",
    { sessionId: "s", update: { sessionUpdate: "tool_call_update", toolCallId: "t", status: "done?" } },
  ],
  ["SessionNotification", { sessionId: "s", update: { sessionUpdate: "plan", entries: [] } }],
  ["SessionNotification", { sessionId: "s", update: { sessionUpdate: "plan", entries: [{ content: "x" }] } }],
  ["CancelNotification", { sessionId: "s" }],
  ["CancelNotification", {}],
  ["RequestPermissionRequest", { sessionId: "s", toolCall: { toolCallId: "t" }, options: [] }],
  ["RequestPermissionResponse", { outcome: { outcome: "selected", optionId: "o" } }],
  ["RequestPermissionResponse", { outcome: { outcome: "selected" } }],
  ["RequestPermissionResponse", { outcome: { outcome: "cancelled" } }],
  ["ReadTextFileRequest", { sessionId: "s", path: "/a", line: 1, limit: 10 }],
  ["ReadTextFileRequest", { sessionId: "s", path: "/a", line: -1 }],
  ["ReadTextFileRequest", { sessionId: "s", path: "/a", line: 1.5 }],
  ["WriteTextFileRequest", { sessionId: "s", path: "/a", content: "x" }],
  ["CreateTerminalRequest", { sessionId: "s", command: "ls", args: ["-l"], env: [{ name: "A", value: "b" }] }],
  ["CreateTerminalRequest", { sessionId: "s", args: [] }],
  ["TerminalOutputResponse", { output: "x", truncated: false, exitStatus: { exitCode: 0, signal: null } }],
  ["Error", { code: -32601, message: "Method not found" }],
  ["Error", { code: "x" }],
  ["Error", { code: 1.5, message: "m" }],
];

describe("schema-check agrees with Ajv (2020-12) on the SDK schema", () => {
  it.each(CASES)("%s %j", (def, value) => {
    expect(ours.validate(def, value).length === 0).toBe(ajvValid(def, value));
  });
});

it("the corpus has both verdicts", () => {
  const invalid = CASES.filter(([def, value]) => !ajvValid(def, value)).length;
  expect(invalid).toBeGreaterThan(10);
  expect(CASES.length - invalid).toBeGreaterThan(10);
});
