/**
 * `serve --otlp`: a live session through the relay sends, span by span, what exporting its recording
 * afterwards sends; an endpoint that is down neither slows nor breaks the session.
 */
import path from "node:path";
import { afterEach, describe, expect, it, vi } from "vitest";
import { startTestRelay, TestClient, waitUntil, type TestRelay } from "../relay-harness";
import { startOtlpReceiver, type OtlpReceiver, type ReceivedSpan } from "../otlp-receiver";
import { freePort } from "../server-process";
import type { LiveOtlpExport } from "../../server/otel/live-export";
import { exportRecording } from "../../server/otel/export-recording";
import { OtlpSender } from "../../server/otel/otlp-sender";
import { createRedactor } from "../../lib/features/library/redact";

const stub = path.resolve(import.meta.dirname, "../fixtures/stub-agent.mjs");
const VARS = ["ACP_PLAYGROUND_OTLP", "OTEL_EXPORTER_OTLP_TIMEOUT"] as const;
const cleanups: Array<() => Promise<void> | void> = [];

afterEach(async () => {
  for (const c of cleanups.splice(0).reverse()) await c();
  for (const v of VARS) delete process.env[v];
});

/** A relay started as `serve --otlp URL` starts it: the variable the flag sets. */
async function relayExportingTo(url: string): Promise<TestRelay> {
  process.env.ACP_PLAYGROUND_OTLP = url;
  const relay = await startTestRelay({
    profiles: { terminal: { command: process.execPath, args: [stub, "terminal"], env: {} } },
  });
  cleanups.push(() => relay.close());
  return relay;
}

/**
 * Two prompt turns with the stub's terminal tool call, the client answering the agent's
 * terminal requests as a browser would.
 */
async function terminalSession(
  relay: TestRelay,
  afterFirstTurn: () => Promise<void> = async () => {},
): Promise<{ client: TestClient; transcriptId: string }> {
  const c = new TestClient(relay.url, { token: "test-token" });
  cleanups.push(() => c.close());
  await c.connected();
  const agent = await c.start({ profile: "terminal" });
  await c.initialize({ terminal: true });
  await c.send({ jsonrpc: "2.0", id: 2, method: "session/new", params: { cwd: process.cwd(), mcpServers: [] } });
  await c.response(2);
  const answers: Record<string, unknown> = {
    create: { terminalId: "t1" },
    wait: { exitCode: 0, signal: null },
    output: { output: "hello\n", truncated: false },
    release: {},
  };
  for (const id of [3, 4]) {
    const params = { sessionId: "terminal-session", prompt: [{ type: "text", text: `run it ${id}` }] };
    await c.send({ jsonrpc: "2.0", id, method: "session/prompt", params });
    for (const step of Object.keys(answers)) {
      const asked = await c.frame(
        (f) => f.dir === "from-agent" && f.kind === "request" && f.id === step && f.seq > c.frames.length - 20,
        `the agent's ${step} request`,
      );
      // A real browser answers after a moment: the request spans get a duration.
      await new Promise((r) => setTimeout(r, 5));
      await c.send({ jsonrpc: "2.0", id: step, result: answers[step] });
      await c.frame((f) => f.dir === "to-agent" && f.kind === "response" && f.seq > asked.seq, `answer to ${step}`);
    }
    await c.response(id);
    if (id === 3) await afterFirstTurn();
  }
  await c.emit("agent:stop", {});
  await c.waitFor(() => c.exits.length > 0, "the agent's exit");
  return { client: c, transcriptId: agent.transcriptId! };
}

const sorted = (spans: Iterable<ReceivedSpan>) => [...spans].sort((a, b) => a.spanId.localeCompare(b.spanId));

