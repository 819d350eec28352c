/**
 * One prompt on Codex (app-server, the pinned Codex offline against the fake Responses API) and
 * Gemini (ACP, the real Gemini CLI offline against the fake Gemini API) side by side, with
 * `acp-playground compare`: both answer, and the report reads each side in its own protocol.
 */
import { execa } from "execa";
import { mkdirSync, mkdtempSync, readFileSync, realpathSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { parseTranscript } from "../../lib/contracts/transcript";
import { codexEscalatedCommand, codexProfile } from "../agent-profiles";
import { startFakeGeminiApi, type FakeGeminiApi } from "../fake-gemini/server";
import type { FakeModelApi } from "../fake-models/http";
import { startFakeResponsesApi } from "../fake-models/openai-responses";
import { makeGeminiHome, type GeminiHome } from "../gemini-home";

const bin = path.resolve(import.meta.dirname, "../../bin/acp-playground.mjs");
let responses: FakeModelApi;
let geminiApi: FakeGeminiApi;
let home: GeminiHome;
let dir: string;

beforeAll(async () => {
  [responses, geminiApi] = await Promise.all([startFakeResponsesApi(() => true), startFakeGeminiApi()]);
  home = makeGeminiHome(geminiApi.url);
  dir = realpathSync(mkdtempSync(path.join(tmpdir(), "acp-codex-compare-")));
  mkdirSync(path.join(dir, "codex-home"));
  writeFileSync(
    path.join(dir, "config.json"),
    JSON.stringify({ profiles: { codex: codexProfile(responses.url, path.join(dir, "codex-home")) } }),
  );
});
afterAll(async () => {
  await Promise.all([responses?.close(), geminiApi?.close()]);
  home?.cleanup();
  if (dir) rmSync(dir, { recursive: true, force: true });
});

const compare = (prompt: string, ...flags: string[]) =>
  execa(
    process.execPath,
    [bin, "compare", "--profile", "codex", "--profile", "gemini", "--prompt", prompt, "--json", ...flags],
    {
      cwd: dir,
      reject: false,
      timeout: 240_000,
      env: {
        ...home.env,
        ACP_PLAYGROUND_DATA: path.join(dir, "data"),
        ACP_PLAYGROUND_CONFIG: path.join(dir, "config.json"),
      },
    },
  );

describe("compare: Codex (app-server) and Gemini (ACP) on one prompt", () => {
  it("runs both side by side and reports both answers, each turn's end, usage and timing", async () => {
    responses.script({ text: ["Hello from ", "Codex."] });
    geminiApi.script({ parts: [{ text: "Hello from Gemini." }] });
    const run = await compare("say hello", "--transcripts", "runs");
    expect(run.stderr).toBe("");
    expect(run.exitCode).toBe(0);
    const report = JSON.parse(run.stdout);
    expect(report.sides).toMatchObject([
      { key: "A", profile: "codex", stopReason: "completed" },
      { key: "B", profile: "gemini", stopReason: "end_turn" },
    ]);
    expect(report.turns).toHaveLength(1);
    const [turn] = report.turns;
    expect(turn).toMatchObject({
      prompt: "say hello",
      answersEqual: false,
      a: { answer: "Hello from Codex.", stopReason: "completed", tools: [] },
      b: { answer: "Hello from Gemini.", stopReason: "end_turn", tools: [] },
    });
    // Codex's usage is its model call's (the fake Responses API's figures), Gemini's its own.
    expect(turn.a.usage).toMatchObject({ source: "thread/tokenUsage/updated", totalTokens: 30 });
    expect(turn.b.usage.totalTokens).toBeGreaterThan(0);
    for (const side of [turn.a, turn.b]) expect(side.timing.totalMs).toBeGreaterThan(0);

    // Each side recorded in its own protocol.
    const [a, b] = ["a", "b"].map((s) => parseTranscript(readFileSync(path.join(dir, "runs", `${s}.jsonl`), "utf8")));
    expect(a!.header.agent.protocol).toBe("codex-app-server");
    expect(b!.header.agent.protocol ?? "acp").toBe("acp");
    expect(a!.frames.filter((f) => f.kind === "invalid")).toEqual([]);
  }, 300_000);

  it("grants Codex's command approval as --permission says, as Gemini's permission requests", async () => {
    responses.script(
      { text: ["Running it."], tools: [codexEscalatedCommand("echo hi > hi.txt")] },
      { text: ["Done."] },
    );
    geminiApi.script(
      { parts: [{ functionCall: { name: "write_file", args: { file_path: "hi.txt", content: "hi\n" } } }] },
      { parts: [{ text: "Done." }] },
    );
    const run = await compare("write hi.txt");
    expect(run.stderr).toBe("");
    expect(run.exitCode).toBe(0);
    const [turn] = JSON.parse(run.stdout).turns;
    expect(turn.a).toMatchObject({ answer: "Running it.\n\nDone.", stopReason: "completed" });
    expect(turn.a.tools).toMatchObject([
      { name: "commandExecution", status: "completed", args: { command: "/bin/bash -lc 'echo hi > hi.txt'" } },
    ]);
    expect(turn.b).toMatchObject({ answer: "Done.", stopReason: "end_turn", tools: [{ name: "edit" }] });
  }, 300_000);
});
