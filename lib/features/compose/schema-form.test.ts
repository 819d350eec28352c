import { readFileSync } from "node:fs";
import { createRequire } from "node:module";
import { describe, expect, it } from "vitest";
import appServer from "../../protocol/app-server-schema.json";
import { createSchemaChecker } from "../../protocol/schema-check";
import {
  buildForm,
  buildFormFromSchema,
  getIn,
  initialValue,
  issuesAt,
  matchVariant,
  moveIn,
  pathString,
  setIn,
  switchVariant,
  unsetIn,
  validateAgainst,
  type Defs,
  type FieldNode,
  type ObjectNode,
  type UnionNode,
} from "./schema-form";

const require = createRequire(import.meta.url);
const schema = JSON.parse(readFileSync(require.resolve("@agentclientprotocol/sdk/schema/v1/schema.json"), "utf8")) as {
  $defs: Defs;
};
const defs = schema.$defs;
const checker = createSchemaChecker(schema);

function field(node: FieldNode, ...names: string[]): FieldNode {
  let n = node;
  for (const name of names) {
    if (n.kind !== "object") throw new Error(`${name}: not an object (${n.kind})`);
    const f = n.fields.find((x) => x.name === name);
    if (!f) throw new Error(`no field ${name}`);
    n = f.node;
  }
  return n;
}

const names = (n: FieldNode) => (n as ObjectNode).fields.map((f) => `${f.name}${f.required ? "*" : ""}`);

