/**
 * Watchers that never read (issue #37's fourth security review): anyone with a watch link may open
 * many connections and read none of them. What waits for them is bounded: a late watcher is resent
 * the newest part of the log, not all of it, and a watcher that falls too far behind is dropped,
 * so the relay (and the owner's session in it) never holds a copy of the stream per stuck watcher.
 */
import path from "node:path";
import WebSocket from "ws";
import { io } from "socket.io-client";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { liveBytes } from "../heap";
import { startTestRelay, TestClient, waitUntil, type TestRelay } from "../relay-harness";
import { WATCH_RESEND_CHARS, watchRoom } from "../../server/http/watch-links";

const agent = path.resolve(import.meta.dirname, "../fixtures/bench-agent.mjs");
/** Frames the agent bursts, each padded to about 2 KB: about 32 MiB in all. */
const FRAMES = 15_000;

let relay: TestRelay;
const closers: (() => void)[] = [];

const MiB = 2 ** 20;

beforeAll(async () => {
  relay = await startTestRelay({
    profiles: { bench: { command: process.execPath, args: [agent, "burst", String(FRAMES), "0", "2000"], env: {} } },
  });
});

afterAll(async () => {
  for (const close of closers.splice(0)) close();
  await relay?.close();
});

/** A watcher that connects (Engine.IO over a WebSocket), then never reads again. */
async function stuckWatcher(token: string): Promise<void> {
  const ws = new WebSocket(`${relay.url.replace("http", "ws")}/socket.io/?EIO=4&transport=websocket`);
  closers.push(() => ws.terminate());
  await new Promise<void>((resolve, reject) => {
    ws.on("error", reject);
    ws.on("message", (data) => {
      const text = (data as Buffer).toString();
      if (text.startsWith("0")) ws.send(`40${JSON.stringify({ watchLink: token })}`);
      else if (text.startsWith("40")) {
        // Connected: from now on nothing is read (the relay's writes pile up unless it stops them).
        (ws as unknown as { _socket: { pause(): void } })._socket.pause();
        resolve();
      } else if (text.startsWith("44")) reject(new Error(text));
    });
  });
}

describe("watchers that never read", () => {
  it("cost the relay a bounded amount each, live frames and a late attach alike", async () => {
    // The owner keeps nothing it is sent (this process's memory is the relay's to measure), but the burst's end.
    const owner = io(relay.url, { auth: { token: "test-token" }, transports: ["websocket"], forceNew: true });
    closers.push(() => owner.close());
    let clientId: string | undefined;
    let done = false;
    owner.on("relay:hello", (e: { clientId: string }) => (clientId = e.clientId));
    owner.on("frames", (frames: { raw: string }[]) => {
      if (frames.some((f) => f.raw.includes("bench/done"))) done = true;
    });
    await waitUntil(() => clientId !== undefined, "hello");
    expect(await owner.emitWithAck("agent:start", { profile: "bench" })).toMatchObject({ ok: true });
    const res = await fetch(`${relay.url}/api/watch`, {
      method: "POST",
      headers: { authorization: "Bearer test-token", "content-type": "application/json" },
      body: JSON.stringify({ clientId }),
    });
    const { token } = (await res.json()) as { token: string };
    const room = () => relay.server.relay.io.sockets.adapter.rooms.get(watchRoom(token))?.size ?? 0;

    // Six stuck watchers, then the agent streams about 32 MiB.
    for (let i = 0; i < 10; i++) await stuckWatcher(token);
    expect(room()).toBe(10);
    const before = liveBytes();
    expect(await owner.emitWithAck("agent:send", { frame: { jsonrpc: "2.0", method: "go" } })).toMatchObject({
      ok: true,
    });
    await waitUntil(() => done, "the burst's end", 120_000);
    // Let the last batches leave the outbox and the relay look at its watchers.
    await new Promise((r) => setTimeout(r, 1_000));
    const streamed = (liveBytes() - before) / MiB;
    // The owner's own log keeps the burst (about 32 MiB); stuck watchers may add little to it.
    console.log(`ten stuck watchers of a 32 MiB burst: +${streamed.toFixed(0)} MiB live`);
    expect(streamed).toBeLessThan(65);
    expect(room(), "the stuck watchers were dropped").toBe(0);

    // Ten more arrive late, each to be sent the log so far, and read none of it.
    const late = liveBytes();
    for (let i = 0; i < 10; i++) await stuckWatcher(token);
    const attached = (liveBytes() - late) / MiB;
    console.log(`ten late stuck watchers of a 32 MiB log: +${attached.toFixed(0)} MiB live`);
    expect(attached).toBeLessThan(150);
    // Each was sent the newest of the log only: within what a watcher may have waiting, so still watching.
    expect(room()).toBe(10);

    // A watcher that reads gets the newest of the log and what follows.
    const reader = new TestClient(relay.url, { watchLink: token });
    closers.push(() => reader.close());
    await reader.connected();
    await reader.frame((f) => f.method === "bench/done", "the newest frame, resent");
    const resent = reader.frames.reduce((n, f) => n + f.raw.length, 0);
    expect(resent).toBeLessThanOrEqual(WATCH_RESEND_CHARS);
    expect(resent).toBeGreaterThan(WATCH_RESEND_CHARS / 2);
  }, 240_000);
});
