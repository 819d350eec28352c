/**
 * Where a tap's copies go: to the relay over Socket.IO, or, when no relay
 * runs, into a transcript of its own. Never in the way of the editor: copies
 * wait in a buffer capped in bytes, and beyond it they are dropped and
 * counted, never waited for. Secrets of the agent's environment are redacted
 * here, before anything leaves the tap: the relay does not know them.
 */
import { io, type Socket } from "socket.io-client";
import { createRedactor } from "../../lib/features/library/redact";
import {
  clipOpen,
  TAP_BATCH_CHARS,
  TAP_BATCH_EVENTS,
  TAP_NAMESPACE,
  TAP_PREVIEW_CHARS,
  TAP_STDERR_CHARS,
  tapEventChars,
  type TapBatch,
  type TapClientToServerEvents,
  type TapEvent,
  type TapOpen,
  type TapServerToClientEvents,
} from "../../lib/contracts/tap-wire";
import type { Ack } from "../../lib/contracts/wire";
import type { RelayTarget } from "./tap-discovery";
import { TapRecording } from "./tap-recording";
import { TranscriptStore } from "../transcripts/transcript-store";
import { redactBytes } from "../transcripts/redact-bytes";

type TapSocket = Socket<TapServerToClientEvents, TapClientToServerEvents>;

/** Unacknowledged bytes and batches on the socket before copies wait in the buffer instead. */
const IN_FLIGHT_BYTES = 1024 * 1024;
const IN_FLIGHT_BATCHES = 8;
/** How long copies gather before they are sent (the browser's view lags by at most this). */
const GATHER_MS = 10;

export interface SinkOptions {
  tapId: string;
  open: TapOpen;
  relay?: RelayTarget;
  /** Where to record when there is no relay. */
  dataDir: string;
  bufferBytes: number;
  maxLineBytes: number;
  /** How long, at exit, to wait for the relay to take what is buffered. */
  flushTimeoutMs: number;
  /** Values of the agent's secret-looking environment variables (lib/features/library/redact.ts's secretsFromEnv). */
  secrets: readonly string[];
  report(message: string): void;
  inject(line: string): void;
}

const sizeOf = (e: TapEvent): number =>
  e.t === "line"
    ? e.raw.length + (e.base64?.length ?? 0) + 64
    : e.t === "stderr"
      ? e.text.length + 48
      : e.t === "oversize"
        ? e.preview.length + 80
        : 64;
const isFrame = (e: TapEvent) => e.t === "line" || e.t === "oversize";

export class TapSink {
  private mode: "connecting" | "relay" | "away" | "local" = "connecting";
  private socket?: TapSocket;
  private queue: TapEvent[] = [];
  private queuedBytes = 0;
  private inFlight: { batch: TapBatch; bytes: number }[] = [];
  private inFlightBytes = 0;
  private batches = 0;
  /** Dropped since the last `dropped` event, and over the whole run. */
  private dropped = { frames: 0, bytes: 0 };
  private droppedTotal = { frames: 0, bytes: 0 };
  private local?: TapRecording;
  private pumpTimer?: NodeJS.Timeout;
  private drained?: () => void;
  private readonly redactor;
  /** `tap:open` as sent: within the relay's limits, redacted. */
  private readonly open: TapOpen;
  /** Whether the relay refused a batch already (said once). */
  private refused = false;
  transcriptId?: string;

  constructor(private readonly opts: SinkOptions) {
    this.redactor = createRedactor(opts.secrets);
    const open = clipOpen(opts.open);
    this.open = {
      ...open,
      args: this.redactor.args(open.args),
      command: this.text(open.command),
      cwd: this.text(open.cwd),
    };
    if (!opts.relay) {
      this.goLocal("no playground relay found");
      return;
    }
    const socket: TapSocket = io(`${opts.relay.url}${TAP_NAMESPACE}`, {
      auth: { token: opts.relay.token, tapId: opts.tapId },
      transports: ["websocket"],
      reconnectionDelayMax: 2_000,
    });
    this.socket = socket;
    socket.on("connect", () => {
      socket.emit("tap:open", this.open, (res) => {
        if (!res.ok) {
          opts.report(`the relay refused the tap: ${res.error.message}`);
          return this.goLocal("the relay refused the tap");
        }
        if (this.mode === "connecting") opts.report(`copying frames to the relay at ${opts.relay!.url}`);
        this.transcriptId = res.transcriptId;
        this.mode = "relay";
        // What was sent before a disconnect may not have arrived; the relay ignores batches it has.
        for (const { batch } of this.inFlight) socket.emit("tap:events", batch, (ack) => this.acked(ack, batch));
        this.pump();
      });
    });
    socket.on("connect_error", (err) => {
      if (this.mode === "connecting") this.goLocal(`the relay at ${opts.relay!.url} is not reachable (${err.message})`);
    });
    socket.on("disconnect", (reason) => {
      // "io client disconnect" is the tap's own close at exit.
      if (this.mode !== "relay" || reason === "io client disconnect") return;
      this.mode = "away";
      opts.report(`lost the relay (${reason}); frames still flow, copies wait (up to ${opts.bufferBytes} bytes)`);
    });
    socket.on("tap:inject", (event) => {
      if (typeof event?.line === "string") opts.inject(event.line);
    });
  }

