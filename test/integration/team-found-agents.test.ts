/**
 * Agents found on the team server's machine are its admin's: a person's named token may neither
 * list the operator's Zed settings nor add one of them, which rewrites the config file holding
 * every person's token (a rewrite racing the operator's edit would bring a revoked token back).
 * A throw-away HOME with one agent in Zed's settings, a relay with a config file of named tokens.
 */
import { mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { FOUND_AGENTS_REFUSAL } from "../../server/http/profiles-api";
import { startTestRelay, type TestRelay } from "../relay-harness";

const ALICE = "alice-token-0123456789abcdef";
const home = mkdtempSync(path.join(tmpdir(), "acp-found-home-"));
const configFile = path.join(home, "playground.json");
const saved = { HOME: process.env.HOME, XDG_CONFIG_HOME: process.env.XDG_CONFIG_HOME };
let relay: TestRelay;

const found = (token: string, init: RequestInit = {}) =>
  fetch(`${relay.url}/api/profiles/found`, {
    ...init,
    headers: { authorization: `Bearer ${token}`, "content-type": "application/json" },
  });
const add = (token: string) => found(token, { method: "POST", body: JSON.stringify({ source: "zed", name: "Other" }) });

beforeAll(async () => {
  process.env.HOME = home;
  delete process.env.XDG_CONFIG_HOME;
  mkdirSync(path.join(home, ".config", "zed"), { recursive: true });
  const agent = { type: "custom", command: process.execPath, args: ["other.mjs"] };
  writeFileSync(
    path.join(home, ".config", "zed", "settings.json"),
    JSON.stringify({ agent_servers: { Other: agent } }),
  );
  writeFileSync(configFile, JSON.stringify({ tokens: { alice: ALICE } }), { mode: 0o600 });
  relay = await startTestRelay({ tokens: { alice: ALICE }, configFile, profiles: {} });
});

afterAll(async () => {
  await relay?.close();
  for (const [key, value] of Object.entries(saved))
    if (value === undefined) delete process.env[key];
    else process.env[key] = value;
  rmSync(home, { recursive: true, force: true });
});

describe("agents found on a team server's machine", () => {
  it("are not a person's to list or add: the config file is left as the operator wrote it", async () => {
    const before = readFileSync(configFile, "utf8");
    for (const res of [await found(ALICE), await add(ALICE)]) {
      expect(res.status).toBe(403);
      expect(await res.json()).toEqual({ error: { code: "not_owner", message: FOUND_AGENTS_REFUSAL } });
    }
    expect(readFileSync(configFile, "utf8")).toBe(before);
    expect(relay.config.profiles).toEqual({});
  });

  it("are the admin's, as on a server without named tokens", async () => {
    const list = (await (await found("test-token")).json()) as { agents: { name: string }[] };
    expect(list.agents.map((a) => a.name)).toEqual(["Other"]);
    expect((await add("test-token")).status).toBe(201);
    expect(JSON.parse(readFileSync(configFile, "utf8"))).toMatchObject({ tokens: { alice: ALICE }, profiles: {} });
    expect(Object.keys(relay.config.profiles)).toEqual(["Other"]);
  });
});
