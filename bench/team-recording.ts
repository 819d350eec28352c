/**
 * Concurrent recordings across two instances (issue #37): `--sessions` browser sessions spread over
 * two relay processes, each with a synthetic agent streaming `--rate` frames per second for
 * `--seconds`, all at once. The same load three ways in each round: read straight from the agents'
 * stdout (the baseline the relay's added latency is measured against), through two relays on the
 * file store (the embedded default), and through two relays on one PostgreSQL database
 * (`serve --database`, a throw-away cluster). Prints each side's latency (agent write to client
 * receipt, the first half second of each session left out) and the added latency over the
 * baseline, and the relays' main threads' CPU time per frame (from /proc, steadier than latency on
 * a busy machine), and checks every frame was stored: each transcript is read back from the
 * instance that did not record it (on the file store, from its own) and its agent frames counted.
 * Target: every frame stored; the database's added p50 within 0.1 ms of the file store's. Once
 * the recordings have ended, the database's work to give their documents rows of their own (the
 * copiers' indexDocs) is counted apart.
 *
 *   node --import tsx bench/team-recording.ts [--sessions 20] [--rate 1000] [--seconds 60] [--runs 1] [--pgNice 0]
 *
 * PG_EXPERIMENT (bench/pg-experiment.ts): SQL run on the database after its migrations.
 */
import { loadavg, setPriority } from "node:os";
import pg from "pg";
import type { Socket } from "socket.io-client";
import { parseTranscript } from "../lib/contracts/transcript";
import { startPgCluster } from "../test/pg-cluster";
import { migrateThenExperiment, PG_EXPERIMENT } from "./pg-experiment";
import { cpuMs, postmasterOf, serverCpuMs } from "./proc-cpu";
import { benchAgent, emit, numberFlags, round, startRelayProcess, type RelayProcess } from "./harness";
import { direct, pair, spread, streamSession, type Pair, type Receiver } from "./streams";

const flags = numberFlags({ sessions: 20, rate: 1000, seconds: 60, runs: 1, pgNice: 0 });
const TARGETS = { addedP50OverFileStoreMs: 0.1 };
const frames = flags.rate * flags.seconds;
const agentArgs = ["rate", String(flags.rate), String(frames)];

/** Every session's steady-state latencies together. */
const stats = (receivers: Receiver[]): Pair => pair(receivers.flatMap((r) => r.steady(flags.rate)));

const HEADERS = { authorization: "Bearer bench" };

/** Waits until `reader` lists the transcript as ended: its copy is done (on the database side, read from there). */
async function ended(reader: RelayProcess, id: string, relays: RelayProcess[]): Promise<void> {
  const deadline = Date.now() + 120_000;
  for (;;) {
    const list = (await (await fetch(`${reader.url}/api/transcripts`, { headers: HEADERS })).json()) as {
      transcripts: { id: string; recording: boolean; frames: number }[];
    };
    if (list.transcripts.some((m) => m.id === id && !m.recording)) return;
    if (Date.now() > deadline) {
      // What the relays said (a copy's error, a database away) is what tells why.
      const said = relays.map((r) => r.stderrTail()).join("\n");
      const listed = list.transcripts.find((m) => m.id === id);
      throw new Error(
        `${id} was never listed as ended by ${reader.url} (listed: ${JSON.stringify(listed)}); the relays said:\n${said}`,
      );
    }
    await new Promise((r) => setTimeout(r, 100));
  }
}

/** Waits until no transcript's documents wait for their rows (PgStore.indexDocs, by the relays' copiers). */
async function indexed(url: string): Promise<void> {
  const client = new pg.Client({ connectionString: url });
  await client.connect();
  try {
    const deadline = Date.now() + 600_000;
    while ((await client.query("SELECT 1 FROM transcripts WHERE NOT docs_indexed LIMIT 1")).rows.length > 0) {
      if (Date.now() > deadline) throw new Error("the recordings' documents were not indexed within 10 minutes");
      await new Promise((r) => setTimeout(r, 200));
    }
  } finally {
    await client.end();
  }
}

/** Agent frames stored in a transcript, as `reader` serves it. */
async function storedFrames(reader: RelayProcess, id: string): Promise<number> {
  const text = await (await fetch(`${reader.url}/api/transcripts/${id}`, { headers: HEADERS })).text();
  return parseTranscript(text).frames.filter((f) => f.dir === "from-agent" && f.raw.includes('"session/update"'))
    .length;
}

