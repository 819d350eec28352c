/**
 * Relay overhead: the same synthetic agent read straight from its stdout
 * (baseline) and through the relay into a socket.io client, with transcript
 * recording on. Prints added latency at a fixed rate and the sustained rate ratio.
 */
import { execa } from "execa";
import { LineSplitter } from "../lib/ndjson";
import { benchAgent, connect, emit, numberFlags, onFrames, percentile, round, startRelayProcess } from "./harness";

const flags = numberFlags({ rate: 1000, seconds: 5, burst: 100_000 });
const now = () => performance.timeOrigin + performance.now();

interface Run {
  latencies: number[];
  framesPerSecond: number;
}

/** Baseline: the bench process reads the agent's stdout itself. */
async function direct(args: string[], count: number): Promise<Run> {
  const child = execa(process.execPath, [benchAgent, ...args], { stdin: "pipe", buffer: false, reject: false });
  const splitter = new LineSplitter();
  const latencies: number[] = [];
  let first = 0;
  let last = 0;
  const done = new Promise<void>((resolve) => {
    child.stdout!.on("data", (chunk: Buffer) => {
      const at = now();
      for (const e of splitter.push(chunk)) {
        if (e.type !== "line") continue;
        const m = JSON.parse(e.text);
        if (m.method === "bench/done") return resolve();
        latencies.push(at - m.params.t);
        if (!first) first = at;
        last = at;
      }
    });
  });
  child.stdin!.write("go\n");
  await done;
  child.kill();
  await child;
  return { latencies, framesPerSecond: (count - 1) / ((last - first) / 1000) };
}

/** Through the relay (in its own process), recording on, into a socket.io client. */
async function relayed(args: string[], count: number): Promise<Run> {
  const relay = await startRelayProcess({ bench: { command: process.execPath, args: [benchAgent, ...args] } });
  try {
    const socket = await connect(relay.url);
    const latencies: number[] = [];
    let first = 0;
    let last = 0;
    const done = new Promise<void>((resolve) => {
      onFrames(socket, (f, at) => {
        if (f.dir !== "from-agent") return;
        const m = JSON.parse(f.raw) as { method?: string; params?: { t: number } };
        if (m.method === "bench/done") return resolve();
        latencies.push(at - m.params!.t);
        if (!first) first = at;
        last = at;
      });
    });
    await emit(socket, "agent:start", { profile: "bench" });
    await emit(socket, "agent:send", { frame: "go" });
    await done;
    socket.close();
    return { latencies, framesPerSecond: (count - 1) / ((last - first) / 1000) };
  } finally {
    await relay.close();
  }
}

/** Steady state: the first half second of frames (JIT warm-up, socket set-up) is left out, on both sides. */
const stats = (xs: number[]) => {
  const s = xs.slice(Math.floor(flags.rate / 2)).sort((a, b) => a - b);
  return { p50: percentile(s, 50), p99: percentile(s, 99) };
};

const count = flags.rate * flags.seconds;
const rateArgs = ["rate", String(flags.rate), String(count)];
const baseRate = stats((await direct(rateArgs, count)).latencies);
const relayRate = stats((await relayed(rateArgs, count)).latencies);
const burstArgs = ["burst", String(flags.burst)];
const baseBurst = await direct(burstArgs, flags.burst);
const relayBurst = await relayed(burstArgs, flags.burst);

const result = {
  benchmark: "relay-overhead",
  rate: flags.rate,
  frames: count,
  directLatencyMs: { p50: round(baseRate.p50, 3), p99: round(baseRate.p99, 3) },
  relayLatencyMs: { p50: round(relayRate.p50, 3), p99: round(relayRate.p99, 3) },
  addedLatencyMs: { p50: round(relayRate.p50 - baseRate.p50, 3), p99: round(relayRate.p99 - baseRate.p99, 3) },
  burstFrames: flags.burst,
  directFramesPerSecond: Math.round(baseBurst.framesPerSecond),
  relayFramesPerSecond: Math.round(relayBurst.framesPerSecond),
  rateRatio: round(relayBurst.framesPerSecond / baseBurst.framesPerSecond, 3),
  targets: { addedP50Ms: 0.5, addedP99Ms: 2, rateRatio: 0.5 },
};
console.log(JSON.stringify(result, null, 2));
