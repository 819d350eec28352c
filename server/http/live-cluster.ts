/**
 * `serve --redis URL`: instances share live events through Redis, with the
 * Socket.IO Redis streams adapter (docs/scaling.md says why that one). Only
 * broadcasts go through it (watch links' rooms, the taps list): an owner's own
 * socket is written to directly, and recording never touches Redis, so a
 * Redis outage pauses watchers on other instances and nothing else.
 */
import { createAdapter } from "@socket.io/redis-streams-adapter";
import { randomBytes } from "node:crypto";
import { createClient } from "redis";
import type { Server } from "socket.io";

/** Longest wait between two reconnection attempts to Redis. */
const RETRY_MAX_MS = 1_000;
/** How long a first connection may take at start. */
const CONNECT_TIMEOUT_MS = 5_000;
/** The stream's length cap: what a slow instance can still catch up on. */
const STREAM_MAX_LEN = 10_000;

export interface LiveCluster {
  /** Whether Redis answers now: while it does not, watch links broadcast on this instance only. */
  readonly up: boolean;
  /** Hears every change of `up`. */
  onChange(listener: (up: boolean) => void): void;
  close(): Promise<void>;
}

/** Connects to Redis and makes it `io`'s adapter; rejects, saying why, when Redis cannot be reached at start. */
export async function joinCluster(io: Server, url: string): Promise<LiveCluster> {
  const client = createClient({
    url,
    // The adapter reads replies in RESP2's shapes.
    RESP: 2,
    socket: {
      connectTimeout: CONNECT_TIMEOUT_MS,
      reconnectStrategy: (retries: number) => Math.min(50 * 2 ** Math.min(retries, 5), RETRY_MAX_MS),
    },
  });
  let up = false;
  const listeners = new Set<(up: boolean) => void>();
  const set = (now: boolean) => {
    if (now === up) return;
    up = now;
    for (const listener of listeners) listener(now);
  };
  // An error event without a listener would end the process: the client reconnects by itself.
  client.on("error", () => set(false));
  client.on("end", () => set(false));
  client.on("reconnecting", () => set(false));
  client.on("ready", () => set(true));
  try {
    await connectOnce(client);
  } catch (err) {
    client.destroy();
    throw new Error(`cannot reach Redis: ${(err as Error).message}`);
  }
  set(true);
  // The adapter's own connections get a name of this instance's, so that start-up can wait for its reader.
  const name = `acp-playground-${randomBytes(6).toString("hex")}`;
  const duplicate = client.duplicate.bind(client);
  client.duplicate = (overrides?: object) => duplicate({ ...overrides, name });
  io.adapter(createAdapter(client, { streamName: "acp-playground", maxLen: STREAM_MAX_LEN, blockTimeInMs: 1_000 }));
  await readerBlocked(client, name);
  return {
    get up() {
      return up;
    },
    onChange(listener) {
      listeners.add(listener);
    },
    async close() {
      listeners.clear();
      if (client.isOpen) await client.close().catch(() => client.destroy());
    },
  };
}

/** The first connection, failing instead of retrying for ever (the reconnect strategy is for later outages). */
function connectOnce(client: {
  connect(): Promise<unknown>;
  once(event: "error", listener: (err: Error) => void): unknown;
  off(event: "error", listener: (err: Error) => void): unknown;
}): Promise<void> {
  return new Promise((resolve, reject) => {
    const fail = (err: Error) => {
      client.off("error", fail);
      reject(err);
    };
    client.once("error", fail);
    client.connect().then(() => {
      client.off("error", fail);
      resolve();
    }, fail);
  });
}

/**
 * Resolves once this instance's stream reader waits in XREAD: the adapter starts it asynchronously
 * and reads from "$" (what is added after), so an instance that served watchers before that
 * could miss what another instance sent them at once (its join, its log).
 */
async function readerBlocked(client: { sendCommand(args: string[]): Promise<unknown> }, name: string): Promise<void> {
  const until = Date.now() + CONNECT_TIMEOUT_MS;
  for (;;) {
    const list = String(await client.sendCommand(["CLIENT", "LIST"]));
    if (list.split("\n").some((line) => line.includes(` name=${name} `) && / cmd=xread\b/.test(line))) return;
    if (Date.now() > until)
      throw new Error(`the Redis streams adapter did not start reading within ${CONNECT_TIMEOUT_MS} ms`);
    await new Promise((resolve) => setTimeout(resolve, 20));
  }
}
