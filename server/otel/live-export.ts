/**
 * `serve --otlp`: live sessions sent as they happen (docs/otel.md). The recorder hands each line it
 * writes to a sink here (server/transcripts/recording-observer.ts), which only queues it; the
 * mapping and the sending run later, off the frame path, and never hold a session up:
 *
 * - each recording's queue is bounded (MAX_QUEUED_FRAMES); a session that outruns it stops being
 *   exported (its spans would be wrong without the frames left out) and the log says so;
 * - spans wait for the endpoint in one bounded queue (MAX_QUEUED_SPANS), one request in flight;
 *   while the endpoint is down or refusing, batches are dropped, counted, and said once per outage.
 */
import type { AddressInfo } from "node:net";
import type { Frame } from "../../lib/protocol/frame";
import type { LifecycleEvent, TranscriptHeader } from "../../lib/contracts/transcript";
import { createRedactor, secretsFromEnv } from "../../lib/features/library/redact";
import { SessionSpans, type SessionSpanOptions } from "../../lib/features/otel/session-spans";
import type { TraceSpan } from "../../lib/features/otel/trace-span";
import type { RecordingObserver, RecordingSink } from "../transcripts/recording-observer";
import { headersOf, OtlpSender, protocolOf, tracesUrl, type OtlpTarget } from "./otlp-sender";
import { BATCH_SPANS, exportRecording, type ExportSummary } from "./export-recording";

export const MAX_QUEUED_FRAMES = 50_000;
export const MAX_QUEUED_SPANS = 10_000;
/** How long the relay's close waits for the last spans to go out. */
const CLOSE_WAIT_MS = 3_000;
/** Frames mapped per turn of the event loop, so a burst does not hold the loop. */
const FRAMES_PER_TICK = 500;

/** Recordings sent live: the user's sessions and tapped conversations, not probes or warm-up runs. */
const LIVE_KINDS = new Set([undefined, "session", "tapped", "rerun", "compare"]);

type Queued =
  { frame: Frame; raw: string; redacted: number; ts: number } | { lifecycle: LifecycleEvent } | { close: true };

export interface LiveExportOptions extends Omit<SessionSpanOptions, "salt" | "linkBase"> {
  /** The playground's address for the frames' links; a function when the port is known only once listening. */
  linkBase: string | (() => string);
  /** Where problems are said (the server's log). */
  log?: (line: string) => void;
}

export class LiveOtlpExport implements RecordingObserver {
  readonly #sender: OtlpSender;
  readonly #options: LiveExportOptions;
  readonly #log: (line: string) => void;
  #spans: TraceSpan[] = [];
  #sending: Promise<void> | undefined;
  #down = false;
  /** Spans dropped since the last report. */
  #dropped = 0;
  /** Spans accepted by the endpoint, in all (a figure for tests and the log). */
  sent = 0;
  #idle: Array<() => void> = [];
  readonly #sinks = new Set<LiveSink>();

  readonly #protocol: string;

  constructor(sender: OtlpSender, options: LiveExportOptions, protocol = "http/protobuf") {
    this.#sender = sender;
    this.#protocol = protocol;
    this.#options = options;
    this.#log = options.log ?? ((line) => console.warn(line));
  }

  get url(): string {
    return this.#sender.url;
  }

