/**
 * Connect with the real Gemini CLI and no credentials (throw-away HOME, no API
 * key, no base URL): it must fail promptly with Gemini's own error instead of
 * hanging at "authenticate…", and offer the methods Gemini lists.
 */
import { mkdirSync, mkdtempSync, realpathSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { afterAll, afterEach, beforeAll, describe, expect, it } from "vitest";
import type { AuthChoiceRequest } from "../../lib/features/connect/handshake";
import { runConnect } from "../../lib/features/connect/flow";
import { DEFAULT_CLIENT_CAPABILITIES } from "../../lib/protocol/client-capabilities";
import { AgentClient } from "../agents/agent-relay";
import { startTestRelay, type TestRelay } from "../relay-harness";

const CREDENTIALS = [
  "GEMINI_API_KEY",
  "GOOGLE_API_KEY",
  "GOOGLE_GEMINI_BASE_URL",
  "GOOGLE_GENAI_USE_VERTEXAI",
  "GOOGLE_GENAI_USE_GCA",
  "GOOGLE_APPLICATION_CREDENTIALS",
  "GOOGLE_CLOUD_PROJECT",
];
const savedEnv = { ...process.env };
let relay: TestRelay;
let base: string;
const clients: AgentClient[] = [];

beforeAll(async () => {
  base = realpathSync(mkdtempSync(path.join(tmpdir(), "acp-gemini-nocreds-")));
  const home = path.join(base, "home");
  mkdirSync(path.join(home, ".gemini"), { recursive: true });
  mkdirSync(path.join(base, "ws"));
  writeFileSync(
    path.join(home, ".gemini", "settings.json"),
    JSON.stringify({ privacy: { usageStatisticsEnabled: false }, telemetry: { enabled: false } }),
  );
  for (const name of CREDENTIALS) delete process.env[name];
  // No system keyring lookup: on a box without a Secret Service it can block for good.
  Object.assign(process.env, { HOME: home, GEMINI_CLI_HOME: home, GEMINI_FORCE_FILE_STORAGE: "true", NO_COLOR: "1" });
  relay = await startTestRelay({ workspaceRoots: [path.join(base, "ws")], graceMs: 200, killGraceMs: 3_000 });
});
afterEach(() => {
  for (const c of clients.splice(0)) c.close();
});
afterAll(async () => {
  await relay?.close();
  process.env = savedEnv;
  rmSync(base, { recursive: true, force: true });
});

async function connect(
  chooseAuth?: (r: AuthChoiceRequest) => Promise<{ type: "cancel" } | { type: "authenticate"; methodId: string }>,
) {
  const c = new AgentClient(relay.url, { token: "test-token" });
  clients.push(c);
  await c.connected();
  const startedAt = Date.now();
  const end = await runConnect(
    {
      start: async () => {
        await c.start({ profile: "gemini" });
        return { ok: true, value: { pooled: false } };
      },
      pooledInitialize: async () => undefined,
      request: (method, params) => c.request(method, params),
      progress: () => {},
      chooseAuth,
    },
    {
      cwd: path.join(base, "ws"),
      protocolVersion: 1,
      clientCapabilities: DEFAULT_CLIENT_CAPABILITIES,
      timeouts: { "session/new": 30_000, authenticate: 30_000 },
    },
  );
  return { c, end, ms: Date.now() - startedAt };
}

describe("Gemini CLI without credentials", () => {
  it("Connect fails promptly with Gemini's own error and the methods it offers", async () => {
    const { end } = await connect();
    expect(end.step).toBe("failed");
    expect(end.authenticated).toBeUndefined();
    expect(end.message).toMatch(/^session\/new needs authentication \(.*\(-32000\)/);
    expect(end.message).not.toMatch(/no answer within/);
    expect(end.message).toMatch(/the agent offers: .*\(gemini-api-key\)/);
  });

  it("the user chooses a method: Gemini accepts authenticate, session/new still refuses, the chooser sees why", async () => {
    const asked: AuthChoiceRequest[] = [];
    const { end } = await connect(async (r) => {
      asked.push(r);
      return asked.length === 1 ? { type: "authenticate", methodId: "gemini-api-key" } : { type: "cancel" };
    });
    expect(asked[0]!.reason).toBe("auth-required");
    expect(asked[0]!.methods.map((m) => m.id)).toContain("gemini-api-key");
    // Gemini 0.61 answers authenticate with a result, then refuses session/new again.
    expect(asked[1]!.error).toMatch(/^Gemini API key is missing.* \(-32000\)$/);
    expect(end).toMatchObject({ step: "failed", authMethodId: "gemini-api-key" });
    expect(end.authenticated).toBeUndefined();
  });
});
