/**
 * ACP v2 as its own protocol over the relay: a profile naming `acp-v2` and the v2 reference fixture
 * as a real process; Connect (the browser's runConnect) asks for protocolVersion 2 and is never
 * served warm, a prompt ends by state_update idle, the recording says acp-v2 and `validate` judges
 * it by the v2 schema.
 */
import { readFileSync, rmSync } from "node:fs";
import path from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { parseTranscript } from "@/lib/contracts/transcript";
import { runConnect } from "@/lib/features/connect/flow";
import { recordingFromTranscript, validateRecording } from "@/lib/features/library/validate-report";
import { outcomeOf } from "@/lib/protocol/jsonrpc";
import { schemaSet } from "@/server/agents/client-services";
import { startTestRelay, TestClient, waitUntil, type TestRelay } from "../relay-harness";

const root = path.resolve(import.meta.dirname, "../..");
const FIXTURE = path.join(root, "test/fixtures/v2-reference-agent.mjs");

let relay: TestRelay;
beforeAll(async () => {
  relay = await startTestRelay({
    profiles: { v2: { command: process.execPath, args: [FIXTURE], protocol: "acp-v2", env: {} } },
    // Asked for, refused: a v2 agent initialized ahead with v1 would be the wrong protocol.
    pool: { v2: 1 },
  });
});
afterAll(async () => {
  await relay?.close();
});

const message = (f: { message?: unknown }) => f.message as Record<string, any>;

describe("an acp-v2 profile over the relay", () => {
  it("Connects with version 2, prompts to state_update idle, records acp-v2, validates by the v2 schema", async () => {
    const pool = relay.server.relay.pool;
    expect(pool.size("v2")).toBe(0);
    expect((pool as any).slots.has("v2")).toBe(false);

    const c = new TestClient(relay.url, { token: "test-token" });
    await c.connected();
    // The relay answers the fixture's permission request (its edit) itself.
    await c.emit("policy:set", { policies: { "session/request_permission": "auto" } });
    let info: Record<string, any> | undefined;
    let id = 0;
    const progress = await runConnect(
      {
        start: async () => {
          info = await c.start({ profile: "v2", pooled: true });
          return { ok: true, value: { pooled: info.pooled === true } };
        },
        pooledInitialize: async () => undefined,
        request: async (method, params) => {
          const n = ++id;
          await c.send({ jsonrpc: "2.0", id: n, method, params });
          return outcomeOf(await c.response(n));
        },
        progress: () => {},
      },
      { cwd: relay.config.workspaceRoots[0]!, clientCapabilities: {}, protocol: "acp-v2" },
    );
    expect(info).toMatchObject({ profile: "v2", protocol: "acp-v2" });
    expect(info!.pooled).toBeUndefined();
    expect(progress).toMatchObject({ step: "ready", requestedVersion: 2, negotiatedVersion: 2, pooled: false });
    const sessionId = (progress as { sessionId?: string }).sessionId!;

    await c.send({
      jsonrpc: "2.0",
      id: 100,
      method: "session/prompt",
      params: { sessionId, prompt: [{ type: "text", text: "hello" }] },
    });
    await c.response(100);
    await c.frame(
      (f) =>
        f.dir === "from-agent" &&
        f.method === "session/update" &&
        message(f).params?.update?.sessionUpdate === "state_update" &&
        message(f).params?.update?.state === "idle",
      "state_update idle",
    );

    const transcriptId = info!.transcriptId as string;
    const meta = relay.server.relay.transcripts.list().find((m) => m.id === transcriptId);
    expect(meta?.protocol).toBe("acp-v2");
    c.close();
    const file = path.join(relay.config.dataDir, "transcripts", `${transcriptId}.jsonl`);
    await waitUntil(() => {
      try {
        return parseTranscript(readFileSync(file, "utf8")).frames.length >= 6;
      } catch {
        return false;
      }
    }, "the recording on disk");
    const transcript = parseTranscript(readFileSync(file, "utf8"));
    expect(transcript.header.agent.protocol).toBe("acp-v2");
    const verdict = validateRecording(recordingFromTranscript(file, transcript), { acp: schemaSet() });
    expect(verdict.requirements.filter((r) => r.status === "fail").map((r) => r.id)).toEqual([]);
    expect(verdict.verdict).toBe("CONFORMANT");
    // The v2 schema judged it: v1's PromptResponse has no such receipt.
    expect(JSON.stringify(verdict)).not.toMatch(/not part of ACP/);
    rmSync(file, { force: true });
  }, 60_000);
});