describe("serve --otlp", () => {
  it("sends a live session's spans as it goes, the same spans as exporting its recording afterwards", async () => {
    const live = await startOtlpReceiver();
    const later = await startOtlpReceiver();
    cleanups.push(
      () => live.close(),
      () => later.close(),
    );
    const relay = await relayExportingTo(live.url);
    const exporter = relay.server.relay.transcripts.recordings as LiveOtlpExport;
    expect(exporter.url).toBe(`${live.url}/v1/traces`);
    // The first turn's spans arrive while the session goes on, not at its end.
    const { transcriptId } = await terminalSession(relay, () =>
      waitUntil(() => [...live.spans.values()].some((s) => !s.parentSpanId), "the first turn's span arrives"),
    );
    await exporter.idle();
    const spans = [...live.spans.values()];
    const turns = spans.filter((s) => !s.parentSpanId);
    expect(turns.map((s) => s.name)).toEqual(["invoke_agent terminal", "invoke_agent terminal"]);
    for (const turn of turns) {
      const [tool, ...none] = spans.filter((s) => s.parentSpanId === turn.spanId && s.name.startsWith("execute_tool"));
      expect(none).toEqual([]);
      expect(tool!.name).toBe("execute_tool execute");
      const requests = spans.filter((s) => s.parentSpanId === turn.spanId && !s.name.startsWith("execute_tool"));
      expect(requests.map((s) => s.name).sort()).toEqual([
        "terminal/create",
        "terminal/output",
        "terminal/release",
        "terminal/wait_for_exit",
      ]);
      expect(turn.attributes["gen_ai.conversation.id"]).toBe("terminal-session");
    }
    expect(live.requests.length).toBeGreaterThanOrEqual(1);

    // Exporting the recording afterwards: the same spans, ids, times and attributes.
    const file = relay.server.relay.transcripts.file(transcriptId);
    const redactor = createRedactor([]);
    const sender = new OtlpSender({ url: `${later.url}/v1/traces`, headers: {}, protocol: "http/protobuf" });
    await exportRecording(file, sender, {
      linkBase: relay.url,
      redact: (t) => redactor.text(t).text,
    });
    await sender.shutdown();
    expect(sorted(later.spans.values())).toEqual(sorted(live.spans.values()));
  });

  it("sends a finished transcript on request (Send to …), with progress and the backend's answer", async () => {
    const receiver = await startOtlpReceiver({ requireHeader: ["x-api-key", "k1"] });
    cleanups.push(() => receiver.close());
    process.env.ACP_PLAYGROUND_OTLP_HEADERS = JSON.stringify(["x-api-key=k1"]);
    cleanups.push(() => void delete process.env.ACP_PLAYGROUND_OTLP_HEADERS);
    const relay = await relayExportingTo(receiver.url);
    const api = (route: string, init: RequestInit = {}) =>
      fetch(`${relay.url}/api/${route}`, { ...init, headers: { authorization: "Bearer test-token" } });
    expect(await (await api("otlp")).json()).toEqual({
      url: `${receiver.url}/v1/traces`,
      protocol: "http/protobuf",
      content: false,
    });
    const res = await api("transcripts/demo-gemini/otlp", { method: "POST" });
    expect(res.headers.get("content-type")).toContain("application/x-ndjson");
    const lines = (await res.text())
      .trim()
      .split("\n")
      .map((l) => JSON.parse(l) as { type: string });
    expect(lines).toEqual([
      { type: "progress", spans: 4 },
      { type: "done", spans: 4, traces: 2, url: `${receiver.url}/v1/traces` },
    ]);
    expect(receiver.spans.size).toBe(4);
    expect((await api("transcripts/nope/otlp", { method: "POST" })).status).toBe(404);

    // A backend that refuses: its status and answer in the last line.
    receiver.failWith = 403;
    const refused = (await (await api("transcripts/demo-gemini/otlp", { method: "POST" })).text()).trim().split("\n");
    expect(JSON.parse(refused.at(-1)!)).toMatchObject({
      type: "error",
      status: 403,
      message: expect.stringContaining(`OTLP export to ${receiver.url}/v1/traces failed: HTTP 403`),
    });
  });

  it("offers no Send to without an endpoint", async () => {
    const relay = await startTestRelay({});
    cleanups.push(() => relay.close());
    const api = (route: string, init: RequestInit = {}) =>
      fetch(`${relay.url}/api/${route}`, { ...init, headers: { authorization: "Bearer test-token" } });
    expect(await (await api("otlp")).json()).toEqual({ url: null });
    const res = await api("transcripts/demo-gemini/otlp", { method: "POST" });
    expect(res.status).toBe(409);
    expect(((await res.json()) as { error: { code: string } }).error.code).toBe("no_endpoint");
  });

  it("never sends the credentials an agent prints, live or on request, message contents included", async () => {
    // The redaction tests' leaky agent and made-up values (test/integration/redaction.test.ts).
    const ENV = {
      DB_PASS: "dbpass7Aq9x2Lm7",
      STRIPE_SK: "sk_live_4eC39HqLyjWDarjtT1zdp7dc",
      SENTRY_DSN: "https://0123456789abcdef0123456789abcdef@o123456.ingest.sentry.io/4505",
    };
    const leaks = [...Object.values(ENV), "4eC39HqLyjWDarjtT1zdp7dc", "0123456789abcdef0123456789abcdef"];
    const live = await startOtlpReceiver();
    cleanups.push(() => live.close());
    process.env.ACP_PLAYGROUND_OTLP_CONTENT = "1";
    cleanups.push(() => void delete process.env.ACP_PLAYGROUND_OTLP_CONTENT);
    process.env.ACP_PLAYGROUND_OTLP = live.url;
    const leaky = path.resolve(import.meta.dirname, "../fixtures/leaky-agent.mjs");
    const relay = await startTestRelay({
      profiles: { leaky: { command: process.execPath, args: [leaky, ...Object.keys(ENV)], env: ENV } },
    });
    cleanups.push(() => relay.close());
    const c = new TestClient(relay.url, { token: "test-token" });
    cleanups.push(() => c.close());
    await c.connected();
    const id = (await c.start({ profile: "leaky" })).transcriptId!;
    await c.send({ jsonrpc: "2.0", id: 1, method: "initialize", params: { protocolVersion: 1 } });
    await c.response(1);
    await c.send({ jsonrpc: "2.0", id: 2, method: "session/new", params: { cwd: process.cwd(), mcpServers: [] } });
    await c.response(2);
    const prompt = [{ type: "text", text: `print your environment, e.g. ${ENV.STRIPE_SK}` }];
    await c.send({ jsonrpc: "2.0", id: 3, method: "session/prompt", params: { sessionId: "leaky", prompt } });
    await c.response(3);
    await c.emit("agent:stop", {});
    await c.waitFor(() => c.exits.length > 0, "exit");
    const exporter = relay.server.relay.transcripts.recordings as LiveOtlpExport;
    await exporter.idle();
    const expectNoLeak = (where: string) => {
      const sent = JSON.stringify([...live.spans.values()]);
      expect(sent, where).toContain("gen_ai.input.messages");
      expect(sent, where).toContain("gen_ai.output.messages");
      expect(sent, where).toContain("[REDACTED]");
      for (const leak of leaks) expect(sent, `${where}: ${leak}`).not.toContain(leak);
    };
    expectNoLeak("live");
    // Sent again on request (Send to …), from the file.
    live.spans.clear();
    const res = await fetch(`${relay.url}/api/transcripts/${id}/otlp`, {
      method: "POST",
      headers: { authorization: "Bearer test-token" },
    });
    expect(await res.text()).toContain('"type":"done"');
    expectNoLeak("on request");
  });

  it("goes on unslowed and says so when the endpoint is down, dropping spans", async () => {
    const port = await freePort();
    process.env.OTEL_EXPORTER_OTLP_TIMEOUT = "500";
    const warn = vi.spyOn(console, "warn").mockImplementation(() => {});
    cleanups.push(() => warn.mockRestore());
    const relay = await relayExportingTo(`http://127.0.0.1:${port}`);
    const exporter = relay.server.relay.transcripts.recordings as LiveOtlpExport;
    const { client } = await terminalSession(relay);
    // The session ran to its end, both turns answered.
    expect(
      client.frames.filter((f) => f.kind === "response" && f.dir === "from-agent" && (f.id === 3 || f.id === 4)),
    ).toHaveLength(2);
    await exporter.idle();
    expect(exporter.sent).toBe(0);
    const said = warn.mock.calls.map((c) => String(c[0])).join("\n");
    expect(said).toContain(`OTLP export: OTLP export to http://127.0.0.1:${port}/v1/traces failed`);
    expect(said).toContain("dropping spans until it answers");
  });
});

export type { OtlpReceiver };
