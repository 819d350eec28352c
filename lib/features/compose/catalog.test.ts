import { readFileSync } from "node:fs";
import { createRequire } from "node:module";
import { AGENT_METHODS, PROTOCOL_VERSION } from "@agentclientprotocol/sdk";
import { AGENT_METHODS as UNSTABLE_AGENT_METHODS } from "@agentclientprotocol/sdk/unstable";
import { describe, expect, it } from "vitest";
import { reduceAllFacts, EMPTY_FACTS } from "../../folds/agent-facts";
import {
  acceptedContent,
  appServerComposeMethods,
  capabilityNotes,
  APP_SERVER_COMPOSE_RULES,
  COMPOSED_SIDES,
  composeMethods,
  composeWarnings,
  methodSupport,
  prefillParams,
  suggestionsFor,
  variantNote,
} from "./catalog";
import { FrameSequencer } from "../../protocol/frame-sequencer";
import { defaultPolicies } from "../answers/policy";
import { createSchemaChecker } from "../../protocol/schema-check";
import { buildForm, type Defs } from "./schema-form";
import appServerSchemaFile from "../../protocol/app-server-schema.json";
import { createAppServerSchema, type AppServerSchemaFile } from "../../protocol/schema-app-server";
import { codexCaptureResequenced } from "../../../test/fixtures/codex-captures";
import { appServerInitializeParams } from "../protocols/codex-app-server/handshake";
import { foldAppServerConversation } from "../protocols/codex-app-server/conversation";

const require = createRequire(import.meta.url);
const load = (file: string) =>
  JSON.parse(readFileSync(require.resolve(`@agentclientprotocol/sdk/schema/v1/${file}`), "utf8")) as { $defs: Defs };
const stable = load("schema.json");
const STABLE_METHODS = Object.values(AGENT_METHODS);
const ALL_METHODS = Object.values(UNSTABLE_AGENT_METHODS);
const unstable = load("schema.unstable.json");

function facts(...messages: ["to-agent" | "from-agent", object][]) {
  const s = new FrameSequencer();
  return reduceAllFacts(messages.map(([dir, m]) => s.line(dir, JSON.stringify({ jsonrpc: "2.0", ...m }))));
}

const GEMINI = facts(
  ["to-agent", { id: 1, method: "initialize", params: { protocolVersion: 1 } }],
  [
    "from-agent",
    {
      id: 1,
      result: {
        protocolVersion: 1,
        authMethods: [
          { id: "oauth-personal", name: "Log in with Google", description: "Google account" },
          { id: "gateway", name: "AI API Gateway", _meta: { gateway: { protocol: "google" } } },
        ],
        agentCapabilities: {
          loadSession: true,
          promptCapabilities: { image: true, audio: true, embeddedContext: false },
          mcpCapabilities: { http: true, sse: false },
        },
      },
    },
  ],
  ["to-agent", { id: 2, method: "session/new", params: { cwd: "/w", mcpServers: [] } }],
  [
    "from-agent",
    {
      id: 2,
      result: {
        sessionId: "s1",
        modes: {
          currentModeId: "default",
          availableModes: [
            { id: "default", name: "Default" },
            { id: "plan", name: "Plan", description: "Read-only" },
          ],
        },
        configOptions: [
          {
            id: "model",
            name: "Model",
            type: "select",
            currentValue: "auto",
            options: [
              { value: "auto", name: "Auto" },
              { group: "g", name: "G", options: [{ value: "pro", name: "Pro" }] },
            ],
          },
        ],
      },
    },
  ],
  ["to-agent", { id: 3, method: "session/list", params: {} }],
  ["from-agent", { id: 3, error: { code: -32601, message: "Method not found" } }],
);

