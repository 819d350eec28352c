import { mkdtempSync, realpathSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { afterAll, describe, expect, it } from "vitest";
import { ConfigError, loadConfig } from "./config";

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
    ["array.json", "[]", /must hold a JSON object/],
    ["noCommand.json", '{"profiles":{"x":{}}}', /needs a "command"/],
    ["badArgs.json", '{"profiles":{"x":{"command":"a","args":"b"}}}', /"args" must be an array/],
    ["badRoot.json", '{"workspaceRoots":["/does/not/exist"]}', /workspace root does not exist/],
  ])("rejects %s clearly", (name, content, message) => {
    expect(() => loadConfig({ ACP_PLAYGROUND_CONFIG: file(name, content) }, dir)).toThrow(message);
  });

  it("names a missing config file", () => {
    expect(() => loadConfig({ ACP_PLAYGROUND_CONFIG: path.join(dir, "none.json") }, dir)).toThrow(
      /cannot read config file/,
    );
  });
});
