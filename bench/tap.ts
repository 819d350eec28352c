/**
 * Tap overhead: the added latency of `acp-playground tap` on the editor-agent
 * path. The synthetic agent writes frames carrying their send time at a fixed
 * rate; the "editor" (this process) reads them straight from the agent's
 * stdout (direct pipe) and then through the tap, in the same run: once with no
 * relay (the tap records on its own), once copying to a relay.
 */
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { execa } from "execa";
import { LineSplitter } from "../lib/protocol/ndjson";
import { benchAgent, numberFlags, percentile, root, round, startRelayProcess } from "./harness";

const flags = numberFlags({ rate: 1000, seconds: 10 });
const count = Math.round(flags.rate * flags.seconds);
const now = () => performance.timeOrigin + performance.now();
const bin = path.join(root, "bin/acp-playground.mjs");

/** One run: latency of every frame from the agent's write to the editor's read, the first tenth left out. */
async function measure(command: string, args: string[], env: Record<string, string> = {}): Promise<number[]> {
  const child = execa(command, args, { cwd: root, env, buffer: false, reject: false, encoding: "buffer" });
  const splitter = new LineSplitter();
  const latencies: number[] = [];
  const done = new Promise<void>((resolve) => {
    child.stdout.on("data", (chunk: Buffer) => {
      const at = now();
      for (const e of splitter.push(chunk)) {
        if (e.type !== "line") continue;
        const m = JSON.parse(e.text) as { method?: string; params?: { t: number } };
        if (m.method === "bench/done") resolve();
        else if (m.params?.t !== undefined) latencies.push(at - m.params.t);
      }
    });
  });
  child.stdin.write("go\n");
  await done;
  child.stdin.end();
  await child;
  return latencies.slice(Math.floor(latencies.length / 10)).sort((a, b) => a - b);
}

const stats = (sorted: number[]) => ({ p50: round(percentile(sorted, 50), 3), p99: round(percentile(sorted, 99), 3) });
const added = (tap: number[], base: number[]) => ({
  p50: round(percentile(tap, 50) - percentile(base, 50), 3),
  p99: round(percentile(tap, 99) - percentile(base, 99), 3),
});

const agent = [benchAgent, "rate", String(flags.rate), String(count)];
const data = mkdtempSync(path.join(tmpdir(), "acp-bench-tap-"));
const relay = await startRelayProcess({});
try {
  const noRelay = { ACP_PLAYGROUND_DATA: data, ACP_PLAYGROUND_URL: "", ACP_PLAYGROUND_TOKEN: "" };
  const direct = await measure(process.execPath, agent);
  const tap = await measure(process.execPath, [bin, "tap", "--", process.execPath, ...agent], noRelay);
  const tapRelay = await measure(process.execPath, [bin, "tap", "--", process.execPath, ...agent], {
    ...noRelay,
    ACP_PLAYGROUND_URL: relay.url,
    ACP_PLAYGROUND_TOKEN: "bench",
  });
  console.log(
    JSON.stringify(
      {
        rate: flags.rate,
        frames: count,
        measured: direct.length,
        directLatencyMs: stats(direct),
        tapLatencyMs: stats(tap),
        addedLatencyMs: added(tap, direct),
        tapWithRelayLatencyMs: stats(tapRelay),
        addedWithRelayLatencyMs: added(tapRelay, direct),
      },
      null,
      2,
    ),
  );
} finally {
  await relay.close();
  rmSync(data, { recursive: true, force: true });
}