describe("compose catalog", () => {
  it("lists the stable agent methods with their definitions; unstable ones behind the toggle", () => {
    const list = composeMethods(stable.$defs, STABLE_METHODS, STABLE_METHODS);
    expect(list.map((m) => m.method)).toEqual([
      "initialize",
      "authenticate",
      "session/new",
      "session/load",
      "session/set_mode",
      "session/set_config_option",
      "session/prompt",
      "session/cancel",
      "session/list",
      "session/delete",
      "session/resume",
      "session/close",
      "logout",
    ]);
    expect(list.find((m) => m.method === "session/cancel")).toEqual({
      method: "session/cancel",
      def: "CancelNotification",
      notification: true,
      unstable: false,
    });
    expect(list.find((m) => m.method === "session/prompt")?.def).toBe("PromptRequest");
    const all = composeMethods(unstable.$defs, ALL_METHODS, STABLE_METHODS);
    expect(all.filter((m) => m.unstable).map((m) => m.method)).toEqual(
      expect.arrayContaining(["session/fork", "providers/list", "auth/status", "mcp/message"]),
    );
    expect(all.find((m) => m.method === "mcp/message")?.notification).toBe(true);
  });

  it("says which methods the agent advertises, and which it refused with -32601", () => {
    expect(methodSupport("session/load", EMPTY_FACTS).state).toBe("unknown");
    expect(methodSupport("session/prompt", EMPTY_FACTS).state).toBe("baseline");
    expect(methodSupport("session/load", GEMINI)).toEqual({
      state: "advertised",
      reason: "agentCapabilities.loadSession",
    });
    expect(methodSupport("authenticate", GEMINI).state).toBe("advertised");
    expect(methodSupport("session/set_mode", GEMINI)).toEqual({
      state: "advertised",
      reason: "2 modes in the session",
    });
    expect(methodSupport("session/resume", GEMINI)).toEqual({
      state: "not-advertised",
      reason: "agentCapabilities.sessionCapabilities.resume is not set",
    });
    expect(methodSupport("logout", GEMINI).state).toBe("not-advertised");
    expect(methodSupport("session/list", GEMINI)).toMatchObject({
      state: "unsupported",
      reason: /not supported by this agent/,
    });
  });

  it("prefills from what the agent said, and the prefills are valid params", () => {
    const checker = createSchemaChecker(stable);
    const ctx = { cwd: "/w", protocolVersion: PROTOCOL_VERSION };
    for (const spec of composeMethods(stable.$defs, STABLE_METHODS, STABLE_METHODS)) {
      const params = prefillParams(spec.method, buildForm(stable.$defs, spec.def), GEMINI, ctx);
      const issues = checker.validate(spec.def, params, "params");
      // A prompt's text block starts empty, which is valid.
      expect({ method: spec.method, issues }).toEqual({ method: spec.method, issues: [] });
    }
    const p = (method: string, def: string) => prefillParams(method, buildForm(stable.$defs, def), GEMINI, ctx);
    expect(p("initialize", "InitializeRequest")).toEqual({
      protocolVersion: 1,
      clientCapabilities: { fs: { readTextFile: true, writeTextFile: true }, terminal: true },
      clientInfo: { name: "acp-playground", title: "ACP Playground", version: "0.1.0" },
    });
    expect(p("authenticate", "AuthenticateRequest")).toEqual({ methodId: "oauth-personal" });
    expect(p("session/new", "NewSessionRequest")).toEqual({ cwd: "/w", mcpServers: [] });
    expect(p("session/load", "LoadSessionRequest")).toEqual({ sessionId: "s1", cwd: "/w", mcpServers: [] });
    expect(p("session/set_mode", "SetSessionModeRequest")).toEqual({ sessionId: "s1", modeId: "plan" });
    expect(p("session/set_config_option", "SetSessionConfigOptionRequest")).toEqual({
      sessionId: "s1",
      configId: "model",
      value: "auto",
    });
    expect(p("session/prompt", "PromptRequest")).toEqual({ sessionId: "s1", prompt: [{ type: "text", text: "" }] });
    expect(p("session/list", "ListSessionsRequest")).toEqual({});
  });

  it("suggests sessions, modes, config values and auth methods (with their _meta)", () => {
    expect(suggestionsFor("session/prompt", ["sessionId"], {}, GEMINI, [])).toEqual([
      { value: "s1", label: "s1 (current)" },
    ]);
    expect(suggestionsFor("session/set_mode", ["modeId"], {}, GEMINI, [])?.map((s) => s.label)).toEqual([
      "Default (default, current)",
      "Plan (plan)",
    ]);
    expect(
      suggestionsFor("session/set_config_option", ["value"], { configId: "model" }, GEMINI, [])?.map((s) => s.value),
    ).toEqual(["auto", "pro"]);
    expect(suggestionsFor("authenticate", ["methodId"], {}, GEMINI, [])?.[1]).toEqual({
      value: "gateway",
      label: "AI API Gateway (gateway)",
      detail: '_meta {"gateway":{"protocol":"google"}}',
    });
    expect(suggestionsFor("session/new", ["cwd"], {}, GEMINI, ["/w", "/x"])?.length).toBe(2);
    expect(suggestionsFor("session/new", ["mcpServers", 0, "name"], {}, GEMINI, [])).toBeUndefined();
  });

  it("warns about content and transports the agent did not advertise, and caps whose policy is deny", () => {
    expect(acceptedContent(GEMINI)).toEqual({
      text: true,
      resource_link: true,
      image: true,
      audio: true,
      resource: false,
    });
    const prompt = {
      sessionId: "s1",
      prompt: [
        { type: "text", text: "x" },
        { type: "resource", resource: { uri: "u", text: "t" } },
      ],
    };
    expect(composeWarnings("session/prompt", prompt, GEMINI)).toEqual([
      {
        path: "params.prompt[1]",
        message: "resource is not in the agent's promptCapabilities (embeddedContext)",
        blocking: true,
      },
    ]);
    const servers = {
      cwd: "/w",
      mcpServers: [
        { type: "sse", name: "s", url: "u", headers: [] },
        { type: "http", name: "h", url: "u", headers: [] },
      ],
    };
    expect(composeWarnings("session/new", servers, GEMINI)).toEqual([
      { path: "params.mcpServers[0]", message: "the agent does not advertise mcpCapabilities.sse", blocking: true },
    ]);
    expect(composeWarnings("session/list", {}, GEMINI)[0]?.message).toMatch(/-32601/);

    const policies = { ...defaultPolicies(), "fs/write_text_file": "deny" as const, "terminal/kill": "deny" as const };
    const init = {
      protocolVersion: 1,
      clientCapabilities: { fs: { readTextFile: true, writeTextFile: true }, terminal: true },
    };
    expect(composeWarnings("initialize", init, EMPTY_FACTS, policies).map((w) => w.path)).toEqual([
      "params.clientCapabilities.fs.writeTextFile",
      "params.clientCapabilities.terminal",
    ]);
    expect(
      composeWarnings("initialize", { ...init, clientCapabilities: { terminal: false } }, EMPTY_FACTS, policies),
    ).toEqual([]);
  });

  it("notes what the agent advertised beside the forms it bears on", () => {
    expect(capabilityNotes("session/prompt", GEMINI)).toEqual([
      "promptCapabilities: image ✓ · audio ✓ · embeddedContext ✗ (text and resource_link always)",
    ]);
    expect(capabilityNotes("session/new", GEMINI)).toEqual(["mcpCapabilities: http ✓ · sse ✗ (stdio always)"]);
    expect(capabilityNotes("authenticate", GEMINI)).toEqual([
      "oauth-personal: Log in with Google (Google account)",
      'gateway: AI API Gateway · _meta {"gateway":{"protocol":"google"}}',
    ]);
    expect(capabilityNotes("session/cancel", GEMINI)).toEqual([]);
    expect(capabilityNotes("session/prompt", EMPTY_FACTS)).toEqual([]);
  });

  it("greys out variants the agent did not advertise", () => {
    expect(variantNote("session/prompt", ["prompt", 0], "resource", GEMINI)).toBe(
      "not in promptCapabilities (embeddedContext)",
    );
    expect(variantNote("session/prompt", ["prompt", 0], "image", GEMINI)).toBeUndefined();
    expect(variantNote("session/new", ["mcpServers", 2], "sse", GEMINI)).toBe("mcpCapabilities.sse not advertised");
    expect(variantNote("session/new", ["mcpServers", 2], "stdio", GEMINI)).toBeUndefined();
    expect(variantNote("session/prompt", ["prompt", 0], "audio", EMPTY_FACTS)).toBeUndefined();
  });
});

