import { describe, expect, it } from "vitest";
import { firstAuthMethod, runConnect, sessionCwd, type ConnectDeps, type ConnectProgress } from "./connect-flow";
import type { RpcOutcome } from "./jsonrpc";

const INPUT = {
  cwd: "/w",
  protocolVersion: 1,
  clientCapabilities: { fs: { readTextFile: true, writeTextFile: true }, terminal: true },
  clientInfo: { name: "acp-playground", version: "0.1.0" },
};

/** Fake deps: answers per method from a queue; records requests and progress. */
function fake(opts: {
  pooled?: boolean;
  pooledInit?: Record<string, unknown>;
  startError?: string;
  answers: Record<string, RpcOutcome[]>;
}) {
  const requests: [string, unknown][] = [];
  const steps: ConnectProgress[] = [];
  const deps: ConnectDeps = {
    start: async () =>
      opts.startError ? { ok: false, message: opts.startError } : { ok: true, pooled: !!opts.pooled },
    pooledInitialize: async () => opts.pooledInit,
    request: async (method, params) => {
      requests.push([method, params]);
      const next = opts.answers[method]?.shift();
      return next ?? { kind: "failed", message: `no answer scripted for ${method}` };
    },
    progress: (p) => steps.push(p),
  };
  return { deps, requests, steps };
}

const ok = (result: unknown): RpcOutcome => ({ kind: "result", result, seq: 1 });
const err = (code: number, message: string): RpcOutcome => ({ kind: "error", error: { code, message }, seq: 1 });

describe("Connect", () => {
  it("fresh agent: initialize with the given capabilities, then session/new with the cwd and no MCP servers", async () => {
    const f = fake({ answers: { initialize: [ok({ protocolVersion: 1 })], "session/new": [ok({ sessionId: "s1" })] } });
    const end = await runConnect(f.deps, INPUT);
    expect(end).toEqual({ step: "ready", pooled: false, sessionId: "s1" });
    expect(f.requests).toEqual([
      [
        "initialize",
        { protocolVersion: 1, clientCapabilities: INPUT.clientCapabilities, clientInfo: INPUT.clientInfo },
      ],
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

  it("authenticates with the first auth method only when session/new says auth is required", async () => {
    const f = fake({
      answers: {
        initialize: [
          ok({
            authMethods: [
              { id: "oauth", name: "OAuth" },
              { id: "key", name: "Key" },
            ],
          }),
        ],
        "session/new": [err(-32000, "Authentication required"), ok({ sessionId: "s2" })],
        authenticate: [ok({})],
      },
    });
    expect(await runConnect(f.deps, INPUT)).toEqual({
      step: "ready",
      pooled: false,
      authMethodId: "oauth",
      sessionId: "s2",
    });
    expect(f.requests.map(([m, p]) => (m === "authenticate" ? [m, p] : m))).toEqual([
      "initialize",
      "session/new",
      ["authenticate", { methodId: "oauth" }],
      "session/new",
    ]);
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
    const noAuth = fake({ answers: { initialize: [ok({})], "session/new": [err(-32000, "auth required")] } });
    expect(await runConnect(noAuth.deps, INPUT)).toMatchObject({ step: "failed", message: /no auth method/ });
    const authFails = fake({
      answers: {
        initialize: [ok({ authMethods: [{ id: "a" }] })],
        "session/new": [err(-32000, "auth required")],
        authenticate: [err(-32000, "nope")],
      },
    });
    expect(await runConnect(authFails.deps, INPUT)).toMatchObject({
      step: "failed",
      authMethodId: "a",
      message: "authenticate failed: nope (-32000)",
    });
    const gone = fake({ answers: { initialize: [{ kind: "failed", message: "the agent exited" }] } });
    expect(await runConnect(gone.deps, INPUT)).toMatchObject({
      step: "failed",
      message: "initialize failed: the agent exited",
    });
    const noId = fake({ answers: { initialize: [ok({})], "session/new": [ok({})] } });
    expect(await runConnect(noId.deps, INPUT)).toMatchObject({ step: "failed", message: /without a sessionId/ });
  });

  it("firstAuthMethod", () => {
    expect(firstAuthMethod({ authMethods: [{ id: "x" }] })).toBe("x");
    expect(firstAuthMethod({ authMethods: [] })).toBeUndefined();
    expect(firstAuthMethod(undefined)).toBeUndefined();
  });

  it("the session cwd: the first root by default, relative paths inside it", () => {
    expect(sessionCwd("", "/w")).toBe("/w");
    expect(sessionCwd("  ", "/w/")).toBe("/w/");
    expect(sessionCwd("sub/dir", "/w/")).toBe("/w/sub/dir");
    expect(sessionCwd("./sub", "/w")).toBe("/w/sub");
    expect(sessionCwd("/abs", "/w")).toBe("/abs");
    expect(sessionCwd("x", undefined)).toBe("/x");
  });
});
