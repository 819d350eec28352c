/** Shared pieces of the benchmarks: a relay in its own process, a socket client, statistics. */
import path from "node:path";
import { io, type Socket } from "socket.io-client";
import type { Frame } from "../lib/frame";

export { startRelayProcess, type RelayProcess } from "../test/relay-harness";

export const root = path.resolve(import.meta.dirname, "..");
export const benchAgent = path.join(root, "test/fixtures/bench-agent.mjs");

export function percentile(sorted: number[], p: number): number {
  if (sorted.length === 0) return NaN;
  return sorted[Math.min(sorted.length - 1, Math.floor((p / 100) * sorted.length))]!;
}

export const round = (n: number, digits = 2) => Math.round(n * 10 ** digits) / 10 ** digits;

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
