/** The headless CLI against the real Gemini CLI and the project's fake Gemini API. */
import { execa } from "execa";
import { existsSync, mkdtempSync, readdirSync, readFileSync, realpathSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { ProbeReport } from "../../lib/contracts/reports";
import { parseTranscript } from "../../lib/contracts/transcript";
import type { Frame } from "../../lib/protocol/frame";
import { startFakeGeminiApi, type FakeGeminiApi } from "../fake-gemini/server";
import { makeGeminiHome, type GeminiHome } from "../gemini-home";

const bin = path.resolve(import.meta.dirname, "../../bin/acp-playground.mjs");
let api: FakeGeminiApi;
let home: GeminiHome;
let dir: string;

beforeAll(async () => {
  api = await startFakeGeminiApi();
  home = makeGeminiHome(api.url);
  dir = realpathSync(mkdtempSync(path.join(tmpdir(), "acp-cli-")));
  writeFileSync(
    path.join(dir, "config.json"),
    JSON.stringify({ profiles: { missing: { command: "/nonexistent/agent-binary", args: [] } } }),
  );
});
afterAll(async () => {
  await api?.close();
  home?.cleanup();
  rmSync(dir, { recursive: true, force: true });
});

/**
 * When Gemini (0.61) created the session a session/load names, and when it loaded it: minutes, as
 * Gemini names its chat files (`session-2026-11-29T05-10-<first 8 of the id>.jsonl`). Its session/load
 * first starts a new chat recording, in the file of that minute and id: in the session's own minute
 * that is the session's file, and the recording's opening records clear its history, so the load finds
 * no session ("No previous sessions found", -32603); in a later minute it is a file of its own, the
 * session's is intact and the load succeeds (and replays the conversation after its answer). Each
 * probe (and the ACP test kit) loads a session a moment after its turns, so a run that crosses a
 * minute between the two gets the other answer (a few runs in a hundred, more on a busy machine).
 */
function geminiLoadMinutes(asked: Frame, answered: Frame): { created: string; load: string[] } {
  const id = (asked.message as { params: { sessionId: string } }).params.sessionId;
  const tmp = path.join(home.home, ".gemini", "tmp");
  const files = readdirSync(tmp).flatMap((project) =>
    existsSync(path.join(tmp, project, "chats")) ? readdirSync(path.join(tmp, project, "chats")) : [],
  );
  const minutes = files
    .map((f) => new RegExp(`^session-(\\d{4}-\\d\\d-\\d\\dT\\d\\d-\\d\\d)-${id.slice(0, 8)}\\.jsonl$`).exec(f)?.[1])
    .filter((m): m is string => !!m)
    .sort();
  expect(minutes.length, `Gemini's chat files of ${id}`).toBeGreaterThan(0);
  const minute = (ts: number) => new Date(ts).toISOString().slice(0, 16).replace(":", "-");
  return { created: minutes[0]!, load: [minute(asked.ts), minute(answered.ts)] };
}

const cli = (...args: string[]) =>
  execa(process.execPath, [bin, ...args], {
    cwd: dir,
    reject: false,
    timeout: 90_000,
    env: {
      ...home.env,
      ACP_PLAYGROUND_DATA: path.join(dir, "data"),
      ACP_PLAYGROUND_CONFIG: path.join(dir, "config.json"),
    },
  });

describe("acp-playground CLI", () => {
  it("record writes a transcript of a real Gemini turn", async () => {
    api.script({ parts: [{ text: "Recorded " }, { text: "answer." }] });
    const run = await cli("record", "--profile", "gemini", "--prompt", "say something", "-o", "run.jsonl");
    expect(run.stderr).toBe("");
    expect(run.exitCode).toBe(0);
    expect(run.stdout).toContain("Recorded answer.");
    expect(run.stdout).toContain('stopReason: "end_turn"');
    const t = parseTranscript(readFileSync(path.join(dir, "run.jsonl"), "utf8"));
    expect(t.frames.filter((f) => f.dir === "to-agent").map((f) => f.method)).toEqual([
      "initialize",
      "session/new",
      "session/prompt",
    ]);
    expect(t.events.at(-1)).toMatchObject({ type: "lifecycle", event: "exited" });
  });

  // One replay of a real Gemini a test: each starts the agent (about 8 s here, twice that on a busy CI machine).
  it("replay exits 0 when the agent behaves as recorded", async () => {
    api.script({ parts: [{ text: "Recorded " }, { text: "answer." }] });
    const same = await cli("replay", "run.jsonl");
    expect(same.exitCode).toBe(0);
    expect(same.stdout).toContain("no difference: gemini behaved as recorded");
    expect(same.stderr).not.toContain("recorded in");
  });

  it("replay from another folder names the recorded one, with the option that replays there", async () => {
    const elsewhere = realpathSync(mkdtempSync(path.join(tmpdir(), "acp-cli-elsewhere-")));
    try {
      api.script({ parts: [{ text: "Recorded " }, { text: "answer." }] });
      const moved = await cli("replay", "run.jsonl", "--profile", "gemini", "--cwd", elsewhere);
      expect(moved.stderr).toContain(`recorded in ${dir}; the agent runs in ${elsewhere}`);
      expect(moved.stderr).toContain(`--cwd ${dir}`);
      expect(moved.exitCode).toBe(0);
    } finally {
      rmSync(elsewhere, { recursive: true, force: true });
    }
  });

  it("replay exits 1 with a diff when the agent answers otherwise", async () => {
    api.script({ parts: [{ text: "A different answer." }] });
    const changed = await cli("replay", "run.jsonl", "--against", "gemini");
    expect(changed.exitCode).toBe(1);
    expect(changed.stdout).toMatch(/^-.*Recorded answer\./m);
    expect(changed.stdout).toMatch(/^\+.*A different answer\./m);
  });

  it("probe reports what Gemini actually does, within 60 s", async () => {
    // One quick turn, a tool call (write, then a closing text), then a slow one for the cancel check.
    api.script(
      { parts: [{ text: "OK" }] },
      { parts: [{ functionCall: { name: "write_file", args: { file_path: "probe.txt", content: "OK\n" } } }] },
      { parts: [{ text: "Written." }] },
      { parts: Array.from({ length: 40 }, (_, i) => ({ text: `${i + 1}\n` })), delayMs: 100 },
    );
    const run = await cli("probe", "--profile", "gemini", "--json");
    // Gemini advertises loadSession and gets session/load of its own session wrong: NOT CONFORMANT, exit 1
    // (a CI gate). Which way depends on the clock's minute (geminiLoadMinutes): it fails the load,
    // or loads it and replays the conversation after its answer. And it lists `autoEdit` but refuses it
    // in an untrusted folder (ACP-MODES-002, as the kit judges it).
    expect(run.exitCode).toBe(1);
    expect(run.stderr).toMatch(
      /acp-playground: gemini: NOT CONFORMANT \((ACP-LOAD-001 fail, )?PG-LOAD-002 fail, ACP-MODES-002 fail\)/,
    );
    const report = JSON.parse(run.stdout) as ProbeReport;
    const by = (check: string) => report.rows.find((r) => r.check === check)!;
    expect(report.agent).toMatchObject({ name: "gemini-cli", version: "0.61.0" });
    expect(by("initialize with protocolVersion 1")).toMatchObject({ outcome: "answered", conforms: true });
    expect(by("initialize with unsupported protocolVersion 999")).toMatchObject({
      outcome: "answered",
      detail: "answered with protocolVersion 1",
      conforms: true,
    });
    expect(by("session/new (cwd, no MCP servers)")).toMatchObject({ outcome: "answered", conforms: true });
    expect(by("session/prompt (one text block)")).toMatchObject({
      outcome: "answered",
      detail: 'stopReason "end_turn", 1 message chunks',
    });
    expect(by("empty response (no chunks and no stopReason)").conforms).toBe(true);
    expect(by("session/list").outcome).toBe("-32601");
    // A real switch to another mode and back; Gemini refuses autoEdit, a mode it lists, in an untrusted folder.
    expect(by("session/set_mode to another mode and back")).toMatchObject({ support: "supported", conforms: false });
    // Gemini asks permission for the write; the probe allows once and the tool completes.
    expect(by("tool call round trip")).toMatchObject({ outcome: "answered", conforms: true });
    expect(by("tool call round trip").detail).toMatch(/session\/request_permission → selected proceed_once/);
    expect(report.facts).toMatchObject({ protocolVersion: 1, usage: ["_meta.quota"] });
    expect(report.facts!.startupMs).toBeGreaterThan(0);
    expect(report.facts!.rssBytes).toBeGreaterThan(10 * 1024 * 1024);
    // Kept in the data directory.
    expect(JSON.parse(readFileSync(path.join(dir, "data", "probes", `${report.id}.json`), "utf8"))).toMatchObject({
      profile: "gemini",
    });
    expect(by("unknown method")).toMatchObject({ outcome: "-32601", conforms: true });
    expect(by("unknown notification")).toMatchObject({ outcome: "no reply", conforms: true });
    // ACP v1 requires no answer to a malformed line: an observation, not a failure.
    expect(by("malformed line")).toMatchObject({ outcome: "no reply", requirements: ["ACP-INFO-PARSE-001"] });
    expect(by("malformed line").conforms).toBeUndefined();
    expect(by("request with a string id")).toMatchObject({ detail: 'response id "probe-string-id"', conforms: true });
    expect(by("two requests in flight at once").conforms).toBe(true);
    expect(by("session/cancel during a turn")).toMatchObject({
      detail: 'turn ended with stopReason "cancelled"',
      conforms: true,
    });
    expect(by("logout").outcome).toBe("skipped");
    for (const r of report.rows) expect(r.detail.length).toBeGreaterThan(0);
    expect(report.rows.filter((r) => r.check.endsWith("(unstable)")).length).toBeGreaterThan(0);
    const requirements = report.conformance!.parts.flatMap((p) => p.requirements);
    const req = (id: string) => requirements.find((r) => r.id === id)!;
    expect(report.conformance!.verdict).toBe("NOT CONFORMANT");
    // Saved as a transcript too.
    const saved = readFileSync(path.join(dir, "data", "transcripts", `${report.transcriptId}.jsonl`), "utf8");
    const frames = parseTranscript(saved).frames;
    expect(frames.length).toBeGreaterThan(30);
    const load = req("ACP-LOAD-001").checks[0]!;
    expect(load.frames!.length).toBe(2);
    const [asked, answered] = load.frames!.map((seq) => frames.find((f) => f.seq === seq)!);
    const { created, load: during } = geminiLoadMinutes(asked!, answered!);
    const loaded = req("ACP-LOAD-001").status === "pass";
    // A load wholly in the minute its session was created fails; one begun in a later minute succeeds.
    if (during.every((m) => m === created)) expect(loaded, "a load in the session's minute").toBe(false);
    if (during.every((m) => m !== created)) expect(loaded, "a load in a later minute").toBe(true);
    expect(report.conformance!.parts.find((p) => p.variant === "v1")!.reasons).toEqual([
      ...(loaded ? [] : ["ACP-LOAD-001 fail"]),
      "PG-LOAD-002 fail",
      "ACP-MODES-002 fail",
    ]);
    expect(req("PG-LOAD-002")).toMatchObject({ tier: "CAPABILITY", status: "fail" });
    if (loaded) {
      expect(load.detail).toBe("session/load of the session just used: answered");
      expect(req("PG-LOAD-002").checks[0]!.detail).toMatch(/^\d+ conversation updates after the response \(/);
    } else {
      expect(req("ACP-LOAD-001")).toMatchObject({ tier: "CAPABILITY", status: "fail" });
      expect(load.detail).toMatch(/error -32603/);
      expect(answered!.raw).toContain("No previous sessions found for this project.");
      expect(req("PG-LOAD-002").checks[0]!.detail).toMatch(/^nothing replayed: session\/load error -32603/);
    }
    // `models` in session/new: custom data belongs in _meta.
    expect(req("ACP-SCHEMA-002")).toMatchObject({ tier: "ADVISORY", status: "fail" });
    expect(req("ACP-SCHEMA-002").checks[0]!.detail).toContain("session/new: models");
    expect(req("ACP-INIT-004")).toMatchObject({ status: "pass" });
    expect(req("ACP-MODES-002")).toMatchObject({ status: "fail" });
    expect(req("ACP-MODES-002").checks[0]!.detail).toMatch(/^autoEdit refused \(error -32603/);
  });

  it("gives clear errors and exit codes", async () => {
    const missing = await cli("probe", "--profile", "missing");
    expect(missing.exitCode).toBe(3);
    expect(missing.stderr).toBe(
      "acp-playground: Failed to start ACP agent: executable not found: /nonexistent/agent-binary",
    );
    expect((await cli("probe", "--profile", "nope")).exitCode).toBe(2);
    expect((await cli("record")).stderr).toContain("record needs --prompt");
    expect((await cli("record", "--bogus")).exitCode).toBe(2);
    expect((await cli("frobnicate")).exitCode).toBe(2);
    const unreadable = await cli("replay", "no-such-file.jsonl");
    expect(unreadable.exitCode).toBe(4);
    expect(unreadable.stderr).toContain(
      "cannot read no-such-file.jsonl: no such file, nor a transcript id in the local library",
    );
    writeFileSync(
      path.join(dir, "bad.jsonl"),
      '{"type":"header","format":"acp-playground-transcript","version":"7.0"}\n',
    );
    const bad = await cli("replay", "bad.jsonl");
    expect(bad.exitCode).toBe(4);
    expect(bad.stderr).toContain("line 1: unsupported transcript version 7.0");
  });

  // Found at the end, the folder would cost the turn just run (record) or both sides' (compare).
  it("refuses an -o in a folder that does not exist before anything runs, exit 2", async () => {
    const demo = path.resolve(import.meta.dirname, "../../demo/gemini-demo.jsonl");
    const out = path.join(dir, "no-such-folder", "out.x");
    const runs = [
      ["record", "--profile", "missing", "--prompt", "hi", "-o", out],
      ["compare", "--profile", "missing", "--prompt", "hi", "-o", out],
      ["export", demo, "-o", out],
      ["export", "--viewer", "-o", out],
      ["validate", demo, "-o", out],
    ];
    for (const args of runs) {
      const r = await cli(...args);
      expect(r.exitCode, args[0]).toBe(2);
      expect(r.stderr, args[0]).toContain(`-o ${out}: there is no folder ${path.dirname(out)}`);
    }
    const onFolder = await cli("export", demo, "-o", dir);
    expect(onFolder.exitCode).toBe(2);
    expect(onFolder.stderr).toContain(`-o ${dir}: a folder, not a file`);
    expect(existsSync(path.dirname(out))).toBe(false);
  });

  it("refuses serve options it does not know, and an agent named twice", async () => {
    const unknown = await cli("--no-such-flag");
    expect(unknown.exitCode).toBe(2);
    const twice = await cli("--no-open", "--agent", "a=node x", "--agent", "a=node y");
    expect(twice.exitCode).toBe(2);
    expect(twice.stderr).toContain('two agents named "a"');
  });
});