  private text(text: string): string {
    return this.redactor.text(text).text;
  }

  push(event: TapEvent): void {
    if (this.mode === "local") {
      this.local?.apply(event);
      return;
    }
    const seen = this.redacted(event);
    if (seen.t !== "stderr" || seen.text.length <= TAP_STDERR_CHARS) return this.keep(seen);
    // The relay takes stderr in pieces (cut after redaction, so no secret is cut in two first);
    // a piece ends before a surrogate pair would be split.
    for (let i = 0; i < seen.text.length;) {
      let end = Math.min(i + TAP_STDERR_CHARS, seen.text.length);
      if (end < seen.text.length && /[\uD800-\uDBFF]/.test(seen.text[end - 1]!)) end--;
      this.keep({ ...seen, text: seen.text.slice(i, end) });
      i = end;
    }
  }

  /** Queues an event for the relay, or drops and counts it when the buffer is full. */
  private keep(event: TapEvent): void {
    const bytes = sizeOf(event);
    if (this.queuedBytes + this.inFlightBytes + bytes > this.opts.bufferBytes && event.t !== "exit") {
      if (this.droppedTotal.frames === 0 && this.dropped.frames === 0)
        this.opts.report(
          `the relay is not keeping up: dropping copies beyond ${this.opts.bufferBytes} bytes (counted)`,
        );
      if (isFrame(event)) {
        this.dropped.frames++;
        this.droppedTotal.frames++;
      }
      this.dropped.bytes += bytes;
      this.droppedTotal.bytes += bytes;
      return;
    }
    if (this.dropped.bytes > 0) {
      this.enqueue({ t: "dropped", ts: event.ts, ...this.dropped });
      this.dropped = { frames: 0, bytes: 0 };
    }
    this.enqueue(event);
  }

  /** What the relay may see of an event. */
  private redacted(event: TapEvent): TapEvent {
    switch (event.t) {
      case "line": {
        const raw = this.redactor.frame(event.raw).text;
        const base64 = event.base64 === undefined ? undefined : redactBytes(this.redactor, event.base64);
        return base64 === undefined ? { t: "line", ts: event.ts, dir: event.dir, raw } : { ...event, raw, base64 };
      }
      case "oversize":
        return { ...event, preview: this.text(event.preview).slice(0, TAP_PREVIEW_CHARS) };
      case "stderr":
        return { ...event, text: this.text(event.text) };
      default:
        return event;
    }
  }

  private enqueue(event: TapEvent): void {
    this.queue.push(event);
    this.queuedBytes += sizeOf(event);
    if (this.mode !== "relay") return;
    // A full batch goes at once; otherwise copies gather for a few ms, so a steady stream costs
    // the tap (and the relay) one emit per interval instead of one per chunk.
    if (this.queuedBytes >= TAP_BATCH_CHARS) this.pump();
    else if (!this.pumpTimer) this.pumpTimer = setTimeout(() => this.pump(), GATHER_MS);
  }

