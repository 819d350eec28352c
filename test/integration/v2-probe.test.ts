/**
 * The v2 probe (lib/features/probe-v2) against real v2 agents as processes, through the server's
 * line transport (server/agents/v2-process-line.ts): the SDK's own dual-version example (pinned in
 * test/agents) and the two v2 fixtures. The kit's v2 suite gives the dual-version agent
 * CONFORMANT (docs/conformance.md); so must the probe.
 */
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { afterAll, describe, expect, it } from "vitest";
import { runV2Probe } from "@/lib/features/probe-v2/probe";
import { v2ProcessConnect } from "@/server/agents/v2-process-line";

const root = path.resolve(import.meta.dirname, "../..");
const DUAL = path.join(root, "test/agents/node_modules/@agentclientprotocol/sdk/dist/examples/dual-version-agent.js");
const fixture = (name: string) => path.join(root, "test/fixtures", name);
const cwd = mkdtempSync(path.join(tmpdir(), "v2-probe-"));
afterAll(() => rmSync(cwd, { recursive: true, force: true }));

const probe = (args: string[]) =>
  runV2Probe(v2ProcessConnect({ command: process.execPath, args, cwd }), { cwd, timeoutMs: 10_000, quietMs: 500 });

const failing = (r: Awaited<ReturnType<typeof probe>>) =>
  r.conformance.requirements
    .filter((q) => q.status === "fail")
    .map((q) => `${q.id}: ${q.checks.find((c) => c.status === "fail")?.detail}`);

describe("the v2 probe on v2 agent processes", () => {
  it("finds the SDK's dual-version agent conformant, as the kit does", async () => {
    const r = await probe([DUAL]);
    expect(failing(r)).toEqual([]);
    expect(r.conformance.verdict).toBe("CONFORMANT");
    expect(r.agent?.name).toBe("dual-version-example");
  }, 120_000);

  it("passes the reference fixture and fails the broken one", async () => {
    const ok = await probe([fixture("v2-reference-agent.mjs")]);
    expect(failing(ok)).toEqual([]);
    const broken = await probe([fixture("v2-broken-agent.mjs")]);
    expect(broken.conformance.verdict).toBe("NOT CONFORMANT");
    expect(broken.conformance.reasons).toContain("ACP-BATCH-201 fail");
  }, 120_000);

  it("calls an agent that only speaks v1 not v2-conformant, exercising nothing", async () => {
    const r = await probe([fixture("sessions-agent.mjs")]);
    expect(r.mismatch).toMatch(/negotiated protocolVersion 1|initialize failed/);
    expect(r.conformance.verdict).toBe("NOT CONFORMANT");
    expect(r.checks.every((c) => c.status === "skip")).toBe(true);
  }, 60_000);
});
