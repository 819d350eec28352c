/**
 * The relay's state for one browser session: at most one agent process, its
 * frame log (kept for re-attaching after a reload) and the socket watching it.
 */
import type { Socket } from "socket.io";
import type { Frame, WireFrame } from "../lib/frame";
import { secretsFromEnv } from "../lib/redact";
import { withMessage } from "../lib/frame-log";
import { FrameSequencer } from "../lib/frame-sequencer";
import { RecordedClient } from "../lib/recorded-agent";
import { parseTranscript } from "../lib/transcript";
import type { TranscriptKind } from "../lib/transcript-meta";
import type {
  Ack,
  AgentInfo,
  ClientToServerEvents,
  PendingRequestInfo,
  RelayError,
  ServerToClientEvents,
  StartPayload,
  StderrEvent,
} from "../lib/wire";
import { AgentAnswerer } from "./agent-answerer";
import { SpawnError, type AgentProcess } from "./agent-process";
import { ClientServices } from "./client-services";
import type { ServerConfig } from "./config";
import type { Profiles } from "./profiles";
import { startAgent, type RemoteAgent } from "./remote-agent";
import { TranscriptRecorder } from "./transcript-recorder";
import type { TranscriptStore } from "./transcript-store";
import { resolveCwd } from "./workspace";

export type RelaySocket = Socket<ClientToServerEvents, ServerToClientEvents>;

const RESEND_BATCH = 2_000;
/** Past a cap, trim to this share of it, so trimming is amortised O(1) per frame. */
const TRIM_TO = 0.9;

/** What the log keeps and the socket carries: the parsed message is dropped (clients parse `raw`). */
const withoutMessage = ({ message: _message, ...frame }: Frame): WireFrame => frame;

const isError = (v: unknown): v is RelayError => typeof v === "object" && v !== null && "code" in v;

export class BrowserSession {
  private process?: AgentProcess | RemoteAgent;
  private agent: AgentInfo | null = null;
  /** The start under way, so that a stop can wait for it. */
  private starting?: Promise<Ack<{ agent: AgentInfo }>>;
  private sequencer = new FrameSequencer();
  private log: WireFrame[] = [];
  /** Characters of `raw` held in `log` (a frame's size is its line's). */
  private logBytes = 0;
  private stderr: StderrEvent[] = [];
  private stderrBytes = 0;
  private outbox: WireFrame[] = [];
  private flushScheduled = false;
  /** Frames logged but not yet shown to the answerer and the listeners. */
  private undispatched: Frame[] = [];
  private dispatching = false;
  private socket?: RelaySocket;
  private graceTimer?: NodeJS.Timeout;
  private timeoutWatch?: NodeJS.Timeout;
  private recorder?: TranscriptRecorder;
  /** A replayed agent's requests are answered from its recording, not by the policies. */
  private replayed?: RecordedClient;
  /** Answers the agent's requests by policy. */
  readonly answerer = new AgentAnswerer((line) => this.send(line));
  /** See every frame as it is made (a re-run, the CLI and the probe follow the agent this way). */
  private readonly frameListeners = new Set<(frame: Frame) => void>();
  private readonly exitListeners = new Set<() => void>();

  constructor(
    private id: string,
    private readonly config: ServerConfig,
    private readonly profiles: Profiles,
    private readonly transcripts: TranscriptStore,
    /** Called once this session holds nothing worth keeping. */
    private onDisposed: (session: BrowserSession) => void,
  ) {}

  get clientId(): string {
    return this.id;
  }

  get agentInfo(): AgentInfo | null {
    return this.agent;
  }

  /** A warm pooled session becomes a browser's session. */
  adopt(clientId: string, onDisposed: (session: BrowserSession) => void): void {
    this.id = clientId;
    this.onDisposed = onDisposed;
    this.exitListeners.clear();
    if (this.agent) this.agent = { ...this.agent, pooled: true };
  }