describe("schema-form: field trees from the SDK schema", () => {
  it("InitializeRequest: nested capabilities, $ref+allOf merged, nullable refs, _meta as JSON, last", () => {
    const form = buildForm(defs, "InitializeRequest");
    expect(form.kind).toBe("object");
    expect(names(form)).toEqual(["protocolVersion*", "clientCapabilities", "clientInfo", "_meta"]);
    expect(field(form, "protocolVersion")).toMatchObject({ kind: "number", integer: true, minimum: 0, maximum: 65535 });
    // Every client capability of the schema is there, whatever the SDK adds.
    const caps = field(form, "clientCapabilities");
    expect(names(caps)).toEqual(expect.arrayContaining(["fs", "terminal", "session", "auth", "elicitation"]));
    expect(names(caps).at(-1)).toBe("_meta");
    expect(field(caps, "fs", "readTextFile")).toMatchObject({ kind: "boolean", default: false });
    expect(field(caps, "terminal").kind).toBe("boolean");
    expect(field(caps, "elicitation")).toMatchObject({ kind: "object", nullable: true });
    // anyOf [Implementation, null] → a nullable object.
    const info = field(form, "clientInfo");
    expect(info).toMatchObject({ kind: "object", nullable: true, refs: ["Implementation"] });
    expect(names(info)).toEqual(["name*", "title", "version*", "_meta"]);
    expect(field(info, "title")).toMatchObject({ kind: "string", nullable: true });
    expect(field(form, "_meta")).toMatchObject({ kind: "json", nullable: true });
    // The outer description wins over the referenced definition's.
    expect(field(form, "protocolVersion").description).toMatch(/latest protocol version supported by the client/);
  });

  it("PromptRequest: an array of a discriminated union, nested unions, enums from const oneOf", () => {
    const form = buildForm(defs, "PromptRequest");
    expect(names(form)).toEqual(["sessionId*", "prompt*", "_meta"]);
    const prompt = field(form, "prompt");
    expect(prompt.kind).toBe("array");
    const block = (prompt as { items: FieldNode }).items as UnionNode;
    expect(block.kind).toBe("union");
    expect(block.tag).toBe("type");
    expect(block.variants.map((v) => v.label)).toEqual(["text", "image", "audio", "resource_link", "resource"]);
    const image = block.variants[1]!.node;
    expect(image.refs).toContain("ImageContent");
    expect(names(image)).toEqual(["type*", "annotations", "data*", "mimeType*", "uri", "_meta"]);
    expect(field(image, "type")).toMatchObject({ kind: "const", value: "image" });
    // Role is oneOf two consts: an enum.
    expect(field(image, "annotations", "audience")).toMatchObject({
      kind: "array",
      nullable: true,
      items: { kind: "string", enum: ["assistant", "user"] },
    });
    const resource = field(block.variants[4]!.node, "resource") as UnionNode;
    expect(resource.kind).toBe("union");
    expect(resource.variants.map((v) => v.label)).toEqual(["TextResourceContents", "BlobResourceContents"]);
  });

  it("NewSessionRequest: MCP servers, a union whose stdio variant has no tag", () => {
    const form = buildForm(defs, "NewSessionRequest");
    expect(names(form)).toEqual(["cwd*", "additionalDirectories", "mcpServers*", "_meta"]);
    expect(field(form, "additionalDirectories")).toMatchObject({ kind: "array", items: { kind: "string" } });
    const server = (field(form, "mcpServers") as { items: FieldNode }).items as UnionNode;
    expect(server.tag).toBe("type");
    expect(server.variants.map((v) => [v.label, v.tagValue])).toEqual([
      ["http", "http"],
      ["sse", "sse"],
      ["stdio", undefined],
    ]);
    expect(names(server.variants[2]!.node)).toEqual(["name*", "command*", "args*", "env*", "_meta"]);
    expect(field(server.variants[0]!.node, "headers")).toMatchObject({
      kind: "array",
      items: { kind: "object", refs: ["HttpHeader"] },
    });
  });

  it("a request whose top level is an object plus anyOf becomes a union of merged objects", () => {
    const form = buildForm(defs, "SetSessionConfigOptionRequest") as UnionNode;
    expect(form.kind).toBe("union");
    expect(form.variants.map((v) => v.label)).toEqual(["boolean", "value_id"]);
    expect(names(form.variants[0]!.node)).toEqual(["sessionId*", "configId*", "type*", "value*", "_meta"]);
    expect(field(form.variants[1]!.node, "value").kind).toBe("string");
  });

  it("every stable agent method's request definition builds", () => {
    for (const name of Object.keys(defs)) {
      const def = defs[name] as Record<string, unknown>;
      if (def["x-side"] !== "agent" || name.endsWith("Response")) continue;
      const form = buildForm(defs, name);
      expect(["object", "union"]).toContain(form.kind);
    }
  });

  it("an elicitation's requestedSchema: strings, labelled enums, numbers, booleans, multi-select", () => {
    const requested = {
      type: "object",
      properties: {
        name: { type: "string", title: "Name", minLength: 2 },
        color: {
          type: "string",
          oneOf: [
            { const: "r", title: "Red" },
            { const: "g", title: "Green" },
          ],
        },
        size: { type: "string", enum: ["s", "m"] },
        count: { type: "integer", minimum: 1, maximum: 5 },
        ok: { type: "boolean", default: true },
        tags: { type: "array", items: { type: "string", enum: ["a", "b"] } },
      },
      required: ["name", "count"],
    };
    const form = buildFormFromSchema(requested);
    expect(names(form)).toEqual(["name*", "color", "size", "count*", "ok", "tags"]);
    expect(field(form, "color")).toMatchObject({ kind: "string", enum: ["r", "g"], enumLabels: ["Red", "Green"] });
    expect(field(form, "size")).toMatchObject({ kind: "string", enum: ["s", "m"] });
    expect(field(form, "count")).toMatchObject({ kind: "number", integer: true, minimum: 1, maximum: 5 });
    expect(field(form, "tags")).toMatchObject({ kind: "array", items: { kind: "string", enum: ["a", "b"] } });
    expect(initialValue(form)).toEqual({ name: "", count: 1 });
    expect(validateAgainst(requested, { name: "x", count: 9 })).toEqual([
      { path: "name", message: "shorter than 2" },
      { path: "count", message: "above the maximum 5" },
    ]);
    expect(validateAgainst(requested, { name: "xy", count: 2, color: "g", tags: ["a"] })).toEqual([]);
    // A pattern that does not compile is an issue to show, not an exception while rendering.
    expect(validateAgainst({ type: "string", pattern: "(" }, "x")).toEqual([
      { path: "", message: "the schema's pattern ( is not a valid regular expression" },
    ]);
  });

  it("the app-server's turn/start: its input union is tagged by one-value enums, as by consts", () => {
    const node = buildForm(appServer.$defs, "TurnStartParams");
    const input = node.kind === "object" ? node.fields.find((f) => f.name === "input")?.node : undefined;
    const items = input?.kind === "array" ? input.items : undefined;
    expect(items?.kind === "union" && items.tag).toBe("type");
    const labels = items?.kind === "union" ? items.variants.map((v) => v.label) : [];
    expect(labels[0]).toBe("text");
    expect(labels).toContain("skill");
  });

  it("cycles and unknown shapes fall back to free JSON", () => {
    const cyclic: Defs = {
      Node: { type: "object", properties: { child: { $ref: "#/$defs/Node" }, v: { type: "string" } } },
    };
    const form = buildForm(cyclic, "Node");
    expect(field(form, "child").kind).toBe("json");
    expect(buildFormFromSchema(true).kind).toBe("json");
    expect(buildFormFromSchema({ type: ["string", "number"] }).kind).toBe("json");
    expect(buildFormFromSchema({ type: "object", additionalProperties: { type: "string" } }).kind).toBe("json");
  });
});

