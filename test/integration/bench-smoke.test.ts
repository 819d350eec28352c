/** Short smoke runs of the benchmarks: they run and report every figure (no timing assertions). */
import { execa } from "execa";
import path from "node:path";
import { describe, expect, it } from "vitest";
import { pgSkipReason } from "../pg-cluster";

const root = path.resolve(import.meta.dirname, "../..");
/** relay-overhead starts ten processes in turn (relays with the index on and off, for three loads): seconds each when loaded. */
const RELAY_OVERHEAD_MS = 240_000;
async function bench(name: string, ...flags: string[]) {
  const run = await execa(process.execPath, ["--import", "tsx", `bench/${name}.ts`, ...flags], {
    cwd: root,
    reject: false,
    timeout: name === "relay-overhead" ? RELAY_OVERHEAD_MS - 10_000 : 120_000,
  });
  expect(run.stderr).not.toMatch(/Error/);
  expect(run.exitCode).toBe(0);
  return JSON.parse(run.stdout);
}

describe("benchmarks (smoke)", () => {
  it(
    "relay-overhead reports latency and rate ratio",
    async () => {
      const r = await bench(
        "relay-overhead",
        ...["--rate", "400", "--seconds", "1", "--burst", "20000", "--runs", "1", "--largeSeconds", "1"],
      );
      for (const v of [
        r.directLatencyMs.p50,
        r.relayLatencyMs.p99,
        r.addedLatencyMs.p50,
        r.added.indexOff.p99.median,
        r.cpuUsPerFrame.indexOn.main.median,
        r.largeRecording.latencyMs.indexOn.p99.median,
        r.largeRecording.latencyMs.indexOff.p99.median,
        r.relayFramesPerSecond,
        r.rateRatio,
        r.rateRatioIndexOff,
        r.bareForwarderRatio,
        r.bareForwarderAddedLatencyMs.p99,
      ]) {
        expect(Number.isFinite(v)).toBe(true);
      }
      expect(r.relayFramesPerSecond).toBeGreaterThan(0);
      expect(r.bareForwarderFramesPerSecond).toBeGreaterThan(0);
    },
    RELAY_OVERHEAD_MS,
  );

  it("concurrency reports RSS, per-session overhead and start latency", async () => {
    const r = await bench("concurrency", "--sessions", "3", "--seconds", "1", "--rate", "50");
    expect(r.relayRssMb.loaded).toBeGreaterThan(0);
    expect(r.startMs.p50).toBeGreaterThan(0);
    expect(r.framesDeliveredPerSecond).toBeGreaterThan(0);
  });

  it("session-start measures cold and warm Connect with the real Gemini CLI", async () => {
    const r = await bench("session-start", "--runs", "1");
    expect(r.coldMs.all).toHaveLength(1);
    // Figures only: which is faster is the benchmark's finding, not a test's (machines are noisy).
    expect(r.warmMs.median).toBeGreaterThan(0);
    expect(r.coldMs.median).toBeGreaterThan(0);
    // With and without Gemini's re-launch: initialize latency and the agent's memory.
    for (const v of [r.initializeMs.median, r.rssMb, r.relaunch.initializeMs.median, r.relaunch.rssMb])
      expect(v).toBeGreaterThan(0);
  });

  it("tap reports its added latency with and without a relay", async () => {
    const r = await bench("tap", "--rate", "500", "--seconds", "1", "--startups", "1");
    expect(r.frames).toBe(500);
    expect(r.firstAnswerToInitialize.runs).toBe(1);
    for (const v of [r.directLatencyMs.p50, r.tapLatencyMs.p99, r.addedLatencyMs.p50, r.addedWithRelayLatencyMs.p99])
      expect(Number.isFinite(v)).toBe(true);
  });

  it.skipIf(pgSkipReason() !== undefined)(
    "library-pg times the list and the searches on both stores",
    async () => {
      const r = await bench("library-pg", "--transcripts", "20", "--mb", "4", "--runs", "2");
      for (const store of [r.fileStore, r.postgres]) {
        expect(store.listMs.transcripts).toBeGreaterThanOrEqual(20);
        for (const q of Object.values<{ p50: number }>(store.searches)) expect(q.p50).toBeGreaterThan(0);
      }
      expect(r.postgres.searches.commonWord.matches).toBe(r.fileStore.searches.commonWord.matches);
      expect(r.pgDatabaseMiB).toBeGreaterThan(0);
      expect(r.loadAverage).toHaveLength(3);
    },
    180_000,
  );

  it.skipIf(pgSkipReason() !== undefined)(
    "pg-save keeps every line it saves and reports PostgreSQL's CPU per frame",
    async () => {
      const r = await bench("pg-save", "--transcripts", "2", "--frames", "500", "--runs", "1");
      expect(r.everyLineKept).toBe(true);
      expect(r.postgresCpuUsPerFrame).toHaveLength(1);
      expect(r.postgresCpuUsPerFrame[0]).toBeGreaterThanOrEqual(0);
      expect(r.loadAverage).toHaveLength(3);
    },
    120_000,
  );

  it.skipIf(pgSkipReason() !== undefined)(
    "team-recording stores every frame of concurrent recordings on two instances, on both stores",
    async () => {
      const r = await bench("team-recording", "--sessions", "2", "--rate", "100", "--seconds", "1");
      expect(r.framesStored).toEqual({ expectedPerRun: 200, fileStore: [200], database: [200] });
      expect(r.everyFrameStored).toBe(true);
      for (const side of [r.addedLatencyMs.fileStore, r.addedLatencyMs.database])
        expect(Number.isFinite(side.p50.median)).toBe(true);
      for (const side of [r.relayMainThreadCpuUsPerFrame.fileStore, r.relayMainThreadCpuUsPerFrame.database])
        expect(Number.isFinite(side.median)).toBe(true);
      expect(r.loadAverage.before).toHaveLength(3);
    },
    180_000,
  );
});
