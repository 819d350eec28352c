/**
 * The probe against the pinned Codex app-server (test/agents), offline against the fake Responses
 * API: the profile's protocol picks the app-server steps; the fake model is scripted so the
 * approval step gets its approval and the interrupt step a turn long enough to interrupt. Through
 * the relay (`agent:probe`) and the CLI (`acp-playground probe --profile codex`).
 */
import { execa } from "execa";
import { mkdirSync, readFileSync, writeFileSync } from "node:fs";
import path from "node:path";
import { afterAll, afterEach, beforeAll, describe, expect, it } from "vitest";
import type { ProbeReport } from "../../lib/contracts/reports";
import { APP_SERVER_REQUIREMENTS } from "../../lib/features/protocols/codex-app-server/probe-requirements";
import { codexEscalatedCommand, codexProfile } from "../agent-profiles";
import type { FakeModelApi } from "../fake-models/http";
import { TestClient, type TestRelay } from "../relay-harness";
import { startCodexRig, type CodexRig } from "./codex-rig";

const MS = 180_000;
const bin = path.resolve(import.meta.dirname, "../../bin/acp-playground.mjs");
/** The pinned version: the probe must name the Codex it ran, whatever the pin moves to. */
const pinned: string = JSON.parse(readFileSync(path.join(import.meta.dirname, "package.json"), "utf8")).dependencies[
  "@openai/codex"
];

let api: FakeModelApi;
let relay: TestRelay;
let base: string;
let home: string;
const clients: TestClient[] = [];

let rig: CodexRig;
beforeAll(async () => {
  rig = await startCodexRig("acp-codex-probe-");
  ({ api, relay, base, home } = rig);
});
afterEach(() => {
  for (const c of clients.splice(0)) c.close();
});
afterAll(() => rig?.close());

/** The model's side of the probe's turns: a greeting, a command that asks approval, a long count. */
const scriptProbe = () =>
  api.script(
    { text: ["Hello."] },
    { text: ["Running it."], tools: [codexEscalatedCommand("echo probe > probe.txt")] },
    { text: ["Done."] },
    { text: Array.from({ length: 60 }, (_, i) => `${i + 1}\n`), delayMs: 200 },
  );

const statuses = (report: ProbeReport) =>
  Object.fromEntries(report.conformance!.parts.flatMap((p) => p.requirements.map((r) => [r.id, r.status])));

describe("the probe against Codex's app-server", () => {
  it(
    "runs the app-server steps: every requirement passes, the report is kept",
    async () => {
      const c = new TestClient(relay.url, { token: "test-token" });
      clients.push(c);
      await c.connected();
      scriptProbe();
      const res = (await c.emit("agent:probe", { profile: "codex" })) as { ok: boolean; report: ProbeReport };
      expect(res.ok, JSON.stringify(res).slice(0, 500)).toBe(true);
      const { report } = res;
      expect(report.conformance!.parts.map((p) => p.variant)).toEqual(["app-server"]);
      expect(statuses(report)).toEqual(Object.fromEntries(APP_SERVER_REQUIREMENTS.map((r) => [r.id, "pass"])));
      expect(report.conformance!.verdict).toBe("CONFORMANT");
      expect(report.agent).toEqual({ name: "codex app-server", version: pinned });
      const row = (check: string) => report.rows.find((r) => r.check === check);
      expect(row("thread/list before initialize")).toMatchObject({ outcome: "error", conforms: true });
      expect(row("unknown method playground/noSuchMethod")?.detail).toContain("-32600");
      expect(row("approval round trip (a command needing escalation)")).toMatchObject({
        method: "item/commandExecution/requestApproval",
        conforms: true,
      });
      expect(row("turn/interrupt of a running turn")?.detail).toContain("turn interrupted");
      expect(report.facts?.answered).toEqual([{ method: "item/commandExecution/requestApproval", answer: "accept" }]);
      // No ACP step ran against it.
      expect(report.rows.some((r) => r.method?.startsWith("session/"))).toBe(false);
      const kept = await fetch(`${relay.url}/api/probes/${report.id}`, {
        headers: { authorization: "Bearer test-token" },
      });
      expect(kept.status).toBe(200);
    },
    MS,
  );

  it(
    "with a model that asks no approval, the approval step is skipped and the verdict stands",
    async () => {
      const c = new TestClient(relay.url, { token: "test-token" });
      clients.push(c);
      await c.connected();
      // Nothing scripted: the fake echoes, the interrupt turn is too short to interrupt.
      const res = (await c.emit("agent:probe", { profile: "codex" })) as { ok: boolean; report: ProbeReport };
      expect(res.ok).toBe(true);
      const s = statuses(res.report);
      expect(s["ASP-APPROVAL-001"]).toBe("skipped");
      expect(s["ASP-TURN-001"]).toBe("pass");
      expect(res.report.conformance!.verdict).toBe("CONFORMANT");
    },
    MS,
  );

  it(
    "acp-playground probe --profile codex prints the app-server requirements",
    async () => {
      const dir = path.join(base, "cli");
      mkdirSync(dir);
      writeFileSync(
        path.join(dir, "config.json"),
        JSON.stringify({ profiles: { codex: codexProfile(api.url, home) } }),
      );
      scriptProbe();
      const run = await execa(process.execPath, [bin, "probe", "--profile", "codex"], {
        cwd: dir,
        reject: false,
        timeout: 120_000,
        env: { ACP_PLAYGROUND_DATA: path.join(dir, "data"), ACP_PLAYGROUND_CONFIG: path.join(dir, "config.json") },
      });
      expect(run.exitCode, run.stderr).toBe(0);
      expect(run.stdout).toContain(`Probe of codex (codex app-server ${pinned})`);
      for (const r of APP_SERVER_REQUIREMENTS) expect(run.stdout).toContain(r.id);
      expect(run.stdout).toContain("app-server: CONFORMANT");
    },
    MS,
  );
});