describe("schema-form: values", () => {
  it("initial values fill required fields only, and validate against the schema", () => {
    const init = buildForm(defs, "InitializeRequest");
    expect(initialValue(init)).toEqual({ protocolVersion: 0 });
    expect(checker.validate("InitializeRequest", initialValue(init))).toEqual([]);
    const session = buildForm(defs, "NewSessionRequest");
    expect(initialValue(session)).toEqual({ cwd: "", mcpServers: [] });
    const block = (field(buildForm(defs, "PromptRequest"), "prompt") as { items: FieldNode }).items as UnionNode;
    expect(initialValue(block)).toEqual({ type: "text", text: "" });
    expect(initialValue(block.variants[1]!.node)).toEqual({ type: "image", data: "", mimeType: "" });
    const stdio = initialValue(
      ((field(session, "mcpServers") as { items: FieldNode }).items as UnionNode).variants[2]!.node,
    );
    expect(stdio).toEqual({ name: "", command: "", args: [], env: [] });
    expect(checker.validate("McpServer", stdio)).toEqual([]);
  });

  it("matches variants by tag, by the missing tag, and by shape", () => {
    const session = buildForm(defs, "NewSessionRequest");
    const server = (field(session, "mcpServers") as { items: FieldNode }).items as UnionNode;
    expect(matchVariant(server, { type: "sse", name: "x", url: "u", headers: [] })).toBe(1);
    expect(matchVariant(server, { name: "x", command: "/bin/x", args: [], env: [] })).toBe(2);
    const resource = field(
      ((field(buildForm(defs, "PromptRequest"), "prompt") as { items: FieldNode }).items as UnionNode).variants[4]!
        .node,
      "resource",
    ) as UnionNode;
    expect(matchVariant(resource, { uri: "file:///a", blob: "AAA" })).toBe(1);
    expect(matchVariant(resource, { uri: "file:///a", text: "hi" })).toBe(0);
    const setConfig = buildForm(defs, "SetSessionConfigOptionRequest") as UnionNode;
    expect(matchVariant(setConfig, { sessionId: "s", configId: "c", value: "v" })).toBe(1);
    expect(matchVariant(setConfig, { sessionId: "s", configId: "c", type: "boolean", value: true })).toBe(0);
  });

  it("switching variants keeps the fields both have", () => {
    const block = (field(buildForm(defs, "PromptRequest"), "prompt") as { items: FieldNode }).items as UnionNode;
    const image = { type: "image", data: "QUJD", mimeType: "image/png", annotations: { priority: 1 } };
    expect(switchVariant(block, image, 2)).toEqual({
      type: "audio",
      data: "QUJD",
      mimeType: "image/png",
      annotations: { priority: 1 },
    });
    expect(switchVariant(block, image, 0)).toEqual({ type: "text", text: "", annotations: { priority: 1 } });
  });

  it("edits values immutably by path", () => {
    const v = { params: { prompt: [{ type: "text", text: "a" }] } };
    const w = setIn(v, ["params", "prompt", 1], { type: "text", text: "b" });
    expect(v.params.prompt).toHaveLength(1);
    expect(getIn(w, ["params", "prompt", 1, "text"])).toBe("b");
    expect(setIn(undefined, ["a", 0, "b"], 1)).toEqual({ a: [{ b: 1 }] });
    expect(unsetIn(w, ["params", "prompt", 0])).toEqual({ params: { prompt: [{ type: "text", text: "b" }] } });
    expect(unsetIn({ a: 1, b: 2 }, ["a"])).toEqual({ b: 2 });
    expect(moveIn(w, ["params", "prompt"], 1, 0)).toEqual({
      params: {
        prompt: [
          { type: "text", text: "b" },
          { type: "text", text: "a" },
        ],
      },
    });
    expect(moveIn(w, ["params", "prompt"], 1, 2)).toBe(w);
  });

  it("paths match schema-check's issue paths, so issues land on their fields", () => {
    expect(pathString(["prompt", 0, "text"], "params")).toBe("params.prompt[0].text");
    expect(pathString(["a"])).toBe("a");
    const issues = checker.validate(
      "PromptRequest",
      { sessionId: 1, prompt: [{ type: "image", data: "x" }] },
      "params",
    );
    expect(issuesAt(issues, pathString(["sessionId"], "params"))).toEqual([
      { path: "params.sessionId", message: "expected string, got integer" },
    ]);
    expect(issuesAt(issues, pathString(["prompt", 0, "mimeType"], "params"))).toEqual([
      { path: "params.prompt[0].mimeType", message: "missing (required)" },
    ]);
  });
});
