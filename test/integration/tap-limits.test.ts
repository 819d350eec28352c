/**
 * A tap client that tries to exhaust or stall the relay (sockets on /tap with
 * the relay's token, as a malicious local process could open): what it sends
 * is kept under an agent run's caps, a batch and `tap:open` have limits, a big
 * batch is applied in slices, browsers are shown a short command line. And an
 * honest tap's batches always fit those limits.
 */
import { io, type Socket } from "socket.io-client";
import { afterAll, afterEach, beforeAll, describe, expect, it } from "vitest";
import { TAP_BATCH_CHARS, TAP_BATCH_EVENTS, type TapEvent, type TapInfo } from "../../lib/contracts/tap-wire";
import { TapSink } from "../../server/tap/tap-sink";
import { startTestRelay, TestClient, waitUntil, type TestRelay } from "../relay-harness";

const REPLAY_BYTES = 64 * 1024;
const STDERR_BYTES = 16 * 1024;
const open = { profile: "hostile", command: "x", args: [] as string[], cwd: "/", pid: 1 };

let relay: TestRelay;
const closers: (() => void)[] = [];
beforeAll(async () => {
  relay = await startTestRelay({ graceMs: 500, replayBytes: REPLAY_BYTES, stderrBytes: STDERR_BYTES });
});
afterEach(() => {
  for (const close of closers.splice(0)) close();
});
afterAll(() => relay.close());

let tapIds = 0;
/** A raw socket on /tap, as any process holding the token could open. */
async function tapSocket(): Promise<{ socket: Socket; id: string }> {
  const id = (++tapIds).toString(16).padStart(16, "a");
  const socket = io(`${relay.url}/tap`, {
    auth: { token: "test-token", tapId: id },
    transports: ["websocket"],
    reconnection: false,
    forceNew: true,
  });
  closers.push(() => socket.close());
  await new Promise<void>((resolve, reject) => {
    socket.once("connect", resolve);
    socket.once("connect_error", reject);
  });
  return { socket, id };
}

async function viewer(clientId: string): Promise<TestClient> {
  const c = new TestClient(relay.url, { token: "test-token", clientId });
  closers.push(() => c.close());
  await c.connected();
  return c;
}

const lineEvent = (raw: string): TapEvent => ({ t: "line", ts: Date.now(), dir: "from-agent", raw });
const notification = (i: number, pad = 0) =>
  JSON.stringify({ jsonrpc: "2.0", method: "n", params: { i, pad: "x".repeat(pad) } });