describe("compose coverage: every method a client sends, in every schema the SDK ships, has a form", async () => {
  const v1 = await import("@agentclientprotocol/sdk");
  const v1u = await import("@agentclientprotocol/sdk/unstable");
  const v2 = await import("@agentclientprotocol/sdk/experimental/v2");
  const v2u = await import("@agentclientprotocol/sdk/experimental/v2/unstable");
  const schemaOf = (path: string) =>
    JSON.parse(readFileSync(require.resolve(`@agentclientprotocol/sdk/schema/${path}`), "utf8")) as { $defs: Defs };
  type Surface = { AGENT_METHODS: Record<string, string>; PROTOCOL_METHODS: Record<string, string> };
  // What components/compose/use-acp-schema.ts offers for each schema: the SDK's own lists.
  const offered = (s: Surface) => [...Object.values(s.AGENT_METHODS), ...Object.values(s.PROTOCOL_METHODS)];
  const surfaces = [
    { name: "v1 stable", file: "v1/schema.json", shown: v1, stable: v1, version: 1 },
    { name: "v1 unstable", file: "v1/schema.unstable.json", shown: v1u, stable: v1, version: 1 },
    { name: "v2", file: "v2/schema.json", shown: v2, stable: v2, version: 2 },
    { name: "v2 unstable", file: "v2/schema.unstable.json", shown: v2u, stable: v2, version: 2 },
  ];

  /** Every method of the schema a client sends: requests and notifications of the sides Compose covers. */
  function schemaMethods(defs: Defs): string[] {
    const out = new Set<string>();
    for (const [name, def] of Object.entries(defs)) {
      if (typeof def !== "object" || typeof def["x-method"] !== "string") continue;
      if (!name.endsWith("Request") && !name.endsWith("Notification")) continue;
      if (COMPOSED_SIDES.has(def["x-side"] as string)) out.add(def["x-method"]);
    }
    return [...out].sort();
  }

  for (const s of surfaces) {
    it(`${s.name} (${s.file})`, () => {
      const { $defs } = schemaOf(s.file);
      const wanted = schemaMethods($defs);
      // A schema with no client methods would make this test pass vacuously.
      expect(wanted.length).toBeGreaterThan(5);
      const specs = composeMethods($defs, offered(s.shown), offered(s.stable));
      const formed = new Set<string>();
      const broken: string[] = [];
      for (const spec of specs) {
        try {
          const node = buildForm($defs, spec.def);
          const params = prefillParams(spec.method, node, EMPTY_FACTS, { cwd: "/w", protocolVersion: s.version });
          if (params === undefined) broken.push(`${spec.method}: no initial params`);
          else formed.add(spec.method);
        } catch (e) {
          broken.push(`${spec.method}: ${String(e)}`);
        }
      }
      const missing = wanted.filter((m) => !formed.has(m));
      expect({ schema: s.name, missingComposeForms: missing, broken }).toEqual({
        schema: s.name,
        missingComposeForms: [],
        broken: [],
      });
    });
  }

  it("v2 prefills initialize with info and capabilities, and session/new with the session's own cwd", () => {
    const { $defs } = schemaOf("v2/schema.json");
    const checker = createSchemaChecker({ $defs });
    const init = prefillParams("initialize", buildForm($defs, "InitializeRequest"), EMPTY_FACTS, {
      cwd: "/w",
      protocolVersion: 2,
    });
    expect(init).toMatchObject({ protocolVersion: 2, info: { name: "acp-playground" }, capabilities: {} });
    expect(checker.validate("InitializeRequest", init, "params")).toEqual([]);
    const inSub = facts(
      ["to-agent", { id: 1, method: "session/new", params: { cwd: "/w/sub", mcpServers: [] } }],
      ["from-agent", { id: 1, result: { sessionId: "s9" } }],
    );
    expect(
      prefillParams("session/resume", buildForm($defs, "ResumeSessionRequest"), inSub, {
        cwd: "/w",
        protocolVersion: 2,
      }),
    ).toEqual({
      sessionId: "s9",
      cwd: "/w/sub",
    });
  });
});

