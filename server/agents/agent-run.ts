/**
 * One agent run of a host (server/agents/agent-host.ts): its connection, the frame sequencer, the
 * transcript recorder, the fs/terminal services, the timeout watch, and the
 * frames, stderr and transport events kept for re-attaching clients (capped). Made by
 * each start, disposed when the process exits; its log outlives the process, so
 * a client that re-attaches after the exit still sees how the run ended.
 */
import type { Frame, WireFrame } from "../../lib/protocol/frame";
import type { ProtocolName } from "../../lib/protocol/protocols";
import { FrameSequencer } from "../../lib/protocol/frame-sequencer";
import { AGENT_METHODS } from "../../lib/protocol/methods";
import type { RecordedClient } from "../../lib/features/library/recorded-agent";
import { createRedactor } from "../../lib/features/library/redact";
import type { AgentInfo, PendingRequestInfo, RelayError, StderrEvent, TransportEvent } from "../../lib/contracts/wire";
import type { AgentConnection } from "./agent-connection";
import type { ClientServices } from "./client-services";
import type { ServerConfig } from "../config";
import { AttachableLog, withoutMessage } from "./attachable-log";
import type { TranscriptRecorder } from "../transcripts/transcript-recorder";

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
  /** The protocol whose rules make a frame valid; ACP when absent. */
  protocol?: ProtocolName;
}

export class AgentRun {
  readonly sequencer: FrameSequencer;
  /** Frames, stderr and transport events for re-attaching pages, under the replay caps (as a tap's). */
  readonly kept: AttachableLog;
  process?: AgentConnection;
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
    this.sequencer = new FrameSequencer(undefined, parts?.protocol);
    if (parts?.typedSecrets?.length) this.liveRedactor = createRedactor(parts.typedSecrets);
    this.kept = new AttachableLog(caps);
  }

  /** The frames kept for re-attaching clients, oldest first, without `message`. */
  get log(): WireFrame[] {
    return this.kept.frames;
  }

  get running(): boolean {
    return this.process?.running ?? false;
  }

  get replayed(): RecordedClient | undefined {
    return this.parts?.replayed;
  }

  /** Logs a frame; returns the lean copy for the socket. */
  keep(frame: Frame): WireFrame {
    const lean = withoutMessage(frame);
    if (this.liveRedactor) lean.raw = this.liveRedactor.frame(lean.raw).text;
    this.kept.pushFrame(lean);
    return lean;
  }

  /**
   * Queues a frame for the transcript, written at the end of the event-loop turn. Called after
   * the frame is handed to the sockets, so their turn-end emit goes before the disk write.
   */
  record(frame: Frame): void {
    this.parts?.recorder.frame(frame);
  }

  keepTransport(event: TransportEvent): void {
    this.parts?.recorder.lifecycle({ event: "transport", message: event.text });
    this.kept.pushTransport(event);
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
