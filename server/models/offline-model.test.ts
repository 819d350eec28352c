/** `"model": "offline"`: which agent a profile starts, its validation, and the environment it is given. */
import {
  existsSync,
  mkdirSync,
  mkdtempSync,
  readdirSync,
  readFileSync,
  rmSync,
  statSync,
  writeFileSync,
} from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { afterAll, describe, expect, it } from "vitest";
import { Profiles } from "../agents/profiles";
import { ConfigError, loadConfig, parseProfile } from "../config";
import { createRedactor, secretsFromEnv } from "../../lib/features/library/redact";
import { offlineAgentOf, offlineHome, offlineModel, removeLeftoverHomes } from "./offline-model";

const offlineModelEnv = async (...args: Parameters<typeof offlineModel>) => (await offlineModel(...args)).env;
/** Whether `home` is a run's own home under the agent's folder of homes. */
const runHomeOf = (dataDir: string, agent: Parameters<typeof offlineHome>[1], home: string | undefined) =>
  path.dirname(home ?? "") === offlineHome(dataDir, agent);

const dataDir = mkdtempSync(path.join(tmpdir(), "acp-offline-env-"));
afterAll(() => rmSync(dataDir, { recursive: true, force: true }));

describe("offlineAgentOf", () => {
  it("knows an agent by its command, an npx package, or the package folder of a script node runs", () => {
    expect(offlineAgentOf("qwen", ["--acp"])).toBe("qwen");
    expect(offlineAgentOf("/usr/local/bin/gemini", ["--acp"])).toBe("gemini");
    expect(offlineAgentOf("npx", ["-y", "@zed-industries/claude-agent-acp@0.23.1"])).toBe("claude");
    expect(offlineAgentOf("/usr/bin/node", ["/x/node_modules/@zed-industries/claude-agent-acp/dist/index.js"])).toBe(
      "claude",
    );
    expect(offlineAgentOf("node", ["/x/node_modules/@qwen-code/qwen-code/cli.js", "--acp"])).toBe("qwen");
    expect(offlineAgentOf("copilot", ["--acp"])).toBeUndefined();
    expect(offlineAgentOf("node", ["my-agent.js"])).toBeUndefined();
  });
});

describe('a profile\'s "model"', () => {
  const parse = (raw: unknown) => parseProfile("p", raw, "agents.config.json", dataDir);

  it('keeps "offline" for an agent the offline model serves', () => {
    expect(parse({ command: "qwen", args: ["--acp"], model: "offline" })).toMatchObject({ model: "offline" });
    expect(parse({ command: "qwen", args: ["--acp"] }).model).toBeUndefined();
  });

  it("refuses another value, or an agent the offline model does not serve, naming the field", () => {
    expect(() => parse({ command: "qwen", model: "gpt-5" })).toThrow(ConfigError);
    expect(() => parse({ command: "qwen", model: "gpt-5" })).toThrow(/profiles\.p.*model.*"offline"/);
    expect(() => parse({ command: "copilot", args: ["--acp"], model: "offline" })).toThrow(
      /profiles\.p: "model": "offline" serves gemini, qwen, claude-agent-acp and codex; "copilot" is none of them/,
    );
  });
});

describe("offlineModelEnv", () => {
  it("points Qwen Code at a live chat-completions API with a dummy key, from a home that asks before tools run", async () => {
    const env = await offlineModelEnv("qwen", dataDir);
    expect(env).toMatchObject({ OPENAI_API_KEY: "offline-model" });
    expect(runHomeOf(dataDir, "qwen", env.HOME)).toBe(true);
    const settings = JSON.parse(readFileSync(path.join(env.HOME!, ".qwen", "settings.json"), "utf8"));
    expect(settings).toMatchObject({
      tools: { approvalMode: "default" },
      security: { auth: { selectedType: "openai" } },
    });
    const res = await fetch(`${env.OPENAI_BASE_URL}/chat/completions`, {
      method: "POST",
      body: JSON.stringify({ messages: [{ role: "user", content: "hi" }] }),
    });
    expect(res.status).toBe(200);
    // Started once per process: a second agent gets the same API.
    expect((await offlineModelEnv("qwen", dataDir)).OPENAI_BASE_URL).toBe(env.OPENAI_BASE_URL);
  });

  it("points Claude Code at a live Messages API, with its config in its own home, and blanks a user's other routes", async () => {
    const env = await offlineModelEnv("claude", dataDir);
    expect(runHomeOf(dataDir, "claude", env.HOME)).toBe(true);
    expect(env).toMatchObject({
      CLAUDE_CONFIG_DIR: path.join(env.HOME!, ".claude"),
      ANTHROPIC_API_KEY: "offline-model",
      ANTHROPIC_AUTH_TOKEN: "",
      CLAUDE_CODE_USE_BEDROCK: "",
    });
    expect(existsSync(env.CLAUDE_CONFIG_DIR!)).toBe(true);
    const res = await fetch(`${env.ANTHROPIC_BASE_URL}/v1/messages/count_tokens`, { method: "POST", body: "{}" });
    expect(await res.json()).toEqual({ input_tokens: 12 });
  });

  it("gives Codex a CODEX_HOME whose provider is a live Responses API and whose policy asks before escalating", async () => {
    const env = await offlineModelEnv("codex", dataDir);
    expect(env).toMatchObject({ CODEX_HOME: path.join(env.HOME!, ".codex"), OPENAI_API_KEY: "" });
    expect(runHomeOf(dataDir, "codex", env.HOME)).toBe(true);
    const config = readFileSync(path.join(env.CODEX_HOME!, "config.toml"), "utf8");
    expect(config).toContain('approval_policy = "on-request"');
    // The model has metadata: Codex runs it without a "fallback metadata" warning.
    const catalog = JSON.parse(/^model_catalog_json = (".*")$/m.exec(config)![1]!) as string;
    expect(JSON.parse(readFileSync(catalog, "utf8"))).toMatchObject({ models: [{ slug: "offline-model" }] });
    const url = /^base_url = "(.*)"$/m.exec(config)![1]!;
    const res = await fetch(`${url}/models`);
    expect(await res.json()).toMatchObject({ object: "list" });
  });
});

