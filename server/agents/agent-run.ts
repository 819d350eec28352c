/**
 * One agent run of a browser session: its process, the frame sequencer, the
 * transcript recorder, the fs/terminal services, the timeout watch, and the
 * frames and stderr kept for re-attaching clients (capped in bytes). Made by
 * each start, disposed when the process exits; its log outlives the process, so
 * a client that re-attaches after the exit still sees how the run ended.
 */
import type { Frame, WireFrame } from "../../lib/protocol/frame";
import { FrameSequencer } from "../../lib/protocol/frame-sequencer";
import { AGENT_METHODS } from "../../lib/protocol/methods";
import type { RecordedClient } from "../../lib/features/recorded-agent";
import { createRedactor } from "../../lib/features/redact";
import type { AgentInfo, PendingRequestInfo, RelayError, StderrEvent, TransportEvent } from "../../lib/contracts/wire";
import type { AgentProcess } from "./agent-process";
import type { ClientServices } from "./client-services";
import type { ServerConfig } from "../config";
import { ReplayLog, withoutMessage } from "./frame-log";
import type { RemoteAgent } from "./remote-agent";
import type { TranscriptRecorder } from "../transcripts/transcript-recorder";

/** A remote agent's transport events kept for re-attaching pages (reconnect loops are bounded by it). */
const TRANSPORT_KEPT = 200;

type Caps = Pick<ServerConfig, "replayFrames" | "replayBytes" | "stderrBytes" | "requestTimeoutMs">;

export interface RunParts {
  recorder: TranscriptRecorder;
  services: ClientServices;
  /** A replayed agent's requests are answered from its recording, not by the policies. */
  replayed?: RecordedClient;
  /** What the recorder redacts, so live frames can be compared with the recording like for like. */
  secrets: readonly string[];
  /** Values the user typed for an env_var auth method: redacted on the live path too. */
  typedSecrets?: readonly string[];
}

export class AgentRun {
  readonly sequencer = new FrameSequencer();
  /** Frames and stderr for re-attaching pages, under the replay caps (one implementation with taps). */
  private readonly kept: ReplayLog;
  /** A remote agent's transport events, newest last, for pages that re-attach. */
  transport: TransportEvent[] = [];
  process?: AgentProcess | RemoteAgent;
  info?: AgentInfo;
  private timeoutWatch?: NodeJS.Timeout;
  private disposed = false;

  /** Redacts typed auth values from what pages see; absent (no cost) when none were typed. */
  private readonly liveRedactor?: ReturnType<typeof createRedactor>;

  /** `parts` is absent for the empty run a session holds before its first start. */
  constructor(
    private readonly caps: Caps,
    readonly parts?: RunParts,
  ) {
    if (parts?.typedSecrets?.length) this.liveRedactor = createRedactor(parts.typedSecrets);
    this.kept = new ReplayLog(caps);
  }

  /** The frames kept for re-attaching clients, oldest first, without `message`. */
  get log(): WireFrame[] {
    return this.kept.frames;
  }

  /** Characters of `raw` held in `log`. */
  get logChars(): number {
    return this.kept.frameChars;
  }

  /** The stderr kept for re-attaching clients, oldest first. */
  get stderr(): StderrEvent[] {
    return this.kept.stderr;
  }

  /** Characters of `text` held in `stderr`. */
  get stderrChars(): number {
    return this.kept.stderrChars;
  }

  /** Sends a page attaching after `lastSeq` the stderr and the frames kept. */
  resend(socket: Parameters<ReplayLog["resend"]>[0], lastSeq: number): void {
    this.kept.resend(socket, lastSeq);
  }

  get running(): boolean {
    return this.process?.running ?? false;
  }

  get replayed(): RecordedClient | undefined {
    return this.parts?.replayed;
  }

  /** Logs and records a frame; returns the lean copy for the socket. */
  keep(frame: Frame): WireFrame {
    this.parts?.recorder.frame(frame);
    const lean = withoutMessage(frame);
    if (this.liveRedactor) lean.raw = this.liveRedactor.frame(lean.raw).text;
    this.kept.pushFrame(lean);
    return lean;
  }

  keepTransport(event: TransportEvent): void {
    this.parts?.recorder.lifecycle({ event: "transport", message: event.text });
    this.transport.push(event);
    if (this.transport.length > TRANSPORT_KEPT) this.transport.shift();
  }

  /** Keeps a stderr line (recorded as it came: the recorder redacts) and returns what pages may see. */
  keepStderr(event: StderrEvent): StderrEvent {
    this.parts?.recorder.stderr(event.ts, event.text);
    if (this.liveRedactor) event = { ...event, text: this.liveRedactor.text(event.text).text };
    this.kept.pushStderr(event);
    return event;
  }

  /** Requests sent to the agent and not answered, oldest first. */
  pendingRequests(): PendingRequestInfo[] {
    const now = performance.now();
    return this.sequencer.correlator
      .unanswered("to-agent")
      .map((r) => ({ id: r.id, method: r.method, seq: r.seq, ageMs: Math.round(now - r.at) }));
  }

  /** Tells `report` about requests the agent leaves unanswered too long (turns excepted). */
  watchTimeouts(report: (error: RelayError) => void): void {
    const reported = new Set<number>();
    const timeoutMs = this.caps.requestTimeoutMs;
    this.timeoutWatch = setInterval(
      () => {
        for (const r of this.sequencer.correlator.overdue("to-agent", performance.now(), timeoutMs)) {
          if (r.method === AGENT_METHODS.session_prompt || reported.has(r.seq)) continue;
          reported.add(r.seq);
          report({
            code: "request_timeout",
            message: `${r.method} (id ${r.id}) has had no answer for ${Math.round(timeoutMs / 1000)} s; the agent may be stuck: you can stop it`,
            data: {
              requests: [{ id: r.id, method: r.method, seq: r.seq, ageMs: Math.round(performance.now() - r.at) }],
            },
          });
        }
      },
      Math.min(1_000, timeoutMs),
    );
    this.timeoutWatch.unref();
  }

  /** The process is gone: stop watching, end its terminals, close its transcript. The log stays. */
  dispose(): void {
    if (this.disposed) return;
    this.disposed = true;
    clearInterval(this.timeoutWatch);
    if (this.process && !this.process.running) this.process = undefined;
    if (!this.parts) return;
    void this.parts.services.dispose();
    this.parts.recorder.close();
  }
}
