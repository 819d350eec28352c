/**
 * `acp-playground probe-client` as the agent of real clients: the ACP SDK's own client
 * (ClientApp over the probe's stdio, as the SDK's example client does; every capability
 * served for real) and a deliberately broken stub client.
 */
import { spawn, type ChildProcess } from "node:child_process";
import { execa } from "execa";
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { Readable, Writable } from "node:stream";
import { client, methods, ndJsonStream, PROTOCOL_VERSION } from "@agentclientprotocol/sdk";
import { afterAll, describe, expect, it } from "vitest";
import type { ClientProbeReport } from "../../lib/features/probe/client-probe";
import type { TapInfo } from "../../lib/contracts/tap-wire";
import { startTestRelay, TestClient, waitUntil } from "../relay-harness";
import type { Socket } from "socket.io-client";

const root = path.resolve(import.meta.dirname, "../..");
const bin = path.join(root, "bin/acp-playground.mjs");
const dir = mkdtempSync(path.join(tmpdir(), "acp-probe-client-"));
afterAll(() => (process.env.KEEP ? undefined : rmSync(dir, { recursive: true, force: true })));

const probeArgs = (report: string, timeout = "5s") => [bin, "probe-client", "--report", report, "--timeout", timeout];
/** No relay to be found, and recordings in a data directory of the test's own. */
const probeEnv = () => ({
  ...process.env,
  ACP_PLAYGROUND_DATA: path.join(dir, "data"),
  ACP_PLAYGROUND_URL: "",
  ACP_PLAYGROUND_TOKEN: "",
});
const statusOf = (report: ClientProbeReport) => Object.fromEntries(report.requirements.map((r) => [r.id, r.status]));