  /** What the HTTP API says of it (GET /api/otlp). */
  get info(): { url: string; protocol: string; content: boolean } {
    return { url: this.#sender.url, protocol: this.#protocol, content: this.#options.content === true };
  }

  /** A finished recording, sent the way `export --otlp` sends it ("Send to" in the transcripts pages). */
  exportFile(file: string, transcriptId: string, onProgress?: (sent: number) => void): Promise<ExportSummary> {
    return exportRecording(file, this.#sender, this.#spanOptions(), onProgress, transcriptId);
  }

  #spanOptions(): SessionSpanOptions {
    const { linkBase, content, redact } = this.#options;
    return { linkBase: typeof linkBase === "string" ? linkBase : linkBase(), content, redact };
  }

  open(header: TranscriptHeader): RecordingSink | undefined {
    if (!LIVE_KINDS.has(header.kind)) return undefined;
    const mapper = new SessionSpans(
      {
        transcriptId: header.id,
        profile: header.agent.profile,
        protocol: header.agent.protocol,
        model: typeof header.agent.options?.model === "string" ? header.agent.options.model : undefined,
      },
      this.#spanOptions(),
    );
    const sink = new LiveSink(header.id, mapper, this);
    this.#sinks.add(sink);
    return sink;
  }

  /** @internal A sink's spans, queued for the endpoint. */
  take(spans: TraceSpan[]): void {
    if (!spans.length) return;
    const room = MAX_QUEUED_SPANS - this.#spans.length;
    if (room < spans.length) this.#drop(spans.length - Math.max(0, room), "the queue is full");
    this.#spans.push(...spans.slice(0, Math.max(0, room)));
    this.#pump();
  }

  /** @internal */
  say(line: string): void {
    this.#log(`OTLP export: ${line}`);
  }

  /** @internal */
  closed(sink: LiveSink): void {
    this.#sinks.delete(sink);
    this.#settle();
  }

  #drop(n: number, why: string): void {
    if (this.#dropped === 0) this.say(`${n} spans dropped (${why}); the sessions go on, unaffected`);
    this.#dropped += n;
  }

  #pump(): void {
    if (this.#sending || !this.#spans.length) return this.#settle();
    const batch = this.#spans.splice(0, BATCH_SPANS);
    this.#sending = this.#sender.send(batch).then(
      () => {
        this.sent += batch.length;
        if (this.#down) this.say(`${this.url} takes spans again (${this.#dropped} were dropped meanwhile)`);
        this.#down = false;
        this.#dropped = 0;
      },
      (err: Error) => {
        if (!this.#down) this.say(`${err.message}; dropping spans until it answers`);
        this.#down = true;
        this.#dropped += batch.length;
      },
    );
    void this.#sending.finally(() => {
      this.#sending = undefined;
      this.#pump();
    });
  }