  private pump(): void {
    clearTimeout(this.pumpTimer);
    this.pumpTimer = undefined;
    const socket = this.socket;
    while (
      this.mode === "relay" &&
      socket?.connected &&
      this.queue.length > 0 &&
      this.inFlightBytes < IN_FLIGHT_BYTES &&
      this.inFlight.length < IN_FLIGHT_BATCHES
    ) {
      // Within the relay's limits on a batch (lib/contracts/tap-wire.ts): an event too big to share one goes alone.
      let bytes = 0;
      let chars = 0;
      let count = 0;
      while (count < this.queue.length && count < TAP_BATCH_EVENTS) {
        const next = tapEventChars(this.queue[count]!);
        if (count > 0 && chars + next > TAP_BATCH_CHARS) break;
        chars += next;
        bytes += sizeOf(this.queue[count++]!);
      }
      const batch: TapBatch = { n: ++this.batches, events: this.queue.splice(0, count) };
      this.queuedBytes -= bytes;
      this.inFlight.push({ batch, bytes });
      this.inFlightBytes += bytes;
      socket.emit("tap:events", batch, (ack) => this.acked(ack, batch));
    }
    this.checkDrained();
  }

  private acked(ack: Ack<{ n: number }>, batch: TapBatch): void {
    if (!ack.ok) {
      // Refused (not the contract, or the relay is behind): its copies are lost, counted like dropped ones.
      const at = this.inFlight.findIndex((f) => f.batch === batch);
      if (at === -1) return;
      const { bytes } = this.inFlight.splice(at, 1)[0]!;
      this.inFlightBytes -= bytes;
      const frames = batch.events.filter(isFrame).length;
      this.dropped.frames += frames;
      this.droppedTotal.frames += frames;
      this.dropped.bytes += bytes;
      this.droppedTotal.bytes += bytes;
      if (!this.refused) this.opts.report(`the relay refused copies: ${ack.error.message}`);
      this.refused = true;
    } else {
      while (this.inFlight.length > 0 && this.inFlight[0]!.batch.n <= ack.n)
        this.inFlightBytes -= this.inFlight.shift()!.bytes;
    }
    this.pump();
  }

  private checkDrained(): void {
    // While connecting, an empty queue is no answer yet: the relay may still refuse, and then the tap records.
    if (this.drained && this.mode !== "connecting" && this.queue.length === 0 && this.inFlight.length === 0)
      this.drained();
  }

  private goLocal(reason: string): void {
    if (this.local) return;
    this.socket?.close();
    this.socket = undefined;
    try {
      this.local = new TapRecording(
        new TranscriptStore(this.opts.dataDir, {}),
        this.open,
        this.opts.maxLineBytes,
        this.opts.secrets,
      );
    } catch (err) {
      this.opts.report(
        `${reason}, and recording on its own failed: ${(err as Error).message}; frames still flow, unrecorded`,
      );
      this.mode = "local";
      this.queue = [];
      this.queuedBytes = 0;
      return;
    }
    this.mode = "local";
    this.transcriptId = this.local.id;
    this.opts.report(`${reason}: recording to ${new TranscriptStore(this.opts.dataDir, {}).file(this.local.id)}`);
    const waiting = [...this.inFlight.flatMap((f) => f.batch.events), ...this.queue];
    this.inFlight = [];
    this.inFlightBytes = 0;
    this.queue = [];
    this.queuedBytes = 0;
    for (const event of waiting) this.local.apply(event);
    // A close waiting for the relay's answer has it now.
    this.drained?.();
  }

  /** Hands over what is buffered (waiting at most flushTimeoutMs for the relay), then reports what was lost. */
  async close(): Promise<void> {
    if (this.mode === "relay" || this.mode === "away" || this.mode === "connecting") {
      if (this.dropped.bytes > 0) {
        this.enqueue({ t: "dropped", ts: Date.now(), ...this.dropped });
        this.dropped = { frames: 0, bytes: 0 };
      }
      await new Promise<void>((resolve) => {
        const timer = setTimeout(resolve, this.opts.flushTimeoutMs);
        this.drained = () => {
          clearTimeout(timer);
          resolve();
        };
        this.pump();
      });
      this.drained = undefined;
    }
    if (this.mode === "connecting") this.goLocal("the relay did not answer in time");
    const unsent = [...this.inFlight.flatMap((f) => f.batch.events), ...this.queue].filter(isFrame).length;
    this.socket?.close();
    this.local?.close();
    const lost = this.droppedTotal.frames + unsent;
    if (lost > 0)
      this.opts.report(
        `${lost} frame${lost === 1 ? "" : "s"} could not be forwarded to the relay (${this.droppedTotal.frames} dropped when the buffer was full, ${unsent} still waiting at exit); the editor and the agent exchanged all of them`,
      );
  }
}
