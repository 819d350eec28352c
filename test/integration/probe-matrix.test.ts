/**
 * The probe and the protocol matrix from the CLI, against scripted agents that
 * behave like the third-party ones (test/fixtures/other-agent.mjs): permission
 * asked during the turn, usage in _meta and usage_update, late commands.
 */
import { execa } from "execa";
import { mkdirSync, mkdtempSync, readdirSync, realpathSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { ProbeReport } from "../../lib/contracts/reports";
import type { ProbeMatrix } from "../../lib/features/probe/matrix";

const bin = path.resolve(import.meta.dirname, "../../bin/acp-playground.mjs");
const agent = path.resolve(import.meta.dirname, "../fixtures/other-agent.mjs");
let dir: string;

beforeAll(() => {
  dir = realpathSync(mkdtempSync(path.join(tmpdir(), "acp-matrix-")));
  writeFileSync(
    path.join(dir, "config.json"),
    JSON.stringify({
      profiles: {
        other: { command: process.execPath, args: [agent] },
        "other-modes": { command: process.execPath, args: [agent, "--modes"] },
        big: { command: process.execPath, args: [agent, "--pad", "700000"] },
      },
      defaultProfile: "other",
    }),
  );
});
afterAll(() => rmSync(dir, { recursive: true, force: true }));

const env = (extra: Record<string, string> = {}) => ({
  ACP_PLAYGROUND_CONFIG: path.join(dir, "config.json"),
  ACP_PLAYGROUND_DATA: path.join(dir, "data"),
  ...extra,
});
const cli = (args: string[], options: { cwd?: string; env?: Record<string, string> } = {}) =>
  execa(process.execPath, [bin, ...args], {
    cwd: options.cwd ?? dir,
    reject: false,
    timeout: 90_000,
    env: options.env ?? env(),
    extendEnv: true,
  });

describe("probe and protocol matrix", () => {
  it("probes several profiles into one matrix, answering the agents' own requests", async () => {
    const run = await cli(["probe", "--profile", "other", "--profile", "other-modes", "--json"]);
    expect(run.stderr).toBe("");
    expect(run.exitCode).toBe(0);
    const { matrix, reports } = JSON.parse(run.stdout) as { matrix: ProbeMatrix; reports: ProbeReport[] };
    expect(matrix.columns).toEqual(["other (other-agent 3.1.4)", "other-modes (other-agent 3.1.4)"]);
    const cells = (label: string) => matrix.rows.find((r) => r.label === label)!.cells;
    expect(cells("protocol version")).toEqual(["1", "1"]);
    expect(cells("auth method types")).toEqual(["env_var", "env_var"]);
    expect(cells("session capabilities")).toEqual(["fork, list", "fork, list"]);
    expect(cells("session/fork")).toEqual(["supported", "supported"]);
    expect(cells("session/resume")).toEqual(["not found", "not found"]);
    expect(cells("session/set_mode")).toEqual(["not applicable", "supported"]);
    expect(cells("session/set_model")).toEqual(["not applicable", "supported"]);
    expect(cells("tool call round trip")).toEqual(["✓ answered", "✓ answered"]);
    expect(cells("agent requests answered")[0]).toBe("session/request_permission: selected proceed_once");
    expect(cells("cancel")).toEqual(["✓ answered", "✓ answered"]);
    expect(cells("usage reported")[0]).toBe("_meta.usage, usage_update");
    // ACP v1 requires no answer to a malformed line: shown, never a failure.
    expect(cells("malformed line → -32700 (informational)")[0]).toBe("no reply");
    expect(cells("verdict")).toEqual(["CONFORMANT", "CONFORMANT"]);
    // `models` beside the schema's fields in session/new (custom data belongs in _meta): a SHOULD-level finding.
    expect(cells("failing requirements")).toEqual(["none", "ACP-SCHEMA-002 (ADVISORY)"]);
    for (const r of reports) {
      expect(r.facts!.startupMs).toBeGreaterThan(0);
      expect(r.facts!.rssBytes).toBeGreaterThan(1024 * 1024);
    }
    // Each report is kept.
    expect(readdirSync(path.join(dir, "data", "probes")).filter((f) => f.endsWith(".json"))).toHaveLength(2);

    const md = await cli(["probe", "--profile", "other", "--profile", "other-modes"]);
    expect(md.exitCode).toBe(0);
    expect(md.stdout.split("\n")[0]).toBe("| | other (other-agent 3.1.4) | other-modes (other-agent 3.1.4) |");
    expect(md.stdout).toContain("| session/set_mode | not applicable | supported |");
  });

  it("delivers a report larger than 600 KB whole through a pipe", async () => {
    const run = await execa("sh", ["-c", `"${process.execPath}" "${bin}" probe --profile big --json | cat`], {
      cwd: dir,
      reject: false,
      timeout: 90_000,
      env: env(),
    });
    expect(run.exitCode).toBe(0);
    expect(run.stdout.length).toBeGreaterThan(600 * 1024);
    const report = JSON.parse(run.stdout) as ProbeReport;
    expect(report.profile).toBe("big");
  });

  it("never writes into the --cwd directory", async () => {
    const work = path.join(dir, "work");
    const home = path.join(dir, "xdg");
    mkdirSync(work);
    const run = await cli(["probe", "--profile", "other", "--cwd", work], {
      cwd: work,
      env: { ACP_PLAYGROUND_CONFIG: path.join(dir, "config.json"), XDG_DATA_HOME: home },
    });
    expect(run.exitCode).toBe(0);
    expect(readdirSync(work)).toEqual([]);
    expect(readdirSync(path.join(home, "acp-playground", "probes"))).toHaveLength(1);
  });
});
