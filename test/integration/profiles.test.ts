/** Profiles: what resolves on this machine, versions, shipped examples. */
import { readFileSync } from "node:fs";
import path from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { ProbeReport } from "../../lib/contracts/reports";
import { GEMINI_OPTIONS, Profiles } from "../../server/agents/profiles";
import { parseRemoteProfile } from "../../server/remote-profile";
import { startTestRelay, TestClient, type TestRelay } from "../relay-harness";

const otherAgent = path.resolve(import.meta.dirname, "../fixtures/other-agent.mjs");
const api = (p: string, init: RequestInit = {}) =>
  fetch(`${relay.url}${p}`, { ...init, headers: { authorization: "Bearer test-token" } });

let relay: TestRelay;
beforeAll(async () => {
  relay = await startTestRelay({
    profiles: {
      node: { command: process.execPath, args: [], env: { SECRET_VALUE: "do-not-leak" }, description: "plain node" },
      missing: { command: "definitely-not-installed-acp-agent", args: ["--acp"], env: {} },
      other: { command: process.execPath, args: [otherAgent], env: {} },
      qwenlike: {
        command: process.execPath,
        args: [otherAgent],
        env: {},
        options: GEMINI_OPTIONS,
        clientCapabilities: { fs: { readTextFile: true, writeTextFile: true }, terminal: false },
      },
      // A URL profile that declares no capabilities: its commands would run here for an agent that does not.
      remote: {
        command: "http://127.0.0.1:9/acp",
        args: [],
        env: {},
        remote: parseRemoteProfile({ url: "http://127.0.0.1:9/acp", transport: "http" }),
      },
    },
  });
});
afterAll(async () => {
  await relay.close();
});

describe("profiles", () => {
  it("says which commands resolve, with versions, before anyone presses Start", async () => {
    const res = await fetch(`${relay.url}/api/profiles`, { headers: { authorization: "Bearer test-token" } });
    const text = await res.text();
    expect(text).not.toContain("do-not-leak");
    const profiles = JSON.parse(text).profiles as Array<Record<string, unknown>>;
    const by = (name: string) => profiles.find((p) => p.name === name)!;
    // node's --version is node's, not the agent's it runs.
    expect(by("node")).toMatchObject({ available: true, resolved: process.execPath, description: "plain node" });
    expect(by("node").version).toBeUndefined();
    expect(by("missing")).toMatchObject({ available: false });
    expect(by("missing").resolved).toBeUndefined();
    expect(by("gemini")).toMatchObject({
      available: true,
      version: "0.61.0",
      options: ["model", "approvalMode", "skipTrust"],
      // Without fs capabilities Gemini creates new files itself (docs/gemini-quirks.md).
      clientCapabilities: { fs: { readTextFile: false, writeTextFile: false }, terminal: false },
    });
    expect(by("other").clientCapabilities).toEqual({ fs: { readTextFile: true, writeTextFile: true }, terminal: true });
    expect(by("remote").clientCapabilities).toEqual({
      fs: { readTextFile: true, writeTextFile: true },
      terminal: false,
    });
    expect(by("qwenlike")).toMatchObject({ options: ["model", "approvalMode", "skipTrust"] });

    const c = new TestClient(relay.url, { token: "test-token" });
    await c.connected();
    const { info } = await c.emit("relay:info", {});
    expect(info.profiles.find((p: { name: string }) => p.name === "missing").available).toBe(false);
    c.close();
  });

  it("ships example profiles for other ACP agents that the config loader accepts", async () => {
    const { loadConfig } = await import("../../server/config");
    const file = path.resolve(import.meta.dirname, "../../examples/agents.config.json");
    const config = loadConfig({ ACP_PLAYGROUND_CONFIG: file }, process.cwd());
    expect(Object.keys(config.profiles)).toEqual([
      "qwen",
      "qwen-offline",
      "copilot",
      "cursor",
      "opencode",
      "claude-code",
      "gemini-flash",
      "codex",
      "remote-http",
    ]);
    expect(config.profiles.codex!.protocol).toBe("codex-app-server");
    expect(config.profiles["qwen-offline"]!.model).toBe("offline");
    expect(JSON.parse(readFileSync(file, "utf8")).profiles.cursor.args).toEqual(["acp"]);
    expect(Object.keys(config.profiles.qwen!.options!)).toEqual(["model", "approvalMode"]);
    // The registry entry becomes the installed command, or says it is not installed: never npx, which may fetch.
    const claude = config.profiles["claude-code"]!;
    expect(claude.command).not.toBe("npx");
    if (claude.notInstalled) expect(claude.notInstalled).toMatch(/^@zed-industries\/claude-agent-acp is not installed/);
    else expect(claude.args).toEqual([]);
    expect(config.profiles["gemini-flash"]!.clientCapabilities).toEqual({
      fs: { readTextFile: false, writeTextFile: false },
      terminal: false,
    });
  });

  it("passes declared options as --flag=VALUE, refuses values that read as flags, and runs gemini without the re-launch", async () => {
    const profiles = new Profiles(relay.config);
    expect(await profiles.resolve("qwenlike", { model: "qwen3-coder", approvalMode: "yolo" })).toMatchObject({
      ok: true,
      value: { args: [otherAgent, "--model=qwen3-coder", "--approval-mode=yolo"] },
    });
    expect(await profiles.resolve("qwenlike", { model: "--yolo" })).toMatchObject({
      ok: false,
      error: { code: "invalid_payload", message: 'option "model" may not start with "-"' },
    });
    expect(await profiles.resolve("other", { model: "x" })).toMatchObject({ error: { code: "invalid_payload" } });
    expect(await profiles.resolve("nope")).toMatchObject({ ok: false, error: { code: "unknown_profile" } });
    const gemini = await profiles.resolve("gemini", { model: "gemini-2.5-flash", skipTrust: true });
    expect(gemini).toMatchObject({
      ok: true,
      value: { args: ["--acp", "--model=gemini-2.5-flash", "--skip-trust"], env: { GEMINI_CLI_NO_RELAUNCH: "true" } },
    });
  });

  it("keeps probe reports (listed, reloadable, deletable) and shows agentInfo's version for a command without --version", async () => {
    const version = async () =>
      (
        (await (await api("/api/profiles")).json()) as { profiles: Array<{ name: string; version?: string }> }
      ).profiles.find((p) => p.name === "other")!.version;
    expect(await version()).toBeUndefined();
    const c = new TestClient(relay.url, { token: "test-token" });
    await c.connected();
    const res = (await c.emit("agent:probe", { profile: "other" })) as { ok: boolean; report: ProbeReport };
    c.close();
    expect(res.ok).toBe(true);
    const id = res.report.id!;
    expect(id).toMatch(/^\d{8}-\d{6}-[0-9a-f]{8}$/);
    const list = (await (await api("/api/probes")).json()) as { probes: Array<{ id: string; profile: string }> };
    expect(list.probes).toEqual([
      expect.objectContaining({ id, profile: "other", agent: { name: "other-agent", version: "3.1.4" } }),
    ]);
    const again = (await (await api(`/api/probes/${id}`)).json()) as ProbeReport;
    expect(again).toEqual(res.report);
    expect(await version()).toBe("3.1.4");
    expect((await api(`/api/probes/${id}`, { method: "DELETE" })).status).toBe(204);
    expect((await api(`/api/probes/${id}`)).status).toBe(404);
    expect((await api("/api/probes/..%2Fetc")).status).toBe(404);
  });
});