  /** Called once the current agent has exited; returns the way to stop listening. */
  onExit(listener: () => void): () => void {
    this.exitListeners.add(listener);
    return () => this.exitListeners.delete(listener);
  }

  get running(): boolean {
    return this.process?.running ?? false;
  }

  get attached(): boolean {
    return this.socket?.connected ?? false;
  }

  attach(socket: RelaySocket, lastSeq: number): void {
    clearTimeout(this.graceTimer);
    this.graceTimer = undefined;
    this.flush();
    this.socket = socket;
    const first = this.log[0]?.seq ?? this.sequencer.seq + 1;
    const from = Math.max(lastSeq + 1, first);
    const missed = Math.max(0, first - 1 - lastSeq);
    socket.emit("agent:attached", {
      agent: this.running ? this.agent : null,
      lastSeq: this.sequencer.seq,
      missed,
      firstSeq: first,
      policies: this.answerer.current,
    });
    for (const event of this.stderr) socket.emit("agent:stderr", event);
    const start = this.log.findIndex((f) => f.seq >= from);
    if (start === -1) return;
    for (let i = start; i < this.log.length; i += RESEND_BATCH) {
      socket.emit("frames", this.log.slice(i, i + RESEND_BATCH));
    }
  }

  detach(socket: RelaySocket): void {
    if (this.socket !== socket) return;
    this.flush();
    this.socket = undefined;
    if (!this.running && !this.starting && this.log.length === 0) {
      this.dispose();
      return;
    }
    this.graceTimer = setTimeout(() => {
      void this.stop().finally(() => this.dispose());
    }, this.config.graceMs);
    this.graceTimer.unref();
  }

  /** `workspace`: a directory the server made itself (the probe's throw-away one), used as is. */
  /** `kind`: what the recording is tagged with in the transcript list. */
  start(payload: StartPayload, workspace?: string, kind?: TranscriptKind): Promise<Ack<{ agent: AgentInfo }>> {
    if (this.running || this.starting) {
      return Promise.resolve({
        ok: false,
        error: { code: "agent_running", message: "an agent is already running; stop it first" },
      });
    }
    this.starting = this.spawnAgent(payload, workspace, kind);
    return this.starting;
  }

