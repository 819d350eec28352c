/**
 * Concurrency: N browser sessions at once on this machine, each with a synthetic
 * agent streaming frames. Reports the relay's RSS, the per-session overhead
 * (the relay only; agents are separate processes) and start latency under load.
 */
import type { Socket } from "socket.io-client";
import { benchAgent, connect, emit, numberFlags, percentile, round, startRelayProcess } from "./harness";

const flags = numberFlags({ sessions: 20, rate: 200, seconds: 5 });
const frames = flags.rate * flags.seconds * 4; // keeps streaming while starts are measured
const relay = await startRelayProcess({
  stream: { command: process.execPath, args: [benchAgent, "rate", String(flags.rate), String(frames)] },
});
const settle = () => new Promise((r) => setTimeout(r, 1_000));

await settle();
const idleRssKb = relay.rssKb();
const sockets: Socket[] = [];
const startMs: number[] = [];
let received = 0;
for (let i = 0; i < flags.sessions; i++) {
  const socket = await connect(relay.url);
  socket.on("frames", (batch: unknown[]) => (received += batch.length));
  const t0 = performance.now();
  await emit(socket, "agent:start", { profile: "stream" });
  startMs.push(performance.now() - t0);
  await emit(socket, "agent:send", { frame: "go" });
  sockets.push(socket);
}
// Under full load: every session streaming.
await new Promise((r) => setTimeout(r, flags.seconds * 1000));
const loadedRssKb = relay.rssKb();
const extra = await connect(relay.url);
const t0 = performance.now();
await emit(extra, "agent:start", { profile: "stream" });
const startUnderLoadMs = performance.now() - t0;
const receivedPerSecond = received / flags.seconds;
for (const s of [...sockets, extra]) s.close();
await relay.close();

const sorted = [...startMs].sort((a, b) => a - b);
console.log(
  JSON.stringify(
    {
      benchmark: "concurrency",
      sessions: flags.sessions,
      framesPerSecondPerSession: flags.rate,
      relayRssMb: { idle: round(idleRssKb / 1024, 1), loaded: round(loadedRssKb / 1024, 1) },
      perSessionOverheadMb: round((loadedRssKb - idleRssKb) / 1024 / flags.sessions, 2),
      startMs: {
        p50: round(percentile(sorted, 50), 1),
        p95: round(percentile(sorted, 95), 1),
        max: round(sorted.at(-1)!, 1),
      },
      startUnderLoadMs: round(startUnderLoadMs, 1),
      framesDeliveredPerSecond: Math.round(receivedPerSecond),
    },
    null,
    2,
  ),
);