describe("compose forms for Codex's app-server", () => {
  const file = appServerSchemaFile as AppServerSchemaFile;
  const specs = appServerComposeMethods(file);
  const rules = APP_SERVER_COMPOSE_RULES;
  const checker = createAppServerSchema(file).checker;
  const frames = codexCaptureResequenced("steered");
  const THREAD = "01a217d5-d2a1-7e90-ba1a-3cb1276d7bac";
  const at = (seq: number) => ({ facts: EMPTY_FACTS, conversation: foldAppServerConversation(frames.slice(0, seq)) });
  const ctx = { cwd: "/w", protocolVersion: 1 };
  const prefill = (method: string, seq: number) => {
    const spec = specs.find((s) => s.method === method)!;
    return rules.prefill(method, buildForm(file.$defs as Defs, spec.def!), at(seq), ctx);
  };

  it("offers every client request and notification, grouped: the handshake, thread/*, turn/*, config, account first", () => {
    expect(specs).toHaveLength(
      Object.keys(file.methods.clientRequests).length + Object.keys(file.methods.clientNotifications).length,
    );
    const groups = [...new Set(specs.map((s) => s.group))];
    expect(groups.slice(0, 5)).toEqual(["initialize", "thread", "turn", "config", "account"]);
    expect(specs.filter((s) => s.group === "turn").map((s) => s.method)).toEqual([
      "turn/start",
      "turn/steer",
      "turn/interrupt",
    ]);
    expect(specs.find((s) => s.method === "configRequirements/read")?.group).toBe("config");
    expect(specs.find((s) => s.method === "initialized")).toMatchObject({ notification: true, def: undefined });
    expect(specs.find((s) => s.method === "account/logout")).toMatchObject({ notification: false, def: undefined });
    expect(specs.find((s) => s.method === "thread/list")?.def).toBe("ThreadListParams");
  });

  it("every form builds, and its prefill is valid where the agent said enough", () => {
    for (const spec of specs) {
      if (!spec.def) continue;
      const node = buildForm(file.$defs as Defs, spec.def);
      expect(() => rules.prefill(spec.method, node, at(frames.length), ctx)).not.toThrow();
    }
    for (const method of ["initialize", "thread/start", "thread/list", "thread/read", "turn/start", "turn/interrupt"])
      expect(checker.validate(specs.find((s) => s.method === method)!.def!, prefill(method, 60), "params")).toEqual([]);
  });

  it("prefills the current thread and turn where a param names them", () => {
    expect(prefill("thread/start", 8)).toEqual({ cwd: "/w" });
    expect(prefill("thread/read", 8)).toMatchObject({ threadId: THREAD });
    expect(prefill("turn/start", 8)).toEqual({
      threadId: THREAD,
      input: [{ type: "text", text: "", text_elements: [] }],
    });
    const running = "01a217d5-d44f-7e32-8fc4-56bcdf77b7bb";
    expect(prefill("turn/interrupt", 60)).toEqual({ threadId: THREAD, turnId: running });
    expect(prefill("turn/steer", 60)).toMatchObject({ threadId: THREAD, expectedTurnId: running });
    expect(prefill("initialize", 0)).toEqual(appServerInitializeParams());
  });

  it("offers Codex 0.171's history pages and provider default with forms, prefilled with the current thread", () => {
    expect(specs.find((s) => s.method === "thread/turns/list")).toMatchObject({ group: "thread", notification: false });
    expect(specs.find((s) => s.method === "thread/items/list")).toMatchObject({ group: "thread" });
    expect(specs.find((s) => s.method === "modelProvider/default/set")).toMatchObject({
      group: "modelProvider",
      def: "ModelProviderDefaultSetParams",
    });
    expect(prefill("thread/turns/list", 60)).toEqual({ threadId: THREAD });
    for (const method of ["thread/turns/list", "thread/items/list"])
      expect(checker.validate(specs.find((s) => s.method === method)!.def!, prefill(method, 60), "params")).toEqual([]);
    // The provider is the one thing to fill in (the providers listed are suggested, below).
    expect(prefill("modelProvider/default/set", 60)).toEqual({ providerId: "" });
  });

  it("suggests the next page's cursor and the providers the server listed", () => {
    const seq = new FrameSequencer(undefined, "codex-app-server");
    const later = [
      seq.line("to-agent", JSON.stringify({ id: 50, method: "thread/turns/list", params: { threadId: THREAD } })),
      seq.line("from-agent", JSON.stringify({ id: 50, result: { data: [], nextCursor: "page-2" } })),
      seq.line("to-agent", JSON.stringify({ id: 51, method: "modelProvider/list", params: {} })),
      seq.line("from-agent", JSON.stringify({ id: 51, result: { data: [{ id: "offline" }, { id: "openai" }] } })),
    ];
    const state = {
      facts: EMPTY_FACTS,
      conversation: foldAppServerConversation(later, at(frames.length).conversation),
    };
    expect(rules.suggest("thread/turns/list", ["cursor"], {}, state, [])).toEqual([
      { value: "page-2", label: "next page (the last answer's nextCursor)" },
    ]);
    // Another listing's cursor is not this one's.
    expect(rules.suggest("thread/items/list", ["cursor"], {}, state, [])).toBeUndefined();
    expect(rules.suggest("modelProvider/default/set", ["providerId"], {}, state, [])?.map((s) => s.value)).toEqual([
      "offline",
      "openai",
    ]);
  });

  it("suggests the threads opened and the turn; no ACP capability says anything here", () => {
    const state = at(60);
    expect(rules.suggest("turn/start", ["threadId"], {}, state, [])).toEqual([
      { value: THREAD, label: `${THREAD} (current)` },
    ]);
    expect(rules.suggest("turn/interrupt", ["turnId"], {}, state, [])?.[0]?.label).toMatch(/\(running\)$/);
    expect(rules.suggest("thread/start", ["cwd"], {}, state, ["/w"])).toEqual([{ value: "/w", label: "/w" }]);
    expect(rules.support("thread/list", EMPTY_FACTS).state).toBe("baseline");
    expect(rules.warnings("turn/start", {}, EMPTY_FACTS)).toEqual([]);
  });
});
