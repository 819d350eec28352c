/**
 * Relay overhead: the same synthetic agent read straight from its stdout
 * (baseline) and through the relay into a socket.io client, with transcript
 * recording on. Prints added latency at a fixed rate and the sustained rate
 * ratio. A bare forwarder (bench/bare-forwarder.ts) measured the same way in
 * the same run shows what this machine gives a relay that does nothing else.
 */
import path from "node:path";
import { execa } from "execa";
import { io } from "socket.io-client";
import { LineSplitter } from "../lib/protocol/ndjson";
import {
  benchAgent,
  connect,
  emit,
  numberFlags,
  onFrames,
  percentile,
  root,
  round,
  startRelayProcess,
} from "./harness";

const flags = numberFlags({ rate: 1000, seconds: 5, burst: 200_000 });
const now = () => performance.timeOrigin + performance.now();

/** Collects what a receiver sees: latencies, and arrival times for the rate. */
class Receiver {
  readonly latencies: number[] = [];
  private readonly arrivals: number[] = [];
  readonly done: Promise<void>;
  private finish!: () => void;

  constructor() {
    this.done = new Promise((resolve) => (this.finish = resolve));
  }

  /** One agent line as received at `at`. */
  line(raw: string, at: number): void {
    const m = JSON.parse(raw) as { method?: string; params?: { t: number } };
    if (m.method === "bench/done") return this.finish();
    this.latencies.push(at - m.params!.t);
    this.arrivals.push(at);
  }

  /**
   * Frames per second in steady state: the first tenth (JIT warm-up) is left
   * out. Frames arrive in batches, so the count starts after the batch the cut
   * falls in; NaN when the burst was too short to span two batches.
   */
  get framesPerSecond(): number {
    const start = this.arrivals[Math.floor(this.arrivals.length / 10)]!;
    const after = this.arrivals.length - this.arrivals.findLastIndex((at) => at <= start) - 1;
    return after > 0 ? after / ((this.arrivals.at(-1)! - start) / 1000) : NaN;
  }
}

/** Baseline: the bench process reads the agent's stdout itself. */
async function direct(args: string[]): Promise<Receiver> {
  const child = execa(process.execPath, [benchAgent, ...args], { stdin: "pipe", buffer: false, reject: false });
  const splitter = new LineSplitter();
  const receiver = new Receiver();
  child.stdout.on("data", (chunk: Buffer) => {
    const at = now();
    for (const e of splitter.push(chunk)) if (e.type === "line") receiver.line(e.text, at);
  });
  child.stdin.write("go\n");
  await receiver.done;
  child.kill();
  await child;
  return receiver;
}

/** Through the relay (in its own process), recording on, into a socket.io client. */
async function relayed(args: string[]): Promise<Receiver> {
  const relay = await startRelayProcess({ bench: { command: process.execPath, args: [benchAgent, ...args] } });
  try {
    const socket = await connect(relay.url);
    const receiver = new Receiver();
    onFrames(socket, (f, at) => {
      if (f.dir === "from-agent") receiver.line(f.raw, at);
    });
    await emit(socket, "agent:start", { profile: "bench" });
    await emit(socket, "agent:send", { frame: "go" });
    await receiver.done;
    socket.close();
    return receiver;
  } finally {
    await relay.close();
  }
}

/** Through a bare forwarder: one socket.io event per line, nothing else. */
async function forwarded(args: string[]): Promise<Receiver> {
  const child = execa(
    process.execPath,
    ["--import", "tsx", path.join(root, "bench/bare-forwarder.ts"), process.execPath, benchAgent, ...args],
    { reject: false },
  );
  try {
    const url = await new Promise<string>((resolve, reject) => {
      child.stdout.on("data", (d: Buffer) => {
        const m = /http:\/\/127\.0\.0\.1:\d+/.exec(String(d));
        if (m) resolve(m[0]);
      });
      child.once("exit", () => reject(new Error("bare forwarder exited early")));
    });
    const socket = io(url, { transports: ["websocket"], reconnection: false, forceNew: true });
    const receiver = new Receiver();
    socket.on("line", (raw: string) => receiver.line(raw, now()));
    socket.emit("go");
    await receiver.done;
    socket.close();
    return receiver;
  } finally {
    child.kill("SIGTERM");
    await child;
  }
}

/** Steady state: the first half second of frames (JIT warm-up, socket set-up) is left out, on both sides. */
const stats = (xs: number[]) => {
  const s = xs.slice(Math.floor(flags.rate / 2)).sort((a, b) => a - b);
  return { p50: percentile(s, 50), p99: percentile(s, 99) };
};

const rateArgs = ["rate", String(flags.rate), String(flags.rate * flags.seconds)];
const baseRate = stats((await direct(rateArgs)).latencies);
const relayRate = stats((await relayed(rateArgs)).latencies);
const bareRate = stats((await forwarded(rateArgs)).latencies);
const burstArgs = ["burst", String(flags.burst)];
const baseBurst = (await direct(burstArgs)).framesPerSecond;
const relayBurst = (await relayed(burstArgs)).framesPerSecond;
const bareBurst = (await forwarded(burstArgs)).framesPerSecond;

const result = {
  benchmark: "relay-overhead",
  rate: flags.rate,
  frames: flags.rate * flags.seconds,
  directLatencyMs: { p50: round(baseRate.p50, 3), p99: round(baseRate.p99, 3) },
  relayLatencyMs: { p50: round(relayRate.p50, 3), p99: round(relayRate.p99, 3) },
  addedLatencyMs: { p50: round(relayRate.p50 - baseRate.p50, 3), p99: round(relayRate.p99 - baseRate.p99, 3) },
  bareForwarderAddedLatencyMs: {
    p50: round(bareRate.p50 - baseRate.p50, 3),
    p99: round(bareRate.p99 - baseRate.p99, 3),
  },
  burstFrames: flags.burst,
  directFramesPerSecond: Math.round(baseBurst),
  relayFramesPerSecond: Math.round(relayBurst),
  bareForwarderFramesPerSecond: Math.round(bareBurst),
  rateRatio: round(relayBurst / baseBurst, 3),
  bareForwarderRatio: round(bareBurst / baseBurst, 3),
  targets: { addedP50Ms: 0.5, addedP99Ms: 2, rateRatio: 0.5 },
};
console.log(JSON.stringify(result, null, 2));
