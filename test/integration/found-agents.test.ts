/** "Found on this machine": Zed's and JetBrains' agents, read from a throw-away HOME, added with one request. */
import { execFileSync } from "node:child_process";
import { mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { afterAll, afterEach, beforeAll, beforeEach, describe, expect, it } from "vitest";
import type { FoundAgentView } from "../../lib/features/connect/found-agents";
import { MAX_FILE_BYTES } from "../../server/agents/found-agents";
import { registryPlatform } from "../../server/config";
import { startTestRelay, TestClient, type TestRelay } from "../relay-harness";

const otherAgent = path.resolve(import.meta.dirname, "../fixtures/other-agent.mjs");
let home: string;
let configFile: string;
let relay: TestRelay;
const saved = { HOME: process.env.HOME, XDG_CONFIG_HOME: process.env.XDG_CONFIG_HOME };

const zedSettings = () => path.join(home, ".config", "zed", "settings.json");
const acpJson = () => path.join(home, ".jetbrains", "acp.json");
const api = (p: string, init: RequestInit = {}) =>
  fetch(`${relay.url}/api/profiles/${p}`, {
    ...init,
    headers: { authorization: "Bearer test-token", "content-type": "application/json" },
  });
type FoundBody = {
  agents: FoundAgentView[];
  problems: Array<{ file: string; message: string }>;
  configFile: string | null;
};
const found = async () => (await (await api("found")).json()) as FoundBody;

beforeAll(async () => {
  home = mkdtempSync(path.join(tmpdir(), "acp-home-"));
  mkdirSync(path.dirname(zedSettings()), { recursive: true });
  mkdirSync(path.dirname(acpJson()), { recursive: true });
  configFile = path.join(home, "playground.json");
  relay = await startTestRelay({ configFile, profiles: {} });
});
beforeEach(() => {
  process.env.HOME = home;
  delete process.env.XDG_CONFIG_HOME;
  // The file as a user keeps it: a profile of theirs, which adding must keep.
  writeFileSync(configFile, JSON.stringify({ profiles: { mine: { command: "my-own-agent" } } }, null, 2), {
    mode: 0o600,
  });
  rmSync(zedSettings(), { force: true });
  rmSync(acpJson(), { force: true });
  for (const name of Object.keys(relay.config.profiles)) delete relay.config.profiles[name];
  relay.config.configFile = configFile;
});
afterEach(() => {
  process.env.HOME = saved.HOME;
  if (saved.XDG_CONFIG_HOME === undefined) delete process.env.XDG_CONFIG_HOME;
  else process.env.XDG_CONFIG_HOME = saved.XDG_CONFIG_HOME;
});
afterAll(async () => {
  await relay.close();
  rmSync(home, { recursive: true, force: true });
});

describe("agents found on this machine", () => {
  it("lists Zed's and JetBrains' agents without env values, and adds one to the config file, live at once", async () => {
    writeFileSync(
      zedSettings(),
      `// Zed settings, with comments
      {
        "theme": "One Dark",
        "agent_servers": {
          "Other Agent": {
            "type": "custom",
            "command": ${JSON.stringify(process.execPath)},
            "args": [${JSON.stringify(otherAgent)}],
            "env": { "OTHER_API_KEY": "sk-found-secret-value" }, // a key
          },
          "claude": { "default_mode": "plan" },
        },
      }`,
    );
    writeFileSync(acpJson(), JSON.stringify({ agent_servers: { OpenHands: { command: "openhands", args: ["acp"] } } }));
    const list = await found();
    expect(JSON.stringify(list)).not.toContain("sk-found-secret-value");
    expect(list.configFile).toBe(configFile);
    expect(list.problems).toEqual([]);
    expect(list.agents.map((a) => [a.source, a.name, a.profile])).toEqual([
      ["zed", "Other Agent", "Other-Agent"],
      ["zed", "claude", "claude"],
      ["jetbrains", "OpenHands", "OpenHands"],
    ]);
    expect(list.agents[0]).toMatchObject({ command: process.execPath, env: ["OTHER_API_KEY"], file: zedSettings() });
    expect(list.agents[1]!.reason).toMatch(/Zed installs and runs this agent itself/);

    const added = await api("found", { method: "POST", body: JSON.stringify({ source: "zed", name: "Other Agent" }) });
    expect(added.status).toBe(201);
    expect(await added.json()).toEqual({ profile: "Other-Agent", configFile });
    const written = JSON.parse(readFileSync(configFile, "utf8")) as { profiles: Record<string, unknown> };
    expect(Object.keys(written.profiles)).toEqual(["mine", "Other-Agent"]);
    expect(written.profiles["Other-Agent"]).toMatchObject({ env: { OTHER_API_KEY: "sk-found-secret-value" } });

    // Live at once: listed, marked configured, and startable.
    expect((await found()).agents[0]!.configuredAs).toBe("Other-Agent");
    const c = new TestClient(relay.url, { token: "test-token" });
    await c.connected();
    const started = await c.emit("agent:start", { profile: "Other-Agent" });
    expect(started).toMatchObject({ ok: true, agent: { profile: "Other-Agent" } });
    await c.emit("agent:stop", {});
    c.close();

    // Added again: a new name, never the first one overwritten.
    const again = await api("found", { method: "POST", body: JSON.stringify({ source: "zed", name: "Other Agent" }) });
    expect(((await again.json()) as { profile: string }).profile).toBe("Other-Agent-2");
    // Not addable, unknown, or named by the browser with a command: refused.
    const builtIn = await api("found", { method: "POST", body: JSON.stringify({ source: "zed", name: "claude" }) });
    expect(builtIn.status).toBe(400);
    const unknown = await api("found", { method: "POST", body: JSON.stringify({ source: "zed", name: "nope" }) });
    expect(((await unknown.json()) as { error: { message: string } }).error.message).toMatch(/no agent "nope"/);
    const withCommand = await api("found", {
      method: "POST",
      body: JSON.stringify({ source: "zed", name: "x", command: "rm" }),
    });
    expect(withCommand.status).toBe(400);
  });

  it("without a config file, adds for this run and says what to put in one", async () => {
    relay.config.configFile = undefined;
    writeFileSync(acpJson(), JSON.stringify({ agent_servers: { OpenHands: { command: "openhands", args: ["acp"] } } }));
    const res = await api("found", {
      method: "POST",
      body: JSON.stringify({ source: "jetbrains", name: "OpenHands" }),
    });
    const body = (await res.json()) as { profile: string; configFile?: string; snippet: string };
    expect(body.configFile).toBeUndefined();
    expect(JSON.parse(body.snippet)).toEqual({
      profiles: { OpenHands: { command: "openhands", args: ["acp"], description: "OpenHands (from JetBrains)" } },
    });
    expect(relay.config.profiles.OpenHands).toMatchObject({ command: "openhands", args: ["acp"] });
  });

  it("says what is wrong with a broken, huge or odd file, and never crashes", async () => {
    writeFileSync(zedSettings(), "{ this is not json");
    writeFileSync(acpJson(), "x".repeat(MAX_FILE_BYTES + 1));
    let list = await found();
    expect(list.agents).toEqual([]);
    expect(list.problems.map((p) => p.message)).toEqual([
      expect.stringMatching(/settings\.json: not valid JSON \(comments allowed\)/),
      expect.stringMatching(/acp\.json is larger than 1048576 bytes: not read/),
    ]);
    rmSync(acpJson());
    execFileSync("mkfifo", [acpJson()]);
    writeFileSync(zedSettings(), JSON.stringify({ agent_servers: "everything" }));
    list = await found();
    expect(list.problems.map((p) => p.message)).toEqual([
      expect.stringMatching(/"agent_servers" is not an object/),
      expect.stringMatching(/acp\.json is not a regular file/),
    ]);
    rmSync(acpJson());
    writeFileSync(zedSettings(), "[]");
    expect((await found()).problems[0]!.message).toMatch(/is not a JSON object/);
    // A config file broken since the start is not overwritten.
    writeFileSync(acpJson(), JSON.stringify({ agent_servers: { a: { command: "a" } } }));
    writeFileSync(configFile, "{ broken");
    const res = await api("found", { method: "POST", body: JSON.stringify({ source: "jetbrains", name: "a" }) });
    expect(res.status).toBe(400);
    expect(readFileSync(configFile, "utf8")).toBe("{ broken");
  });

  it("refuses a registry entry whose binary is a relative path (it would resolve into the workspace), and shows where the others resolve", async () => {
    writeFileSync(
      zedSettings(),
      JSON.stringify({
        agent_servers: {
          "Codex ACP": {
            name: "Codex ACP",
            distribution: { binary: { [registryPlatform()]: { cmd: "./codex-acp", args: ["--acp"] } } },
          },
          node: { command: process.execPath, args: [otherAgent] },
          missing: { command: "no-such-acp-agent-anywhere" },
        },
      }),
    );
    const list = await found();
    const codex = list.agents.find((a) => a.name === "Codex ACP")!;
    expect(codex.reason).toMatch(/^its command \.\/codex-acp is a relative path /);
    expect(codex.resolved).toBeUndefined();
    expect(list.agents.find((a) => a.name === "node")!.resolved).toBe(process.execPath);
    expect(list.agents.find((a) => a.name === "missing")!.resolved).toBeUndefined();
    const add = await api("found", { method: "POST", body: JSON.stringify({ source: "zed", name: "Codex ACP" }) });
    expect(add.status).toBe(400);
    expect(((await add.json()) as { error: { message: string } }).error.message).toMatch(/is a relative path/);
    expect(Object.keys(relay.config.profiles)).toEqual([]);
  });
});
