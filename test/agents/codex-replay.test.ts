/**
 * The pinned Codex (test/agents) recorded, replayed as a mock and re-run, offline against the fake
 * Responses API: a session with a streamed turn and a command approval is recorded with its
 * protocol; replayed through the relay with the same client steps it says what it said (the
 * approval answered from the recording, never carried out); re-run live, Codex does it again.
 */
import { execa } from "execa";
import { existsSync, mkdirSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import path from "node:path";
import { afterAll, afterEach, beforeAll, describe, expect, it } from "vitest";
import { runAppServerHandshake, runAppServerTurn } from "../../lib/features/protocols/codex-app-server/handshake";
import { parseTranscript } from "../../lib/contracts/transcript";
import { UNKNOWN_METHODS } from "../../lib/contracts/policies";
import { recordingFromTranscript, validateRecording } from "../../lib/features/library/validate-report";
import { diffRuns } from "../../lib/features/compare/transcript-diff";
import appServerSchemaFile from "../../lib/protocol/app-server-schema.json";
import { createAppServerSchema, type AppServerSchemaFile } from "../../lib/protocol/schema-app-server";
import { codexEscalatedCommand, codexProfile } from "../agent-profiles";
import type { FakeModelApi } from "../fake-models/http";
import { TestClient, type TestRelay } from "../relay-harness";
import { portOf, startCodexRig, type CodexRig } from "./codex-rig";
import { TranscriptStore } from "../../server/transcripts/transcript-store";

const MS = 180_000;
const bin = path.resolve(import.meta.dirname, "../../bin/acp-playground.mjs");
const APPROVAL = "item/commandExecution/requestApproval";
const appServer = createAppServerSchema(appServerSchemaFile as AppServerSchemaFile);

let api: FakeModelApi;
let relay: TestRelay;
let base: string;
let workspace: string;
const clients: TestClient[] = [];

let rig: CodexRig;
beforeAll(async () => {
  rig = await startCodexRig("acp-codex-replay-");
  ({ api, relay, base, workspace } = rig);
});
afterEach(() => {
  for (const c of clients.splice(0)) c.close();
});
afterAll(() => rig?.close());

async function client(): Promise<TestClient> {
  const c = new TestClient(relay.url, { token: "test-token" });
  clients.push(c);
  await c.connected();
  return c;
}

const FILE = "approved.txt";
const scriptTurns = () =>
  api.script(
    { text: ["Hello ", "from the **fake** model"] },
    { text: ["Running it."], tools: [codexEscalatedCommand(`echo approved > ${FILE}`)] },
    { text: ["Done."] },
  );

/**
 * The client steps: Connect (initialize, initialized, thread/start), a streamed turn, then a turn
 * whose command approval `answer` answers (the user on its card; nothing for a replay, whose
 * relay answers from the recording).
 */
async function steps(c: TestClient, profile: string, answer: boolean): Promise<void> {
  const info = await c.start({ profile, cwd: workspace });
  expect(info.protocol).toBe("codex-app-server");
  const port = portOf(c);
  const end = await runAppServerHandshake({ port }, { cwd: workspace });
  expect(end.progress, JSON.stringify(end.progress)).toMatchObject({ step: "ready" });
  const threadId = end.progress.sessionId!;
  const hello = await runAppServerTurn(port, threadId, "say hello", 60_000);
  expect(hello, JSON.stringify(hello)).toMatchObject({ ok: true, status: "completed" });
  const turn = runAppServerTurn(port, threadId, `make ${FILE}`, 90_000);
  if (answer) {
    const ask = await c.frame((f) => f.kind === "request" && f.method === APPROVAL, "command approval", 60_000);
    await c.send({ id: ask.id, result: { decision: "accept" } });
  }
  expect(await turn).toMatchObject({ ok: true, status: "completed" });
}

const textOf = (id: string) => new TranscriptStore(relay.config.dataDir).read(id)!;

let recordedId: string | undefined;
/** Records the session once (Codex writes the file, the user accepts its command). */
async function recorded(): Promise<string> {
  if (recordedId) return recordedId;
  rmSync(path.join(workspace, FILE), { force: true });
  const c = await client();
  // Until the relay knows the app-server's approvals, its "unknown methods" policy would refuse them: ask the user.
  await c.emit("policy:set", { policies: { [UNKNOWN_METHODS]: "ask" } });
  scriptTurns();
  await steps(c, "codex", true);
  expect(readFileSync(path.join(workspace, FILE), "utf8").trim()).toBe("approved");
  const stopped = (await c.emit("agent:stop", {})) as { ok: boolean; transcriptId?: string };
  expect(stopped.ok).toBe(true);
  const list = await fetch(`${relay.url}/api/transcripts`, { headers: { authorization: "Bearer test-token" } });
  const meta = ((await list.json()) as { transcripts: Array<Record<string, unknown>> }).transcripts.find(
    (m) => m.profile === "codex" && m.recording === false && m.kind === "session",
  );
  expect(meta).toBeDefined();
  recordedId = meta!.id as string;
  return recordedId;
}

const agentFrames = (c: TestClient) => c.frames.filter((f) => f.dir === "from-agent");

describe("Codex app-server: record, replay as a mock, re-run", () => {
  it(
    "records the session with its protocol; its turns are turn/starts; validate reads it by that protocol",
    async () => {
      const id = await recorded();
      const store = new TranscriptStore(relay.config.dataDir);
      expect(store.meta(id)).toMatchObject({ protocol: "codex-app-server", turns: 2 });
      const transcript = parseTranscript(textOf(id));
      expect(transcript.header.agent.protocol).toBe("codex-app-server");
      // The fake model has metadata (server/models/codex-home.ts): no "fallback metadata" warning, which
      // Codex sends at a moment of its own at each turn's start, so a re-run's diff would depend on timing.
      expect(transcript.frames.filter((f) => f.method === "warning").map((f) => f.raw)).toEqual([]);
      // Rebuilt from the file (a crash, an import): the same turns.
      rmSync(path.join(relay.config.dataDir, "transcripts", `${id}.meta.json`));
      expect(new TranscriptStore(relay.config.dataDir).meta(id)).toMatchObject({
        turns: 2,
        protocol: "codex-app-server",
      });
      const verdict = validateRecording(recordingFromTranscript("codex.jsonl", transcript), { appServer });
      const failed = verdict.requirements.filter((r) => r.status === "fail");
      expect(failed, JSON.stringify(failed).slice(0, 800)).toEqual([]);
      expect(verdict.requirements.find((r) => r.id === "PG-REC-001")).toMatchObject({ status: "pass" });
      // Every frame Codex and the relay wrote fits the app-server schema.
      expect(verdict.requirements.find((r) => r.id === "PG-REC-003")).toMatchObject({ status: "pass" });
    },
    MS,
  );

  it(
    "replays as a mock through the relay with the same client steps: the diff is empty, nothing is carried out",
    async () => {
      const id = await recorded();
      rmSync(path.join(workspace, FILE), { force: true });
      const c = await client();
      // The replay profile speaks its recording's protocol.
      const { info } = await c.emit("relay:info", { profile: `replay:${id}` });
      expect(info.profiles.find((p: { name: string }) => p.name === `replay:${id}`)).toMatchObject({
        protocol: "codex-app-server",
      });
      const asked = api.requests.length;
      await steps(c, `replay:${id}`, false);
      // A replay asks no model.
      expect(api.requests.length).toBe(asked);
      // No "jsonrpc" in what the replay says, as Codex never sends it.
      expect(agentFrames(c).filter((f) => f.raw.includes('"jsonrpc"'))).toEqual([]);
      expect(c.frames.filter((f) => f.kind === "invalid")).toEqual([]);
      // The approval reached the relay and was answered from the recording, not by the user; no file written.
      const ask = c.frames.find((f) => f.kind === "request" && f.method === APPROVAL)!;
      const answer = c.frames.find((f) => f.dir === "to-agent" && f.kind === "response" && f.id === ask.id)!;
      expect(answer.message).toMatchObject({ result: { decision: "accept" } });
      expect(answer.raw).not.toContain('"jsonrpc"');
      expect(existsSync(path.join(workspace, FILE))).toBe(false);
      const transcript = parseTranscript(textOf(id));
      const diff = diffRuns({ frames: transcript.frames, cwd: workspace }, { frames: c.frames, cwd: workspace });
      expect(diff.patch).toBe("");
      expect(diff.equal).toBe(true);
    },
    MS,
  );

  it(
    "replays as a mock by transcript:rerun: every step answered, the diff is empty",
    async () => {
      const id = await recorded();
      const c = await client();
      const res = await c.emit("transcript:rerun", { id, profile: `replay:${id}`, options: { speed: "instant" } });
      expect(res.ok, JSON.stringify(res.error)).toBe(true);
      expect(res.problems).toEqual([]);
      expect(res.steps.every((s: { outcome: string }) => s.outcome !== "timeout")).toBe(true);
      expect(res.diff.patch).toBe("");
      expect(res.diff.equal).toBe(true);
    },
    MS,
  );

  it(
    "a turn/start other than the recorded one gets the recorded turn, with a warning that says so",
    async () => {
      const id = await recorded();
      const c = await client();
      await c.start({ profile: `replay:${id}`, cwd: workspace });
      const port = portOf(c);
      const end = await runAppServerHandshake({ port }, { cwd: workspace });
      const turn = await runAppServerTurn(port, end.progress.sessionId!, "something else", 30_000);
      expect(turn).toMatchObject({ ok: true, status: "completed" });
      const warning = c.frames.find((f) => f.method === "warning")!;
      expect((warning.message as { params: { message: string } }).params.message).toContain(
        "you typed “something else”",
      );
      expect(warning.kind).toBe("notification");
    },
    MS,
  );

  it(
    "re-runs the recording against the live Codex: the approval is answered as recorded; the diff is empty",
    async () => {
      const id = await recorded();
      rmSync(path.join(workspace, FILE), { force: true });
      scriptTurns();
      const c = await client();
      const res = await c.emit("transcript:rerun", { id });
      expect(res.ok, JSON.stringify(res.error)).toBe(true);
      expect(res.problems).toEqual([]);
      expect(res.steps.every((s: { outcome: string }) => s.outcome === "answered" || s.outcome === "sent")).toBe(true);
      // The recorded answer (accept) went to the live Codex, which ran the command.
      const ask = c.frames.find((f) => f.kind === "request" && f.method === APPROVAL)!;
      const answer = c.frames.find((f) => f.dir === "to-agent" && f.kind === "response" && f.id === ask.id)!;
      expect(answer.message).toMatchObject({ result: { decision: "accept" } });
      expect(readFileSync(path.join(workspace, FILE), "utf8").trim()).toBe("approved");
      // The second turn/start named the live thread, not the recorded one.
      const starts = c.frames.filter((f) => f.dir === "to-agent" && f.method === "turn/start");
      const thread = c.frames.find((f) => f.method === "thread/start" && f.kind === "response")!;
      const liveThread = (thread.message as { result: { thread: { id: string } } }).result.thread.id;
      expect(starts.map((f) => (f.message as { params: { threadId: string } }).params.threadId)).toEqual([
        liveThread,
        liveThread,
      ]);
      // What differs between any two runs (thread, turn, item and process ids, the rollout file's
      // time, timings) is normalised away: Codex did the same again.
      expect(res.diff.patch).toBe("");
      expect(res.diff.equal).toBe(true);
    },
    MS,
  );

  it(
    "from the CLI: record --profile codex writes an app-server transcript that validate passes",
    async () => {
      const dir = path.join(base, "cli");
      mkdirSync(dir, { recursive: true });
      writeFileSync(
        path.join(dir, "config.json"),
        JSON.stringify({ profiles: { codex: codexProfile(api.url, path.join(base, "home")) } }),
      );
      const cli = (...args: string[]) =>
        execa(process.execPath, [bin, ...args], {
          cwd: dir,
          reject: false,
          timeout: 120_000,
          env: { ACP_PLAYGROUND_DATA: path.join(dir, "data"), ACP_PLAYGROUND_CONFIG: path.join(dir, "config.json") },
        });
      api.script({ text: ["Recorded ", "by the CLI."] });
      const run = await cli("record", "--profile", "codex", "--prompt", "say something", "-o", "codex.jsonl");
      expect(run.exitCode, run.stderr).toBe(0);
      expect(run.stdout).toContain("Recorded by the CLI.");
      expect(run.stdout).toContain('status: "completed"');
      const t = parseTranscript(readFileSync(path.join(dir, "codex.jsonl"), "utf8"));
      expect(t.header.agent.protocol).toBe("codex-app-server");
      expect(t.frames.filter((f) => f.dir === "to-agent").map((f) => f.method)).toEqual([
        "initialize",
        "initialized",
        "thread/start",
        "turn/start",
      ]);
      const validated = await cli("validate", "codex.jsonl");
      expect(validated.stdout).toContain("codex.jsonl (transcript, ");
      expect(validated.stdout).toMatch(/PASS +PG-REC-003/);
      expect(validated.exitCode, validated.stdout).toBe(0);
    },
    MS,
  );
});