describe("probe-client", () => {
  it("finds the ACP SDK's client, serving files, terminals and forms, conformant", async () => {
    const report = path.join(dir, "sdk");
    const probe = spawn(process.execPath, probeArgs(report), {
      cwd: dir,
      env: probeEnv(),
      stdio: ["pipe", "pipe", "pipe"],
    });
    let stderr = "";
    probe.stderr.on("data", (c: Buffer) => (stderr += c.toString()));
    const terminals = new Map<string, { child: ChildProcess; output: string; exit: Promise<number | null> }>();
    const stream = ndJsonStream(
      Writable.toWeb(probe.stdin),
      Readable.toWeb(probe.stdout) as ReadableStream<Uint8Array>,
    );
    const text = await client({ name: "sdk-client" })
      .onRequest(methods.client.session.requestPermission, ({ params }) => ({
        outcome: { outcome: "selected", optionId: params.options[0]!.optionId },
      }))
      .onRequest(methods.client.fs.readTextFile, ({ params }) => ({ content: readFileSync(params.path, "utf8") }))
      .onRequest(methods.client.fs.writeTextFile, ({ params }) => {
        writeFileSync(params.path, params.content);
        return {};
      })
      .onRequest(methods.client.terminal.create, ({ params }) => {
        const child = spawn(params.command, params.args ?? [], { cwd: params.cwd ?? dir });
        const t = {
          child,
          output: "",
          exit: new Promise<number | null>((resolve) => child.on("exit", (code) => resolve(code))),
        };
        child.stdout.on("data", (c: Buffer) => (t.output += c.toString()));
        const terminalId = `t${terminals.size + 1}`;
        terminals.set(terminalId, t);
        return { terminalId };
      })
      .onRequest(methods.client.terminal.output, ({ params }) => ({
        output: terminals.get(params.terminalId)!.output,
        truncated: false,
      }))
      .onRequest(methods.client.terminal.waitForExit, async ({ params }) => ({
        exitCode: await terminals.get(params.terminalId)!.exit,
      }))
      .onRequest(methods.client.terminal.kill, ({ params }) => {
        terminals.get(params.terminalId)!.child.kill();
        return {};
      })
      .onRequest(methods.client.terminal.release, ({ params }) => {
        terminals.get(params.terminalId)!.child.kill();
        terminals.delete(params.terminalId);
        return {};
      })
      .onRequest(methods.client.elicitation.create, () => ({ action: "decline" as const }))
      .connectWith(stream, async (ctx) => {
        await ctx.request(methods.agent.initialize, {
          protocolVersion: PROTOCOL_VERSION,
          clientCapabilities: {
            fs: { readTextFile: true, writeTextFile: true },
            terminal: true,
            elicitation: { form: {} },
          },
          clientInfo: { name: "sdk-client", version: "1.0.0" },
        });
        const session = await ctx.buildSession(dir).start();
        const reply = session.readText();
        const prompt = await session.prompt("Probe me");
        expect(prompt.stopReason).toBe("end_turn");
        return reply;
      });
    expect(text).toContain("The client probe is done");
    probe.stdin.end();
    await new Promise((resolve) => probe.on("exit", resolve));
    expect(stderr).toContain(`CONFORMANT: wrote ${report}.json`);
    const json = JSON.parse(readFileSync(`${report}.json`, "utf8")) as ClientProbeReport;
    expect(json.reasons).toEqual([]);
    expect(json.verdict).toBe("CONFORMANT");
    const status = statusOf(json);
    for (const id of ["PG-CLIENT-012", "PG-CLIENT-013", "PG-CLIENT-015", "PG-CLIENT-016", "PG-CLIENT-019"])
      expect(status[id], id).toBe("pass");
    expect(status["PG-CLIENT-018"]).toBe("skipped");
    expect(json.requirements.find((r) => r.id === "PG-CLIENT-014")!.checks[0]!.detail).toMatch(
      /write served, read served/,
    );
    // The conversation was recorded as a tapped transcript (no playground running), named in the report.
    expect(stderr).toContain("recording to");
    const recorded = readFileSync(path.join(dir, "data", "transcripts", `${json.transcriptId}.jsonl`), "utf8");
    expect(recorded.split("\n").filter((l) => l.startsWith('{"type":"frame"')).length).toBeGreaterThan(40);
    expect(readFileSync(`${report}.md`, "utf8")).toMatch(
      /^# ACP client probe: sdk-client 1\.0\.0\n\n\*\*CONFORMANT\*\*/,
    );
  }, 60_000);

  it("finds acpx, a headless ACP client from npm, conformant; it refuses files outside the cwd", async () => {
    const report = path.join(dir, "acpx");
    const home = mkdtempSync(path.join(dir, "home-"));
    const ws = mkdtempSync(path.join(dir, "ws-"));
    const acpx = path.join(root, "test/agents/node_modules/acpx/dist/cli.js");
    const agentCommand = [process.execPath, ...probeArgs(report)].map((a) => JSON.stringify(a)).join(" ");
    const res = await execa(
      process.execPath,
      [acpx, "--agent", agentCommand, "--cwd", ws, "--approve-all", "--format", "text", "exec", "Probe me"],
      { env: { ...probeEnv(), HOME: home }, reject: false, timeout: 60_000 },
    );
    expect(res.stdout).toContain("The client probe is done");
    const json = JSON.parse(readFileSync(`${report}.json`, "utf8")) as ClientProbeReport;
    expect(json.client.clientInfo).toMatchObject({ name: "acpx" });
    expect(json.reasons).toEqual([]);
    expect(json.verdict).toBe("CONFORMANT");
    expect(statusOf(json)).toMatchObject({ "PG-CLIENT-013": "pass", "PG-CLIENT-015": "pass", "PG-CLIENT-016": "pass" });
    expect(json.requirements.find((r) => r.id === "PG-CLIENT-014")!.checks[0]!.detail).toMatch(
      /write refused, read refused/,
    );
  }, 90_000);

  it("finds a broken stub client not conformant, naming each requirement and its frames", async () => {
    const report = path.join(dir, "broken");
    // Writes its lines at once and answers nothing: no clientInfo, a version that is a string, a relative
    // cwd, a line that is not JSON; it never answers the probe's requests.
    const lines = [
      { jsonrpc: "2.0", id: 1, method: "initialize", params: { protocolVersion: "1", clientCapabilities: {} } },
      { jsonrpc: "2.0", id: 2, method: "session/new", params: { cwd: "relative/dir", mcpServers: [] } },
      "this is not JSON",
      { jsonrpc: "2.0", id: 3, method: "session/prompt", params: { sessionId: "x", prompt: [] } },
    ].map((l) => (typeof l === "string" ? l : JSON.stringify(l)));
    const probe = execa(process.execPath, probeArgs(report, "300"), {
      cwd: dir,
      env: probeEnv(),
      input: `${lines.join("\n")}\n`,
      reject: false,
    });
    const res = await probe;
    expect(res.exitCode).toBe(1);
    const json = JSON.parse(readFileSync(`${report}.json`, "utf8")) as ClientProbeReport;
    expect(json.verdict).toBe("NOT CONFORMANT");
    const status = statusOf(json);
    expect(status).toMatchObject({
      "PG-CLIENT-001": "pass",
      "PG-CLIENT-002": "fail",
      "PG-CLIENT-003": "fail",
      "PG-CLIENT-004": "fail",
      "PG-CLIENT-005": "fail",
      "PG-CLIENT-006": "fail",
      "PG-CLIENT-007": "fail",
      "PG-CLIENT-012": "not applicable",
      "PG-CLIENT-015": "not applicable",
    });
    // ADVISORY and INFORMATIONAL failures never decide the verdict.
    expect(json.reasons).not.toContain("PG-CLIENT-003 fail");
    expect(json.reasons).toEqual(expect.arrayContaining(["PG-CLIENT-002 fail", "PG-CLIENT-004 fail"]));
    const notJson = json.requirements
      .find((r) => r.id === "PG-CLIENT-005")!
      .checks.find((c) => /not JSON/.test(c.detail))!;
    expect(notJson.detail).toMatch(/not JSON/);
    expect(json.evidence.map((f) => f.raw)).toContain("this is not JSON");
  }, 60_000);

  it("shows its conversation in a running playground as a read-only tab, like a tapped one", async () => {
    const relay = await startTestRelay({ graceMs: 10_000 });
    const browser = new TestClient(relay.url, { token: "test-token" });
    try {
      await browser.connected();
      let listed: TapInfo | undefined;
      // The taps list is the tap contract's event (lib/contracts/tap-wire.ts), not the relay's.
      (browser.socket as unknown as Socket).on("taps", ({ taps }: { taps: TapInfo[] }) => {
        listed ??= taps.find((t) => t.agent.profile === "probe-client");
      });
      const lines = [
        { jsonrpc: "2.0", id: 1, method: "initialize", params: { protocolVersion: 1, clientCapabilities: {} } },
        { jsonrpc: "2.0", id: 2, method: "session/new", params: { cwd: dir, mcpServers: [] } },
      ];
      const res = await execa(process.execPath, probeArgs(path.join(dir, "relayed"), "300"), {
        cwd: dir,
        env: { ...probeEnv(), ACP_PLAYGROUND_URL: relay.url, ACP_PLAYGROUND_TOKEN: "test-token" },
        input: lines.map((l) => JSON.stringify(l)).join("\n") + "\n",
        reject: false,
      });
      expect(res.stderr).toContain(`copying frames to the relay at ${relay.url}`);
      await waitUntil(() => listed !== undefined, "the probe listed as a tap");
      const viewer = new TestClient(relay.url, { token: "test-token", clientId: listed!.clientId });
      try {
        await viewer.connected();
        await viewer.waitFor(() => viewer.frames.length >= 4, "the probe's frames");
        // Both lines came at once: the probe read them before it answered.
        expect(
          viewer.frames
            .slice(0, 4)
            .map((f) => `${f.dir} ${f.kind} ${f.method}`)
            .sort(),
        ).toEqual([
          "from-agent response initialize",
          "from-agent response session/new",
          "to-agent request initialize",
          "to-agent request session/new",
        ]);
        expect(await viewer.emit("agent:send", { frame: "{}" })).toMatchObject({
          ok: false,
          error: { code: "read_only" },
        });
      } finally {
        viewer.close();
      }
    } finally {
      browser.close();
      await relay.close();
    }
  }, 60_000);
});
