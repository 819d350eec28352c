import { describe, expect, it } from "vitest";
import type { ConnectDeps, ConnectProgress } from "./connect-steps";
import { runConnect, sessionCwd } from "./flow";
import { agentErrorText, type AuthChoice, type AuthChoiceRequest } from "./handshake";
import type { RpcOutcome } from "../../protocol/jsonrpc";
import { CLIENT_INFO } from "../../protocol/client-capabilities";
import { FrameSequencer } from "../../protocol/frame-sequencer";

const INPUT = {
  cwd: "/w",
  protocolVersion: 1,
  clientCapabilities: { fs: { readTextFile: true, writeTextFile: true }, terminal: true },
};

/** Fake deps: answers per method from a queue; records requests and progress. */
function fake(opts: {
  pooled?: boolean;
  pooledInit?: Record<string, unknown>;
  startError?: string;
  answers: Record<string, RpcOutcome[]>;
  /** The user's answers to "which auth method?", in order. */
  choices?: AuthChoice[];
  /** Requests that never get an answer. */
  hang?: string[];
}) {
  const asked: AuthChoiceRequest[] = [];
  const requests: [string, unknown][] = [];
  const notified: string[] = [];
  const steps: ConnectProgress[] = [];
  const deps: ConnectDeps = {
    start: async () =>
      opts.startError ? { ok: false, error: opts.startError } : { ok: true, value: { pooled: !!opts.pooled } },
    pooledInitialize: async () => opts.pooledInit,
    request: async (method, params) => {
      requests.push([method, params]);
      if (opts.hang?.includes(method)) return new Promise<RpcOutcome>(() => {});
      const next = opts.answers[method]?.shift();
      return next ?? { kind: "failed", reason: "unsent", message: `no answer scripted for ${method}` };
    },
    notify: async (method) => {
      notified.push(method);
      return { ok: true, value: notified.length };
    },
    progress: (p) => steps.push(p),
    ...(opts.choices
      ? {
          chooseAuth: async (r: AuthChoiceRequest) => {
            asked.push(r);
            return opts.choices!.shift() ?? { type: "cancel" };
          },
        }
      : {}),
  };
  return { deps, requests, notified, steps, asked };
}

/** The response frame an outcome carries (what is in it does not matter here). */
const FRAME = new FrameSequencer().line("from-agent", '{"jsonrpc":"2.0","id":1,"result":null}');
const ok = (result: unknown): RpcOutcome => ({ kind: "result", result, frame: FRAME });
const err = (code: number, message: string, data?: unknown): RpcOutcome => ({
  kind: "error",
  error: data === undefined ? { code, message } : { code, message, data },
  frame: FRAME,
});
const methods = (p: ReturnType<typeof fake>) =>
  p.requests.map(([m, params]) => (m === "authenticate" ? [m, params] : m));
const AUTH_INIT = ok({
  authMethods: [
    { id: "chatgpt", name: "ChatGPT login" },
    { id: "openai-key", name: "API key", type: "env_var", vars: [{ name: "OPENAI_API_KEY" }] },
    { id: "login", name: "Terminal login", type: "terminal", args: ["--login"] },
  ],
});

