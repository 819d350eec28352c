/**
 * PostgreSQL's own work per stored frame (issue #37's twenty recordings): `--transcripts`
 * recordings saved as the copier saves them (PgStore.save, `--batch` new lines at a time, in turn),
 * each line an agent_message_chunk like the bench agent's, and the server's CPU time (postmaster and
 * backends, from /proc) divided by the frames stored.
 *
 *   node --import tsx bench/pg-save.ts [--transcripts 20] [--frames 5000] [--batch 250] [--runs 3]
 *
 * PG_EXPERIMENT (bench/pg-experiment.ts): SQL run after the migrations, to see what a part of the
 * schema costs.
 */
import { loadavg } from "node:os";
import { serialize, serializeFrame, TRANSCRIPT_FORMAT, TRANSCRIPT_VERSION } from "../lib/contracts/transcript";
import { PgStore } from "../server/stores/pg-store";
import { startPgCluster } from "../test/pg-cluster";
import { numberFlags, round } from "./harness";
import { migrateThenExperiment, PG_EXPERIMENT } from "./pg-experiment";
import { postmasterOf, serverCpuMs } from "./proc-cpu";

const flags = numberFlags({ transcripts: 20, frames: 5000, batch: 250, runs: 3 });

function header(id: string, createdAt: string): string {
  return serialize({
    type: "header",
    format: TRANSCRIPT_FORMAT,
    version: TRANSCRIPT_VERSION,
    id,
    createdAt,
    playground: { version: "bench" },
    agent: { profile: "stream", command: "node", args: [], cwd: "/w" },
  }).trimEnd();
}
/** An agent_message_chunk as the bench agent streams it, as the recorder writes it. */
function frameLine(seq: number): string {
  const raw = `{"jsonrpc":"2.0","method":"session/update","params":{"sessionId":"bench","t":${Date.now()},"i":${seq},"update":{"sessionUpdate":"agent_message_chunk","content":{"type":"text","text":"chunk ${seq} lorem ipsum dolor sit amet"}}}}`;
  return serializeFrame({
    seq,
    ts: Date.now(),
    dir: "from-agent",
    kind: "notification",
    method: "session/update",
    raw,
  }).trimEnd();
}

async function round1(url: string, postmaster: number, r: number): Promise<number> {
  const store = await PgStore.open(url);
  await store.ready;
  const createdAt = new Date().toISOString();
  const ts = Array.from({ length: flags.transcripts }, (_, i) => ({
    meta: {
      id: `r${r}-t${i}`,
      title: `t${i}`,
      createdAt,
      profile: "stream",
      turns: 0,
      frames: 0,
      bytes: 0,
      redactions: 0,
      recording: true,
    },
    lines: 0,
    lastSeq: 0,
  }));
  for (const t of ts) {
    t.lastSeq = await store.save(t.meta, [header(t.meta.id, createdAt)], 0, 0);
    t.lines = 1;
  }
  const before = serverCpuMs(postmaster);
  for (let sent = 0; sent < flags.frames; sent += flags.batch) {
    for (const t of ts) {
      const lines = Array.from({ length: flags.batch }, (_, k) => frameLine(sent + k + 1));
      const last = sent + flags.batch >= flags.frames;
      t.meta = { ...t.meta, frames: sent + flags.batch, recording: !last };
      t.lastSeq = await store.save(t.meta, lines, t.lines, t.lastSeq);
      t.lines += lines.length;
    }
  }
  const after = serverCpuMs(postmaster);
  // Every line kept: the figure is of saves that did their work.
  const { rows } = await store.pool.query<{ n: number }>(
    "SELECT coalesce(sum(line_count), 0)::int AS n FROM transcript_lines WHERE transcript_id LIKE $1",
    [`r${r}-%`],
  );
  await store.close();
  const expected = ts.reduce((n, t) => n + t.lines, 0);
  if (rows[0]!.n !== expected) throw new Error(`round ${r}: ${rows[0]!.n} lines kept of ${expected}`);
  return ((after - before) * 1000) / (flags.transcripts * flags.frames);
}

const cluster = await startPgCluster();
try {
  const postmaster = await postmasterOf(cluster.url);
  await migrateThenExperiment(cluster.url);
  const out: number[] = [];
  for (let r = 0; r < flags.runs; r++) out.push(round(await round1(cluster.url, postmaster, r), 1));
  console.log(
    JSON.stringify({
      experiment: PG_EXPERIMENT,
      everyLineKept: true,
      postgresCpuUsPerFrame: out,
      loadAverage: loadavg(),
    }),
  );
} finally {
  cluster.stop();
}
