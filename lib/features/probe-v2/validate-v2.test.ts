/**
 * `validate` on v2 recordings: both sides of a v2 conversation with the reference agent (the
 * probe's own transcript of one turn, cancel and resume, run in memory) are judged by the v2 schema
 * once initialize negotiated version 2, and pass; the broken agent's recording fails the schema
 * requirement (PG-REC-003) on its malformed updates.
 */
import { readFileSync } from "node:fs";
import { createRequire } from "node:module";
import { PassThrough } from "node:stream";
import { describe, expect, it } from "vitest";
import { DEFAULT_DEFECTS } from "@/test/fixtures/v2-broken-agent.mjs";
import { serve } from "@/test/fixtures/v2-reference-agent.mjs";
import { FrameSequencer } from "../../protocol/frame-sequencer";
import { createSchemaSet } from "../../protocol/schema-check";
import { validateRecording, type Recording } from "../validate-report";
import { V2Connection, type V2Line } from "./connection";
import { openSession, type Ctx } from "./setup";
import { runTurn, textPrompt } from "./turn";

const require = createRequire(import.meta.url);
const read = (p: string): unknown => JSON.parse(readFileSync(require.resolve(p), "utf8"));
const schemas = createSchemaSet({
  stable: read("@agentclientprotocol/sdk/schema/v1/schema.json"),
  unstable: read("@agentclientprotocol/sdk/schema/v1/schema.unstable.json"),
  v2: read("@agentclientprotocol/sdk/schema/v2/schema.unstable.json"),
});

function memoryLine(defects: readonly string[]): V2Line {
  const input = new PassThrough();
  const output = new PassThrough();
  const agent = serve({ input, output, defects, delayMs: 1 });
  let onLine: (l: string) => void = () => {};
  let buf = "";
  output.on("data", (chunk: Buffer) => {
    buf += chunk.toString("utf8");
    for (let nl = buf.indexOf("\n"); nl >= 0; nl = buf.indexOf("\n")) {
      onLine(buf.slice(0, nl));
      buf = buf.slice(nl + 1);
    }
  });
  return {
    send: (l) => void input.write(`${l}\n`),
    onLine: (f) => (onLine = f),
    onClose: () => {},
    close: () => {
      input.end();
      agent.close();
      return Promise.resolve();
    },
  };
}

/** A recorded v2 conversation: a turn (with its permission request), a cancelled turn, a resume with replay. */
async function record(defects: readonly string[]): Promise<Recording> {
  const line = memoryLine(defects);
  const conn = new V2Connection(line);
  const ctx: Ctx = {
    connect: () => Promise.resolve(line),
    cwd: "/tmp/v2-validate",
    timeoutMs: 3000,
    quietMs: 300,
    clientInfo: { name: "test", version: "1" },
  };
  const sessionId = await openSession(ctx, conn);
  if (!sessionId) throw new Error("no session");
  await runTurn(conn, sessionId, textPrompt("hello"), { timeoutMs: 3000 });
  await runTurn(conn, sessionId, textPrompt("stop"), {
    timeoutMs: 3000,
    trigger: () => (conn.notify("session/cancel", { sessionId }), undefined),
  });
  await conn.call("session/resume", { sessionId, cwd: ctx.cwd, replayFrom: { type: "start" } }, 3000);
  await conn.drain(100);
  await line.close();
  const sequencer = new FrameSequencer({ wall: () => 0, mono: () => 0 });
  const frames = conn.transcript.map((e) => sequencer.line(e.dir === "out" ? "to-agent" : "from-agent", e.raw));
  return { file: "v2.jsonl", kind: "capture", frames, sides: new Set(["to-agent", "from-agent"]), stopped: false };
}

const failures = (r: Recording) =>
  validateRecording(r, { acp: schemas })
    .requirements.flatMap((q) => q.checks)
    .filter((c) => c.status === "fail");

describe("validate on v2 recordings", () => {
  it("judges the reference agent's frames by the v2 schema and passes them", async () => {
    const recording = await record([]);
    expect(recording.frames.length).toBeGreaterThan(20);
    expect(failures(recording)).toEqual([]);
  }, 30_000);

  it("fails the broken agent's malformed updates on PG-REC-003", async () => {
    const details = failures(await record(DEFAULT_DEFECTS))
      .filter((c) => c.requirement === "PG-REC-003")
      .map((c) => c.detail);
    expect(details.join("\n")).toMatch(/messageId/);
    expect(details.join("\n")).toMatch(/planId/);
  }, 30_000);
});
