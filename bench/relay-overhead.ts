/**
 * Relay overhead: the same synthetic agent read straight from its stdout
 * (baseline) and through the relay into a socket.io client, recording on, with
 * the search index on and off, in the same run. Prints added latency at a fixed
 * rate, the relay's CPU time per frame (read from /proc: steadier than latency
 * on a loaded machine), a large recording's latency (8 KiB frames, which keep the
 * index busy), and the sustained rate ratio. A bare forwarder
 * (bench/bare-forwarder.ts) measured the same way shows what this machine gives a
 * relay that does nothing else. `--runs` rounds, each measuring every side in
 * turn; per figure the min, median and max over the rounds.
 */
import path from "node:path";
import { execa } from "execa";
import { io } from "socket.io-client";
import { benchAgent, numberFlags, root, round, startRelayProcess } from "./harness";
import { cpuMs } from "./proc-cpu";
import { direct, now, pair, Receiver, spread, streamSession, type Pair } from "./streams";

const flags = numberFlags({ rate: 1000, seconds: 5, burst: 200_000, runs: 3, largeSeconds: 10, largeKiB: 8 });
const LARGE_RATE = 200;

/** CPU time (ms) of a process's threads: all of them, and its main thread alone. */
const cpuBoth = (pid: number) => ({ all: cpuMs(pid, true), main: cpuMs(pid) });
/** Baseline: the bench process reads the agent's stdout itself. */
const directOne = async (args: string[]): Promise<Receiver> => (await direct(args))[0]!;

interface Relayed {
  receiver: Receiver;
  /** The relay's CPU time over the stream, µs per frame: all threads (the index's included), main thread. */
  cpuUsPerFrame: { all: number; main: number };
}

