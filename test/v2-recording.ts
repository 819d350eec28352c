/**
 * A recorded v2 conversation with the v2 fixture agent run in memory (test/fixtures/v2-reference-agent.mjs):
 * a turn (with its permission request), a cancelled turn, a resume with replay, both sides as frames.
 * For the tests of validate and the v2 fold.
 */
import { PassThrough } from "node:stream";
import { V2Connection, type V2Line } from "../lib/features/probe-v2/connection";
import { openSession, type Ctx } from "../lib/features/probe-v2/setup";
import { runTurn, textPrompt } from "../lib/features/probe-v2/turn";
import { FrameSequencer } from "../lib/protocol/frame-sequencer";
import type { Recording } from "../lib/features/library/validate-report";
import { serve } from "./fixtures/v2-reference-agent.mjs";

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

/** A recorded v2 conversation: a turn (with its permission request), a cancelled turn, a resume with replay, a batch. */
export async function recordV2(defects: readonly string[]): Promise<Recording> {
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
  // A batch: two requests and a notification on one line, answered by one array.
  conn.sendRaw(
    JSON.stringify([
      { jsonrpc: "2.0", id: "batch-a", method: "session/list", params: {} },
      { jsonrpc: "2.0", method: "_test/note", params: {} },
      { jsonrpc: "2.0", id: "batch-b", method: "session/list", params: {} },
    ]),
  );
  await conn.next(3000);
  await conn.drain(100);
  await line.close();
  const sequencer = new FrameSequencer({ wall: () => 0, mono: () => 0 });
  const frames = conn.transcript.map((e) => sequencer.line(e.dir === "out" ? "to-agent" : "from-agent", e.raw));
  return { file: "v2.jsonl", kind: "capture", frames, sides: new Set(["to-agent", "from-agent"]), stopped: false };
}
