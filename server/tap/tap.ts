/**
 * `acp-playground tap`: stands between an editor and its agent. Bytes go
 * through untouched, chunk by chunk as they arrive; a copy of each line is
 * made after the chunk is on its way (lib/protocol/ndjson.ts's splitter) and handed
 * to the sink (the relay, or a transcript of its own). Nothing the sink does
 * can hold up or break the editor's session.
 */
import { randomBytes } from "node:crypto";
import type { Readable, Writable } from "node:stream";
import { constants } from "node:os";
import { LineSplitter } from "../../lib/protocol/ndjson";
import { secretsFromEnv } from "../../lib/features/library/redact";
import type { FrameDirection } from "../../lib/protocol/frame";
import type { TapEvent } from "../../lib/contracts/tap-wire";
import { spawnGroup, type GroupChild } from "../agents/agent-process";
import type { RelayTarget } from "./tap-discovery";
import type { TapSink } from "./tap-sink";

export interface TapOptions {
  profile: string;
  command: string;
  args: string[];
  env: Record<string, string>;
  cwd: string;
  relay?: RelayTarget;
  dataDir: string;
  bufferBytes: number;
  maxLineBytes: number;
  killGraceMs: number;
  flushTimeoutMs: number;
  stdin: Readable;
  stdout: Writable;
  stderr: Writable;
}

const NEWLINE = 0x0a;
/** Epoch ms with sub-ms precision, so latencies computed from it stay meaningful. */
const now = () => performance.timeOrigin + performance.now();

/** The agent's exit status as a shell would report it. */
function exitStatus(code: number | null, signal: string | null): number {
  if (code !== null) return code;
  const num = signal ? (constants.signals as Record<string, number>)[signal] : undefined;
  return 128 + (num ?? 1);
}

