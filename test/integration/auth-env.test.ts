/** agent:start `env`: values for an env_var auth method reach the agent, are checked on the relay and never recorded. */
import { readdirSync, readFileSync, statSync } from "node:fs";
import path from "node:path";
import { afterAll, afterEach, beforeAll, describe, expect, it } from "vitest";
import { startTestRelay, TestClient, type TestRelay } from "../relay-harness";

const fixture = path.resolve(import.meta.dirname, "../fixtures/auth-agent.mjs");
const SECRET = "typed-in-the-page-4c1e9a";

let relay: TestRelay;
const clients: TestClient[] = [];

beforeAll(async () => {
  relay = await startTestRelay({
    profiles: { auth: { command: process.execPath, args: [fixture, "0"], env: {} } },
  });
});
afterEach(() => {
  for (const c of clients.splice(0)) c.close();
});
afterAll(async () => {
  await relay.close();
});

function filesUnder(dir: string): string[] {
  return readdirSync(dir).flatMap((name) => {
    const p = path.join(dir, name);
    return statSync(p).isDirectory() ? filesUnder(p) : [p];
  });
}

async function initialized(c: TestClient): Promise<void> {
  await c.start({ profile: "auth" });
  await c.send({ jsonrpc: "2.0", id: 1, method: "initialize", params: { protocolVersion: 1 } });
  await c.response(1);
}

describe("agent:start env", () => {
  it("refuses variables before the agent named them, and variables no env_var method names", async () => {
    const c = new TestClient(relay.url, { token: "test-token" });
    clients.push(c);
    await c.connected();
    const before = await c.emit("agent:start", { profile: "auth", env: { STUB_LOGIN: SECRET } });
    expect(before).toMatchObject({ ok: false, error: { code: "invalid_payload" } });
    await initialized(c);
    await c.emit("agent:stop", {});
    await c.waitFor(() => c.exits.length > 0, "exit");
    for (const env of [{ NODE_OPTIONS: "--require /tmp/x.js" }, { STUB_OTHER: "x" }, { STUB_LOGIN: "a\nb" }]) {
      const res = await c.emit("agent:start", { profile: "auth", env });
      expect(res, JSON.stringify(env)).toMatchObject({ ok: false, error: { code: "invalid_payload" } });
    }
    expect(await c.emit("agent:start", { profile: "auth", env: ["x"] })).toMatchObject({ ok: false });
  });

  it("starts the agent with a named variable, never records its value and never acks it back", async () => {
    const c = new TestClient(relay.url, { token: "test-token" });
    clients.push(c);
    await c.connected();
    await initialized(c);
    await c.emit("agent:stop", {});
    await c.waitFor(() => c.exits.length > 0, "exit");
    const ack = await c.emit("agent:start", { profile: "auth", env: { STUB_LOGIN: SECRET } });
    expect(ack.ok).toBe(true);
    expect(JSON.stringify(ack)).not.toContain(SECRET);
    const env = await c.frame((f) => f.method === "stub/env" && f.seq === 1, "stub/env");
    expect((env.message as { params: { names: string[] } }).params.names).toEqual(["STUB_LOGIN"]);
    await c.waitFor(() => c.stderr.some((t) => t.includes("using key")), "stderr");
    await c.send({
      jsonrpc: "2.0",
      id: 2,
      method: "session/new",
      params: { cwd: relay.config.workspaceRoots[0], mcpServers: [] },
    });
    expect((await c.response(2)).message).toMatchObject({ result: { sessionId: "stub-session" } });
    await c.emit("agent:stop", {});
    await c.waitFor(() => c.exits.length > 1, "second exit");
    const files = filesUnder(relay.config.dataDir);
    const transcript = files.map((f) => readFileSync(f, "utf8")).join("\n");
    expect(transcript).toContain("using key");
    expect(transcript).not.toContain(SECRET);
    // The live path hides it too: the agent echoed it on stderr, the page saw it redacted.
    expect(c.stderr.join("\n")).not.toContain(SECRET);
  });
});
