/**
 * The shared set-up of the integration tests that run the real Gemini CLI: a
 * fake Gemini API, a throw-away HOME in the environment the agents inherit, a
 * temporary workspace and a relay confined to it. Registers its own hooks.
 */
import { mkdirSync, mkdtempSync, realpathSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { afterAll, afterEach, beforeAll } from "vitest";
import type { ServerConfig } from "../server/config";
import { startFakeGeminiApi, type FakeGeminiApi } from "./fake-gemini/server";
import { makeGeminiHome, type GeminiHome } from "./gemini-home";
import { startTestRelay, TestClient, type TestRelay } from "./relay-harness";

export interface GeminiRelay {
  api: FakeGeminiApi;
  relay: TestRelay;
  /** The temporary directory; the workspace is inside it, so tests can write next to it. */
  base: string;
  workspace: string;
  /** A connected client; closed after each test. */
  client(auth?: Record<string, unknown>): Promise<TestClient>;
}

export function useGeminiRelay(overrides: Partial<ServerConfig> = {}, env: Record<string, string> = {}): GeminiRelay {
  const savedEnv = { ...process.env };
  const clients: TestClient[] = [];
  let home: GeminiHome | undefined;
  const ctx = {
    async client(auth: Record<string, unknown> = {}) {
      const c = new TestClient(ctx.relay.url, { token: "test-token", ...auth });
      clients.push(c);
      await c.connected();
      return c;
    },
  } as GeminiRelay;

  beforeAll(async () => {
    ctx.api = await startFakeGeminiApi();
    home = makeGeminiHome(ctx.api.url);
    // The relay's agents inherit the server's environment, as in production.
    Object.assign(process.env, home.env, env);
    ctx.base = realpathSync(mkdtempSync(path.join(tmpdir(), "acp-it-")));
    ctx.workspace = path.join(ctx.base, "ws");
    mkdirSync(ctx.workspace);
    ctx.relay = await startTestRelay({ workspaceRoots: [ctx.workspace], graceMs: 500, ...overrides });
  });
  afterEach(() => {
    for (const c of clients.splice(0)) c.close();
  });
  afterAll(async () => {
    await ctx.relay?.close();
    await ctx.api?.close();
    process.env = savedEnv;
    home?.cleanup();
    if (ctx.base) rmSync(ctx.base, { recursive: true, force: true });
  });
  return ctx;
}