  private async spawnAgent(
    payload: StartPayload,
    workspace?: string,
    kind?: TranscriptKind,
  ): Promise<Ack<{ agent: AgentInfo }>> {
    try {
      const profile = payload.profile ?? this.config.defaultProfile;
      const launch = await this.profiles.resolve(profile, payload.options);
      if (isError(launch)) return this.fail(launch);
      const cwd = workspace ?? (await resolveCwd(payload.cwd, this.config.workspaceRoots));
      if (typeof cwd !== "string") return this.fail(cwd);
      // Before the spawn: the replayed agent's first request must not reach the policies.
      const recording = launch.replay === undefined ? undefined : this.transcripts.read(launch.replay);
      if (launch.replay !== undefined && recording === undefined)
        return this.fail({ code: "unknown_profile", message: `unknown profile: ${profile} (no such transcript)` });
      this.replayed = recording === undefined ? undefined : new RecordedClient(parseTranscript(recording).frames);

      this.sequencer = new FrameSequencer();
      this.log = [];
      this.logBytes = 0;
      this.stderr = [];
      this.stderrBytes = 0;
      const recorder = new TranscriptRecorder(
        this.transcripts,
        { profile, command: launch.command, args: launch.args, cwd, options: payload.options },
        secretsFromEnv({ ...globalThis.process.env, ...launch.env }),
        kind,
      );
      const services = new ClientServices(cwd, {
        killGraceMs: this.config.killGraceMs,
        maxReadBytes: this.config.maxReadBytes,
        terminalOutputBytes: this.config.terminalOutputBytes,
      });
      let process: AgentProcess | RemoteAgent;
      try {
        process = await startAgent(
          { ...launch, cwd, maxLineBytes: this.config.maxLineBytes, killGraceMs: this.config.killGraceMs },
          {
            onLine: (event) =>
              this.queue(
                event.type === "line"
                  ? this.sequencer.line("from-agent", event.text)
                  : this.sequencer.invalid(
                      "from-agent",
                      event.preview,
                      `line of ${event.bytes} bytes exceeds the maximum of ${this.config.maxLineBytes} and was dropped`,
                    ),
              ),
            onStderr: (text) => {
              const event = { ts: Date.now(), text };
              this.stderr.push(event);
              this.stderrBytes += text.length;
              recorder.stderr(event.ts, text);
              if (this.stderrBytes > this.config.stderrBytes) this.trimStderr();
              this.socket?.emit("agent:stderr", event);
            },
            onTransport: (text) => {
              recorder.lifecycle({ event: "transport", message: text });
              this.socket?.emit("agent:transport", { ts: Date.now(), text });
            },
            onExit: (code, signal) => {
              clearInterval(this.timeoutWatch);
              this.flush();
              if (this.process === process) this.process = undefined;
              const unanswered = this.pendingRequests();
              if (unanswered.length > 0) {
                const error: RelayError = {
                  code: "process_exited",
                  message: `the agent exited (${signal ?? `code ${code}`}) with ${unanswered.length} request${unanswered.length > 1 ? "s" : ""} unanswered: ${unanswered.map((r) => `${r.method} (id ${r.id})`).join(", ")}`,
                  data: { requests: unanswered, code, signal },
                };
                recorder.lifecycle({ event: "error", message: error.message });
                this.socket?.emit("agent:error", error);
              }
              recorder.lifecycle({ event: "exited", code, signal });
              void services.dispose();
              recorder.close();
              this.socket?.emit("agent:exit", { code, signal });
              for (const listener of this.exitListeners) listener();
              if (!this.socket && !this.graceTimer) this.dispose();
            },
          },
        );
      } catch (err) {
        if (err instanceof SpawnError) recorder.lifecycle({ event: "error", message: err.message });
        recorder.close();
        throw err;
      }
      this.recorder = recorder;
      this.answerer.reset(services);
      this.watchTimeouts();
      recorder.lifecycle({ event: "spawned", pid: process.pid });
      this.process = process;
      this.agent = {
        profile,
        pid: process.pid,
        command: launch.command,
        args: launch.args,
        cwd,
        transcriptId: recorder.id,
      };
      this.socket?.emit("agent:started", this.agent);
      return { ok: true, agent: this.agent };
    } catch (err) {
      if (err instanceof SpawnError) return this.fail(err.relayError);
      return this.fail({ code: "internal", message: (err as Error).message });
    } finally {
      this.starting = undefined;
    }
  }

  private fail(error: RelayError): { ok: false; error: RelayError } {
    this.socket?.emit("agent:error", error);
    return { ok: false, error };
  }

  send(line: string): Ack<{ seq: number }> {
    const process = this.process;
    if (!process?.running) return { ok: false, error: { code: "no_agent", message: "no agent is running" } };
    const frame = this.sequencer.line("to-agent", line);
    this.queue(frame);
    if (!process.write(line)) {
      return { ok: false, error: { code: "process_exited", message: "the agent's stdin is closed" } };
    }
    return { ok: true, seq: frame.seq };
  }

  async stop(): Promise<void> {
    // A stop during a start stops the agent that start brings up.
    await this.starting;
    if (this.process?.running) this.recorder?.lifecycle({ event: "stopping" });
    await this.process?.stop();
  }

  /** Requests sent to the agent and not answered, oldest first. */
  private pendingRequests(): PendingRequestInfo[] {
    const now = performance.now();
    return this.sequencer.correlator
      .unanswered("to-agent")
      .map((r) => ({ id: r.id, method: r.method, seq: r.seq, ageMs: Math.round(now - r.at) }));
  }

