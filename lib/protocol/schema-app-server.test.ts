import { readFileSync } from "node:fs";
import { describe, expect, it } from "vitest";
import { codexCaptureResequenced } from "../../test/fixtures/codex-captures";
import schemaFile from "./app-server-schema.json";
import type { Frame } from "./frame";
import { FrameSequencer } from "./frame-sequencer";
import { createAppServerSchema, type AppServerSchemaFile } from "./schema-app-server";
import { createSchemaSet } from "./schema-check";

const pinned = JSON.parse(readFileSync(new URL("../../test/agents/package.json", import.meta.url), "utf8")) as {
  dependencies: Record<string, string>;
};

const schema = createAppServerSchema(schemaFile as AppServerSchemaFile);

const frames = codexCaptureResequenced("steered");
const find = (pred: (f: Frame) => boolean) => frames.find(pred)!;

describe("the app-server schema kept in the repository", () => {
  it("comes from the pinned Codex (after a bump: npm run schema:app-server)", () => {
    expect(schemaFile.codexVersion).toBe(pinned.dependencies["@openai/codex"]);
  });

  it("names a params and a result definition for the methods the playground sends, all defined", () => {
    const { clientRequests } = schemaFile.methods;
    expect(clientRequests["thread/start"]).toEqual({ params: "ThreadStartParams", result: "ThreadStartResponse" });
    expect(clientRequests["turn/steer"]).toEqual({ params: "TurnSteerParams", result: "TurnSteerResponse" });
    expect(clientRequests["account/logout"]).toEqual({ result: "LogoutAccountResponse" });
    for (const side of Object.values(schemaFile.methods as AppServerSchemaFile["methods"]))
      for (const entry of Object.values(side))
        for (const def of [entry.params, entry.result]) if (def) expect(schemaFile.$defs).toHaveProperty(def);
  });
});

