import { readFileSync } from "node:fs";
import { createRequire } from "node:module";
import { describe, expect, it } from "vitest";
import { parseTranscript } from "../../contracts/transcript";
import { LineSplitter } from "../../protocol/ndjson";
import { createSchemaSet } from "../../protocol/schema-check";
import { createAppServerSchema, type AppServerSchemaFile } from "../../protocol/schema-app-server";
import appServerSchemaFile from "../../protocol/app-server-schema.json";
import type { FrameDirection } from "../../protocol/frame";
import { FrameSequencer } from "../../protocol/frame-sequencer";
import {
  captureSide,
  printable,
  recordingFromCapture,
  recordingFromTranscript,
  reportToJson,
  reportToJUnit,
  reportToText,
  validateRecording,
  validateReport,
  xmlText,
  type Recording,
} from "./validate-report";
import { APP_SERVER_SESSION, codexCaptureResequenced } from "../../../test/fixtures/codex-captures";

const require = createRequire(import.meta.url);
const read = (p: string): unknown => JSON.parse(readFileSync(require.resolve(p), "utf8"));
const schemas = createSchemaSet({
  stable: read("@agentclientprotocol/sdk/schema/v1/schema.json"),
  unstable: read("@agentclientprotocol/sdk/schema/v1/schema.unstable.json"),
});

const appServer = createAppServerSchema(appServerSchemaFile as AppServerSchemaFile);

const rpc = (m: Record<string, unknown>) => JSON.stringify({ jsonrpc: "2.0", ...m });
const header = JSON.stringify({
  type: "header",
  format: "acp-playground-transcript",
  version: "1.1",
  id: "t1",
  createdAt: "2026-01-01T00:00:00.000Z",
  playground: { version: "0" },
  agent: { profile: "p", command: "c", args: [], cwd: "/" },
});
const frame = (dir: string, raw: string, extra: Record<string, unknown> = {}) =>
  JSON.stringify({ type: "frame", seq: 0, ts: 1, dir, raw, kind: "notification", ...extra });
const transcript = (lines: string[], end = '{"type":"lifecycle","ts":2,"event":"exited","code":0,"signal":null}') => {
  const numbered = lines.map((l, i) => JSON.stringify({ ...(JSON.parse(l) as object), seq: i + 1 }));
  return parseTranscript(`${[header, ...numbered, end].join("\n")}\n`);
};

const good = () => [
  frame("to-agent", rpc({ id: 0, method: "initialize", params: { protocolVersion: 1, clientCapabilities: {} } })),
  frame("from-agent", rpc({ id: 0, result: { protocolVersion: 1, agentCapabilities: {} } })),
  frame("to-agent", rpc({ id: 1, method: "session/new", params: { cwd: "/", mcpServers: [] } })),
  frame("from-agent", rpc({ id: 1, result: { sessionId: "s1" } })),
  frame("to-agent", rpc({ id: 2, method: "session/prompt", params: { sessionId: "s1", prompt: [] } })),
  frame(
    "from-agent",
    rpc({
      method: "session/update",
      params: {
        sessionId: "s1",
        update: { sessionUpdate: "agent_message_chunk", content: { type: "text", text: "hi" } },
      },
    }),
  ),
  frame("from-agent", rpc({ id: 2, result: { stopReason: "end_turn" } })),
];