describe("Connect", () => {
  it("fresh agent: initialize with the given capabilities, then session/new with the cwd and no MCP servers", async () => {
    const f = fake({ answers: { initialize: [ok({ protocolVersion: 1 })], "session/new": [ok({ sessionId: "s1" })] } });
    const end = await runConnect(f.deps, INPUT);
    expect(end).toEqual({ step: "ready", pooled: false, requestedVersion: 1, negotiatedVersion: 1, sessionId: "s1" });
    expect(f.requests).toEqual([
      ["initialize", { protocolVersion: 1, clientCapabilities: INPUT.clientCapabilities, clientInfo: CLIENT_INFO }],
      ["session/new", { cwd: "/w", mcpServers: [] }],
    ]);
    expect(f.steps.map((s) => s.step)).toEqual(["start", "initialize", "session/new", "ready"]);
  });

  it("pooled agent: initialize is not sent again, the pool's result is used", async () => {
    const f = fake({
      pooled: true,
      pooledInit: { protocolVersion: 1 },
      answers: { "session/new": [ok({ sessionId: "s1" })] },
    });
    expect(await runConnect(f.deps, INPUT)).toMatchObject({ step: "ready", pooled: true, sessionId: "s1" });
    expect(f.requests.map(([m]) => m)).toEqual(["session/new"]);
  });

  it("pooled agent whose log lacks the initialize answer: initializes after all", async () => {
    const f = fake({ pooled: true, answers: { initialize: [ok({})], "session/new": [ok({ sessionId: "s" })] } });
    await runConnect(f.deps, INPUT);
    expect(f.requests.map(([m]) => m)).toEqual(["initialize", "session/new"]);
  });

  it("other session/new errors do not authenticate", async () => {
    const f = fake({
      answers: {
        initialize: [ok({ authMethods: [{ id: "a", name: "A" }] })],
        "session/new": [err(-32603, "Internal error")],
      },
    });
    expect(await runConnect(f.deps, INPUT)).toMatchObject({
      step: "failed",
      message: "session/new failed: Internal error (-32603)",
    });
    expect(f.requests.map(([m]) => m)).toEqual(["initialize", "session/new"]);
  });

  it("stops at the first failure and says why", async () => {
    expect(await runConnect(fake({ startError: "executable not found: gemini", answers: {} }).deps, INPUT)).toEqual({
      step: "failed",
      message: "executable not found: gemini",
    });
    const gone = fake({ answers: { initialize: [{ kind: "failed", reason: "gone", message: "the agent exited" }] } });
    expect(await runConnect(gone.deps, INPUT)).toMatchObject({
      step: "failed",
      message: "initialize failed: the agent exited",
    });
    const noId = fake({ answers: { initialize: [ok({})], "session/new": [ok({})] } });
    expect(await runConnect(noId.deps, INPUT)).toMatchObject({ step: "failed", message: /without a sessionId/ });
  });

  it("the session cwd: the first root by default, relative paths inside it", () => {
    expect(sessionCwd("", "/w")).toBe("/w");
    expect(sessionCwd("  ", "/w/")).toBe("/w/");
    expect(sessionCwd("sub/dir", "/w/")).toBe("/w/sub/dir");
    expect(sessionCwd("./sub", "/w")).toBe("/w/sub");
    expect(sessionCwd("/abs", "/w")).toBe("/abs");
    // Before the relay has said its root, only an absolute path will do.
    expect(sessionCwd("", undefined)).toBeUndefined();
    expect(sessionCwd("x", undefined)).toBeUndefined();
    expect(sessionCwd("/abs", undefined)).toBe("/abs");
  });
});

