/**
 * Tap overhead: the added latency of `acp-playground tap` on the editor-agent
 * path. The synthetic agent writes frames carrying their send time at a fixed
 * rate; the "editor" (this process) reads them straight from the agent's
 * stdout (direct pipe) and then through the tap, in the same run: once with no
 * relay (the tap records on its own), once copying to a relay.
 *
 * Start-up: the time from spawning to the first answer to `initialize`, for the
 * agent alone and through the tap as the installed tool runs it (compiled as
 * scripts/build-dist.mjs does, into .tmp/), alternating, `--startups` runs each.
 */
import { spawn } from "node:child_process";
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { build } from "esbuild";
import { execa } from "execa";
import { LineSplitter } from "../lib/protocol/ndjson";
import { benchAgent, numberFlags, percentile, root, round, startRelayProcess } from "./harness";
import { now, Receiver } from "./streams";

const flags = numberFlags({ rate: 1000, seconds: 10, startups: 9 });
const count = Math.round(flags.rate * flags.seconds);
const bin = path.join(root, "bin/acp-playground.mjs");

/** One run: latency of every frame from the agent's write to the editor's read, the first tenth left out. */
async function measure(command: string, args: string[], env: Record<string, string> = {}): Promise<number[]> {
  const child = execa(command, args, { cwd: root, env, buffer: false, reject: false, encoding: "buffer" });
  const splitter = new LineSplitter();
  const receiver = new Receiver();
  child.stdout.on("data", (chunk: Buffer) => {
    const at = now();
    for (const e of splitter.push(chunk)) if (e.type === "line") receiver.line(e.text, at);
  });
  child.stdin.write("go\n");
  await receiver.done;
  child.stdin.end();
  await child;
  const { latencies } = receiver;
  return latencies.slice(Math.floor(latencies.length / 10)).sort((a, b) => a - b);
}

const stats = (sorted: number[]) => ({ p50: round(percentile(sorted, 50), 3), p99: round(percentile(sorted, 99), 3) });
const added = (tap: number[], base: number[]) => ({
  p50: round(percentile(tap, 50) - percentile(base, 50), 3),
  p99: round(percentile(tap, 99) - percentile(base, 99), 3),
});

/** The tap compiled as the installed tool has it (scripts/build-dist.mjs's options), and an entry that runs it. */
async function compiledTap(): Promise<string> {
  const outdir = path.join(root, ".tmp", "bench-tap");
  rmSync(outdir, { recursive: true, force: true });
  mkdirSync(outdir, { recursive: true });
  await build({
    absWorkingDir: root,
    entryPoints: { "tap-cli": "server/cli/tap-cli.ts" },
    outdir,
    outExtension: { ".js": ".mjs" },
    bundle: true,
    platform: "node",
    format: "esm",
    target: "node20",
    packages: "external",
    splitting: true,
    chunkNames: "[name]-[hash]",
    logLevel: "warning",
  });
  const entry = path.join(outdir, "tap.mjs");
  // What bin/acp-playground.mjs does for `tap` in the installed tool.
  writeFileSync(
    entry,
    `const { tapMain } = await import("./tap-cli.mjs");\ntapMain(process.argv.slice(2)).then((c) => process.exit(c));\n`,
  );
  return entry;
}

/** The floor of any tap written for Node: a process that only spawns the agent and pipes its stdio. */
function bareForwarder(): string {
  const file = path.join(root, ".tmp", "bench-tap", "pipe.mjs");
  writeFileSync(
    file,
    [
      `import { spawn } from "node:child_process";`,
      `const [command, ...args] = process.argv.slice(2);`,
      `const child = spawn(command, args, { stdio: ["pipe", "pipe", "inherit"], detached: true });`,
      `process.stdin.pipe(child.stdin);`,
      `child.stdout.pipe(process.stdout);`,
      `child.on("close", (code) => process.exit(code ?? 1));`,
    ].join("\n"),
  );
  return file;
}

const INITIALIZE = `${JSON.stringify({ jsonrpc: "2.0", id: 0, method: "initialize", params: { protocolVersion: 1 } })}\n`;

/** Milliseconds from spawning `command` to the first answer to initialize on its stdout. */
function firstAnswerMs(command: string, args: string[], env: Record<string, string>): Promise<number> {
  return new Promise((resolve, reject) => {
    const started = now();
    const child = spawn(command, args, { env: { ...process.env, ...env }, stdio: ["pipe", "pipe", "ignore"] });
    const splitter = new LineSplitter();
    let answered: number | undefined;
    child.on("error", reject);
    child.stdout.on("data", (chunk: Buffer) => {
      for (const e of splitter.push(chunk))
        if (answered === undefined && e.type === "line" && e.text.includes('"id":0')) {
          answered = now() - started;
          child.stdin.end();
        }
    });
    child.on("close", () => (answered === undefined ? reject(new Error(`${command}: no answer`)) : resolve(answered)));
    child.stdin.write(INITIALIZE);
  });
}

const median = (xs: number[]) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)]!;

/** Agent alone and through the compiled tap, alternating (a warm-up of each first). */
async function startup(noRelay: Record<string, string>) {
  const tapEntry = await compiledTap();
  const pipe = bareForwarder();
  const stub = [path.join(root, "test/fixtures/stub-agent.mjs"), "echo"];
  const alone: number[] = [];
  const piped: number[] = [];
  const tapped: number[] = [];
  for (let i = -1; i < flags.startups; i++) {
    const a = await firstAnswerMs(process.execPath, stub, {});
    const p = await firstAnswerMs(process.execPath, [pipe, process.execPath, ...stub], {});
    const t = await firstAnswerMs(process.execPath, [tapEntry, "--", process.execPath, ...stub], noRelay);
    if (i < 0) continue;
    alone.push(a);
    piped.push(p);
    tapped.push(t);
  }
  return {
    runs: flags.startups,
    agentAloneMs: round(median(alone), 1),
    bareNodeForwarderMs: round(median(piped), 1),
    throughTapMs: round(median(tapped), 1),
    addedMs: round(median(tapped) - median(alone), 1),
    /** What the tap costs beyond starting a second Node process at all. */
    addedBeyondForwarderMs: round(median(tapped) - median(piped), 1),
  };
}

const agent = [benchAgent, "rate", String(flags.rate), String(count)];
const data = mkdtempSync(path.join(tmpdir(), "acp-bench-tap-"));
const relay = await startRelayProcess({});
try {
  const noRelay = { ACP_PLAYGROUND_DATA: data, ACP_PLAYGROUND_URL: "", ACP_PLAYGROUND_TOKEN: "" };
  const firstAnswer = await startup(noRelay);
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
        firstAnswerToInitialize: firstAnswer,
      },
      null,
      2,
    ),
  );
} finally {
  await relay.close();
  rmSync(data, { recursive: true, force: true });
}