export async function runTap(opts: TapOptions): Promise<number> {
  const report = (message: string) => opts.stderr.write(`acp-playground tap: ${message}\n`);
  // The agent sees the tap's environment without the playground's own variables (the token above all).
  let spawned: GroupChild;
  try {
    spawned = await spawnGroup(opts);
  } catch (err) {
    const { code, message } = err as NodeJS.ErrnoException;
    report(code === "ENOENT" ? `executable not found: ${opts.command}` : `cannot start ${opts.command}: ${message}`);
    return code === "ENOENT" ? 127 : 126;
  }
  const { child, pid } = spawned;
  const startedAt = now();
  const agentIn = child.stdin;
  const agentOut = child.stdout;
  const agentErr = child.stderr;

  // Injected lines wait until the editor is between lines, so no frame is cut in two.
  let editorMidLine = false;
  const injections: string[] = [];
  const writeInjections = () => {
    while (!editorMidLine && injections.length > 0 && agentIn.writable) agentIn.write(`${injections.shift()}\n`);
  };

  // Loaded after the agent is spawned: the socket client and the recorder are off the start-up path.
  let sink: TapSink | undefined;
  const sinkOptions: ConstructorParameters<typeof TapSink>[0] = {
    tapId: randomBytes(8).toString("hex"),
    open: { profile: opts.profile, command: opts.command, args: opts.args, cwd: opts.cwd, pid, startedAt },
    relay: opts.relay,
    dataDir: opts.dataDir,
    bufferBytes: opts.bufferBytes,
    maxLineBytes: opts.maxLineBytes,
    flushTimeoutMs: opts.flushTimeoutMs,
    // What the agent runs with (the tap's environment and the profile's): the relay never sees these values.
    secrets: secretsFromEnv({ ...process.env, ...opts.env }),
    report,
    inject: (line) => {
      if (line.includes("\n") || !agentIn.writable) {
        report(
          `an injected frame was not written: ${agentIn.writable ? "it holds a newline" : "the agent's stdin is closed"}`,
        );
        return;
      }
      injections.push(line);
      writeInjections();
    },
  };
  // Loading the socket client blocks the event loop for a while: it starts once the agent has first
  // answered (or after a second), so the editor's first answer never waits behind it.
  let sinkReady: Promise<void> | undefined;
  const loadSink = () =>
    (sinkReady ??= import("./tap-sink").then(({ TapSink }) => {
      sink = new TapSink(sinkOptions);
      observe();
    }));
  const sinkTimer = setTimeout(() => void loadSink(), 1_000);

  // Copies are made after the chunk has been written on, one event-loop turn later.
  const splitters = {
    "to-agent": new LineSplitter(opts.maxLineBytes),
    "from-agent": new LineSplitter(opts.maxLineBytes),
  };
  /** Chunks not yet split, and events, in the order they happened (they wait here until the sink is loaded). */
  let observed: ({ dir: FrameDirection; chunk: Buffer; ts: number } | { event: TapEvent })[] = [];
  let observeScheduled = false;
  const toEvents = (dir: FrameDirection, ts: number, events: ReturnType<LineSplitter["push"]>) => {
    for (const e of events)
      sink!.push(
        e.type === "line"
          ? { t: "line", ts, dir, raw: e.text, ...(e.base64 === undefined ? {} : { base64: e.base64 }) }
          : { t: "oversize", ts, dir, preview: e.preview, bytes: e.bytes },
      );
  };
  const observe = () => {
    observeScheduled = false;
    if (!sink) return;
    const chunks = observed;
    observed = [];
    for (const item of chunks) {
      if ("event" in item) sink.push(item.event);
      else toEvents(item.dir, item.ts, splitters[item.dir].push(item.chunk));
    }
  };
  const copy = (dir: FrameDirection, chunk: Buffer) => {
    observed.push({ dir, chunk, ts: now() });
    if (!observeScheduled) {
      observeScheduled = true;
      setImmediate(observe);
    }
  };
  const push = (event: TapEvent) => {
    observe();
    if (sink) sink.push(event);
    else observed.push({ event });
  };

  // The hot path: write first, then note the copy; the slower side holds the faster one back (backpressure).
  opts.stdin.on("data", (chunk: Buffer) => {
    if (!agentIn.write(chunk)) {
      opts.stdin.pause();
      agentIn.once("drain", () => opts.stdin.resume());
    }
    editorMidLine = chunk[chunk.length - 1] !== NEWLINE;
    if (injections.length > 0) writeInjections();
    copy("to-agent", chunk);
  });
  agentOut.on("data", (chunk: Buffer) => {
    if (!opts.stdout.write(chunk)) {
      agentOut.pause();
      opts.stdout.once("drain", () => agentOut.resume());
    }
    copy("from-agent", chunk);
    if (!sinkReady) setImmediate(() => void loadSink());
  });
  const decoder = new TextDecoder();
  agentErr.on("data", (chunk: Buffer) => {
    opts.stderr.write(chunk);
    push({ t: "stderr", ts: now(), text: decoder.decode(chunk, { stream: true }) });
  });
  // EPIPE when the agent is gone: its exit is what counts.
  agentIn.on("error", () => {});

  const exited = new Promise<{ code: number | null; signal: string | null }>((resolve) =>
    child.once("close", (code: number | null, signal: NodeJS.Signals | null) => resolve({ code, signal })),
  );
  // The whole tree, once (the leader's exit may have started it); what survives is reported once, not thrown.
  let treeStopped: Promise<void> | undefined;
  const stopTree = () => (treeStopped ??= spawned.stopTree().catch((err: Error) => void report(err.message)));
  let stopping: Promise<void> | undefined;
  const stop = (why: string, graceful: boolean) => {
    stopping ??= (async () => {
      // The leader is gone and its tree is being stopped already: nothing to say or wait for.
      if (!spawned.stopStarted) {
        agentIn.end();
        // An editor that closes stdin is done: a well-behaved agent exits on EOF; give it the grace period.
        if (graceful) await Promise.race([exited, new Promise((r) => setTimeout(r, opts.killGraceMs).unref())]);
        else report(`${why}: stopping the agent`);
      }
      await stopTree();
    })();
    return stopping;
  };
  opts.stdin.once("end", () => void stop("the editor closed stdin", true));
  opts.stdin.once("error", () => void stop("the editor's stdin failed", false));
  opts.stdout.once("error", () => void stop("the editor closed its end of stdout", false));
  const signals: NodeJS.Signals[] = ["SIGTERM", "SIGINT", "SIGHUP"];
  const onSignal = (signal: NodeJS.Signals) => void stop(`got ${signal}`, false);
  for (const s of signals) process.on(s, onSignal);

  const { code, signal } = await exited;
  for (const s of signals) process.off(s, onSignal);
  // Stopping began with the leader's exit if not before: no re-launched worker outlives it.
  await stopping;
  await stopTree();
  clearTimeout(sinkTimer);
  await loadSink();
  observe();
  toEvents("to-agent", now(), splitters["to-agent"].end());
  toEvents("from-agent", now(), splitters["from-agent"].end());
  push({ t: "exit", ts: now(), code, signal });
  opts.stdin.pause();
  await sink!.close();
  return exitStatus(code, signal);
}
