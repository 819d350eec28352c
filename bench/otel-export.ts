/**
 * `export --otlp` of a generated transcript of `--frames` frames (prompt turns streaming chunks, a
 * tool call behind a permission per turn) to an in-process OTLP receiver that decodes every request
 * (test/otlp-receiver.ts). Baseline in the same run: reading the same file through the transcript
 * reader alone (what any export must do). Reports both times and the heap's peak over each, so
 * "bounded memory" is a figure: the export's peak should not grow with the file.
 */
import { closeSync, createReadStream, mkdtempSync, openSync, rmSync, statSync, writeSync } from "node:fs";
import { StringDecoder } from "node:string_decoder";
import { tmpdir } from "node:os";
import path from "node:path";
import { FrameSequencer } from "../lib/protocol/frame-sequencer";
import { frameEvent, serialize, type TranscriptHeader } from "../lib/contracts/transcript";
import { TranscriptReader } from "../lib/folds/transcript-stream";
import { exportRecording } from "../server/otel/export-recording";
import { OtlpSender } from "../server/otel/otlp-sender";
import { startOtlpReceiver } from "../test/otlp-receiver";
import { numberFlags, round } from "./harness";

const flags = numberFlags({ frames: 100_000, chunksPerTurn: 100 });

/** Written as it is made, so the generator itself holds no more than the export does. */
function generate(file: string, total: number, chunksPerTurn: number): void {
  let now = Date.parse("2026-11-22T02:35:12.331Z");
  const seq = new FrameSequencer({ wall: () => now, mono: () => now });
  const header: TranscriptHeader = {
    type: "header",
    format: "acp-playground-transcript",
    version: "1.2",
    id: "bench-otel",
    createdAt: new Date(now).toISOString(),
    playground: { version: "0.1.0" },
    agent: { profile: "bench", command: "/usr/bin/bench-agent", args: ["--acp"], cwd: "/tmp/bench-project" },
  };
  const fd = openSync(file, "w");
  let pending = serialize(header);
  const line = (dir: "to-agent" | "from-agent", message: object, gapMs = 3) => {
    now += gapMs;
    pending += serialize(frameEvent(seq.line(dir, JSON.stringify({ jsonrpc: "2.0", ...message }))));
    if (pending.length > 1 << 20) {
      writeSync(fd, pending);
      pending = "";
    }
  };
  const update = (u: object) =>
    line("from-agent", { method: "session/update", params: { sessionId: "s1", update: u } });
  let id = 1;
  for (let turn = 1; seq.seq < total - 6; turn++) {
    const promptId = ++id;
    line("to-agent", {
      id: promptId,
      method: "session/prompt",
      params: { sessionId: "s1", prompt: [{ type: "text", text: `Turn ${turn}` }] },
    });
    update({ sessionUpdate: "tool_call", toolCallId: `t${turn}`, title: `edit file ${turn}`, kind: "edit" });
    line("from-agent", {
      id: 1_000_000 + turn,
      method: "session/request_permission",
      params: { sessionId: "s1", toolCall: { toolCallId: `t${turn}` }, options: [] },
    });
    line("to-agent", { id: 1_000_000 + turn, result: { outcome: { outcome: "selected", optionId: "allow" } } }, 400);
    update({ sessionUpdate: "tool_call_update", toolCallId: `t${turn}`, status: "completed" });
    for (let c = 0; c < chunksPerTurn && seq.seq < total - 1; c++)
      update({ sessionUpdate: "agent_message_chunk", content: { type: "text", text: `Turn ${turn}: word ${c} ` } });
    line("from-agent", {
      id: promptId,
      result: { stopReason: "end_turn", usage: { inputTokens: 10, outputTokens: 5 } },
    });
  }
  writeSync(fd, pending);
  closeSync(fd);
}

/** Runs `work`, sampling the heap every 20 ms; the peak above the heap before it. */
async function measured<T>(work: () => Promise<T>): Promise<{ ms: number; heapPeakMiB: number; result: T }> {
  globalThis.gc?.();
  const before = process.memoryUsage().heapUsed;
  let peak = before;
  const timer = setInterval(() => (peak = Math.max(peak, process.memoryUsage().heapUsed)), 20);
  const started = performance.now();
  const result = await work();
  const ms = performance.now() - started;
  clearInterval(timer);
  peak = Math.max(peak, process.memoryUsage().heapUsed);
  return { ms: round(ms, 0), heapPeakMiB: round((peak - before) / 2 ** 20, 1), result };
}

async function readOnly(file: string): Promise<number> {
  const reader = new TranscriptReader();
  const decoder = new StringDecoder("utf8");
  let frames = 0;
  for await (const chunk of createReadStream(file, { highWaterMark: 1 << 20 }))
    frames += reader.push(decoder.write(chunk as Buffer)).frames.length;
  frames += reader.push(decoder.end()).frames.length + reader.end().frames.length;
  return frames;
}

const dir = mkdtempSync(path.join(tmpdir(), "acp-otel-bench-"));
const receiver = await startOtlpReceiver();
try {
  const file = path.join(dir, "big.jsonl");
  generate(file, flags.frames, flags.chunksPerTurn);
  const read = await measured(() => readOnly(file));
  const sender = new OtlpSender({ url: `${receiver.url}/v1/traces`, headers: {}, protocol: "http/protobuf" });
  const sent = await measured(() => exportRecording(file, sender, { linkBase: "http://localhost:3000" }));
  await sender.shutdown();
  console.log(
    JSON.stringify({
      benchmark: "otel-export",
      frames: read.result,
      jsonlMiB: round(statSync(file).size / 2 ** 20, 1),
      baselineRead: { ms: read.ms, heapPeakMiB: read.heapPeakMiB },
      export: {
        ms: sent.ms,
        heapPeakMiB: sent.heapPeakMiB,
        spans: sent.result.spans,
        traces: sent.result.turns,
        requests: receiver.requests.length,
        receivedSpans: receiver.spans.size,
      },
      exportOverRead: round(sent.ms / read.ms, 2),
    }),
  );
} finally {
  await receiver.close();
  rmSync(dir, { recursive: true, force: true });
}