describe("validate", () => {
  it("calls a transcript that keeps every rule conformant, every requirement judged or skipped", () => {
    const v = validateRecording(recordingFromTranscript("ok.jsonl", transcript(good())), { acp: schemas });
    expect(v.reasons).toEqual([]);
    expect(v.verdict).toBe("CONFORMANT");
    expect(v.requirements.find((r) => r.id === "PG-REC-003")).toMatchObject({ status: "pass" });
    expect(v.requirements.find((r) => r.id === "PG-REC-008")).toMatchObject({ status: "skipped" });
    expect(v.requirements.every((r) => r.status !== "not tested")).toBe(true);
  });

  it("judges the raw line, not the kind the file claims, and checks the schema variant that defines it", () => {
    const lines = good();
    lines.splice(5, 1, frame("from-agent", "Loading...", { kind: "notification" }));
    lines.push(
      frame("from-agent", rpc({ method: "session/update", params: { sessionId: "s1", update: { sessionUpdate: 7 } } })),
    );
    const v = validateRecording(recordingFromTranscript("bad.jsonl", transcript(lines)), { acp: schemas });
    expect(v.verdict).toBe("NOT CONFORMANT");
    expect(v.reasons).toEqual(["PG-REC-001 fail", "PG-REC-003 fail"]);
    const failed = v.requirements.find((r) => r.id === "PG-REC-001")!;
    expect(failed.checks).toEqual([expect.objectContaining({ status: "fail", frames: [6] })]);
  });

  it("does not judge an open turn when the client stopped the agent or the recording goes on", () => {
    const open = good().slice(0, 5);
    const stopped = validateRecording(
      recordingFromTranscript("x", transcript(open, '{"type":"lifecycle","ts":2,"event":"stopping"}')),
    );
    expect(stopped.requirements.find((r) => r.id === "PG-REC-011")!.status).not.toBe("fail");
    const exited = validateRecording(recordingFromTranscript("x", transcript(open)));
    expect(exited.reasons).toContain("PG-REC-011 fail");
  });

  it("reads a raw capture of either side: which side by its methods, a line not UTF-8 kept and flagged", () => {
    const splitter = new LineSplitter();
    const bytes = Buffer.concat([
      Buffer.from(`${rpc({ method: "session/update", params: { sessionId: "s", update: {} } })}\r\n`),
      Buffer.from([0xff, 0x0a]),
      Buffer.from(`${rpc({ id: 3, result: {} })}\n`),
    ]);
    const lines = [...splitter.push(bytes), ...splitter.end()];
    expect(captureSide(lines)).toBe("from-agent");
    const client = [...new LineSplitter().push(Buffer.from(`${rpc({ id: 0, method: "initialize", params: {} })}\n`))];
    expect(captureSide(client)).toBe("to-agent");
    const v = validateRecording(recordingFromCapture("out.ndjson", lines, "from-agent"));
    expect(v.kind).toBe("capture");
    expect(v.reasons).toEqual(["PG-REC-001 fail"]);
    expect(v.requirements.find((r) => r.id === "PG-REC-001")!.checks[0]!.detail).toMatch(/not valid UTF-8/);
    // A response of a one-sided capture has no request in it: not an orphan.
    expect(v.requirements.find((r) => r.id === "PG-REC-004")!.status).toBe("skipped");
  });

  it("prints text without control characters, JSON, and JUnit XML that a hostile frame cannot break", () => {
    const hostile = frame("from-agent", '\u001b[31m</failure><x a="&">\u0000');
    const v = validateRecording(recordingFromTranscript("t\u001b.jsonl", transcript([...good(), hostile])), {
      acp: schemas,
    });
    const report = validateReport([v]);
    const text = reportToText(report);
    expect(text).not.toMatch(/[\u0000\u001b]/);
    expect(text).toContain("NOT CONFORMANT");
    expect(text).toMatch(/FAIL +PG-REC-001 MANDATORY/);
    expect(JSON.parse(reportToJson(report))).toMatchObject({
      format: "acp-playground-validate-report",
      verdict: "NOT CONFORMANT",
    });
    const xml = reportToJUnit(report);
    expect(xml).not.toMatch(/[\u0000\u001b]/);
    expect(xml).not.toContain("</failure><x");
    expect(xml.match(/<failure /g)).toHaveLength(1);
    expect(xml).toMatch(/<testsuites name="acp-playground validate" tests="11" failures="1"/);
    expect(xmlText("a\uD800b<")).toBe("a\uFFFDb&lt;");
    expect(printable("\u001b[2J")).toBe("\\u001b[2J");
  });
});

