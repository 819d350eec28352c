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
const STREAM = "acp-playground";
/**
 * Entries older than this are trimmed too: the length cap alone bounds entries, not bytes, so a
 * stream with little live traffic would keep every remote watcher's resent log. With the resend
 * budgets (watch-links.ts) this bounds the bytes that resends hold in Redis.
 */
export const STREAM_MAX_AGE_MS = 60_000;
/** How often the stream is trimmed by age, and this instance's links listed again. */
const TRIM_MS = 10_000;
/** How long a link stays listed in Redis without its instance listing it again (a crashed instance's links go). */
const LINK_TTL_S = 60;
/** A link held by some instance: a key of its own, so that any instance asks Redis, not every instance. */
export const linkKey = (token: string) => `${STREAM}:watch:${token}`;

export interface LiveCluster {
  /** Whether Redis answers now: while it does not, watch links broadcast on this instance only. */
  readonly up: boolean;
  /** Hears every change of `up`. */
  onChange(listener: (up: boolean) => void): void;
  /** This instance's watch links, listed in Redis for the other instances (again after an outage). */
  readonly links: {
    /** Lists a new link; resolves once Redis has it (at once while Redis is away). */
    add(token: string): Promise<void>;
    /** Unlists an ended link; resolves once Redis has dropped it (at once while Redis is away: then once it is back). */
    delete(token: string): Promise<void>;
    /** Whether any instance lists this link: one command to Redis, no other instance asked. */
    listed(token: string): Promise<boolean>;
  };
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
  client.on("ready", () => {
    set(true);
    void relist();
  });
  const mine = new Set<string>();
  /** Links ended while Redis could not be told: still listed there until it is (else found for LINK_TTL_S). */
  const ended = new Set<string>();
  const list = (token: string) => client.set(linkKey(token), "1", { EX: LINK_TTL_S }).then(() => {});
  const unlist = (token: string) =>
    client.del(linkKey(token)).then(
      () => void ended.delete(token),
      () => void ended.add(token),
    );
  // Redis may have come back empty, or let a key expire while unreachable.
  const relist = () => Promise.all([...[...mine].map(list), ...[...ended].map(unlist)]).catch(() => {});
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
  io.adapter(createAdapter(client, { streamName: STREAM, maxLen: STREAM_MAX_LEN, blockTimeInMs: 1_000 }));
  await readerBlocked(client, name);
  const trimming = setInterval(() => {
    if (!up) return;
    void relist();
    void trimByAge(client).catch(() => {});
  }, TRIM_MS).unref();
  return {
    get up() {
      return up;
    },
    onChange(listener) {
      listeners.add(listener);
    },
    links: {
      async add(token) {
        mine.add(token);
        if (up) await list(token).catch(() => {});
      },
      async delete(token) {
        mine.delete(token);
        ended.add(token);
        if (up) await unlist(token);
      },
      async listed(token) {
        return (await client.exists(linkKey(token))) === 1;
      },
    },
    async close() {
      clearInterval(trimming);
      listeners.clear();
      if (client.isOpen) await Promise.all([...mine].map((token) => client.del(linkKey(token)))).catch(() => {});
      if (client.isOpen) await client.close().catch(() => client.destroy());
    },
  };
}

/** Drops the stream's entries older than STREAM_MAX_AGE_MS by Redis's clock (entry ids are its milliseconds). */
async function trimByAge(client: { sendCommand(args: string[]): Promise<unknown> }): Promise<void> {
  const [seconds, micros] = (await client.sendCommand(["TIME"])) as [string, string];
  const now = Number(seconds) * 1_000 + Math.floor(Number(micros) / 1_000);
  await client.sendCommand(["XTRIM", STREAM, "MINID", String(now - STREAM_MAX_AGE_MS)]);
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
