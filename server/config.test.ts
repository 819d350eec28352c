import { mkdtempSync, realpathSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { afterAll, describe, expect, it } from "vitest";
import { ConfigError, loadConfig, registryPlatform } from "./config";

const dir = realpathSync(mkdtempSync(path.join(tmpdir(), "acp-config-")));
afterAll(() => rmSync(dir, { recursive: true, force: true }));
const file = (name: string, content: string) => {
  const p = path.join(dir, name);
  writeFileSync(p, content);
  return p;
};

describe("loadConfig", () => {
  it("has safe defaults: loopback, port 3000, a random token, cwd as workspace", () => {
    const a = loadConfig({}, dir);
    const b = loadConfig({}, dir);
    expect(a).toMatchObject({
      host: "127.0.0.1",
      port: 3000,
      workspaceRoots: [dir],
      graceMs: 60_000,
      maxLineBytes: 16 * 1024 * 1024,
    });
    expect(a.token.length).toBeGreaterThanOrEqual(32);
    expect(a.token).not.toBe(b.token);
  });

  it("without Gemini credentials, the default agent is Gemini CLI with the offline model, kept warm", () => {
    expect(loadConfig({}, dir)).toMatchObject({ defaultProfile: "gemini-offline", pool: { "gemini-offline": 1 } });
    expect(loadConfig({ GEMINI_API_KEY: "k" }, dir)).toMatchObject({ defaultProfile: "gemini", pool: { gemini: 1 } });
  });

  it("reads environment variables", () => {
    const c = loadConfig(
      {
        HOST: "0.0.0.0",
        PORT: "4000",
        ACP_PLAYGROUND_TOKEN: "t",
        ALLOWED_ORIGINS: "https://a, https://b",
        ACP_PLAYGROUND_GRACE_MS: "5",
      },
      dir,
    );
    expect(c).toMatchObject({
      host: "0.0.0.0",
      port: 4000,
      token: "t",
      allowedOrigins: ["https://a", "https://b"],
      graceMs: 5,
    });
    expect(() => loadConfig({ PORT: "http" }, dir)).toThrow(ConfigError);
  });

  it("reads profiles and workspace roots from the config file", () => {
    const p = file(
      "ok.json",
      JSON.stringify({
        profiles: { qwen: { command: "qwen", args: ["--acp"], env: { A: "1" } } },
        workspaceRoots: ["."],
      }),
    );
    expect(loadConfig({ ACP_PLAYGROUND_CONFIG: p }, "/")).toMatchObject({
      profiles: { qwen: { command: "qwen", args: ["--acp"], env: { A: "1" } } },
      workspaceRoots: [dir],
    });
  });

  it.each([
    ["bad.json", "{", /not valid JSON/],
    ["array.json", "[]", /array\.json: expected object, received array/],
    ["unknownKey.json", '{"profile":{}}', /unknown field: profile/],
    ["badRoots.json", '{"workspaceRoots":[]}', /workspaceRoots: must be a non-empty array/],
    ["badPool.json", '{"pool":{"gemini":99}}', /pool size of "gemini": must be an integer 0\.\.32/],
    ["noCommand.json", '{"profiles":{"x":{}}}', /profiles\.x\.command: needs a "command"/],
    ["badName.json", '{"profiles":{"a b":{"command":"a"}}}', /profiles\.a b: bad profile name/],
    ["badEnv.json", '{"profiles":{"x":{"command":"a","env":{"A":1}}}}', /profiles\.x\.env\.A: expected string/],
    ["remote.json", '{"profiles":{"x":{"url":"ftp://a","transport":"http"}}}', /profiles\.x\.url: a http profile/],
    [
      "badArgs.json",
      '{"profiles":{"x":{"command":"a","args":"b"}}}',
      /profiles\.x\.args: expected array, received string/,
    ],
    ["badRoot.json", '{"workspaceRoots":["/does/not/exist"]}', /workspace root does not exist/],
  ])("rejects %s clearly", (name, content, message) => {
    expect(() => loadConfig({ ACP_PLAYGROUND_CONFIG: file(name, content) }, dir)).toThrow(message);
  });

  it("names a missing config file", () => {
    expect(() => loadConfig({ ACP_PLAYGROUND_CONFIG: path.join(dir, "none.json") }, dir)).toThrow(
      /cannot read config file/,
    );
  });

  it("reads per-profile options (flag and value rule) and client capabilities", () => {
    const p = file(
      "options.json",
      JSON.stringify({
        profiles: {
          qwen: {
            command: "qwen",
            args: ["--acp"],
            options: {
              model: { flag: "--model", pattern: "[\\w.:/-]{1,100}" },
              approvalMode: { flag: "--approval-mode", values: ["default", "yolo"] },
              trust: { flag: "--skip-trust", type: "boolean" },
            },
            clientCapabilities: { fs: { readTextFile: true }, terminal: true, _meta: { "terminal-auth": true } },
          },
        },
      }),
    );
    const q = loadConfig({ ACP_PLAYGROUND_CONFIG: p }, dir).profiles.qwen!;
    expect(Object.keys(q.options!)).toEqual(["model", "approvalMode", "trust"]);
    expect(q.options!.model).toMatchObject({ flag: "--model", type: "string" });
    // Anchored: a longer value does not pass on a partial match.
    expect((q.options!.model as { pattern: RegExp }).pattern.test("a b")).toBe(false);
    expect(q.clientCapabilities).toEqual({
      fs: { readTextFile: true, writeTextFile: false },
      terminal: true,
      _meta: { "terminal-auth": true },
    });
  });

  it("a URL profile declares client capabilities too: what the relay advertises and serves for it", () => {
    const p = file(
      "remoteCaps.json",
      JSON.stringify({
        profiles: {
          far: { url: "https://a.example/acp", transport: "http", clientCapabilities: { terminal: false } },
          near: { url: "https://b.example/acp", transport: "http" },
        },
      }),
    );
    const { far, near } = loadConfig({ ACP_PLAYGROUND_CONFIG: p }, dir).profiles;
    expect(far!.clientCapabilities).toEqual({ fs: { readTextFile: false, writeTextFile: false }, terminal: false });
    expect(far!.remote).toMatchObject({ url: "https://a.example/acp", transport: "http" });
    // Undeclared: the playground's defaults (server/agents/profiles.ts), as for a command profile.
    expect(near!.clientCapabilities).toBeUndefined();
  });

  it("resolves a relative command against the config file's folder, never the folder an agent starts in", () => {
    // Spawned as given, `./bin/agent` would be the file of the Start's cwd: a repository there can plant it.
    const p = file(
      "relative.json",
      JSON.stringify({ profiles: { a: { command: "./bin/agent" }, b: { command: "bin/b" } } }),
    );
    const c = loadConfig({ ACP_PLAYGROUND_CONFIG: p }, dir);
    expect(c.profiles.a!.command).toBe(path.join(dir, "bin", "agent"));
    expect(c.profiles.b!.command).toBe(path.join(dir, "bin", "b"));
    // Typed on the command line: the folder it was typed in.
    const typed = loadConfig({}, dir, [{ name: "x", command: "./x-agent", args: [] }]);
    expect(typed.profiles.x!.command).toBe(path.join(dir, "x-agent"));
    // Bare names stay PATH lookups.
    expect(loadConfig({}, dir, [{ name: "y", command: "y-agent", args: [] }]).profiles.y!.command).toBe("y-agent");
  });

  it("takes a profile pasted from the ACP registry (agent.json distribution)", () => {
    const p = file(
      "registry.json",
      JSON.stringify({
        profiles: {
          pkg: {
            id: "pkg",
            name: "Some Agent",
            version: "1.2.3",
            distribution: { npx: { package: "@scope/some-agent@1.2.3", args: ["--acp"], env: { A: "1" } } },
            env: { B: "2" },
          },
          withCmd: {
            name: "Cmd Agent",
            distribution: { npx: { package: "@scope/cmd-agent", cmd: "no-such-cmd-agent", args: ["acp"] } },
          },
          bin: {
            name: "Binary Agent",
            distribution: {
              binary: {
                [registryPlatform()]: {
                  archive: "https://example.invalid/a.tgz",
                  cmd: "./dist/agent",
                  args: ["serve"],
                },
              },
            },
          },
        },
      }),
    );
    const { profiles } = loadConfig({ ACP_PLAYGROUND_CONFIG: p }, dir);
    // Not installed here: never npx (server/command-lookup.test.ts has installed ones).
    expect(profiles.pkg).toMatchObject({
      command: "@scope/some-agent@1.2.3",
      args: ["--acp"],
      env: { A: "1", B: "2" },
      description: "Some Agent 1.2.3",
      notInstalled: expect.stringMatching(/^@scope\/some-agent@1\.2\.3 is not installed/),
    });
    expect(profiles.withCmd).toMatchObject({
      command: "no-such-cmd-agent",
      args: ["acp"],
      notInstalled: expect.stringMatching(/^@scope\/cmd-agent is not installed/),
    });
    expect(profiles.bin).toMatchObject({ command: path.join(dir, "dist", "agent"), args: ["serve"] });
    expect(registryPlatform("linux", "x64")).toBe("linux-x86_64");
    expect(registryPlatform("darwin", "arm64")).toBe("darwin-aarch64");
  });

  it.each([
    ["noFlag.json", { x: { command: "a", options: { m: { pattern: "a" } } } }, /needs a "flag"/],
    ["badFlag.json", { x: { command: "a", options: { m: { flag: "-m x", pattern: "a" } } } }, /needs a "flag"/],
    [
      "dashValue.json",
      { x: { command: "a", options: { m: { flag: "--m", values: ["-x"] } } } },
      /do not start with "-"/,
    ],
    ["noRule.json", { x: { command: "a", options: { m: { flag: "--m" } } } }, /needs "values", a "pattern"/],
    ["badPattern.json", { x: { command: "a", options: { m: { flag: "--m", pattern: "(" } } } }, /bad pattern/],
    ["badCaps.json", { x: { command: "a", clientCapabilities: { terminal: "yes" } } }, /clientCapabilities/],
    ["noDist.json", { x: { distribution: { uvx: { package: "p" } } } }, /no "npx" entry/],
    [
      "noPackage.json",
      { x: { distribution: { npx: { cmd: "a" } } } },
      /profiles\.x\.distribution\.npx\.package: needs a "package"/,
    ],
    [
      "badDistArgs.json",
      { x: { distribution: { npx: { package: "p", args: [1] } } } },
      /distribution\.npx\.args\.0: expected string/,
    ],
    ["unknownField.json", { x: { command: "a", argv: [] } }, /profiles\.x: unknown field: argv/],
    [
      "badOptionName.json",
      { x: { command: "a", options: { "-m": { flag: "--m", type: "boolean" } } } },
      /options\.-m: bad option name/,
    ],
  ])("rejects profile %s clearly", (name, profiles, message) => {
    expect(() => loadConfig({ ACP_PLAYGROUND_CONFIG: file(name, JSON.stringify({ profiles })) }, dir)).toThrow(message);
  });
});
