/**
 * The synthetic agent's stream (test/fixtures/bench-agent.mjs) as the benchmarks measure it: each
 * frame's latency from the agent's write to its receipt, read from the agent's stdout (the
 * baseline) or from a relay's socket; the spread of a figure over runs.
 */
import { execa } from "execa";
import type { Socket } from "socket.io-client";
import { LineSplitter } from "../lib/protocol/ndjson";
import { benchAgent, connect, emit, onFrames, percentile, round } from "./harness";

/** The clock the bench agent stamps its frames with (ms since the epoch, sub-ms precision). */
export const now = () => performance.timeOrigin + performance.now();

/** What a receiver of one agent's stream sees: latencies, arrival times, and the agent's end. */
export class Receiver {
  readonly latencies: number[] = [];
  private readonly arrivals: number[] = [];
  readonly done: Promise<void>;
  private finish!: () => void;

  constructor() {
    this.done = new Promise((resolve) => (this.finish = resolve));
  }

  /** One agent line as received at `at`. */
  line(raw: string, at: number): void {
    const m = JSON.parse(raw) as { method?: string; params?: { t?: number } };
    if (m.method === "bench/done") return this.finish();
    if (m.params?.t === undefined) return;
    this.latencies.push(at - m.params.t);
    this.arrivals.push(at);
  }

  /** Steady state at `rate` frames a second: the first half second (start-up, JIT) left out. */
  steady(rate: number): number[] {
    return this.latencies.slice(Math.floor(rate / 2));
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

export type Pair = { p50: number; p99: number };
/** The 50th and 99th percentiles of some latencies. */
export function pair(latencies: number[]): Pair {
  const s = [...latencies].sort((a, b) => a - b);
  return { p50: percentile(s, 50), p99: percentile(s, 99) };
}

/** Baseline: `count` bench agents (`args`) read by this process from their stdout, all started at once. */
export async function direct(args: string[], count = 1): Promise<Receiver[]> {
  const children = Array.from({ length: count }, () =>
    execa(process.execPath, [benchAgent, ...args], { stdin: "pipe", buffer: false, reject: false }),
  );
  const receivers = children.map((child) => {
    const receiver = new Receiver();
    const splitter = new LineSplitter();
    child.stdout.on("data", (chunk: Buffer) => {
      const at = now();
      for (const e of splitter.push(chunk)) if (e.type === "line") receiver.line(e.text, at);
    });
    return receiver;
  });
  for (const child of children) child.stdin.write("go\n");
  await Promise.all(receivers.map((r) => r.done));
  for (const child of children) child.kill();
  await Promise.all(children);
  return receivers;
}

export interface StreamSession {
  socket: Socket;
  receiver: Receiver;
  transcriptId: string;
  /** Tells the agent to start streaming. */
  go: () => Promise<void>;
}

/** A session of the bench agent's `profile` on the relay at `url`, its frames received; it streams on `go()`. */
export async function streamSession(url: string, profile: string): Promise<StreamSession> {
  const socket = await connect(url);
  const receiver = new Receiver();
  onFrames(socket, (f, at) => {
    if (f.dir === "from-agent") receiver.line(f.raw, at);
  });
  let agent: { transcriptId: string };
  try {
    ({ agent } = (await emit(socket, "agent:start", { profile })) as { agent: { transcriptId: string } });
  } catch (err) {
    socket.close();
    throw err;
  }
  return {
    socket,
    receiver,
    transcriptId: agent.transcriptId,
    go: async () => void (await emit(socket, "agent:send", { frame: "go" })),
  };
}

/** min, median and max of one figure over the runs. */
export function spread(xs: number[], digits = 3) {
  const s = [...xs].sort((a, b) => a - b);
  return {
    min: round(s[0]!, digits),
    median: round(s[Math.floor((s.length - 1) / 2)]!, digits),
    max: round(s.at(-1)!, digits),
  };
}
