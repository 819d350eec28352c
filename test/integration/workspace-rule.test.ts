/**
 * One working-directory rule on every path that sets an agent's directory: the spawn's cwd, and
 * session/new, load, resume and fork's cwd and additionalDirectories, also on a warm pooled agent.
 */
import { mkdirSync, mkdtempSync, realpathSync, rmSync, symlinkSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { startTestRelay, TestClient, waitUntil, type TestRelay } from "../relay-harness";

const stubAgent = path.resolve(import.meta.dirname, "../fixtures/stub-agent.mjs");
const base = realpathSync(mkdtempSync(path.join(tmpdir(), "acp-rule-")));
const root = path.join(base, "root");
const outside = path.join(base, "outside");
let relay: TestRelay;
let client: TestClient;
let nextId = 1;

beforeAll(async () => {
  mkdirSync(path.join(root, "sub"), { recursive: true });
  mkdirSync(outside);
  symlinkSync(outside, path.join(root, "escape"));
  relay = await startTestRelay({
    workspaceRoots: [root],
    profiles: { echo: { command: process.execPath, args: [stubAgent, "echo"], env: {} } },
    defaultProfile: "echo",
    pool: { echo: 1 },
  });
  client = new TestClient(relay.url, { token: "test-token" });
  await client.connected();
});
afterAll(async () => {
  client.close();
  await relay.close();
  rmSync(base, { recursive: true, force: true });
});

/** Sends a request; its ack. */
async function send(method: string, params: Record<string, unknown>) {
  return client.emit("agent:send", { frame: { jsonrpc: "2.0", id: nextId++, method, params } });
}

describe("the working-directory rule", () => {
  it("refuses a spawn outside the roots, naming the setting to change", async () => {
    const ack = await client.emit("agent:start", { profile: "echo", cwd: outside });
    expect(ack).toMatchObject({ ok: false, error: { code: "bad_cwd" } });
    expect(ack.error.message).toMatch(/^cwd is outside the workspace roots: /);
    expect(ack.error.message).toMatch(/"workspaceRoots" in the config file \(--config FILE or ACP_PLAYGROUND_CONFIG\)/);
  });

  it("refuses session/new, load, resume and fork outside the roots on a warm agent, and lets inside ones through", async () => {
    await waitUntil(() => relay.server.relay.pool.size("echo") === 1, "a warm agent", 30_000);
    const agent = await client.start({ profile: "echo", pooled: true });
    expect(agent.pooled).toBe(true);
    for (const method of ["session/new", "session/load", "session/resume", "session/fork"]) {
      for (const cwd of [
        "/etc",
        outside,
        path.join(root, "escape"),
        path.join(root, "escape", "not-yet"),
        "relative",
      ]) {
        const ack = await send(method, { sessionId: "s", cwd, mcpServers: [] });
        expect(ack, `${method} ${cwd}`).toMatchObject({ ok: false, error: { code: "bad_cwd" } });
        expect(ack.error.message).toContain(`${method}'s cwd`);
      }
      const extra = await send(method, {
        sessionId: "s",
        cwd: root,
        mcpServers: [],
        additionalDirectories: [path.join(root, "sub"), "/etc"],
      });
      expect(extra).toMatchObject({ ok: false, error: { code: "bad_cwd" } });
      expect(extra.error.message).toMatch(
        new RegExp(`^${method}'s additionalDirectories entry is outside the workspace roots: /etc`),
      );
    }
    // None of them reached the agent.
    expect(client.frames.filter((f) => f.dir === "to-agent" && f.method?.startsWith("session/"))).toEqual([]);

    // Inside (a folder not created yet included) they go through.
    const inside = await send("session/new", {
      cwd: path.join(root, "sub"),
      mcpServers: [],
      additionalDirectories: [root, path.join(root, "new-folder")],
    });
    expect(inside.ok).toBe(true);
    await client.frame((f) => f.dir === "from-agent" && f.kind === "response" && f.method === "session/new", "echo");
    // Other frames, malformed ones included, are not judged.
    expect((await client.emit("agent:send", { frame: '{"method":"session/new", not json' })).ok).toBe(true);
    expect((await send("session/prompt", { sessionId: "s", prompt: [], cwd: "/etc" })).ok).toBe(true);
    await client.emit("agent:stop", {});
  });

  it("judges the parsed message, not the text: escapes, repeated keys and batches are refused before the agent", async () => {
    await client.start({ profile: "echo" });
    const seen = client.frames.length;
    for (const frame of [
      `{"jsonrpc":"2.0","id":${nextId++},"method":"session\\/new","params":{"cwd":"\\/etc","mcpServers":[]}}`,
      `{"jsonrpc":"2.0","id":${nextId++},"method":"session\\u002fnew","params":{"cwd":"/etc","mcpServers":[]}}`,
      `{"jsonrpc":"2.0","id":${nextId++},"method":"session/new","params":{"cwd":"${root}","mcpServers":[]},"params":{"cwd":"/etc","mcpServers":[]}}`,
      `[{"jsonrpc":"2.0","id":${nextId++},"method":"session/new","params":{"cwd":"${root}","mcpServers":[],"additionalDirectories":["/etc"]}}]`,
    ]) {
      const ack = await client.emit("agent:send", { frame });
      expect(ack, frame).toMatchObject({ ok: false, error: { code: "bad_cwd" } });
      expect(ack.error.message).toMatch(
        /^session\/new's (cwd|additionalDirectories entry) is outside the workspace roots: \/etc /,
      );
    }
    // Nothing reached the agent.
    expect(client.frames.slice(seen).filter((f) => f.dir === "to-agent")).toEqual([]);
    await client.emit("agent:stop", {});
  });
});
