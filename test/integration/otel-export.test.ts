/**
 * `acp-playground export --otlp`, read as a backend reads it: the CLI sends to a throw-away OTLP
 * receiver (test/otlp-receiver.ts, decoding with OpenTelemetry's own protobuf definitions) and the
 * tests check the trees, attributes and times against the recordings' frames.
 */
import { execa } from "execa";
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { frameEvent, parseTranscript, serialize, type TranscriptHeader } from "../../lib/contracts/transcript";
import { codexCapture } from "../fixtures/codex-captures";
import { startOtlpReceiver, type OtlpReceiver, type ReceivedSpan } from "../otlp-receiver";
import { freePort } from "../server-process";

const root = path.resolve(import.meta.dirname, "../..");
const bin = path.join(root, "bin/acp-playground.mjs");
const DEMO = path.join(root, "demo/gemini-demo.jsonl");
let dir: string;

beforeAll(() => {
  dir = mkdtempSync(path.join(tmpdir(), "acp-otel-"));
});
afterAll(() => rmSync(dir, { recursive: true, force: true }));

const cli = (args: string[], env: Record<string, string> = {}) =>
  execa(process.execPath, [bin, "export", ...args], {
    cwd: dir,
    reject: false,
    timeout: 60_000,
    env: { ...env, PORT: "3999" },
    extendEnv: true,
  });

async function withReceiver<T>(
  opts: Parameters<typeof startOtlpReceiver>[0],
  run: (r: OtlpReceiver) => Promise<T>,
): Promise<T> {
  const r = await startOtlpReceiver(opts);
  try {
    return await run(r);
  } finally {
    await r.close();
  }
}

const children = (spans: ReceivedSpan[], parent: ReceivedSpan) => spans.filter((s) => s.parentSpanId === parent.spanId);

function header(id: string, protocol?: string): TranscriptHeader {
  return {
    type: "header",
    format: "acp-playground-transcript",
    version: "1.2",
    id,
    createdAt: new Date(1795696092000).toISOString(),
    playground: { version: "0.1.0" },
    agent: { profile: "codex", command: "codex", args: ["app-server"], cwd: "/tmp", ...(protocol ? { protocol } : {}) },
  } as TranscriptHeader;
}