describe("the offline model's secret path", () => {
  it("is in every agent's base URL, and redacted wherever the agent prints its URL", async () => {
    for (const agent of ["gemini", "qwen", "claude", "codex"] as const) {
      const { env, home } = await offlineModel(agent, dataDir);
      const url =
        env.GOOGLE_GEMINI_BASE_URL ||
        env.OPENAI_BASE_URL ||
        env.ANTHROPIC_BASE_URL ||
        /^base_url = "(.*)"$/m.exec(readFileSync(path.join(home, ".codex", "config.toml"), "utf8"))![1]!;
      const secret = new URL(url).pathname.split("/")[1]!;
      expect(secret, agent).toMatch(/^[0-9a-f]{32}$/);
      expect(env.ACP_PLAYGROUND_OFFLINE_MODEL_KEY).toBe(secret);
      const printed = createRedactor(secretsFromEnv(env)).text(`error calling ${url}/models: ECONNRESET`);
      expect(printed.text, agent).not.toContain(secret);
    }
  });
});

describe("the offline model's homes (issue #34: conversations left unredacted)", () => {
  it("gives each run a private home of its own, in the data directory", async () => {
    const a = await offlineModel("gemini", dataDir);
    const b = await offlineModel("gemini", dataDir);
    expect(a.home).not.toBe(b.home);
    for (const run of [a, b]) {
      expect(runHomeOf(dataDir, "gemini", run.home)).toBe(true);
      expect(run.env).toMatchObject({ HOME: run.home, GEMINI_CLI_HOME: run.home });
      expect(statSync(run.home).mode & 0o777).toBe(0o700);
      expect(existsSync(path.join(run.home, ".gemini", "settings.json"))).toBe(true);
    }
    // A running process's homes stay at the next start.
    await offlineModel("gemini", dataDir);
    expect(existsSync(a.home) && existsSync(b.home)).toBe(true);
  });

  it("removes at a start the homes of processes that are gone, and the one shared home of before", async () => {
    const data = mkdtempSync(path.join(dataDir, "leftovers-"));
    const homes = offlineHome(data, "gemini");
    const chat = (home: string) => {
      const dir = path.join(home, ".gemini", "tmp", "0f1e2d", "chats");
      mkdirSync(dir, { recursive: true });
      writeFileSync(path.join(dir, "session-1.json"), '{"messages":[{"content":"my password is hunter2"}]}');
    };
    chat(homes); // the shared home's layout before
    // No process has this pid (above pid_max).
    const gone = path.join(homes, "4194399-0123456789abcdef");
    chat(gone);
    // A process still running (vitest's own), and this pid's home this process did not make (a
    // restarted container's relay has the pid of the one before).
    const live = path.join(homes, `${process.ppid}-0123456789abcdef`);
    chat(live);
    chat(path.join(homes, `${process.pid}-0123456789abcdef`));
    removeLeftoverHomes(homes);
    expect(readdirSync(homes)).toEqual([path.basename(live)]);
    chat(gone);
    const run = await offlineModel("gemini", data);
    expect(readdirSync(homes).sort()).toEqual([path.basename(live), path.basename(run.home)].sort());
  });
});

describe("a config file's offline profiles, resolved for a start", () => {
  const config = (profiles: Record<string, unknown>) => {
    const file = path.join(dataDir, "agents.config.json");
    writeFileSync(file, JSON.stringify({ profiles }));
    return loadConfig({ ACP_PLAYGROUND_CONFIG: file, ACP_PLAYGROUND_DATA: dataDir }, dataDir);
  };

  it("start with the offline model's variables over the profile's own, and ask for no credentials", async () => {
    const profiles = new Profiles(
      config({
        qwen: { command: "qwen", args: ["--acp"], env: { OPENAI_API_KEY: "sk-real", KEEP: "1" }, model: "offline" },
        gemini: { command: "gemini", args: ["--acp"], model: "offline" },
      }),
    );
    const qwen = await profiles.resolve("qwen");
    expect(qwen).toMatchObject({
      ok: true,
      value: {
        command: "qwen",
        args: ["--acp"],
        env: { KEEP: "1", OPENAI_API_KEY: "offline-model" },
      },
    });
    // Its home is the run's, for the relay to remove when the agent exits.
    expect(qwen.ok && qwen.value.scratch).toEqual([qwen.ok && qwen.value.env.HOME]);
    expect(qwen.ok && runHomeOf(dataDir, "qwen", qwen.value.env.HOME)).toBe(true);
    expect(await profiles.resolve("gemini")).toMatchObject({
      ok: true,
      value: { env: { GEMINI_API_KEY: "offline-model" } },
    });
    expect(profiles.list().find((p) => p.name === "gemini")).not.toHaveProperty("credentialsMissing");
  });

  it("a profile made in code for an agent the offline model does not serve fails to start, saying why", async () => {
    const c = config({});
    c.profiles.other = { command: "copilot", args: ["--acp"], env: {}, model: "offline" };
    expect(await new Profiles(c).resolve("other")).toEqual({
      ok: false,
      error: {
        code: "spawn_failed",
        message:
          'profile "other": "model": "offline" serves gemini, qwen, claude-agent-acp and codex; "copilot" is none of them',
      },
    });
  });
});
