/**
 * Every command answers --help and -h with its own usage and exit 0, starting nothing
 * (`mcp` would otherwise serve stdio and wait), and the help names only files the
 * installed package ships.
 */
import { execa } from "execa";
import { existsSync, readFileSync } from "node:fs";
import path from "node:path";
import { describe, expect, it } from "vitest";
import { COMMANDS } from "../../server/cli/cli-usage";

const root = path.resolve(import.meta.dirname, "../..");
const bin = path.join(root, "bin/acp-playground.mjs");
const commands = [
  "serve",
  "record",
  "replay",
  "probe",
  "tap",
  "compare",
  "validate",
  "probe-client",
  "mcp",
  "export",
  "publish",
];

const run = (args: string[]) =>
  execa(process.execPath, [bin, ...args], {
    cwd: root,
    reject: false,
    // A command that starts instead of answering hangs: the timeout ends it and the test fails.
    timeout: 30_000,
    // stdin left open, as a terminal's: mcp would wait on it.
    stdin: "pipe",
    env: { ACP_PLAYGROUND_DATA: path.join(root, "does-not-exist-help-data"), NO_COLOR: "1" },
  });

describe("--help", () => {
  it("knows every command", () => expect(Object.keys(COMMANDS).sort()).toEqual([...commands].sort()));

  it.each(commands.flatMap((c) => [[c, "--help"] as const, [c, "-h"] as const]))(
    "%s %s prints its usage and exits 0",
    async (command, flag) => {
      const r = await run([command, flag]);
      expect(r.timedOut).toBe(false);
      expect(r.stderr).toBe("");
      expect(r.exitCode).toBe(0);
      expect(r.stdout).toMatch(
        new RegExp(`^usage: acp-playground ${command === "serve" ? "\\[serve\\]" : command}\\s`),
      );
      expect(existsSync(path.join(root, "does-not-exist-help-data"))).toBe(false);
    },
    60_000,
  );

  it("after the options, and with `help COMMAND`, as well", async () => {
    expect((await run(["record", "--prompt", "x", "--help"])).stdout).toMatch(/^usage: acp-playground record/);
    expect((await run(["help", "replay"])).stdout).toMatch(/^usage: acp-playground replay/);
    const top = await run(["--help"]);
    expect(top.exitCode).toBe(0);
    for (const c of commands.filter((c) => c !== "serve")) expect(top.stdout).toContain(`  ${c} `);
  }, 60_000);

  // parseArgs' own advice, to put an unknown option after `--`, would make it serve's or tap's agent command.
  it.each(commands)(
    "%s names a wrong option in its own words, with its usage, and exits 2",
    async (command) => {
      const r = await run([command, "--no-such-option"]);
      expect(r.exitCode).toBe(2);
      expect(r.stderr.split("\n")[0]).toMatch(
        /^acp-playground(?: [\w-]+)?: (?:publish: )?unknown option --no-such-option$/,
      );
      expect(r.stderr).toContain(`usage: acp-playground ${command === "serve" ? "[serve]" : command}`);
      expect(r.stderr).not.toMatch(/after '--'/);
      expect((await run([command, "--no-such-option=1"])).stderr).not.toMatch(/after '--'/);
    },
    60_000,
  );

  it("says which option lacks its value, and never names the command twice", async () => {
    expect((await run(["serve", "--port"])).stderr).toMatch(/^acp-playground: --port needs a value\n/);
    expect((await run(["serve", "--no-open=yes"])).stderr).toMatch(/^acp-playground: --no-open takes no value\n/);
    expect((await run(["validate"])).stderr).toMatch(/^acp-playground validate: needs at least one file\n/);
    expect((await run(["compare", "--prompt", "x"])).stderr).toMatch(
      /^acp-playground compare: needs one or two --profile\n/,
    );
    for (const args of [["validate"], ["compare"], ["compare", "--prompt", "x"], ["record"], ["export"], ["replay"]])
      expect((await run(args)).stderr, args.join(" ")).not.toMatch(/^acp-playground ([\w-]+): \1\b/);
  }, 60_000);

  // A file by the data folder's name failed with ENOTDIR, exit 1 (serve, mcp).
  it("refuses a data folder that is a file, saying so, exit 2", async () => {
    const file = path.join(root, "package.json");
    const expected = `the data folder ${file} is a file: --data or ACP_PLAYGROUND_DATA names a folder`;
    const mcp = await run(["mcp", "--data", file]);
    expect(mcp.exitCode).toBe(2);
    expect(mcp.stderr).toBe(`acp-playground: ${expected}`);
    const serve = await run(["serve", "--no-open", "--port", "0", "--data", file]);
    expect(serve.exitCode).toBe(2);
    expect(serve.stderr).toBe(`acp-playground: configuration error: ${expected}`);
  }, 60_000);

  it("names only docs the package ships", async () => {
    const files: string[] = JSON.parse(readFileSync(path.join(root, "package.json"), "utf8")).files;
    const shipped = (file: string) =>
      files.some((f) =>
        f.endsWith("/")
          ? file.startsWith(f)
          : new RegExp(`^${f.replace(/[.]/g, "\\.").replace(/\*/g, "[^/]*")}$`).test(file),
      );
    const texts = await Promise.all([["--help"], ...commands.map((c) => [c, "--help"])].map((a) => run(a)));
    const named = new Set(texts.flatMap((t) => [...t.stdout.matchAll(/\bdocs\/[\w-]+\.md/g)].map((m) => m[0])));
    expect(named.size).toBeGreaterThan(0);
    for (const file of named) {
      expect(existsSync(path.join(root, file)), file).toBe(true);
      expect(shipped(file), `${file} is not in package.json "files"`).toBe(true);
    }
    // README.md ships whatever "files" says; nothing else outside the package is named.
    for (const t of texts) expect(t.stdout).not.toMatch(/\b(?:test|e2e|scripts|server|lib)\/[\w/-]+\.\w+/);
  }, 120_000);
});