/** Through the relay (in its own process), recording on, into a socket.io client. */
async function relayed(args: string[], index: boolean): Promise<Relayed> {
  const relay = await startRelayProcess(
    { bench: { command: process.execPath, args: [benchAgent, ...args] } },
    { ACP_PLAYGROUND_SEARCH_INDEX: index ? "1" : "0" },
  );
  try {
    const { socket, receiver, go } = await streamSession(relay.url, "bench");
    const before = cpuBoth(relay.pid);
    await go();
    await receiver.done;
    // The index's share of the work comes after the frames (it is told every 250 ms): let it finish.
    if (index) await new Promise((r) => setTimeout(r, 1_000));
    const after = cpuBoth(relay.pid);
    socket.close();
    const frames = receiver.latencies.length;
    const perFrame = (ms: number) => round((ms * 1000) / frames, 1);
    return {
      receiver,
      cpuUsPerFrame: { all: perFrame(after.all - before.all), main: perFrame(after.main - before.main) },
    };
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
const stats = (r: Receiver, rate: number) => pair(r.steady(rate));

const minus = (a: Pair, b: Pair): Pair => ({ p50: a.p50 - b.p50, p99: a.p99 - b.p99 });
const spreadPairs = (xs: Pair[]) => ({ p50: spread(xs.map((x) => x.p50)), p99: spread(xs.map((x) => x.p99)) });

const rateArgs = ["rate", String(flags.rate), String(flags.rate * flags.seconds)];
const largeCount = LARGE_RATE * flags.largeSeconds;
const largeArgs = ["rate", String(LARGE_RATE), String(largeCount), String(flags.largeKiB * 1024)];
const burstArgs = ["burst", String(flags.burst)];

const rounds: Array<{
  direct: Pair;
  added: { indexOn: Pair; indexOff: Pair; bareForwarder: Pair };
  cpuUsPerFrame: { indexOn: Relayed["cpuUsPerFrame"]; indexOff: Relayed["cpuUsPerFrame"] };
  large: {
    indexOn: Pair;
    indexOff: Pair;
    cpuUsPerFrame: { indexOn: Relayed["cpuUsPerFrame"]; indexOff: Relayed["cpuUsPerFrame"] };
  };
  framesPerSecond: { direct: number; indexOn: number; indexOff: number; bareForwarder: number };
}> = [];

for (let run = 0; run < flags.runs; run++) {
  console.error(`run ${run + 1} of ${flags.runs}`);
  const base = stats(await directOne(rateArgs), flags.rate);
  const on = await relayed(rateArgs, true);
  const off = await relayed(rateArgs, false);
  const bare = stats(await forwarded(rateArgs), flags.rate);
  const largeOn = flags.largeSeconds > 0 ? await relayed(largeArgs, true) : undefined;
  const largeOff = flags.largeSeconds > 0 ? await relayed(largeArgs, false) : undefined;
  const large = (r: Relayed | undefined) => (r ? stats(r.receiver, LARGE_RATE) : { p50: NaN, p99: NaN });
  const noCpu = { all: NaN, main: NaN };
  rounds.push({
    direct: base,
    added: {
      indexOn: minus(stats(on.receiver, flags.rate), base),
      indexOff: minus(stats(off.receiver, flags.rate), base),
      bareForwarder: minus(bare, base),
    },
    cpuUsPerFrame: { indexOn: on.cpuUsPerFrame, indexOff: off.cpuUsPerFrame },
    large: {
      indexOn: large(largeOn),
      indexOff: large(largeOff),
      cpuUsPerFrame: { indexOn: largeOn?.cpuUsPerFrame ?? noCpu, indexOff: largeOff?.cpuUsPerFrame ?? noCpu },
    },
    framesPerSecond: {
      direct: (await directOne(burstArgs)).framesPerSecond,
      indexOn: (await relayed(burstArgs, true)).receiver.framesPerSecond,
      indexOff: (await relayed(burstArgs, false)).receiver.framesPerSecond,
      bareForwarder: (await forwarded(burstArgs)).framesPerSecond,
    },
  });
}

const median = (xs: number[]) => spread(xs).median;
const cpuSpread = (pick: (r: (typeof rounds)[number]) => Relayed["cpuUsPerFrame"]) => ({
  all: spread(
    rounds.map((r) => pick(r).all),
    1,
  ),
  main: spread(
    rounds.map((r) => pick(r).main),
    1,
  ),
});
const fps = (pick: (r: (typeof rounds)[number]) => number) => spread(rounds.map(pick), 0);
const directMedian = { p50: median(rounds.map((r) => r.direct.p50)), p99: median(rounds.map((r) => r.direct.p99)) };
const addedOn = spreadPairs(rounds.map((r) => r.added.indexOn));
const addedOff = spreadPairs(rounds.map((r) => r.added.indexOff));
const addedBare = spreadPairs(rounds.map((r) => r.added.bareForwarder));
const burst = {
  direct: fps((r) => r.framesPerSecond.direct),
  indexOn: fps((r) => r.framesPerSecond.indexOn),
  indexOff: fps((r) => r.framesPerSecond.indexOff),
  bareForwarder: fps((r) => r.framesPerSecond.bareForwarder),
};

const result = {
  benchmark: "relay-overhead",
  rate: flags.rate,
  frames: flags.rate * flags.seconds,
  runs: flags.runs,
  // Medians over the runs; the index is on (as by default) unless a figure says otherwise.
  directLatencyMs: { p50: round(directMedian.p50, 3), p99: round(directMedian.p99, 3) },
  relayLatencyMs: {
    p50: round(directMedian.p50 + addedOn.p50.median, 3),
    p99: round(directMedian.p99 + addedOn.p99.median, 3),
  },
  addedLatencyMs: { p50: addedOn.p50.median, p99: addedOn.p99.median },
  bareForwarderAddedLatencyMs: { p50: addedBare.p50.median, p99: addedBare.p99.median },
  // min / median / max over the runs, side by side.
  added: { indexOn: addedOn, indexOff: addedOff, bareForwarder: addedBare },
  cpuUsPerFrame: {
    indexOn: cpuSpread((r) => r.cpuUsPerFrame.indexOn),
    indexOff: cpuSpread((r) => r.cpuUsPerFrame.indexOff),
  },
  largeRecording: {
    frameKiB: flags.largeKiB,
    rate: LARGE_RATE,
    frames: largeCount,
    latencyMs: {
      indexOn: spreadPairs(rounds.map((r) => r.large.indexOn)),
      indexOff: spreadPairs(rounds.map((r) => r.large.indexOff)),
    },
    cpuUsPerFrame: {
      indexOn: cpuSpread((r) => r.large.cpuUsPerFrame.indexOn),
      indexOff: cpuSpread((r) => r.large.cpuUsPerFrame.indexOff),
    },
  },
  burstFrames: flags.burst,
  framesPerSecond: burst,
  directFramesPerSecond: burst.direct.median,
  relayFramesPerSecond: burst.indexOn.median,
  bareForwarderFramesPerSecond: burst.bareForwarder.median,
  rateRatio: round(burst.indexOn.median / burst.direct.median, 3),
  rateRatioIndexOff: round(burst.indexOff.median / burst.direct.median, 3),
  bareForwarderRatio: round(burst.bareForwarder.median / burst.direct.median, 3),
  targets: { addedP50Ms: 0.25, addedP99Ms: 2, largeRecordingP99OverIndexOffMs: 1, rateRatio: 0.5 },
};
console.log(JSON.stringify(result, null, 2));