  #settle(): void {
    if (this.#sending || this.#spans.length || [...this.#sinks].some((s) => s.busy)) return;
    for (const resolve of this.#idle.splice(0)) resolve();
  }

  /** Resolves once every queued frame is mapped and every span sent or dropped (tests, shutdown). */
  idle(): Promise<void> {
    return new Promise((resolve) => {
      this.#idle.push(resolve);
      this.#settle();
    });
  }

  /** Maps what is queued and sends it, waiting at most CLOSE_WAIT_MS for an endpoint that hangs. */
  async close(): Promise<void> {
    for (const sink of this.#sinks) sink.close();
    let timer: NodeJS.Timeout | undefined;
    await Promise.race([this.idle(), new Promise((resolve) => (timer = setTimeout(resolve, CLOSE_WAIT_MS)))]);
    clearTimeout(timer);
    await this.#sender.shutdown();
  }
}

class LiveSink implements RecordingSink {
  readonly #id: string;
  readonly #mapper: SessionSpans;
  readonly #owner: LiveOtlpExport;
  #queue: Queued[] = [];
  #scheduled = false;
  /** Stopped: the queue overflowed, or the recording closed and was mapped. */
  #stopped = false;

  constructor(id: string, mapper: SessionSpans, owner: LiveOtlpExport) {
    this.#id = id;
    this.#mapper = mapper;
    this.#owner = owner;
  }

  get busy(): boolean {
    return this.#queue.length > 0;
  }

  frame(frame: Frame, raw: string, redacted: number, ts: number): void {
    this.#push({ frame, raw, redacted, ts });
  }

  lifecycle(event: LifecycleEvent): void {
    this.#push({ lifecycle: event });
  }

  close(): void {
    this.#push({ close: true });
  }

  #push(q: Queued): void {
    if (this.#stopped) return;
    if (this.#queue.length >= MAX_QUEUED_FRAMES && !("close" in q)) {
      this.#stopped = true;
      this.#queue = [];
      this.#owner.say(
        `transcript ${this.#id} is no longer sent live: more than ${MAX_QUEUED_FRAMES} frames waited to be mapped (send it later with acp-playground export --otlp)`,
      );
      this.#owner.closed(this);
      return;
    }
    this.#queue.push(q);
    if (!this.#scheduled) {
      this.#scheduled = true;
      setImmediate(() => this.#drain());
    }
  }

  #drain(): void {
    this.#scheduled = false;
    const batch = this.#queue.splice(0, FRAMES_PER_TICK);
    const out: TraceSpan[] = [];
    let closed = false;
    for (const q of batch) {
      if ("frame" in q) {
        // As the file holds it: the redacted line, re-read only when a redaction changed it.
        const message = q.redacted > 0 ? parse(q.raw) : q.frame.message;
        out.push(...this.#mapper.add({ ...q.frame, raw: q.raw, ts: q.ts, message }));
      } else if ("lifecycle" in q) {
        out.push(...this.#mapper.lifecycle(q.lifecycle));
      } else {
        out.push(...this.#mapper.finish());
        closed = true;
      }
    }
    this.#owner.take(out);
    if (closed) {
      this.#stopped = true;
      this.#queue = [];
      this.#owner.closed(this);
    } else if (this.#queue.length) {
      this.#scheduled = true;
      setImmediate(() => this.#drain());
    }
  }
}

function parse(raw: string): unknown {
  try {
    return JSON.parse(raw);
  } catch {
    return undefined;
  }
}

/**
 * The live export `serve` was asked for: ACP_PLAYGROUND_OTLP (set by `serve --otlp URL`) or the
 * standard OTEL_EXPORTER_OTLP_TRACES_ENDPOINT / OTEL_EXPORTER_OTLP_ENDPOINT; undefined when none is set.
 */
export function liveExportFromEnv(
  env: Record<string, string | undefined>,
  where: { host: string; port: number },
  server?: { address(): AddressInfo | string | null },
): LiveOtlpExport | undefined {
  const endpoint = env.ACP_PLAYGROUND_OTLP || env.OTEL_EXPORTER_OTLP_TRACES_ENDPOINT || env.OTEL_EXPORTER_OTLP_ENDPOINT;
  if (!endpoint) return undefined;
  const headers = env.ACP_PLAYGROUND_OTLP_HEADERS ? (JSON.parse(env.ACP_PLAYGROUND_OTLP_HEADERS) as string[]) : [];
  const target: OtlpTarget = {
    url: tracesUrl(endpoint),
    headers: headersOf(headers),
    protocol: protocolOf(env.ACP_PLAYGROUND_OTLP_PROTOCOL, env),
  };
  const redactor = createRedactor(secretsFromEnv(env));
  // The frames' links point at this server (an unspecified bind address is reached as localhost).
  const host =
    where.host === "0.0.0.0" || where.host === "::"
      ? "localhost"
      : where.host.includes(":")
        ? `[${where.host}]`
        : where.host;
  const live = new LiveOtlpExport(
    new OtlpSender(target),
    {
      linkBase: () => {
        const a = server?.address();
        return `http://${host}:${typeof a === "object" && a ? a.port : where.port}`;
      },
      content: env.ACP_PLAYGROUND_OTLP_CONTENT === "1",
      redact: (text) => redactor.text(text).text,
    },
    target.protocol,
  );
  console.log(
    `Sending sessions to ${target.url} as OpenTelemetry traces (${target.protocol}${env.ACP_PLAYGROUND_OTLP_CONTENT === "1" ? ", with message contents" : ""}).`,
  );
  return live;
}
