/** `acp-playground compare` with the real Gemini CLI on both sides, each against its own fake Gemini API. */
import { execa } from "execa";
import { mkdtempSync, readFileSync, realpathSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { parseTranscript } from "../../lib/contracts/transcript";
import { startFakeGeminiApi, type FakeGeminiApi } from "../fake-gemini/server";
import { makeGeminiHome, type GeminiHome } from "../gemini-home";

const bin = path.resolve(import.meta.dirname, "../../bin/acp-playground.mjs");
const gemini = path.resolve(import.meta.dirname, "../../node_modules/.bin/gemini");
let apiA: FakeGeminiApi;
let apiB: FakeGeminiApi;
let home: GeminiHome;
let dir: string;

beforeAll(async () => {
  [apiA, apiB] = await Promise.all([startFakeGeminiApi(), startFakeGeminiApi()]);
  home = makeGeminiHome(apiA.url);
  dir = realpathSync(mkdtempSync(path.join(tmpdir(), "acp-compare-cli-")));
  writeFileSync(
    path.join(dir, "config.json"),
    JSON.stringify({
      profiles: {
        // The same Gemini CLI, talking to the second fake API.
        "gemini-b": {
          command: gemini,
          args: ["--acp"],
          env: { GOOGLE_GEMINI_BASE_URL: apiB.url },
        },
        missing: { command: "/nonexistent/agent-binary", args: [] },
        // `-- cat`: an agent that echoes its input.
        cat: { command: "cat", args: [] },
      },
    }),
  );
});
afterAll(async () => {
  await Promise.all([apiA?.close(), apiB?.close()]);
  home?.cleanup();
  rmSync(dir, { recursive: true, force: true });
});

const cli = (...args: string[]) =>
  execa(process.execPath, [bin, "compare", ...args], {
    cwd: dir,
    reject: false,
    timeout: 240_000,
    env: {
      ...home.env,
      ACP_PLAYGROUND_DATA: path.join(dir, "data"),
      ACP_PLAYGROUND_CONFIG: path.join(dir, "config.json"),
    },
  });

describe("acp-playground compare", () => {
  it("runs both agents on one prompt and reports answers, aligned tool calls and files (Markdown, then JSON)", async () => {
    const writes = (content: string) => [
      { parts: [{ functionCall: { name: "write_file", args: { file_path: "hello.txt", content } } }] },
      { parts: [{ text: `Wrote ${content.trim()}.` }] },
    ];
    apiA.script(...writes("hello\n"));
    apiB.script(...writes("bonjour\n"));
    const run = await cli(
      "--profile",
      "gemini",
      "--profile",
      "gemini-b",
      "--prompt",
      "write hello.txt",
      "--transcripts",
      "runs",
      "--fail-on-diff",
    );
    expect(run.stderr).toBe("");
    // The files differ: --fail-on-diff turns that into exit 1.
    expect(run.exitCode).toBe(1);
    expect(run.stdout).toContain("# Comparison: gemini vs gemini-b");
    expect(run.stdout).toContain("Wrote hello.");
    expect(run.stdout).toContain("Wrote bonjour.");
    // Gemini's tool call: kind "edit", its location made relative to each side's workspace.
    expect(run.stdout).toContain('| edit [{"path":"hello.txt"}] | edit [{"path":"hello.txt"}] | same |');
    expect(run.stdout).toContain("2 difference(s) over 1 turn(s).");
    expect(run.stdout).toContain("- `hello.txt`: gemini +1 −0, gemini-b +1 −0");
    expect(run.stdout).toContain("+bonjour");
    // Each side worked in its own throw-away workspace, recorded in its own transcript.
    const [a, b] = ["a", "b"].map((s) => parseTranscript(readFileSync(path.join(dir, "runs", `${s}.jsonl`), "utf8")));
    expect(a!.header.agent.cwd).not.toBe(b!.header.agent.cwd);
    expect(a!.header.agent.profile).toBe("gemini");
    expect(b!.header.agent.profile).toBe("gemini-b");

    apiA.script({ parts: [{ text: "Same answer." }] });
    apiB.script({ parts: [{ text: "Same answer." }] });
    const json = await cli(
      "--profile",
      "gemini",
      "--profile",
      "gemini-b",
      "--prompt",
      "hi",
      "--json",
      "--fail-on-diff",
    );
    expect(json.stderr).toBe("");
    expect(json.exitCode).toBe(0);
    const report = JSON.parse(json.stdout);
    expect(report).toMatchObject({
      format: "acp-playground-comparison-report",
      prompt: "hi",
      differences: 0,
      sides: [
        { key: "A", profile: "gemini", stopReason: "end_turn" },
        { key: "B", profile: "gemini-b" },
      ],
      turns: [{ index: 0, answersEqual: true, a: { answer: "Same answer." }, b: { answer: "Same answer." } }],
    });
    expect(report.turns[0].a.usage.totalTokens).toBe(19);
    expect(report.turns[0].a.timing.totalMs).toBeGreaterThan(0);
  }, 600_000);

  it("one profile with two models: options per side, the report written to a file", async () => {
    // Nothing scripted: the fake API echoes the prompt to both, whichever asks first.
    const run = await cli(
      "--profile",
      "gemini",
      "--prompt",
      "echo me",
      "--option",
      "A.model=gemini-2.5-flash",
      "--option",
      "B.model=gemini-2.5-pro",
      "-o",
      "report.md",
    );
    expect(run.stderr).toBe("");
    expect(run.exitCode).toBe(0);
    expect(run.stdout).toMatch(/^0 difference\(s\); report: .*report\.md$/m);
    const md = readFileSync(path.join(dir, "report.md"), "utf8");
    expect(md).toContain("# Comparison: gemini model=gemini-2.5-flash vs gemini model=gemini-2.5-pro");
    const models = apiA.requests.map((r) => /\/models\/([^:]+):streamGenerateContent/.exec(r.path)?.[1]);
    expect(models).toEqual(expect.arrayContaining(["gemini-2.5-flash", "gemini-2.5-pro"]));
  }, 600_000);

  it("exits 3 when an agent fails to start, still reporting the other side, and 2 on bad arguments", async () => {
    apiA.script({ parts: [{ text: "I ran." }] });
    const run = await cli("--profile", "gemini", "--profile", "missing", "--prompt", "hi");
    expect(run.exitCode).toBe(3);
    expect(run.stdout).toContain("I ran.");
    expect(run.stderr).toMatch(/missing.*(ENOENT|not found|no such)/i);

    // An unknown profile on one side: exit 2, after the other side has run and stopped.
    apiA.script({ parts: [{ text: "I ran too." }] });
    const bad = await cli("--profile", "gemini", "--profile", "nope", "--prompt", "hi");
    expect(bad.exitCode).toBe(2);
    expect(bad.stderr).toContain("B: ");
    const noPrompt = await cli("--profile", "gemini");
    expect(noPrompt.exitCode).toBe(2);
    expect(noPrompt.stderr).toContain("acp-playground compare: needs --prompt");
    const badOption = await cli("--profile", "gemini", "--prompt", "x", "--option", "C.model");
    expect(badOption.exitCode).toBe(2);
  }, 600_000);

  it("says a side's agent echoes its input, as the doctor stopped it, not as the echoed error", async () => {
    const run = await cli("--profile", "cat", "--prompt", "hi", "--json", "--format", "json", "--timeout", "60s");
    expect(run.exitCode).toBe(3);
    expect(run.stderr).toContain("cat (A): It sends our own messages back: it echoes its input");
    const report = JSON.parse(run.stdout) as { sides: { failure?: string }[] };
    expect(report.sides.map((s) => s.failure)).toEqual([
      "the doctor stopped it: It sends our own messages back: it echoes its input",
      "the doctor stopped it: It sends our own messages back: it echoes its input",
    ]);
    expect(run.stdout + run.stderr).not.toContain("Method not found");
  }, 120_000);
});
