/** The doctor's check of a profile (POST /api/profiles/:name/check), one stub agent per way agents fail. */
import path from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { DoctorReport } from "../../lib/features/connect/doctor";
import type { ProfileConfig } from "../../server/config";
import { execa } from "execa";
import { mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { alive, processTree, startTestRelay, TestClient, waitUntil, type TestRelay } from "../relay-harness";

const doctorAgent = path.resolve(import.meta.dirname, "../fixtures/doctor-agent.mjs");
const stub = (mode: string, env: Record<string, string> = {}): ProfileConfig => ({
  command: process.execPath,
  args: [doctorAgent, mode],
  env,
});

let relay: TestRelay;
beforeAll(async () => {
  relay = await startTestRelay({
    profiles: {
      ok: stub("ok"),
      missing: { command: "no-such-acp-agent-anywhere", args: ["--acp"], env: { PATH: "/nowhere/bin:/also/not" } },
      exit: stub("exit"),
      banner: stub("banner"),
      between: stub("between"),
      mute: stub("mute"),
      version: stub("version"),
      auth: stub("auth"),
      "auth-set": stub("auth", { DOCTOR_AGENT_API_KEY: "sk-doctor-test" }),
      greet: stub("greet"),
      // `acp-playground -- cat`, in a pipeline: a process group of three that echoes its input.
      echo: { command: "sh", args: ["-c", "cat | cat"], env: {} },
    },
  });
});
afterAll(async () => {
  await relay.close();
});

async function check(profile: string, timeoutMs?: number): Promise<DoctorReport> {
  const res = await fetch(`${relay.url}/api/profiles/${encodeURIComponent(profile)}/check`, {
    method: "POST",
    headers: { authorization: "Bearer test-token", "content-type": "application/json" },
    body: JSON.stringify(timeoutMs === undefined ? {} : { timeoutMs }),
  });
  expect(res.status).toBe(200);
  return (await res.json()) as DoctorReport;
}

describe("the doctor's check", () => {
  it("passes an agent that opens a session", async () => {
    const report = await check("ok");
    expect(report.diagnosis).toEqual({ reached: "session", findings: [] });
    expect(report).toMatchObject({ profile: "ok", command: process.execPath });
  });

  it("names a command that is not found and the PATH searched", async () => {
    const { diagnosis } = await check("missing");
    expect(diagnosis.reached).toBe("nothing");
    expect(diagnosis.findings[0]).toMatchObject({
      kind: "not-found",
      title: "The command is not found: no-such-acp-agent-anywhere",
      detail: "PATH searched: /nowhere/bin:/also/not",
    });
  });

  it("gives the exit code and stderr's tail of an agent that exits at once", async () => {
    const { diagnosis } = await check("exit");
    expect(diagnosis.findings).toHaveLength(1);
    expect(diagnosis.findings[0]!.kind).toBe("exited");
    expect(diagnosis.findings[0]!.title).toMatch(/^It exited with code 2 /);
    expect(diagnosis.findings[0]!.detail).toContain("Error: unknown option '--acp'");
  });

  it("shows the first bytes of a greeting before the first frame, and of a line between frames", async () => {
    const banner = await check("banner");
    expect(banner.diagnosis.reached).toBe("session");
    expect(banner.diagnosis.findings[0]).toMatchObject({
      kind: "stdout-noise",
      title: "It writes something that is not JSON-RPC on stdout before its first frame",
    });
    expect(banner.diagnosis.findings[0]!.detail).toContain('"\\x1b[1;32mWelcome to fish');
    const between = await check("between");
    expect(between.diagnosis.findings[0]!.title).toMatch(/between frames$/);
    expect(between.diagnosis.findings[0]!.detail).toContain('"Loading model weights... done"');
  });

  it("says initialize got no answer within the timeout", async () => {
    const { diagnosis } = await check("mute", 2_000);
    expect(diagnosis.findings[0]).toMatchObject({ kind: "no-initialize-answer" });
    expect(diagnosis.findings[0]!.title).toMatch(/^No answer to initialize after 2(\.\d)? s$/);
    expect(diagnosis.findings[0]!.detail).toContain("waiting for a login on the terminal");
  });

  it("names a protocol version it does not speak", async () => {
    const { diagnosis } = await check("version");
    expect(diagnosis.findings[0]).toMatchObject({
      kind: "protocol-version",
      title: "It speaks a protocol version this client does not: 99",
    });
  });

  it("offers the auth methods when session/new needs authentication, and names the variable it lacks", async () => {
    const { diagnosis } = await check("auth");
    expect(diagnosis.findings.map((f) => f.kind)).toEqual(["auth-required", "missing-env"]);
    expect(diagnosis.findings[0]!.authMethods!.map((m) => m.id)).toEqual(["api-key", "login"]);
    expect(diagnosis.findings[1]!.title).toContain("DOCTOR_AGENT_API_KEY");
    // With the variable in the profile's env the agent opens a session.
    expect((await check("auth-set")).diagnosis).toEqual({ reached: "session", findings: [] });
  });

  it("refuses an unknown profile and a bad body", async () => {
    const post = (p: string, body: string) =>
      fetch(`${relay.url}/api/profiles/${p}/check`, {
        method: "POST",
        headers: { authorization: "Bearer test-token" },
        body,
      });
    expect((await post("nope", "{}")).status).toBe(404);
    const bad = await post("ok", JSON.stringify({ timeoutMs: "soon" }));
    expect(bad.status).toBe(400);
    expect(((await bad.json()) as { error: { message: string } }).error.message).toMatch(/timeoutMs/);
    expect((await post("%E0%A4%A", "{}")).status).toBe(400);
  });
});

describe("the doctor as the agent runs", () => {
  const INIT = { jsonrpc: "2.0", id: 0, method: "initialize", params: { protocolVersion: 1, clientCapabilities: {} } };

  it("stops an agent that echoes its input, its whole process group, and names it as an echo", async () => {
    const c = new TestClient(relay.url, { token: "test-token" });
    try {
      await c.connected();
      const agent = await c.start({ profile: "echo" });
      await waitUntil(() => processTree(agent.pid).length === 3, "sh and its two cats", 10_000);
      const pids = processTree(agent.pid);
      await c.send(INIT);
      // Ended by the doctor, not by a timeout: the test's own would fail first.
      await c.waitFor(() => c.exits.length > 0, "the echoing agent stopped", 20_000);
      await waitUntil(() => pids.every((p) => !alive(p)), "no process of its group left", 10_000);
    } finally {
      c.close();
    }
    const { diagnosis } = await check("echo");
    expect(diagnosis.findings.map((f) => f.kind)).toEqual(["echo"]);
    expect(JSON.stringify(diagnosis)).not.toContain("Method not found");
  });

  it("acp-playground record names a greeting on stdout the moment it arrives, long before initialize times out", async () => {
    const dir = mkdtempSync(path.join(tmpdir(), "acp-doctor-cli-"));
    writeFileSync(path.join(dir, "config.json"), JSON.stringify({ profiles: { greet: stub("greet") } }));
    const run = execa(
      process.execPath,
      [
        path.resolve(import.meta.dirname, "../../bin/acp-playground.mjs"),
        "record",
        "--profile",
        "greet",
        "--prompt",
        "hi",
      ],
      {
        cwd: dir,
        reject: false,
        env: { ACP_PLAYGROUND_CONFIG: path.join(dir, "config.json"), ACP_PLAYGROUND_DATA: path.join(dir, "data") },
      },
    );
    try {
      let stderr = "";
      run.stderr.on("data", (d: Buffer) => (stderr += String(d)));
      await waitUntil(() => stderr.includes("What to do:"), "the doctor's finding on stderr", 25_000);
      // Still waiting for initialize's answer (30 s): the finding did not wait for the timeout.
      expect(run.exitCode).toBeNull();
      expect(stderr).toContain("the agent: It writes something that is not JSON-RPC on stdout before its first frame");
      expect(stderr).toContain('"hello from a shell profile"');
      expect(stderr).not.toContain("initialize failed");
    } finally {
      run.kill("SIGTERM");
      await run;
      rmSync(dir, { recursive: true, force: true });
    }
  });
});