describe("an app-server transcript (Codex)", () => {
  const asHeader = JSON.stringify({
    ...(JSON.parse(header) as object),
    version: "1.2",
    agent: { profile: "codex", command: "codex", args: ["app-server"], cwd: "/ws", protocol: "codex-app-server" },
  });
  const text = [
    asHeader,
    ...APP_SERVER_SESSION.map(([dir, m], i) =>
      JSON.stringify({ type: "frame", seq: i + 1, ts: i + 1, dir, raw: JSON.stringify(m), kind: "notification" }),
    ),
    '{"type":"lifecycle","ts":99,"event":"exited","code":0,"signal":null}',
  ].join("\n");

  it("reads its lines by the header's protocol: frames without \"jsonrpc\" are valid; ACP's schema does not judge it", () => {
    const recording = recordingFromTranscript("codex.jsonl", parseTranscript(`${text}\n`));
    expect(recording.protocol).toBe("codex-app-server");
    expect(recording.frames.filter((f) => f.kind === "invalid")).toEqual([]);
    const verdict = validateRecording(recording, { acp: schemas });
    expect(verdict.requirements.filter((r) => r.status === "fail")).toEqual([]);
    expect(verdict.requirements.find((r) => r.id === "PG-REC-001")).toMatchObject({ status: "pass" });
    expect(verdict.requirements.find((r) => r.id === "PG-REC-003")?.checks[0]?.detail).toBe(
      "the Codex app-server schema was not loaded",
    );
  });

  const captured = (): Recording => {
    const frames = codexCaptureResequenced("patches");
    return { file: "codex.jsonl", kind: "transcript", frames, sides, stopped: true, protocol: "codex-app-server" };
  };
  const sides = new Set<FrameDirection>(["to-agent", "from-agent"]);

  it("judges its frames by the app-server schema (PG-REC-003): Codex's own pass, never by ACP's", () => {
    const recording = captured();
    const verdict = validateRecording(recording, { acp: schemas, appServer });
    const schemaReq = verdict.requirements.find((r) => r.id === "PG-REC-003")!;
    expect(schemaReq.status, JSON.stringify(schemaReq.checks).slice(0, 800)).toBe("pass");
    expect(schemaReq.checks[0]!.detail).toMatch(/^\d+ frames judged$/);
    expect(Number.parseInt(schemaReq.checks[0]!.detail, 10)).toBeGreaterThan(recording.frames.length / 2);
    expect(verdict.verdict).toBe("CONFORMANT");
  });

  it("a frame that breaks the app-server schema fails PG-REC-003, named with its frame", () => {
    const recording = captured();
    const start = recording.frames.find((f) => f.dir === "to-agent" && f.method === "turn/start")!;
    const m = start.message as { id: number; method: string; params: { threadId: string } };
    // turn/start without its input, and an approval answered with a decision Codex does not know.
    const bad = new FrameSequencer(undefined, "codex-app-server");
    const broken = bad.line(
      "to-agent",
      JSON.stringify({ id: m.id, method: m.method, params: { threadId: m.params.threadId } }),
    );
    recording.frames[recording.frames.indexOf(start)] = { ...broken, seq: start.seq, ts: start.ts };
    const verdict = validateRecording(recording, { appServer });
    const schemaReq = verdict.requirements.find((r) => r.id === "PG-REC-003")!;
    expect(schemaReq.status).toBe("fail");
    expect(schemaReq.checks).toEqual([
      expect.objectContaining({
        status: "fail",
        frames: [start.seq],
        detail: "turn/start: params.input: missing (required)",
      }),
    ]);
  });

  it("read as ACP (a header without the protocol), the same lines are invalid", () => {
    const acp = text.replace(',"protocol":"codex-app-server"', "");
    const verdict = validateRecording(recordingFromTranscript("codex.jsonl", parseTranscript(`${acp}\n`)), {
      acp: schemas,
    });
    expect(verdict.requirements.find((r) => r.id === "PG-REC-001")).toMatchObject({ status: "fail" });
  });
});
