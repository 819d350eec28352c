import { afterEach, describe, expect, it, vi } from "vitest";
import type { WireFrame } from "../../lib/protocol/frame";
import { AttachableLog, RESEND_BATCH } from "../agents/attachable-log";
import { Attachment, FrameOutbox, type AttachedSocket } from "./attachment";

const frame = (seq: number, raw = "x".repeat(10)): WireFrame => ({
  seq,
  ts: seq,
  dir: "from-agent",
  raw,
  kind: "invalid",
});
const caps = { replayFrames: 100_000, replayBytes: Infinity, stderrBytes: 1_000 };
const nextTurn = () => new Promise((resolve) => setImmediate(resolve));

/** A socket that records what it is sent: [event, payload] pairs, frames as their seqs. */
function fakeSocket() {
  const sent: [string, unknown][] = [];
  const socket = {
    connected: true,
    emit: (event: string, payload: unknown) => {
      sent.push([event, event === "frames" ? (payload as WireFrame[]).map((f) => f.seq) : payload]);
      return true;
    },
  };
  return { socket: socket as unknown as AttachedSocket & { connected: boolean }, sent };
}

describe("Attachment", () => {
  afterEach(() => vi.useRealTimers());

  it("tells an attaching socket where the log stands, then resends the stderr and the frames after its lastSeq", () => {
    const log = new AttachableLog(caps);
    for (let seq = 1; seq <= RESEND_BATCH + 3; seq++) log.pushFrame(frame(seq));
    log.pushStderr({ ts: 1, text: "err\n" });
    log.pushTransport({ ts: 2, text: "HTTP 200" });
    const { socket, sent } = fakeSocket();
    new Attachment().attach(socket, 2, log, { agent: null, policies: {} });
    expect(sent[0]).toEqual([
      "agent:attached",
      {
        agent: null,
        policies: {},
        lastSeq: RESEND_BATCH + 3,
        firstSeq: 1,
        missed: 0,
        transport: [{ ts: 2, text: "HTTP 200" }],
      },
    ]);
    expect(sent[1]).toEqual(["agent:stderr", { ts: 1, text: "err\n" }]);
    expect(sent.slice(2).map(([, seqs]) => (seqs as number[]).length)).toEqual([RESEND_BATCH, 1]);
    expect((sent[2]![1] as number[])[0]).toBe(3);
  });

  it("sends frames once per turn to every socket, and any other event after the frames before it", async () => {
    const attachment = new Attachment();
    const a = fakeSocket();
    const b = fakeSocket();
    const log = new AttachableLog(caps);
    attachment.attach(a.socket, 0, log, { agent: null, policies: {} });
    attachment.attach(b.socket, 0, log, { agent: null, policies: {} });
    attachment.frame(frame(1));
    attachment.frame(frame(2));
    attachment.emit("agent:exit", { code: 0, signal: null });
    attachment.frame(frame(3));
    await nextTurn();
    for (const { sent } of [a, b])
      expect(sent.slice(1)).toEqual([
        ["frames", [1, 2]],
        ["agent:exit", { code: 0, signal: null }],
        ["frames", [3]],
      ]);
    attachment.detach(b.socket);
    attachment.frame(frame(4));
    await nextTurn();
    expect(a.sent.at(-1)).toEqual(["frames", [4]]);
    expect(b.sent.at(-1)).toEqual(["frames", [3]]);
  });

  it("calls abandoned once the grace period after the last socket leaves is over, unless one attaches in time", () => {
    vi.useFakeTimers({ toFake: ["setTimeout", "clearTimeout"] });
    const abandoned = vi.fn();
    const attachment = new Attachment({ ms: 1_000, abandoned });
    const log = new AttachableLog(caps);
    const { socket } = fakeSocket();
    attachment.attach(socket, 0, log, { agent: null, policies: {} });
    expect(attachment.detach(socket)).toBe(true);
    expect(attachment.detach(socket)).toBe(false);
    expect(attachment.abandoning).toBe(true);
    vi.advanceTimersByTime(999);
    attachment.attach(socket, 0, log, { agent: null, policies: {} });
    expect(attachment.abandoning).toBe(false);
    vi.advanceTimersByTime(10_000);
    expect(abandoned).not.toHaveBeenCalled();
    attachment.detach(socket);
    vi.advanceTimersByTime(1_000);
    expect(abandoned).toHaveBeenCalledTimes(1);
  });

  it("without a grace period, the last socket leaving starts nothing", () => {
    const attachment = new Attachment();
    const { socket } = fakeSocket();
    attachment.attach(socket, 0, new AttachableLog(caps), { agent: null, policies: {} });
    attachment.detach(socket);
    expect(attachment.abandoning).toBe(false);
    expect(attachment.watched).toBe(false);
  });
});

describe("FrameOutbox", () => {
  it("sends the frames of one event-loop turn as one batch, in order", async () => {
    const sent: number[][] = [];
    const outbox = new FrameOutbox((frames) => sent.push(frames.map((f) => f.seq)));
    for (let seq = 1; seq <= 3; seq++) outbox.push(frame(seq));
    expect(sent).toEqual([]);
    await nextTurn();
    outbox.push(frame(4));
    await nextTurn();
    expect(sent).toEqual([[1, 2, 3], [4]]);
  });

  it("flush sends what waits at once, and nothing when nothing waits", async () => {
    const sent: number[][] = [];
    const outbox = new FrameOutbox((frames) => sent.push(frames.map((f) => f.seq)));
    outbox.push(frame(1));
    outbox.flush();
    expect(sent).toEqual([[1]]);
    await nextTurn();
    outbox.flush();
    expect(sent).toEqual([[1]]);
  });
});
