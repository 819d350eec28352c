import { readFileSync } from "node:fs";
import { createRequire } from "node:module";
import { describe, expect, it } from "vitest";
import { FrameSequencer } from "./frame-sequencer";
import { createSchemaSet, negotiatedV2, SCHEMA_FILE_PATHS, type SchemaFiles } from "./schema-check";

const require = createRequire(import.meta.url);
const read = (p: string): unknown => JSON.parse(readFileSync(require.resolve(p), "utf8"));
const files: SchemaFiles = {
  stable: read(SCHEMA_FILE_PATHS.stable),
  unstable: read(SCHEMA_FILE_PATHS.unstable),
  v2: read(SCHEMA_FILE_PATHS.v2),
};
const set = createSchemaSet(files);
const s = new FrameSequencer();
const frame = (dir: "to-agent" | "from-agent", message: object) =>
  s.line(dir, JSON.stringify({ jsonrpc: "2.0", ...message }));
const update = (u: object) => frame("from-agent", { method: "session/update", params: { sessionId: "s", update: u } });

describe("one validity rule across the SDK's schemas", () => {
  it("judges a stable update kind by the stable schema", () => {
    expect(set.check(update({ sessionUpdate: "agent_message_chunk", content: { type: "text", text: "hi" } }))).toEqual({
      variant: "stable",
      issues: [],
    });
  });

  it("accepts a valid unstable update kind and labels it unstable", () => {
    const verdict = set.check(update({ sessionUpdate: "plan_removed", planId: "p1" }));
    expect(verdict).toEqual({ variant: "unstable", issues: [] });
    // The stable schema alone (what the inspector used to check) rejects it.
    expect(set.checker("stable")!.check(update({ sessionUpdate: "plan_removed", planId: "p1" }))).not.toEqual([]);
  });

  it("still reports what is wrong in an unstable kind, labelled unstable", () => {
    const verdict = set.check(update({ sessionUpdate: "session_message_chunk" }));
    expect(verdict?.variant).toBe("unstable");
    expect(verdict?.issues.length).toBeGreaterThan(0);
  });

  it("fails a made-up vendor kind as not in any schema", () => {
    expect(set.check(update({ sessionUpdate: "acme_sparkles", sparkle: 3 }))).toEqual({
      variant: undefined,
      issues: [{ path: "params.update.sessionUpdate", message: '"acme_sparkles" is not in any schema' }],
    });
  });

  it("counts v2 only when v2 was negotiated", () => {
    const stateUpdate = update({ sessionUpdate: "state_update", state: "idle" });
    expect(set.check(stateUpdate)?.variant).toBeUndefined();
    expect(set.check(stateUpdate, { v2: true })?.variant).toBe("v2");
    expect(set.variantOf("auth/login", "params")).toBeUndefined();
    expect(set.variantOf("auth/login", "params", { v2: true })).toBe("v2");
    // Under v2, v2 comes first: it reshaped v1's methods (a prompt's result is a receipt, { messageId }).
    expect(set.variantOf("session/prompt", "params", { v2: true })).toBe("v2");
    expect(set.variantOf("session/prompt", "params")).toBe("stable");
    // A method only v1 defines is still judged by v1.
    expect(set.variantOf("session/load", "params", { v2: true })).toBe("stable");
  });

  it("finds methods by variant: stable, else unstable", () => {
    expect(set.variantOf("elicitation/create", "params")).toBe("stable");
    expect(set.variantOf("$/cancel_request", "params")).toBe("stable");
    expect(set.variantOf("mcp/message", "params")).toBe("unstable");
    expect(set.variantOf("auth/status", "result")).toBe("unstable");
    expect(set.check(frame("to-agent", { id: 1, method: "auth/status", params: {} }))).toEqual({
      variant: "unstable",
      issues: [],
    });
  });

  it("flags a request method in no schema, but not an extension", () => {
    expect(set.check(frame("from-agent", { id: 7, method: "acme/do", params: {} }))?.issues).toEqual([
      { path: "method", message: '"acme/do" is not in any schema' },
    ]);
    expect(set.check(frame("from-agent", { id: 8, method: "_acme/do", params: {} }))).toBeUndefined();
  });

  it("reads the negotiated version from initialize's result", () => {
    expect(negotiatedV2({ protocolVersion: 2 })).toBe(true);
    expect(negotiatedV2({ protocolVersion: 1 })).toBe(false);
    expect(negotiatedV2("2")).toBe(false);
  });
});
