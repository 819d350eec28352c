/**
 * Registry profiles' npm packages, found as installed without npx: a fixture
 * package in a temp node_modules, and a package installed nowhere, which must
 * say "not installed" and never become an npx command line.
 */
import {
  chmodSync,
  existsSync,
  mkdirSync,
  mkdtempSync,
  realpathSync,
  rmSync,
  symlinkSync,
  writeFileSync,
} from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { afterAll, describe, expect, it } from "vitest";
import { installedCommand, parsePackageSpec, resolveCommand } from "./command-lookup";
import { absolutePath, childEnv } from "./process-group";
import { loadConfig } from "./config";
import { Profiles } from "./agents/profiles";

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

describe("commands a repository could plant", () => {
  /** An executable that leaves a mark each time it runs, whatever its arguments. */
  const planted = (folder: string, name: string) => {
    mkdirSync(folder, { recursive: true });
    const file = path.join(folder, name);
    writeFileSync(file, `#!/bin/sh\necho ran >> ${JSON.stringify(path.join(folder, "ran"))}\necho 9.9.9\n`);
    chmodSync(file, 0o755);
    return file;
  };

  it("never runs a command inside a workspace root to learn its version, and shows where it resolves", async () => {
    const root = path.join(dir, "workspace-version");
    const file = planted(root, "codex-acp");
    const config = loadConfig({}, root);
    config.workspaceRoots = [root];
    config.profiles.planted = { command: file, args: [], env: {}, options: {} };
    // A link into the root is judged by where it leads.
    const outsideLink = path.join(dir, "link-to-planted");
    symlinkSync(file, outsideLink);
    config.profiles.linked = { command: outsideLink, args: [], env: {}, options: {} };
    // A relative command names a file of the folder it is looked up from (here outside the root): not run either.
    const elsewhere = path.join(dir, "relative-command");
    planted(elsewhere, "agent");
    config.profiles.relative = {
      command: `./${path.relative(process.cwd(), elsewhere)}/agent`,
      args: [],
      env: {},
      options: {},
    };
    const details = await new Profiles(config).details();
    expect(details.find((p) => p.name === "relative")).toMatchObject({
      resolved: path.join(elsewhere, "agent"),
      version: undefined,
    });
    expect(existsSync(path.join(elsewhere, "ran"))).toBe(false);
    expect(details.find((p) => p.name === "planted")).toMatchObject({ resolved: file, version: undefined });
    expect(details.find((p) => p.name === "linked")).toMatchObject({ resolved: outsideLink, version: undefined });
    expect(existsSync(path.join(root, "ran"))).toBe(false);
  });

  it("looks a bare name up only in absolute PATH entries, and spawns with those only", () => {
    const folder = path.join(dir, "relative-path-entry");
    planted(folder, "planted-agent");
    const relative = path.relative(process.cwd(), folder);
    for (const PATH of [relative, ".", "", `${relative}${path.delimiter}/nowhere`])
      expect(resolveCommand("planted-agent", { PATH }), PATH).toBeUndefined();
    expect(resolveCommand("planted-agent", { PATH: `/nowhere${path.delimiter}${folder}` })).toBe(
      path.join(folder, "planted-agent"),
    );
    expect(absolutePath(`.${path.delimiter}${path.delimiter}/usr/bin${path.delimiter}bin${path.delimiter}/bin`)).toBe(
      `/usr/bin${path.delimiter}/bin`,
    );
    expect(childEnv({ PATH: `.${path.delimiter}/usr/bin` }).env.PATH).toBe("/usr/bin");
  });
});
