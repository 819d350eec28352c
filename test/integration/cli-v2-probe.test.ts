/**
 * `acp-playground probe` on acp-v2 profiles (the v2 fixtures as real processes): the v2 probe runs,
 * one fresh agent per scenario, and the report's requirements are the kit's v2 ids. And `record`:
 * its turn ends at state_update idle, not at the prompt's receipt.
 */
import { execa } from "execa";
import { mkdtempSync, readFileSync, realpathSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { ProbeReport } from "../../lib/contracts/reports";
import { V2_REQUIREMENTS } from "../../lib/features/probe-v2/requirements";

const root = path.resolve(import.meta.dirname, "../..");
const bin = path.join(root, "bin/acp-playground.mjs");
const fixture = (name: string) => path.join(root, "test/fixtures", name);
let dir: string;

beforeAll(() => {
  dir = realpathSync(mkdtempSync(path.join(tmpdir(), "acp-cli-v2-")));
  const profile = (file: string) => ({ command: process.execPath, args: [fixture(file)], protocol: "acp-v2" });
  writeFileSync(
    path.join(dir, "config.json"),
    JSON.stringify({
      profiles: { "v2-ref": profile("v2-reference-agent.mjs"), "v2-broken": profile("v2-broken-agent.mjs") },
    }),
  );
});
afterAll(() => rmSync(dir, { recursive: true, force: true }));

const cli = (args: string[]) =>
  execa(process.execPath, [bin, ...args], {
    cwd: dir,
    reject: false,
    timeout: 150_000,
    env: {
      ...process.env,
      HOME: dir,
      ACP_PLAYGROUND_DATA: path.join(dir, "data"),
      ACP_PLAYGROUND_CONFIG: path.join(dir, "config.json"),
      NEXT_TELEMETRY_DISABLED: "1",
    },
  });

const probe = async (profile: string): Promise<ProbeReport> => {
  const run = await cli(["probe", "--profile", profile, "--json"]);
  expect(run.stderr).not.toMatch(/Error:/);
  const out = JSON.parse(run.stdout) as ProbeReport | ProbeReport[];
  return Array.isArray(out) ? out[0]! : out;
};

describe("probe on an acp-v2 profile", () => {
  it("runs the v2 probe: the reference fixture conformant, the broken one not, by the kit's v2 ids", async () => {
    const ok = await probe("v2-ref");
    expect(ok.conformance?.parts.map((p) => p.variant)).toEqual(["v2"]);
    const ids = ok.conformance!.parts[0]!.requirements.map((r) => r.id);
    expect(ids.sort()).toEqual(V2_REQUIREMENTS.map((r) => r.id).sort());
    expect(ok.conformance!.parts[0]!.requirements.filter((r) => r.status === "fail").map((r) => r.id)).toEqual([]);
    expect(ok.conformance?.verdict).toBe("CONFORMANT");
    expect(ok.rows.find((r) => r.check === "ACP-STATE-201")).toMatchObject({ outcome: "answered", conforms: true });

    const broken = await probe("v2-broken");
    expect(broken.conformance?.verdict).toBe("NOT CONFORMANT");
    expect(broken.conformance!.parts[0]!.requirements.some((r) => r.status === "fail")).toBe(true);
  }, 300_000);
});

describe("record on an acp-v2 profile", () => {
  it("records the turn to its state_update idle: the idle's stopReason, and the idle in the transcript", async () => {
    const output = path.join(dir, "v2-run.jsonl");
    const run = await cli(["record", "--profile", "v2-ref", "--prompt", "hello", "--output", output]);
    expect(run.exitCode).toBe(0);
    expect(run.stdout).toContain('state: "end_turn"');
    const idle = readFileSync(output, "utf8")
      .split("\n")
      .filter((l) => l.includes('\\"state_update\\"') && l.includes('\\"idle\\"'));
    expect(idle).toHaveLength(1);
  }, 120_000);
});
