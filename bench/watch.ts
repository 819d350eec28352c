/**
 * Watch links: what fifty watchers of one session add to its owner's frames. The synthetic agent
 * streams `session/update` frames carrying their send time at `--rate` for `--seconds`, through the
 * relay (its own process, recording on) to the owner's socket; the same stream with no watch link
 * (baseline) and with a link watched by `--watchers` sockets (another process, so their parsing
 * does not share the owner's event loop), in turn, `--runs` rounds. Prints the owner's latency
 * p50/p99 and the relay main thread's CPU time per frame of each side, what the watchers add, and that
 * every watcher got every frame.
 */
import { execa } from "execa";
import { io, type Socket } from "socket.io-client";
import { benchAgent, emit, numberFlags, onFrames, round, startRelayProcess } from "./harness";
import { cpuMs } from "./proc-cpu";
import { pair, Receiver } from "./streams";

const flags = numberFlags({ rate: 1000, seconds: 5, watchers: 50, runs: 3 });
const COUNT = flags.rate * flags.seconds;

/** `--child URL TOKEN N`: the watchers' process. Prints "ready", then, once each saw the last frame, their counts. */
if (process.argv[2] === "--child") {
  const [url, token, n] = process.argv.slice(3) as [string, string, string];
  const counts: number[] = [];
  const sockets: Socket[] = [];
  await Promise.all(
    Array.from({ length: Number(n) }, async (_, i) => {
      counts[i] = 0;
      const socket = io(url, {
        auth: { watchLink: token },
        transports: ["websocket"],
        reconnection: false,
        forceNew: true,
      });
      sockets.push(socket);
      socket.on("frames", (frames: { raw: string; dir: string }[]) => {
        // Counted only: on this machine the watchers' own work competes with the relay for the same cores.
        for (const f of frames) if (f.dir === "from-agent" && f.raw.includes('"session/update"')) counts[i]!++;
        if (counts.every((c) => c >= COUNT)) {
          console.log(JSON.stringify(counts));
          for (const s of sockets) s.close();
        }
      });
      await new Promise<void>((resolve, reject) => {
        socket.once("agent:attached", () => resolve());
        socket.once("connect_error", reject);
      });
    }),
  );
  console.log("ready");
} else {
  await main();
}

interface Side {
  p50: number;
  p99: number;
  /** The relay's main thread's CPU time over the stream, per frame (µs): steadier than latency here. */
  cpuUsPerFrame: number;
  everyWatcherGotAll: boolean | null;
}

async function side(watchers: number): Promise<Side> {
  const relay = await startRelayProcess({
    bench: { command: process.execPath, args: [benchAgent, "rate", String(flags.rate), String(COUNT)] },
  });
  try {
    // The owner names its browser session, as a page does (relay:hello would come before connect() resolves).
    const clientId = "bench-owner";
    const owner = io(relay.url, {
      auth: { token: "bench", clientId },
      transports: ["websocket"],
      reconnection: false,
      forceNew: true,
    });
    await new Promise<void>((resolve, reject) => {
      owner.once("connect", () => resolve());
      owner.once("connect_error", reject);
    });
    const receiver = new Receiver();
    onFrames(owner, (f, at) => {
      if (f.dir === "from-agent") receiver.line(f.raw, at);
    });
    await emit(owner, "agent:start", { profile: "bench" });
    let child: ReturnType<typeof execa> | undefined;
    let counts: Promise<number[]> | undefined;
    if (watchers > 0) {
      const res = await fetch(`${relay.url}/api/watch`, {
        method: "POST",
        headers: { authorization: "Bearer bench", "content-type": "application/json" },
        body: JSON.stringify({ clientId }),
      });
      const { token } = (await res.json()) as { token: string };
      child = execa(
        process.execPath,
        [
          "--import",
          "tsx",
          import.meta.filename,
          "--child",
          relay.url,
          token,
          String(watchers),
          "--rate",
          String(flags.rate),
          "--seconds",
          String(flags.seconds),
        ],
        { reject: false, buffer: false, stderr: "inherit" },
      );
      let out = "";
      const ready = new Promise<void>((resolve) =>
        child!.stdout!.on("data", (d: Buffer) => {
          out += String(d);
          if (out.includes("ready")) resolve();
        }),
      );
      counts = new Promise((resolve) =>
        child!.stdout!.on("data", () => {
          const line = out.split("\n").find((l) => l.startsWith("["));
          if (line) resolve(JSON.parse(line) as number[]);
        }),
      );
      await ready;
    }
    const cpuBefore = cpuMs(relay.pid);
    await emit(owner, "agent:send", { frame: "go" });
    await receiver.done;
    // The last batch to the watchers leaves within WATCH_BATCH_MS.
    await new Promise((r) => setTimeout(r, 100));
    const cpuUsPerFrame = round(((cpuMs(relay.pid) - cpuBefore) * 1000) / COUNT, 1);
    const got = counts
      ? await Promise.race([counts, new Promise<number[]>((r) => setTimeout(() => r([]), 30_000))])
      : undefined;
    child?.kill();
    await child;
    owner.close();
    // The first half second (JIT warm-up, socket set-up) is left out.
    return {
      ...pair(receiver.steady(flags.rate)),
      cpuUsPerFrame,
      everyWatcherGotAll: got ? got.length === watchers && got.every((c) => c === COUNT) : null,
    };
  } finally {
    await relay.close();
  }
}

async function main(): Promise<void> {
  const rounds: Array<{ none: Side; watched: Side }> = [];
  for (let run = 0; run < flags.runs; run++) {
    console.error(`run ${run + 1} of ${flags.runs}`);
    rounds.push({ none: await side(0), watched: await side(flags.watchers) });
  }
  const median = (xs: number[]) => round([...xs].sort((a, b) => a - b)[Math.floor((xs.length - 1) / 2)]!, 3);
  console.log(
    JSON.stringify(
      {
        benchmark: "watch",
        rate: flags.rate,
        seconds: flags.seconds,
        watchers: flags.watchers,
        ownerLatencyMs: {
          noWatchers: { p50: median(rounds.map((r) => r.none.p50)), p99: median(rounds.map((r) => r.none.p99)) },
          watched: { p50: median(rounds.map((r) => r.watched.p50)), p99: median(rounds.map((r) => r.watched.p99)) },
        },
        relayCpuUsPerFrame: {
          noWatchers: median(rounds.map((r) => r.none.cpuUsPerFrame)),
          watched: median(rounds.map((r) => r.watched.cpuUsPerFrame)),
        },
        addedByWatchersMs: {
          p50: median(rounds.map((r) => r.watched.p50 - r.none.p50)),
          p99: median(rounds.map((r) => r.watched.p99 - r.none.p99)),
        },
        everyWatcherGotEveryFrame: rounds.every((r) => r.watched.everyWatcherGotAll === true),
        rounds,
      },
      null,
      2,
    ),
  );
}