  /** Tells the user about requests the agent leaves unanswered too long (turns excepted). */
  private watchTimeouts(): void {
    const reported = new Set<number>();
    const timeoutMs = this.config.requestTimeoutMs;
    this.timeoutWatch = setInterval(
      () => {
        for (const r of this.sequencer.correlator.overdue("to-agent", performance.now(), timeoutMs)) {
          if (r.method === "session/prompt" || reported.has(r.seq)) continue;
          reported.add(r.seq);
          this.socket?.emit("agent:error", {
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

  onFrame(listener: (frame: Frame) => void): () => void {
    this.frameListeners.add(listener);
    return () => this.frameListeners.delete(listener);
  }

  /** The current agent's frames (its whole log, up to the replay cap), without `message`. */
  get frames(): readonly WireFrame[] {
    return this.log;
  }

  /** The same frames with their messages parsed again: for the occasional whole-log reader. */
  framesWithMessages(): Frame[] {
    return this.log.map((frame) => withMessage({ ...frame }));
  }

  private queue(frame: Frame): void {
    this.recorder?.frame(frame);
    // Keeping 100,000 parsed messages alive would cost memory and GC time on the hot path.
    const lean = withoutMessage(frame);
    this.log.push(lean);
    this.logBytes += lean.raw.length;
    // Trim in batches so the hot path stays O(1) amortised.
    if (this.log.length > this.config.replayFrames * 1.1 || this.logBytes > this.config.replayBytes) this.trimLog();
    // The outbox holds the log's own frame objects and is emptied every tick.
    this.outbox.push(lean);
    if (!this.flushScheduled) {
      this.flushScheduled = true;
      setImmediate(() => this.flush());
    }
    this.undispatched.push(frame);
    if (this.dispatching) return;
    // A policy or a listener may send a frame while seeing this one: that frame waits its turn,
    // so the answerer and every listener see frames in seq order, as the log does.
    this.dispatching = true;
    try {
      for (let next = this.undispatched.shift(); next; next = this.undispatched.shift()) {
        if (this.replayed) {
          // Never carried out here, never through the policies (a re-run answers as recorded itself).
          if (next.dir === "from-agent" && next.kind === "request" && next.method && !this.answerer.suspended)
            this.send(this.replayed.answer(next.id!, next.method));
        } else if (next.kind === "request" || next.kind === "response") this.answerer.track(next);
        for (const listener of this.frameListeners) listener(next);
      }
    } finally {
      this.dispatching = false;
    }
  }

  /** Drops the oldest frames down to below both caps; a re-attaching client is told of the gap (`missed`). */
  private trimLog(): void {
    const { replayFrames } = this.config;
    const bytes = this.config.replayBytes * TRIM_TO;
    let drop = this.log.length > replayFrames * 1.1 ? this.log.length - replayFrames : 0;
    let kept = this.logBytes;
    for (let i = 0; i < drop; i++) kept -= this.log[i]!.raw.length;
    while (drop < this.log.length && kept > bytes) kept -= this.log[drop++]!.raw.length;
    this.log.splice(0, drop);
    this.logBytes = kept;
  }

  private trimStderr(): void {
    const bytes = this.config.stderrBytes * TRIM_TO;
    let drop = 0;
    while (drop < this.stderr.length && this.stderrBytes > bytes) this.stderrBytes -= this.stderr[drop++]!.text.length;
    this.stderr.splice(0, drop);
  }

  /** What this session holds for re-attaching clients, in characters (frames' raw lines, stderr). */
  get keptBytes(): { frames: number; stderr: number } {
    return { frames: this.logBytes, stderr: this.stderrBytes };
  }

  private flush(): void {
    this.flushScheduled = false;
    if (this.outbox.length === 0) return;
    const frames = this.outbox;
    this.outbox = [];
    this.socket?.emit("frames", frames);
  }

  private dispose(): void {
    clearTimeout(this.graceTimer);
    this.onDisposed(this);
  }
}
