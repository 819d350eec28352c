/** Profiles: what resolves on this machine, versions, shipped examples. */
import { readFileSync } from "node:fs";
import path from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { startTestRelay, TestClient, type TestRelay } from "../relay-harness";

let relay: TestRelay;
beforeAll(async () => {
  relay = await startTestRelay({
    profiles: {
      node: { command: process.execPath, args: [], env: { SECRET_VALUE: "do-not-leak" }, description: "plain node" },
      missing: { command: "definitely-not-installed-acp-agent", args: ["--acp"], env: {} },
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
    expect(by("node")).toMatchObject({
      available: true,
      resolved: process.execPath,
      version: process.version,
      description: "plain node",
    });
    expect(by("missing")).toMatchObject({ available: false });
    expect(by("missing").resolved).toBeUndefined();
    expect(by("gemini")).toMatchObject({
      available: true,
      version: "0.61.0",
      options: ["model", "approvalMode", "skipTrust"],
    });

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
      "copilot",
      "cursor",
      "opencode",
      "claude-code",
      "gemini-flash",
      "remote-http",
    ]);
    expect(JSON.parse(readFileSync(file, "utf8")).profiles.cursor.args).toEqual(["acp"]);
  });
});