describe("a hostile tap", () => {
  it("keeps a tapped conversation's frames and stderr under an agent run's byte caps", async () => {
    const { socket, id } = await tapSocket();
    expect(await socket.emitWithAck("tap:open", open)).toMatchObject({ ok: true });
    // 40 batches, each a 32 KiB line and 8 KiB of stderr: 20 times the frame cap, 20 times the stderr cap.
    for (let n = 1; n <= 40; n++) {
      const events = [lineEvent(notification(n, 32 * 1024)), { t: "stderr", ts: Date.now(), text: "e".repeat(8192) }];
      expect(await socket.emitWithAck("tap:events", { n, events })).toEqual({ ok: true, n });
    }
    // A browser attaching now is sent what is kept: the newest frames and stderr, within the caps.
    const late = await viewer(`tap-${id}-late`);
    await late.waitFor(() => late.frames.some((f) => f.seq === 40), "the newest frame");
    const frameChars = late.frames.reduce((n, f) => n + f.raw.length, 0);
    expect(frameChars).toBeLessThanOrEqual(REPLAY_BYTES);
    expect(late.frames.length).toBeLessThan(40);
    expect(late.stderr.join("").length).toBeLessThanOrEqual(STDERR_BYTES);
    expect(late.stderr.length).toBeGreaterThan(0);
    expect(relay.server.relay.taps.sessions.get(id)!.keptChars.frames).toBeLessThanOrEqual(REPLAY_BYTES);
  });

  it("refuses a batch of too many events or characters, and applies a big one in slices, in order", async () => {
    const { socket, id } = await tapSocket();
    expect(await socket.emitWithAck("tap:open", open)).toMatchObject({ ok: true });
    const watching = await viewer(`tap-${id}-w`);
    const messages: number[] = [];
    watching.socket.on("frames", (frames) => messages.push(frames.length));

    const tooMany = Array.from({ length: TAP_BATCH_EVENTS + 1 }, (_, i) => lineEvent(notification(i)));
    const refused = await socket.emitWithAck("tap:events", { n: 1, events: tooMany });
    expect(refused).toMatchObject({ ok: false, error: { code: "invalid_payload" } });
    expect(refused.error.message).toMatch(/events: .*1000/);
    const tooLong = [lineEvent(notification(0, TAP_BATCH_CHARS / 2)), lineEvent(notification(1, TAP_BATCH_CHARS / 2))];
    const refusedChars = await socket.emitWithAck("tap:events", { n: 1, events: tooLong });
    expect(refusedChars).toMatchObject({ ok: false, error: { code: "invalid_payload" } });
    expect(refusedChars.error.message).toMatch(/characters/);
    expect(relay.server.relay.taps.sessions.get(id)!.log).toHaveLength(0);

    // One long line alone is a batch of its own.
    expect(await socket.emitWithAck("tap:events", { n: 1, events: tooLong.slice(0, 1) })).toEqual({ ok: true, n: 1 });
    // A full batch is applied a slice per event-loop turn: browsers get its frames in several messages.
    const full = Array.from({ length: TAP_BATCH_EVENTS }, (_, i) => lineEvent(notification(i)));
    await waitUntil(() => messages.length === 1, "the long line");
    expect(await socket.emitWithAck("tap:events", { n: 2, events: full })).toEqual({ ok: true, n: 2 });
    await waitUntil(() => watching.frames.length === TAP_BATCH_EVENTS + 1, "every frame");
    expect(messages.length).toBeGreaterThanOrEqual(1 + 4);
    expect(Math.max(...messages)).toBeLessThanOrEqual(250);
    expect(watching.frames.map((f) => f.seq)).toEqual(watching.frames.map((_, i) => i + 1));
    expect(watching.frames.slice(1).map((f) => (f.message as { params: { i: number } }).params.i)).toEqual(
      full.map((_, i) => i),
    );
  });

  it("refuses tap:open fields beyond the limits, and shows browsers a short command line", async () => {
    const { socket, id } = await tapSocket();
    for (const bad of [
      { args: Array.from({ length: 300 }, () => "a") },
      { args: Array.from({ length: 10 }, () => "a".repeat(7 * 1024)) },
      { args: ["a".repeat(9000)] },
      { cwd: "/".repeat(5000) },
      { command: "c".repeat(5000) },
    ])
      expect(await socket.emitWithAck("tap:open", { ...open, ...bad })).toMatchObject({
        ok: false,
        error: { code: "invalid_payload" },
      });
    // Within the limits (60 KB of arguments), but browsers get only enough to tell taps apart.
    const args = Array.from({ length: 200 }, (_, i) => `--arg-${i}=${"v".repeat(290)}`);
    const browser = new TestClient(relay.url, { token: "test-token", watch: "taps" });
    closers.push(() => browser.close());
    await browser.connected();
    const listed = new Promise<TapInfo>((resolve) =>
      browser.socket.on("taps" as never, ({ taps }: { taps: TapInfo[] }) => {
        const tap = taps.find((t) => t.id === id);
        if (tap) resolve(tap);
      }),
    );
    expect(await socket.emitWithAck("tap:open", { ...open, args })).toMatchObject({ ok: true });
    const tap = await listed;
    expect(JSON.stringify(tap).length).toBeLessThan(2_500);
    expect(tap.agent.args.at(-1)).toBe("… 192 more");
    expect(tap.agent.args[0]).toMatch(/^--arg-0=v+…$/);
    // The transcript keeps the command line whole.
    await waitUntil(() => relay.server.relay.transcripts.read(tap.agent.transcriptId!) !== undefined, "recording");
    expect(relay.server.relay.transcripts.read(tap.agent.transcriptId!)).toContain(args[199]);
  });
});

describe("an honest tap", () => {
  it("sends batches within the relay's limits: many small lines and a long stderr chunk arrive whole", async () => {
    const reports: string[] = [];
    const sink = new TapSink({
      tapId: "0fedcba987654321",
      open: { ...open, args: Array.from({ length: 300 }, () => "a".repeat(300)) },
      relay: { url: relay.url, token: "test-token" },
      dataDir: relay.config.dataDir,
      bufferBytes: 64 * 1024 * 1024,
      maxLineBytes: relay.config.maxLineBytes,
      flushTimeoutMs: 10_000,
      secrets: [],
      report: (m) => reports.push(m),
      inject: () => {},
    });
    const lines = 3 * TAP_BATCH_EVENTS;
    for (let i = 0; i < lines; i++) sink.push(lineEvent(notification(i)));
    sink.push({ t: "stderr", ts: Date.now(), text: "é".repeat(200 * 1024) });
    sink.push({ t: "exit", ts: Date.now(), code: 0, signal: null });
    await sink.close();
    expect(reports.join("\n")).not.toMatch(/refused|could not be forwarded/);
    const session = relay.server.relay.taps.sessions.get("0fedcba987654321")!;
    // Every line made a frame (the log keeps only the newest, under this relay's small caps).
    expect(session.recording.sequencer.seq).toBe(lines);
    expect(session.exit).toEqual({ code: 0, signal: null });
    // Clipped by the tap to what tap:open may carry, so the relay took it.
    expect(session.info.agent.args.at(-1)).toMatch(/^… \d+ more$/);
    expect(relay.server.relay.transcripts.read(session.info.agent.transcriptId!)).toMatch(/… \d+ more arguments/);
  });
});