describe("app-server frames checked against its schema", () => {
  it("accepts every frame Codex and the playground exchanged (but the unknown method)", () => {
    expect(frames.filter((f) => f.kind === "invalid")).toEqual([]);
    const sent = frames.filter((f) => !(f.kind === "request" && f.method === "no/such"));
    const judged = sent.map((f) => ({ seq: f.seq, method: f.method, verdict: schema.check(f) }));
    const bad = judged.filter((j) => j.verdict && j.verdict.issues.length > 0);
    expect(bad, JSON.stringify(bad, null, 1)).toEqual([]);
    // Every request, notification and paired response was judged, by the one app-server schema.
    const unjudged = judged.filter((j, i) => !j.verdict && sent[i]!.method !== undefined);
    expect(unjudged).toEqual([]);
    expect(new Set(judged.flatMap((j) => (j.verdict ? [j.verdict.variant] : [])))).toEqual(new Set(["stable"]));
  });

  it("checks results by the method of the request they answer", () => {
    const threadStart = find((f) => f.kind === "response" && f.method === "thread/start");
    expect(schema.check(threadStart)).toEqual({ variant: "stable", issues: [] });
    const broken = { ...threadStart, message: { id: threadStart.id, result: { thread: { id: 7 } } } };
    const issues = schema.check(broken)!.issues.map((i) => i.path);
    expect(issues).toContain("result.thread.id");
    expect(issues).toContain("result.model");
  });

  it("flags a malformed turn/start: a text input without its text", () => {
    const start = find((f) => f.dir === "to-agent" && f.method === "turn/start");
    const message = start.message as { params: { threadId: string } };
    const malformed = {
      ...start,
      message: {
        id: 99,
        method: "turn/start",
        params: { threadId: message.params.threadId, input: [{ type: "text" }] },
      },
    };
    const verdict = schema.check(malformed);
    expect(verdict?.variant).toBe("stable");
    expect(verdict?.issues).toEqual([{ path: "params.input[0].text", message: "missing (required)" }]);
  });

  it("flags turn/steer without the turn it expects", () => {
    const steer = find((f) => f.dir === "to-agent" && f.method === "turn/steer");
    const { expectedTurnId: _gone, ...params } = (steer.message as { params: Record<string, unknown> }).params;
    const verdict = schema.check({ ...steer, message: { id: 7, method: "turn/steer", params } });
    expect(verdict?.issues).toEqual([{ path: "params.expectedTurnId", message: "missing (required)" }]);
  });

  it("checks server requests and their answers, notifications, and error responses", () => {
    const ask = find((f) => f.method === "item/commandExecution/requestApproval" && f.kind === "request");
    expect(schema.check(ask)).toEqual({ variant: "stable", issues: [] });
    const s = new FrameSequencer(undefined, "codex-app-server");
    s.line("from-agent", ask.raw);
    const accept = s.line("to-agent", JSON.stringify({ id: ask.id, result: { decision: "accept" } }));
    expect(accept.method).toBe("item/commandExecution/requestApproval");
    expect(schema.check(accept)).toEqual({ variant: "stable", issues: [] });
    const s2 = new FrameSequencer(undefined, "codex-app-server");
    s2.line("from-agent", ask.raw);
    const wrong = s2.line("to-agent", JSON.stringify({ id: ask.id, result: { decision: "yes please" } }));
    expect(schema.check(wrong)?.issues[0]?.path).toBe("result.decision");

    const delta = find((f) => f.method === "item/agentMessage/delta");
    const { delta: _d, ...noDelta } = (delta.message as { params: Record<string, unknown> }).params;
    expect(schema.check({ ...delta, message: { method: delta.method, params: noDelta } })?.issues).toEqual([
      { path: "params.delta", message: "missing (required)" },
    ]);

    const unknown = find((f) => f.kind === "response" && f.method === "no/such");
    expect(schema.check(unknown)).toEqual({ variant: "stable", issues: [] });
    expect(schema.check({ ...unknown, message: { id: 9, error: { code: "bad" } } })?.issues).toEqual([
      { path: "error.message", message: "missing (required)" },
      { path: "error.code", message: "expected integer, got string" },
    ]);
  });

  it("names methods outside the schema, sent the wrong way, or without or with an id they should not have", () => {
    const request = find((f) => f.method === "no/such" && f.kind === "request");
    expect(schema.check(request)?.issues).toEqual([
      { path: "method", message: '"no/such" is not in the app-server schema' },
    ]);
    const s = new FrameSequencer(undefined, "codex-app-server");
    expect(schema.check(s.line("to-agent", '{"method":"turn/completed","params":{}}'))?.issues[0]?.message).toBe(
      '"turn/completed" is a notification the server sends, not the client',
    );
    expect(schema.check(s.line("to-agent", '{"id":3,"method":"initialized"}'))?.issues[0]?.message).toBe(
      '"initialized" is a notification (sent without an id)',
    );
    expect(schema.check(s.line("to-agent", '{"method":"thread/list","params":{}}'))?.issues[0]?.message).toBe(
      '"thread/list" is a request (it needs an id)',
    );
  });

  it("takes no params where the method has none, and optional ones absent or null", () => {
    const s = new FrameSequencer(undefined, "codex-app-server");
    expect(schema.check(s.line("to-agent", '{"method":"initialized"}'))?.issues).toEqual([]);
    expect(schema.check(s.line("to-agent", '{"id":1,"method":"account/logout"}'))?.issues).toEqual([]);
    expect(schema.check(s.line("to-agent", '{"id":2,"method":"account/logout","params":{"x":1}}'))?.issues).toEqual([
      { path: "params", message: "not allowed: takes no params" },
    ]);
    expect(
      schema.check(s.line("to-agent", '{"id":3,"method":"account/rateLimits/read","params":null}'))?.issues,
    ).toEqual([]);
  });

  it("is not ACP's judge: ACP's schema calls the same frames not in any schema", () => {
    const acp = createSchemaSet({
      stable: JSON.parse(
        readFileSync(
          new URL("../../node_modules/@agentclientprotocol/sdk/schema/v1/schema.json", import.meta.url),
          "utf8",
        ),
      ),
    });
    const start = find((f) => f.dir === "to-agent" && f.method === "thread/start");
    expect(acp.check(start)?.variant).toBeUndefined();
    expect(schema.check(start)).toEqual({ variant: "stable", issues: [] });
  });
});
