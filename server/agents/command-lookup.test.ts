/**
 * Registry profiles' npm packages, found as installed without npx: a fixture
 * package in a temp node_modules, and a package installed nowhere, which must
 * say "not installed" and never become an npx command line.
 */
import { chmodSync, mkdirSync, mkdtempSync, realpathSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { afterAll, describe, expect, it } from "vitest";
import { installedCommand, parsePackageSpec } from "./command-lookup";
import { loadConfig } from "../config";
import { Profiles } from "./profiles";

const dir = realpathSync(mkdtempSync(path.join(tmpdir(), "acp-lookup-")));
afterAll(() => rmSync(dir, { recursive: true, force: true }));
const modules = path.join(dir, "node_modules");

/** A package as npm installs it: package.json and its bin files (executable unless said otherwise). */
function fixturePackage(name: string, pkg: object, files: Record<string, { text: string; mode?: number }>): string {
  const root = path.join(modules, name);
  mkdirSync(root, { recursive: true });
  writeFileSync(path.join(root, "package.json"), JSON.stringify({ name, ...pkg }));
  for (const [file, { text, mode = 0o755 }] of Object.entries(files)) {
    mkdirSync(path.dirname(path.join(root, file)), { recursive: true });
    writeFileSync(path.join(root, file), text);
    chmodSync(path.join(root, file), mode);
  }
  return root;
}

const script = { text: "#!/usr/bin/env node\nconsole.log('agent')\n" };
const agent = fixturePackage(
  "@fixture/some-agent",
  { version: "1.2.3", bin: { "some-agent": "bin/agent.js", "some-agent-tool": "bin/tool.js" } },
  { "bin/agent.js": script, "bin/tool.js": script },
);
const single = fixturePackage("single-bin", { version: "0.1.0", bin: "cli.js" }, { "cli.js": script });
const plain = fixturePackage(
  "lost-mode",
  { version: "2.0.0", bin: { "lost-mode": "cli.js" } },
  { "cli.js": { ...script, mode: 0o644 } },
);
fixturePackage("escaping", { version: "1.0.0", bin: { escaping: "../single-bin/cli.js" } }, {});

const look = (spec: string, cmd?: string) => installedCommand(spec, cmd, [modules], { PATH: "" });

describe("installedCommand", () => {
  it("finds a package's bin from its package.json, by name or as its only bin", () => {
    expect(look("@fixture/some-agent@1.2.3", "some-agent")).toEqual({
      ok: true,
      value: { command: path.join(agent, "bin/agent.js"), args: [] },
    });
    expect(look("@fixture/some-agent", "some-agent-tool")).toMatchObject({
      value: { command: path.join(agent, "bin/tool.js") },
    });
    // No cmd: the only bin, or the one named after the package (npx's rule).
    expect(look("single-bin")).toMatchObject({ value: { command: path.join(single, "cli.js") } });
    expect(look("@fixture/some-agent@^1")).toMatchObject({ value: { command: path.join(agent, "bin/agent.js") } });
    // A bin that lost its mode still runs, as a node script.
    expect(look("lost-mode")).toEqual({
      ok: true,
      value: { command: process.execPath, args: [path.join(plain, "cli.js")] },
    });
  });

  it("anything else is not installed, with where it looked, and never an npx command", () => {
    const missing = look("@fixture/absent-agent@1.0.0", "absent-agent");
    expect(missing).toEqual({
      ok: false,
      error: expect.stringMatching(
        /^@fixture\/absent-agent@1\.0\.0 is not installed: looked in .*node_modules and for absent-agent on PATH\. Install it \(npm install -g @fixture\/absent-agent@1\.0\.0\); the relay does not run npx/,
      ),
    });
    // Another exact version than the one installed is not it.
    expect(look("@fixture/some-agent@9.9.9", "some-agent")).toMatchObject({
      ok: false,
      error: expect.stringContaining("(found 1.2.3 in "),
    });
    // A bin the package does not have; a bin outside the package; a name that climbs out of node_modules.
    expect(look("@fixture/some-agent", "other").ok).toBe(false);
    expect(look("escaping").ok).toBe(false);
    expect(look("../node_modules/single-bin").ok).toBe(false);
  });

  it("parses package specs as the registry writes them", () => {
    expect(parsePackageSpec("@scope/name@1.2.3")).toEqual({ name: "@scope/name", version: "1.2.3" });
    expect(parsePackageSpec("@scope/name")).toEqual({ name: "@scope/name" });
    expect(parsePackageSpec("name@latest")).toEqual({ name: "name", version: "latest" });
  });
});

describe("a registry profile whose package is not installed", () => {
  const config = () => {
    const file = path.join(dir, "registry.json");
    writeFileSync(
      file,
      JSON.stringify({
        profiles: {
          absent: {
            name: "Absent Agent",
            distribution: { npx: { package: "@acp-playground-fixture/not-installed-agent@0.0.1", args: ["--acp"] } },
          },
        },
      }),
    );
    return loadConfig({ ACP_PLAYGROUND_CONFIG: file }, dir);
  };

  it("is listed as unavailable and refuses to start, saying so; it is never an npx command line", async () => {
    const c = config();
    expect(c.profiles.absent!.command).not.toBe("npx");
    expect(c.profiles.absent!.args).not.toContain("--no");
    const profiles = new Profiles(c);
    expect(profiles.list().find((p) => p.name === "absent")).toMatchObject({ available: false });
    expect(await profiles.resolve("absent")).toEqual({
      ok: false,
      error: {
        code: "spawn_failed",
        message: expect.stringMatching(
          /^profile "absent": @acp-playground-fixture\/not-installed-agent@0\.0\.1 is not installed: looked in /,
        ),
      },
    });
  });
});
