/** Shared pieces of the benchmarks: a relay in its own process, a socket client, statistics. */
import { execa } from "execa";
import { randomBytes } from "node:crypto";
import { mkdirSync, mkdtempSync, realpathSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { io, type Socket } from "socket.io-client";
import type { Frame } from "../lib/protocol/frame";

import { startPlaygroundServer, stopServer } from "../e2e/global-setup";

export { startRelayProcess, type RelayProcess } from "../test/relay-harness";

export const root = path.resolve(import.meta.dirname, "..");
export const benchAgent = path.join(root, "test/fixtures/bench-agent.mjs");

export function percentile(sorted: number[], p: number): number {
  if (sorted.length === 0) return NaN;
  return sorted[Math.min(sorted.length - 1, Math.floor((p / 100) * sorted.length))]!;
}

export const round = (n: number, digits = 2) => Math.round(n * 10 ** digits) / 10 ** digits;

/** p50, p95 and max of some timings (ms), to a tenth. */
export function timingStats(xs: number[]): { p50: number; p95: number; max: number } {
  const s = [...xs].sort((a, b) => a - b);
  return { p50: round(percentile(s, 50), 1), p95: round(percentile(s, 95), 1), max: round(s.at(-1) ?? NaN, 1) };
}

/** GET `route` on a bench relay `runs` times: its timings and the last answer. */
export async function timedGet(
  url: string,
  route: string,
  runs: number,
): Promise<{ p50: number; p95: number; max: number; body: any }> {
  const times: number[] = [];
  let body: any;
  for (let r = 0; r < runs; r++) {
    const t = performance.now();
    const res = await fetch(`${url}${route}`, { headers: { authorization: "Bearer bench" } });
    body = await res.json();
    times.push(performance.now() - t);
    if (!res.ok) throw new Error(`${route}: ${res.status} ${JSON.stringify(body)}`);
  }
  return { ...timingStats(times), body };
}

export async function connect(url: string): Promise<Socket> {
  const socket = io(url, { auth: { token: "bench" }, transports: ["websocket"], reconnection: false, forceNew: true });
  await new Promise<void>((resolve, reject) => {
    socket.once("connect", () => resolve());
    socket.once("connect_error", reject);
  });
  return socket;
}

export async function emit(socket: Socket, event: string, payload: unknown): Promise<any> {
  const ack = await socket.timeout(120_000).emitWithAck(event, payload);
  if (!ack.ok) throw new Error(`${event}: ${ack.error.message}`);
  return ack;
}

/** Calls `onFrame` for every frame the relay sends on this socket. */
export function onFrames(socket: Socket, onFrame: (frame: Frame, receivedAt: number) => void): void {
  socket.on("frames", (frames: Frame[]) => {
    const at = performance.timeOrigin + performance.now();
    for (const f of frames) onFrame(f, at);
  });
}

/** Parses `--name value` flags into numbers, with defaults. */
export function numberFlags<T extends Record<string, number>>(defaults: T, argv = process.argv.slice(2)): T {
  const out = { ...defaults };
  for (let i = 0; i < argv.length; i++) {
    const key = argv[i]!.replace(/^--/, "") as keyof T;
    if (key in out && argv[i + 1] !== undefined) out[key] = Number(argv[++i]) as T[keyof T];
  }
  return out;
}

/** `--name value` as a string, or undefined. */
export function stringFlag(name: string, argv = process.argv.slice(2)): string | undefined {
  const i = argv.indexOf(`--${name}`);
  return i >= 0 ? argv[i + 1] : undefined;
}

/**
 * `--baseline DIR`: another checkout of the playground (say, a worktree of the
 * previous commit) measured in the same run, so a shared machine's load falls
 * on both sides of a before/after comparison alike.
 */
export const baselineDir = (): string | undefined => {
  const dir = stringFlag("baseline");
  return dir ? path.resolve(dir) : undefined;
};

export interface BenchServer {
  /** The tokenised URL. */
  url: string;
  token: string;
  close(): Promise<void>;
}

/**
 * The production server of the checkout at `cwd` (built first when stale),
 * with these profiles and a throw-away workspace and data directory.
 */
export async function startBenchServer(profiles: Record<string, unknown>, cwd = root): Promise<BenchServer> {
  // Build output on stderr: stdout carries only the JSON result.
  await execa(process.execPath, ["scripts/ensure-build.mjs"], { cwd, stdout: process.stderr, stderr: "inherit" });
  const tmp = realpathSync(mkdtempSync(path.join(tmpdir(), "acp-bench-")));
  const workspace = path.join(tmp, "workspace");
  mkdirSync(workspace);
  const configFile = path.join(tmp, "config.json");
  writeFileSync(configFile, JSON.stringify({ workspaceRoots: [workspace], profiles }));
  const token = randomBytes(24).toString("base64url");
  const server = startPlaygroundServer({ configFile, dataDir: path.join(tmp, "data"), token, cwd });
  const url = await server.url;
  return {
    url,
    token,
    close: async () => {
      await stopServer(server.process);
      rmSync(tmp, { recursive: true, force: true });
    },
  };
}

/** `after / before`, rounded; undefined without a baseline. */
export const ratio = (after: number, before: number | undefined) =>
  before === undefined || before === 0 ? undefined : round(after / before, 2);
