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
import { TranscriptReader } from "../lib/folds/transcript-stream";
import { exportRecording } from "../server/otel/export-recording";
import { OtlpSender } from "../server/otel/otlp-sender";
import { startOtlpReceiver } from "../test/otlp-receiver";
import { numberFlags, round } from "./harness";
import { permissionTurns } from "./permission-turns";

const flags = numberFlags({ frames: 100_000, chunksPerTurn: 100 });

/** Written as it is made, so the generator itself holds no more than the export does. */
function generate(file: string, frames: number, chunksPerTurn: number): void {
  const fd = openSync(file, "w");
  let pending = "";
  for (const line of permissionTurns("bench-otel", frames, chunksPerTurn)) {
    pending += line;
    if (pending.length > 1 << 20) {
      writeSync(fd, pending);
      pending = "";
    }
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