describe("Connect: authentication", () => {
  it("never picks a method blindly: without a chooser it fails at once with the agent's error and its methods", async () => {
    const f = fake({
      answers: { initialize: [AUTH_INIT], "session/new": [err(-32000, "Authentication required", { hint: "log in" })] },
    });
    const end = await runConnect(f.deps, INPUT);
    expect(end.step).toBe("failed");
    expect(end.message).toContain('Authentication required (-32000): {"hint":"log in"}');
    expect(end.message).toContain("ChatGPT login (chatgpt) — agent");
    expect(end.message).toContain("API key (openai-key) — env_var: set OPENAI_API_KEY");
    expect(end.authenticated).toBeUndefined();
    expect(methods(f)).toEqual(["initialize", "session/new"]);
  });

  it("asks the user with every method and their types, authenticates with the chosen one, then session/new", async () => {
    const f = fake({
      answers: {
        initialize: [AUTH_INIT],
        "session/new": [err(-32000, "Authentication required"), ok({ sessionId: "s2" })],
        authenticate: [ok({})],
      },
      choices: [{ type: "authenticate", methodId: "openai-key" }],
    });
    expect(await runConnect(f.deps, INPUT)).toEqual({
      step: "ready",
      pooled: false,
      requestedVersion: 1,
      authMethodId: "openai-key",
      authenticated: true,
      sessionId: "s2",
    });
    expect(methods(f)).toEqual([
      "initialize",
      "session/new",
      ["authenticate", { methodId: "openai-key" }],
      "session/new",
    ]);
    expect(f.asked).toHaveLength(1);
    expect(f.asked[0]!.reason).toBe("auth-required");
    expect(f.asked[0]!.error).toBe("Authentication required (-32000)");
    expect(f.asked[0]!.methods.map((m) => m.type)).toEqual(["agent", "env_var", "terminal"]);
  });

  it('says "authenticated" only after the authenticate answer', async () => {
    const f = fake({
      answers: {
        initialize: [AUTH_INIT],
        "session/new": [err(-32000, "auth required"), ok({ sessionId: "s" })],
        authenticate: [ok(null)],
      },
      choices: [{ type: "authenticate", methodId: "chatgpt" }],
    });
    await runConnect(f.deps, INPUT);
    const auth = f.steps.filter((s) => s.step === "authenticate");
    expect(auth.map((s) => [s.authMethodId, s.authenticated, !!s.authMethods])).toEqual([
      [undefined, undefined, true],
      ["chatgpt", undefined, false],
      ["chatgpt", true, false],
    ]);
  });

  it("a failed authenticate goes back to the user with the agent's error; cancelling stops", async () => {
    const f = fake({
      answers: {
        initialize: [AUTH_INIT],
        "session/new": [err(-32000, "auth required")],
        authenticate: [err(-32603, "Internal error", "browser login unavailable")],
      },
      choices: [{ type: "authenticate", methodId: "chatgpt" }, { type: "cancel" }],
    });
    const end = await runConnect(f.deps, INPUT);
    expect(f.asked[1]!.error).toBe("authenticate failed: Internal error (-32603): browser login unavailable");
    expect(end).toMatchObject({ step: "failed", authMethodId: "chatgpt" });
    expect(end.authenticated).toBeUndefined();
    expect(end.message).toMatch(/^authentication cancelled \(authenticate failed: Internal error/);
  });

  it("retry re-sends session/new (after a terminal login or setting variables); terminal methods are never authenticated", async () => {
    const f = fake({
      answers: {
        initialize: [AUTH_INIT],
        "session/new": [err(-32000, "auth required"), ok({ sessionId: "s" })],
      },
      choices: [{ type: "retry" }],
    });
    expect(await runConnect(f.deps, INPUT)).toMatchObject({ step: "ready", sessionId: "s" });
    expect(methods(f)).toEqual(["initialize", "session/new", "session/new"]);

    const t = fake({
      answers: { initialize: [AUTH_INIT], "session/new": [err(-32000, "auth required")] },
      choices: [{ type: "authenticate", methodId: "login" }],
    });
    expect(await runConnect(t.deps, INPUT)).toMatchObject({ step: "failed", message: /terminal login/ });
    expect(methods(t)).toEqual(["initialize", "session/new"]);
    const u = fake({
      answers: { initialize: [AUTH_INIT], "session/new": [err(-32000, "auth required")] },
      choices: [{ type: "authenticate", methodId: "nope" }],
    });
    expect(await runConnect(u.deps, INPUT)).toMatchObject({ step: "failed", message: /no auth method "nope"/ });
  });

  it("gives up after three rounds when the agent keeps asking", async () => {
    const f = fake({
      answers: {
        initialize: [AUTH_INIT],
        "session/new": Array.from({ length: 5 }, () => err(-32000, "auth required")),
      },
      choices: [{ type: "retry" }, { type: "retry" }, { type: "retry" }, { type: "retry" }],
    });
    expect(await runConnect(f.deps, INPUT)).toMatchObject({
      step: "failed",
      message: "session/new failed: auth required (-32000)",
    });
    expect(f.asked).toHaveLength(3);
  });

  it("authenticateFirst: asks before session/new when the agent lists methods", async () => {
    const f = fake({
      answers: { initialize: [AUTH_INIT], authenticate: [ok({})], "session/new": [ok({ sessionId: "s" })] },
      choices: [{ type: "authenticate", methodId: "chatgpt" }],
    });
    expect(await runConnect(f.deps, { ...INPUT, authenticateFirst: true })).toMatchObject({
      step: "ready",
      authenticated: true,
    });
    expect(f.asked[0]!.reason).toBe("before-session");
    expect(methods(f)).toEqual(["initialize", ["authenticate", { methodId: "chatgpt" }], "session/new"]);
    const none = fake({ answers: { initialize: [ok({})], "session/new": [ok({ sessionId: "s" })] }, choices: [] });
    await runConnect(none.deps, { ...INPUT, authenticateFirst: true });
    expect(none.asked).toEqual([]);
  });

  it("an agent that lists no method: fails with its own error", async () => {
    const f = fake({ answers: { initialize: [ok({})], "session/new": [err(-32000, "Gemini API key is missing")] } });
    expect(await runConnect(f.deps, INPUT)).toMatchObject({
      step: "failed",
      message:
        "session/new needs authentication, but the agent listed no auth method: Gemini API key is missing (-32000)",
    });
  });
});

describe("Connect: timeouts", () => {
  it("every step fails on its own timeout with a message naming it", async () => {
    const timeouts = { start: 20, initialize: 20, authenticate: 20, "session/new": 20, choose: 20 };
    const init = fake({ hang: ["initialize"], answers: {} });
    expect(await runConnect(init.deps, { ...INPUT, timeouts })).toMatchObject({
      step: "failed",
      message: /^initialize failed: no answer within 0\.0 s/,
    });
    const session = fake({ hang: ["session/new"], answers: { initialize: [ok({})] } });
    expect(await runConnect(session.deps, { ...INPUT, timeouts })).toMatchObject({
      message: /^session\/new failed: no answer within/,
    });
    const auth = fake({
      hang: ["authenticate"],
      answers: { initialize: [AUTH_INIT], "session/new": [err(-32000, "auth")] },
      choices: [{ type: "authenticate", methodId: "chatgpt" }, { type: "cancel" }],
    });
    const end = await runConnect(auth.deps, { ...INPUT, timeouts });
    expect(auth.asked[1]!.error).toMatch(/^authenticate failed: no answer within/);
    expect(end.step).toBe("failed");

    const start = fake({ answers: {} });
    start.deps.start = () => new Promise(() => {});
    expect(await runConnect(start.deps, { ...INPUT, timeouts })).toMatchObject({ message: /^start timed out/ });
    const choose = fake({ answers: { initialize: [AUTH_INIT], "session/new": [err(-32000, "auth")] } });
    choose.deps.chooseAuth = () => new Promise(() => {});
    expect(await runConnect(choose.deps, { ...INPUT, timeouts })).toMatchObject({
      message: /^no auth method chosen within/,
    });
  });

  it("agentErrorText keeps message, code and data, bounded", () => {
    expect(agentErrorText({ code: -32000, message: "m" })).toBe("m (-32000)");
    expect(agentErrorText({ code: 1, message: "m", data: { a: 1 } })).toBe('m (1): {"a":1}');
    expect(agentErrorText({ code: 1, message: "x".repeat(2_000) })).toHaveLength(1_001);
  });
});

describe("Connect asking for the v2 draft", () => {
  it("sends v2's initialize (info, capabilities), logs in with auth/login and says what was negotiated", async () => {
    const { deps, requests, steps } = fake({
      answers: {
        initialize: [ok({ protocolVersion: 2, authMethods: [{ id: "key", name: "Key" }] })],
        "auth/login": [ok({})],
        "session/new": [err(-32000, "Authentication required"), ok({ sessionId: "v2s" })],
      },
      choices: [{ type: "authenticate", methodId: "key" }],
    });
    const done = await runConnect(deps, { ...INPUT, protocolVersion: 2 });
    expect(done).toMatchObject({ step: "ready", sessionId: "v2s", requestedVersion: 2, negotiatedVersion: 2 });
    expect(requests[0]).toEqual(["initialize", { protocolVersion: 2, info: CLIENT_INFO, capabilities: {} }]);
    expect(requests.map(([m]) => m)).toEqual(["initialize", "session/new", "auth/login", "session/new"]);
    expect(steps.at(-1)?.negotiatedVersion).toBe(2);
  });

  it("an agent answering v1 to v2 is talked to in v1; one answering above what was asked is refused", async () => {
    const v1 = fake({
      answers: { initialize: [ok({ protocolVersion: 1 })], "session/new": [ok({ sessionId: "s" })] },
    });
    expect(await runConnect(v1.deps, { ...INPUT, protocolVersion: 2 })).toMatchObject({
      step: "ready",
      requestedVersion: 2,
      negotiatedVersion: 1,
    });
    const above = fake({ answers: { initialize: [ok({ protocolVersion: 3 })] } });
    expect(await runConnect(above.deps, INPUT)).toMatchObject({
      step: "failed",
      message: expect.stringContaining("above the 1 asked for"),
    });
    const v1Default = fake({
      answers: { initialize: [ok({ protocolVersion: 1 })], "session/new": [ok({ sessionId: "s" })] },
    });
    await runConnect(v1Default.deps, INPUT);
    expect(v1Default.requests[0]?.[1]).toEqual({
      protocolVersion: 1,
      clientCapabilities: INPUT.clientCapabilities,
      clientInfo: CLIENT_INFO,
    });
  });
});

describe("Connect to Codex's app-server", () => {
  const APP = { ...INPUT, protocol: "codex-app-server" as const };
  const thread = { thread: { id: "t-1", turns: [] }, model: "fake-model", cwd: "/w" };

  it("runs its handshake (initialize, initialized, thread/start): the thread is the session", async () => {
    const p = fake({ answers: { initialize: [ok({ userAgent: "codex" })], "thread/start": [ok(thread)] } });
    const end = await runConnect(p.deps, APP);
    expect(end).toEqual({ step: "ready", sessionId: "t-1", pooled: false });
    expect(p.requests).toEqual([
      ["initialize", { clientInfo: CLIENT_INFO }],
      ["thread/start", { cwd: "/w" }],
    ]);
    expect(p.notified).toEqual(["initialized"]);
    expect(p.steps.map((s) => s.step)).toEqual(["start", "initialize", "thread/start", "ready"]);
  });

  it("never asks for auth nor session/new, and says why thread/start failed", async () => {
    const p = fake({
      answers: { initialize: [ok({})], "thread/start": [err(-32600, "Invalid request: missing field `cwd`")] },
      choices: [],
    });
    const end = await runConnect(p.deps, APP);
    expect(end.step).toBe("failed");
    expect(end.message).toContain("thread/start failed");
    expect(end.message).toContain("missing field `cwd`");
    expect(p.asked).toEqual([]);
    expect(methods(p)).toEqual(["initialize", "thread/start"]);
  });
});