describe("export --otlp", () => {
  it("sends the demo as one trace per turn, protobuf by default, with the frames' times; twice adds nothing", async () => {
    await withReceiver({}, async (r) => {
      const run = await cli(["--otlp", r.url, DEMO]);
      expect(run.stderr).toBe("");
      expect(run.exitCode).toBe(0);
      expect(run.stdout).toContain(`sent ${DEMO}: 4 spans in 2 traces (one per turn) to ${r.url}/v1/traces`);
      expect(r.requests.map((q) => q.contentType)).toEqual(["application/x-protobuf"]);

      const t = parseTranscript(readFileSync(DEMO, "utf8"));
      const ts = (seq: number) => t.frames.find((f) => f.seq === seq)!.ts;
      const spans = [...r.spans.values()];
      expect(spans).toHaveLength(4);
      const turns = spans.filter((s) => !s.parentSpanId).sort((a, b) => a.startMs - b.startMs);
      expect(turns.map((s) => s.name)).toEqual(["invoke_agent gemini-cli", "invoke_agent gemini-cli"]);
      expect(new Set(spans.map((s) => s.traceId)).size).toBe(2);
      const [first, second] = turns as [ReceivedSpan, ReceivedSpan];
      expect(children(spans, first)).toEqual([]);
      expect([first.startMs, first.endMs, second.startMs, second.endMs]).toEqual([ts(6), ts(12), ts(13), ts(19)]);
      expect(first.kind).toBe(3); // CLIENT
      expect(first.attributes).toMatchObject({
        "gen_ai.operation.name": "invoke_agent",
        "gen_ai.agent.name": "gemini-cli",
        "gen_ai.provider.name": "gcp.gemini",
        "gen_ai.response.finish_reasons": ["end_turn"],
        "acp_playground.transcript.id": t.header.id,
        "acp_playground.seq": 6,
        "acp_playground.frame.url": `http://localhost:3999/transcripts/${t.header.id}#seq=6`,
      });
      const sessionId = (JSON.parse(t.frames.find((f) => f.seq === 4)!.raw) as { result: { sessionId: string } }).result
        .sessionId;
      expect(first.attributes["gen_ai.conversation.id"]).toBe(sessionId);
      expect(first.resource["service.name"]).toBe("acp-playground");
      expect(second.links).toEqual([{ traceId: first.traceId, spanId: first.spanId, attributes: expect.any(Object) }]);

      const [tool] = children(spans, second);
      expect(tool!.name).toMatch(/^execute_tool /);
      expect(tool!.attributes).toMatchObject({
        "gen_ai.operation.name": "execute_tool",
        "gen_ai.tool.call.id": "write_file__write_file_1795315189537_0",
        "acp_playground.seq": 14,
      });
      expect([tool!.startMs, tool!.endMs]).toEqual([ts(14), ts(16)]);
      const [permission] = children(spans, tool!);
      expect(permission).toMatchObject({ name: "session/request_permission", startMs: ts(14), endMs: ts(15) });
      expect(permission!.attributes["acp_playground.request.waits_for"]).toBe("user");
      // No message contents unless asked.
      expect(JSON.stringify(spans)).not.toContain("gen_ai.input.messages");

      const again = await cli(["--otlp", `${r.url}/v1/traces`, "--otlp-link-base", "https://play.example", DEMO]);
      expect(again.exitCode).toBe(0);
      expect(r.requests).toHaveLength(2);
      expect(r.spans.size).toBe(4);
      expect(r.spans.get(first.spanId)!.attributes["acp_playground.frame.url"]).toBe(
        `https://play.example/transcripts/${t.header.id}#seq=6`,
      );
      // --otlp-new-ids: a second copy, as asked.
      expect((await cli(["--otlp", r.url, "--otlp-new-ids", DEMO])).exitCode).toBe(0);
      expect(r.spans.size).toBe(8);
    });
  });

  it("maps a Codex app-server recording the same way", async () => {
    const file = path.join(dir, "codex.jsonl");
    const frames = codexCapture("patches");
    writeFileSync(
      file,
      serialize(header("codex-rec", "codex-app-server")) + frames.map((f) => serialize(frameEvent(f))).join(""),
    );
    await withReceiver({}, async (r) => {
      const run = await cli(["--otlp", r.url, file]);
      expect(run.stderr).toBe("");
      expect(run.exitCode).toBe(0);
      const spans = [...r.spans.values()];
      const turns = spans.filter((s) => !s.parentSpanId).sort((a, b) => a.startMs - b.startMs);
      expect(turns.map((s) => s.name)).toEqual(["invoke_agent codex", "invoke_agent codex"]);
      const second = turns[1]!;
      expect(second.attributes).toMatchObject({
        "gen_ai.provider.name": "openai",
        "gen_ai.response.finish_reasons": ["completed"],
      });
      expect(second.attributes["gen_ai.usage.input_tokens"]).toBeGreaterThan(0);
      expect(second.attributes["gen_ai.usage.output_tokens"]).toBeGreaterThan(0);
      const tools = children(spans, second).sort((a, b) => a.startMs - b.startMs);
      expect(tools.map((s) => s.name)).toEqual([
        "execute_tool commandExecution",
        "execute_tool fileChange",
        "execute_tool fileChange",
      ]);
      const ts = (seq: number) => frames.find((f) => f.seq === seq)!.ts;
      expect([tools[0]!.startMs, tools[0]!.endMs]).toEqual([ts(35), ts(40)]);
      expect(children(spans, tools[0]!).map((s) => [s.name, s.startMs, s.endMs])).toEqual([
        ["item/commandExecution/requestApproval", ts(36), ts(37)],
      ]);
    });
  });

  it("sends JSON only when asked, and a backend that takes protobuf only refuses it with a clear error", async () => {
    await withReceiver({ json: true }, async (r) => {
      const run = await cli(["--otlp", r.url, "--otlp-protocol", "http/json", DEMO]);
      expect(run.exitCode).toBe(0);
      expect(r.requests).toMatchObject([{ contentType: "application/json", spans: 4 }]);
    });
    await withReceiver({}, async (r) => {
      const run = await cli(["--otlp", r.url, DEMO], { OTEL_EXPORTER_OTLP_PROTOCOL: "http/json" });
      expect(run.exitCode).toBe(5);
      expect(run.stderr).toContain(`OTLP export to ${r.url}/v1/traces failed: HTTP 415`);
      expect(r.spans.size).toBe(0);
    });
  });

  it("sends --otlp-header and OTEL_EXPORTER_OTLP_HEADERS; a refusing backend's status is in the error", async () => {
    await withReceiver({ requireHeader: ["authorization", "Basic cGs6c2s="] }, async (r) => {
      const refused = await cli(["--otlp", r.url, DEMO]);
      expect(refused.exitCode).toBe(5);
      expect(refused.stderr).toContain(`OTLP export to ${r.url}/v1/traces failed: HTTP 401`);
      expect(refused.stderr).toContain("missing or wrong credentials");
      expect((await cli(["--otlp", r.url, "--otlp-header", "Authorization=Basic cGs6c2s=", DEMO])).exitCode).toBe(0);
      expect(r.spans.size).toBe(4);
      const viaEnv = await cli(["--otlp", r.url, DEMO], { OTEL_EXPORTER_OTLP_HEADERS: "Authorization=Basic cGs6c2s=" });
      expect(viaEnv.exitCode).toBe(0);
    });
  });

  it("names the URL when nothing listens there, and exits non-zero", async () => {
    // A port that was free a moment ago, closed again.
    const port = await freePort();
    const url = `http://127.0.0.1:${port}`;
    const run = await cli(["--otlp", url, DEMO], { OTEL_EXPORTER_OTLP_TIMEOUT: "1500" });
    expect(run.exitCode).toBe(5);
    expect(run.stderr).toContain(`OTLP export to ${url}/v1/traces failed`);
    expect(run.stderr).toMatch(/ECONNREFUSED|timed out/);
  });

  it("rejects bad arguments with the usage", async () => {
    const noFile = await cli(["--otlp", "http://127.0.0.1:9"]);
    expect(noFile.exitCode).toBe(2);
    expect(noFile.stderr).toContain("export --otlp needs a transcript file");
    const badUrl = await cli(["--otlp", "ftp://x", DEMO]);
    expect(badUrl.exitCode).toBe(2);
    expect(badUrl.stderr).toContain("not an http(s) URL: ftp://x");
    const grpc = await cli(["--otlp", "http://127.0.0.1:9", "--otlp-protocol", "grpc", DEMO]);
    expect(grpc.exitCode).toBe(2);
    expect(grpc.stderr).toContain("OTLP protocol grpc is not supported");
    const missing = await cli(["--otlp", "http://127.0.0.1:9", path.join(dir, "nope.jsonl")]);
    expect(missing.exitCode).toBe(4);
    // A file that is not a transcript: refused with its line, before anything is sent.
    const bad = path.join(dir, "bad.jsonl");
    writeFileSync(bad, `${serialize(header("bad"))}{"type":"frame","seq":"one"}\n`);
    await withReceiver({}, async (r) => {
      const run = await cli(["--otlp", r.url, bad]);
      expect(run.exitCode).toBe(4);
      expect(run.stderr).toContain(`${bad}: line 2:`);
      expect(r.requests).toEqual([]);
    });
  });

  it("never sends a secret: contents included, redacted as everywhere else", async () => {
    const envSecret = "env-held-secret-value-42";
    const key = "sk-proj-abcdefghijklmnopqrstuvwxyz0123456789";
    const frames = [
      {
        seq: 1,
        ts: 1000,
        dir: "to-agent",
        id: 1,
        method: "session/prompt",
        kind: "request",
        msg: {
          jsonrpc: "2.0",
          id: 1,
          method: "session/prompt",
          params: { sessionId: "s", prompt: [{ type: "text", text: `key ${key} and ${envSecret}` }] },
        },
      },
      {
        seq: 2,
        ts: 1100,
        dir: "from-agent",
        method: "session/update",
        kind: "notification",
        msg: {
          jsonrpc: "2.0",
          method: "session/update",
          params: {
            sessionId: "s",
            update: {
              sessionUpdate: "tool_call",
              toolCallId: "c1",
              title: `export OPENAI_API_KEY=${key}`,
              kind: "execute",
              rawInput: { command: `curl -H 'Authorization: Bearer ${key}'`, token: envSecret },
            },
          },
        },
      },
      {
        seq: 3,
        ts: 1200,
        dir: "from-agent",
        method: "session/update",
        kind: "notification",
        msg: {
          jsonrpc: "2.0",
          method: "session/update",
          params: {
            sessionId: "s",
            update: { sessionUpdate: "agent_message_chunk", content: { type: "text", text: `used ${envSecret}` } },
          },
        },
      },
      {
        seq: 4,
        ts: 1300,
        dir: "from-agent",
        id: 1,
        method: "session/prompt",
        kind: "response",
        msg: { jsonrpc: "2.0", id: 1, result: { stopReason: "end_turn" } },
      },
    ];
    const file = path.join(dir, "secrets.jsonl");
    writeFileSync(
      file,
      serialize({ ...header("secrets"), agent: { profile: "gemini", command: "gemini", args: [], cwd: "/tmp" } }) +
        frames
          .map(({ msg, ...f }) => `${JSON.stringify({ type: "frame", ...f, raw: JSON.stringify(msg) })}\n`)
          .join(""),
    );
    await withReceiver({}, async (r) => {
      const run = await cli(["--otlp", r.url, "--otlp-content", file], { MY_SERVICE_TOKEN: envSecret });
      expect(run.stderr).toBe("");
      expect(run.exitCode).toBe(0);
      const sent = JSON.stringify([...r.spans.values()]);
      expect(sent).toContain("gen_ai.input.messages");
      expect(sent).toContain("gen_ai.tool.call.arguments");
      expect(sent).toContain("[REDACTED]");
      expect(sent).not.toContain(key);
      expect(sent).not.toContain(envSecret);
    });
  });
});