/** Two relays (`env`: the store), the sessions spread over them, every frame's latency and every transcript counted. */
async function relayed(env: Record<string, string>, readFromOther: boolean, postmaster?: number) {
  const profiles = { stream: { command: process.execPath, args: [benchAgent, ...agentArgs] } };
  const relays = await Promise.all([startRelayProcess(profiles, env), startRelayProcess(profiles, env)]);
  const sockets: Socket[] = [];
  try {
    const sessions = await Promise.all(
      Array.from({ length: flags.sessions }, async (_, i) => {
        const session = await streamSession(relays[i % 2]!.url, "stream");
        sockets.push(session.socket);
        return { i, ...session };
      }),
    );
    const cpu = () => ({
      main: relays.reduce((ms, r) => ms + cpuMs(r.pid), 0),
      all: relays.reduce((ms, r) => ms + cpuMs(r.pid, true), 0),
      server: postmaster === undefined ? 0 : serverCpuMs(postmaster),
    });
    const cpuBefore = cpu();
    // All at once, as twenty people recording at the same time.
    await Promise.all(sessions.map((s) => s.go()));
    await Promise.all(sessions.map((s) => s.receiver.done));
    await Promise.all(sessions.map((s) => emit(s.socket, "agent:stop", {})));
    // Every copy counted, however far behind a busy machine left it: up to the last transcript's end.
    const reader = (s: (typeof sessions)[number]) => relays[(s.i + (readFromOther ? 1 : 0)) % 2]!;
    await Promise.all(sessions.map((s) => ended(reader(s), s.transcriptId, relays)));
    const cpuAfter = cpu();
    const perFrame = (k: keyof typeof cpuAfter) => ((cpuAfter[k] - cpuBefore[k]) * 1000) / (flags.sessions * frames);
    const cpuUsPerFrame = { main: perFrame("main"), all: perFrame("all"), server: perFrame("server"), indexing: 0 };
    // Then the ended recordings' documents get rows of their own (the copier's indexDocs): its cost, apart.
    if (postmaster !== undefined) {
      await indexed(env.ACP_PLAYGROUND_DATABASE_URL!);
      cpuUsPerFrame.indexing = ((serverCpuMs(postmaster) - cpuAfter.server) * 1000) / (flags.sessions * frames);
    }
    const stored = await Promise.all(sessions.map((s) => storedFrames(reader(s), s.transcriptId)));
    return {
      latency: stats(sessions.map((s) => s.receiver)),
      cpuUsPerFrame,
      received: sessions.reduce((n, s) => n + s.receiver.latencies.length, 0),
      stored: stored.reduce((n, x) => n + x, 0),
    };
  } finally {
    for (const s of sockets) s.close();
    await Promise.all(relays.map((r) => r.close()));
  }
}

const loadBefore = loadavg();
const cluster = await startPgCluster();
const postmaster = await postmasterOf(cluster.url);
// `--pgNice 19`: PostgreSQL yields the cores to the relays, as a database on a host of its own would
// (its backends, forked later, inherit it).
if (flags.pgNice && postmaster !== undefined) setPriority(postmaster, flags.pgNice);
type Cpu = { main: number; all: number; server: number; indexing: number };
const rounds: Array<{
  direct: Pair;
  file: Pair;
  team: Pair;
  stored: { file: number; team: number };
  cpu: { file: Cpu; team: Cpu };
}> = [];
let received = 0;
try {
  await migrateThenExperiment(cluster.url);
  for (let run = 0; run < flags.runs; run++) {
    console.error(`run ${run + 1} of ${flags.runs}`);
    const base = stats(await direct(agentArgs, flags.sessions));
    const file = await relayed({}, false);
    const team = await relayed({ ACP_PLAYGROUND_DATABASE_URL: cluster.url }, true, postmaster);
    received += file.received + team.received;
    rounds.push({
      direct: base,
      file: file.latency,
      team: team.latency,
      stored: { file: file.stored, team: team.stored },
      cpu: { file: file.cpuUsPerFrame, team: team.cpuUsPerFrame },
    });
  }
} finally {
  cluster.stop();
}

const added = (side: "file" | "team", p: keyof Pair) => spread(rounds.map((r) => r[side][p] - r.direct[p]));
const addedFile = { p50: added("file", "p50"), p99: added("file", "p99") };
const addedTeam = { p50: added("team", "p50"), p99: added("team", "p99") };
const expected = flags.sessions * frames;
const result = {
  benchmark: "team-recording",
  instances: 2,
  sessions: flags.sessions,
  framesPerSecondPerSession: flags.rate,
  seconds: flags.seconds,
  runs: flags.runs,
  postgresNice: flags.pgNice,
  ...(PG_EXPERIMENT ? { postgresExperiment: PG_EXPERIMENT } : {}),
  directLatencyMs: { p50: spread(rounds.map((r) => r.direct.p50)), p99: spread(rounds.map((r) => r.direct.p99)) },
  addedLatencyMs: { fileStore: addedFile, database: addedTeam },
  databaseOverFileStoreP50Ms: round(addedTeam.p50.median - addedFile.p50.median, 3),
  // CPU time per frame (µs), from /proc: steadier than latency on a loaded machine. The relays' main
  // threads (what frames wait for), the relays' processes (with the index's or the copy's thread),
  // and on the database side PostgreSQL's own processes.
  relayMainThreadCpuUsPerFrame: {
    fileStore: spread(rounds.map((r) => r.cpu.file.main)),
    database: spread(rounds.map((r) => r.cpu.team.main)),
  },
  relayProcessCpuUsPerFrame: {
    fileStore: spread(rounds.map((r) => r.cpu.file.all)),
    database: spread(rounds.map((r) => r.cpu.team.all)),
  },
  postgresCpuUsPerFrame: spread(rounds.map((r) => r.cpu.team.server)),
  // After the recordings ended: their documents' rows (search_docs), made by the copiers.
  postgresIndexingCpuUsPerFrame: spread(rounds.map((r) => r.cpu.team.indexing)),
  // Every agent frame, per side and round: what the transcripts hold over what the agents wrote.
  framesStored: {
    expectedPerRun: expected,
    fileStore: rounds.map((r) => r.stored.file),
    database: rounds.map((r) => r.stored.team),
  },
  everyFrameStored: rounds.every((r) => r.stored.file === expected && r.stored.team === expected),
  everyFrameReceived: received === 2 * expected * flags.runs,
  loadAverage: { before: loadBefore.map((x) => round(x, 1)), after: loadavg().map((x) => round(x, 1)) },
  targets: TARGETS,
};
console.log(JSON.stringify(result, null, 2));
