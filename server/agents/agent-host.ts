/**
 * One agent at a time, whatever is attached to it: resolves the profile, checks
 * the typed environment, starts the agent (a process, a remote agent, or anything
 * a Connector reaches) with its run (server/agents/agent-run.ts: sequencer,
 * recorder, services, log), sends and stops, answers the agent's requests
 * (policies, or a replay's recording) and tells its watchers and listeners of
 * every frame in seq order. Headless: a browser's session attaches sockets to it
 * (server/http/browser-session.ts); the CLI, the warm pool, probes and compare
 * drive it from code.
 */
import type { Frame, WireFrame } from "../../lib/protocol/frame";
import { forProtocol, protocolOf } from "../../lib/protocol/protocols";
import { type AuthMethodView, checkUserEnv, initializeAuthMethods } from "../../lib/features/connect/auth-methods";
import { createRedactor, secretsFromEnv } from "../../lib/features/library/redact";
import { withMessage } from "../../lib/folds/frame-log";
import { RecordedClient } from "../../lib/features/library/recorded-agent";
import { DoctorWatch, STOPS_THE_AGENT, type Finding } from "../../lib/features/connect/doctor";
import { parseTranscript } from "../../lib/contracts/transcript";
import type { TranscriptKind } from "../../lib/contracts/transcript-meta";
import { ok, type Result } from "../../lib/protocol/result";
import {
  invalidPayload,
  type Ack,
  type AgentInfo,
  type RelayError,
  type ServerToClientEvents,
  type StartPayload,
} from "../../lib/contracts/wire";
import { AgentAnswerer } from "./agent-answerer";
import type { Connector } from "./agent-connection";
import { SpawnError } from "./agent-process";
import { failureOf, RelayFailure } from "../relay-failure";
import { AgentRun } from "./agent-run";
import type { AttachableLog } from "./attachable-log";
import { ClientServices } from "./client-services";
import type { ServerConfig } from "../config";
import { removeScratch, type Profiles } from "./profiles";
import { childEnv } from "../process-group";
import { v2ProcessConnect } from "./v2-process-line";
import type { V2Connect } from "../../lib/features/probe-v2/connection";
import { startAgent } from "./remote-agent";
import { TranscriptRecorder } from "../transcripts/transcript-recorder";
import type { TranscriptStore } from "../transcripts/transcript-store";
import { resolveCwd } from "../workspace";

/** The events a watcher hears besides frames. */
type HostEvent = "agent:started" | "agent:stderr" | "agent:transport" | "agent:error" | "agent:exit";

/** Whoever shows the agent (a browser's Attachment): lean frames as they are made, then the other events. */
export interface HostWatcher {
  frame(lean: WireFrame): void;
  emit<E extends HostEvent>(event: E, ...args: Parameters<ServerToClientEvents[E]>): void;
}

export class AgentHost {
  /** The current (or last) agent run; an empty one before the first start. */
  private run: AgentRun;
  /** The start under way, so that a stop can wait for it. */
  private starting?: Promise<Ack<{ agent: AgentInfo }>>;
  /** Frames logged but not yet shown to the answerer and the listeners. */
  private undispatched: Frame[] = [];
  private dispatching = false;
  /** The auth methods the last agent listed in `initialize`, by profile: what a start's `env` may set. */
  private authMethods?: { profile: string; methods: AuthMethodView[] };
  /** Answers the agent's requests by policy. */
  readonly answerer = new AgentAnswerer((frame) => this.send(frame));
  private readonly watchers = new Set<HostWatcher>();
  /** See every frame as it is made (a re-run, the CLI and the probe follow the agent this way). */
  private readonly frameListeners = new Set<(frame: Frame) => void>();
  private readonly exitListeners = new Set<() => void>();
  /** The doctor watching the current agent's frames: what it is certain of is said at once (lib/features/connect/doctor.ts). */
  private doctor = new DoctorWatch();
  private readonly findingListeners = new Set<(finding: Finding) => void>();
  /** Whose its recordings are (a named token's owner, server/http/identities.ts); none for the relay's own token. */
  owner: string | undefined;

  constructor(
    private readonly config: ServerConfig,
    private readonly profiles: Profiles,
    private readonly transcripts: TranscriptStore,
    /** How an agent is reached: spawned or connected by default; an in-memory pair in tests. */
    private readonly connect: Connector = startAgent,
  ) {
    this.run = new AgentRun(config);
    this.onFrame((frame) => this.checkup(frame));
  }

  /** Hears the doctor's early findings about the current agent (stray stdout, an echo), each once. */
  onFinding(listener: (finding: Finding) => void): () => void {
    this.findingListeners.add(listener);
    return () => this.findingListeners.delete(listener);
  }

  /** An agent that echoes its input is no agent: stopped (its whole process group) rather than left running. */
  private checkup(frame: Frame): void {
    const finding = this.doctor.push(frame);
    if (!finding) return;
    for (const listener of this.findingListeners) listener(finding);
    if (STOPS_THE_AGENT.has(finding.kind)) void this.stop();
  }

  get agentInfo(): AgentInfo | null {
    return this.run.info ?? null;
  }

  /** This agent came from the warm pool: its log starts with the pool's initialize. */
  markPooled(): void {
    if (this.run.info) this.run.info = { ...this.run.info, pooled: true };
    this.run.parts?.recorder.claim();
  }

  get running(): boolean {
    return this.run.running;
  }

  /** The current agent runs elsewhere (a URL profile), while what it asks the client to do runs here. */
  get remote(): boolean {
    return this.run.process?.remote ?? false;
  }

  /** Nothing runs, nothing starts, nothing is kept: nothing to keep this host for. */
  get idle(): boolean {
    return !this.running && !this.starting && this.run.log.length === 0;
  }

  /** What the current agent's transcript redacts (its environment's secrets, typed values): watchers never see them. */
  get secrets(): readonly string[] {
    return this.run.parts?.secrets ?? [];
  }

  /** The current run's log, for attaching clients. */
  get log(): AttachableLog {
    return this.run.kept;
  }

  /** Hears every lean frame and event from now on; returns the way to stop. */
  watch(watcher: HostWatcher): () => void {
    this.watchers.add(watcher);
    return () => this.watchers.delete(watcher);
  }

  /** Called once the current agent has exited; returns the way to stop listening. */
  onExit(listener: () => void): () => void {
    this.exitListeners.add(listener);
    return () => this.exitListeners.delete(listener);
  }

  onFrame(listener: (frame: Frame) => void): () => void {
    this.frameListeners.add(listener);
    return () => this.frameListeners.delete(listener);
  }

  private emit<E extends HostEvent>(event: E, ...args: Parameters<ServerToClientEvents[E]>): void {
    for (const watcher of this.watchers) watcher.emit(event, ...args);
  }

  /** `workspace`: a directory the server made itself (the probe's throw-away one), used as is. */
  /** `kind`: what the recording is tagged with in the transcript list. */
  /**
   * Fresh agents of a profile, one process each, line by line, in `cwd`: for a probe that isolates
   * its scenarios one agent each (ACP v2's). Resolved at each open, so unused it costs nothing; a
   * remote or replayed profile has no process to start.
   */
  freshAgents(payload: StartPayload, cwd: string): V2Connect {
    return async () => {
      const resolved = await this.profiles.resolve(payload.profile ?? this.config.defaultProfile, payload.options);
      if (!resolved.ok) throw new RelayFailure(resolved.error);
      const launch = resolved.value;
      if (launch.remote || launch.replay) {
        removeScratch(launch);
        const message = `${launch.profile}: a ${launch.remote ? "remote" : "replayed"} agent cannot be started afresh`;
        throw new RelayFailure({ code: "spawn_failed", message });
      }
      const line = await v2ProcessConnect({
        command: launch.command,
        args: launch.args,
        cwd,
        env: childEnv(launch.env).env as NodeJS.ProcessEnv,
      })();
      return { ...line, close: () => line.close().finally(() => removeScratch(launch)) };
    };
  }

  start(payload: StartPayload, workspace?: string, kind?: TranscriptKind): Promise<Ack<{ agent: AgentInfo }>> {
    if (this.running || this.starting) {
      return Promise.resolve({
        ok: false,
        error: { code: "agent_running", message: "an agent is already running; stop it first" },
      });
    }
    this.starting = this.startAgent(payload, workspace, kind);
    return this.starting;
  }

  private async startAgent(
    payload: StartPayload,
    workspace?: string,
    kind?: TranscriptKind,
  ): Promise<Ack<{ agent: AgentInfo }>> {
    try {
      const profile = payload.profile ?? this.config.defaultProfile;
      const resolved = await this.profiles.resolve(profile, payload.options);
      if (!resolved.ok) return this.fail(resolved.error);
      const launch = resolved.value;
      const checked = this.checkEnv(profile, payload.env);
      if (!checked.ok) {
        removeScratch(launch);
        return this.fail(checked.error);
      }
      const userEnv = checked.value;
      Object.assign(launch.env, userEnv);
      const cwd = workspace ?? (await resolveCwd(payload.cwd, this.config.workspaceRoots));
      if (typeof cwd !== "string") {
        removeScratch(launch);
        return this.fail(cwd);
      }
      // Before the spawn: the replayed agent's first request must not reach the policies.
      const recording = launch.replay?.jsonl;
      const transcript = recording === undefined ? undefined : parseTranscript(recording);
      const replayed = transcript && new RecordedClient(transcript.frames, protocolOf(transcript.header.agent));

      // Typed values are secrets whatever their name: never in a transcript.
      const secrets = [...Object.values(userEnv), ...secretsFromEnv({ ...globalThis.process.env, ...launch.env })];
      const recorder = new TranscriptRecorder(
        this.transcripts,
        {
          profile,
          command: launch.command,
          args: launch.args,
          cwd,
          options: payload.options,
          ...(launch.protocol ? { protocol: launch.protocol } : {}),
        },
        secrets,
        kind,
      );
      if (this.owner) this.transcripts.own(recorder.id, this.owner);
      const services = new ClientServices(cwd, {
        dataDir: this.config.dataDir,
        killGraceMs: this.config.killGraceMs,
        maxReadBytes: this.config.maxReadBytes,
        terminalOutputBytes: this.config.terminalOutputBytes,
      });
      // The new run starts taking frames now: the first may come before the connection resolves.
      const run = new AgentRun(this.config, {
        recorder,
        services,
        replayed,
        secrets,
        typedSecrets: Object.values(userEnv),
        ...(launch.protocol ? { protocol: launch.protocol } : {}),
      });
      this.run = run;
      this.doctor = new DoctorWatch();
      // Before the agent's first frame: its requests meet its own services and, until its
      // client's initialize, no advertised capability (never the last agent's).
      this.answerer.reset(services, launch.protocol);
      try {
        run.process = await this.connect(
          { ...launch, cwd, maxLineBytes: this.config.maxLineBytes, killGraceMs: this.config.killGraceMs },
          {
            onLine: (event) => this.queue(run.sequencer.lineEvent("from-agent", event, this.config.maxLineBytes)),
            onStderr: (text) => this.emit("agent:stderr", run.keepStderr({ ts: Date.now(), text })),
            onTransport: (text) => {
              const event = { ts: Date.now(), text };
              run.keepTransport(event);
              this.emit("agent:transport", event);
            },
            onExit: (code, signal) => {
              const unanswered = run.pendingRequests();
              if (unanswered.length > 0) {
                const error: RelayError = {
                  code: "process_exited",
                  message: `the agent exited (${signal ?? `code ${code}`}) with ${unanswered.length} request${unanswered.length > 1 ? "s" : ""} unanswered: ${unanswered.map((r) => `${r.method} (id ${r.id})`).join(", ")}`,
                  data: { requests: unanswered, code, signal },
                };
                recorder.lifecycle({ event: "error", message: error.message });
                this.emit("agent:error", error);
              }
              recorder.lifecycle({ event: "exited", code, signal });
              run.dispose();
              removeScratch(launch);
              this.emit("agent:exit", { code, signal });
              for (const listener of this.exitListeners) listener();
            },
          },
        );
      } catch (err) {
        if (err instanceof SpawnError) recorder.lifecycle({ event: "error", message: err.message });
        run.dispose();
        removeScratch(launch);
        throw err;
      }
      run.watchTimeouts((error) => this.emit("agent:error", error));
      recorder.lifecycle({ event: "spawned", pid: run.process.pid });
      run.info = {
        profile,
        pid: run.process.pid,
        command: launch.command,
        args: launch.args,
        cwd,
        transcriptId: recorder.id,
        ...(launch.protocol ? { protocol: launch.protocol } : {}),
      };
      this.emit("agent:started", run.info);
      return { ok: true, agent: run.info };
    } catch (err) {
      // A SpawnError's words are the asker's; a file system's or a database's, the relay's log's.
      return this.fail(failureOf(err, "agent:start"));
    } finally {
      this.starting = undefined;
    }
  }

  /**
   * A start's `env` (values the user typed for an `env_var` auth method): only
   * variables one `env_var` method of this profile's agent named whose names
   * look like credentials, never a loader or runtime variable (lib/features/connect/auth-methods
   * checkUserEnv). The browser is not trusted to have checked.
   */
  private checkEnv(
    profile: string,
    env: Record<string, string> | undefined,
  ): Result<Record<string, string>, RelayError> {
    if (!env || Object.keys(env).length === 0) return ok({});
    const methods = this.authMethods?.profile === profile ? this.authMethods.methods : [];
    const names = Object.keys(env);
    const method = methods.find((m) => m.type === "env_var" && names.every((n) => m.vars.some((v) => v.name === n)));
    if (!method) {
      const message = `env: ${names.join(", ")} ${names.length > 1 ? "are" : "is"} not named by an env_var auth method of "${profile}" (Connect once to see its methods)`;
      return invalidPayload(message);
    }
    const checked = checkUserEnv(method, env);
    return checked.ok ? checked : invalidPayload(`env: ${checked.error}`);
  }

  private fail(error: RelayError): { ok: false; error: RelayError } {
    this.emit("agent:error", error);
    return { ok: false, error };
  }

  /** Writes a line as is, or a message object in the agent's protocol (lib/protocol/protocols.ts forProtocol). */
  send(message: string | object): Ack<{ seq: number }> {
    const { process, sequencer } = this.run;
    const line = typeof message === "string" ? message : JSON.stringify(forProtocol(sequencer.protocol, message));
    if (!process?.running) return { ok: false, error: { code: "no_agent", message: "no agent is running" } };
    const refused = this.answerer.refusal(line);
    if (refused) return { ok: false, error: refused };
    const frame = sequencer.line("to-agent", line);
    this.queue(frame);
    if (!process.write(line)) {
      return { ok: false, error: { code: "process_exited", message: "the agent's stdin is closed" } };
    }
    return { ok: true, seq: frame.seq };
  }

  /** Closes the agent's stdin, nothing more: false when its connection has no input of its own to close. */
  endInput(): boolean {
    const { process } = this.run;
    if (!process?.running || !process.endInput) return false;
    process.endInput();
    return true;
  }

  async stop(): Promise<void> {
    // A stop during a start stops the agent that start brings up.
    await this.starting;
    const { process, parts } = this.run;
    if (process?.running) parts?.recorder.lifecycle({ event: "stopping" });
    await process?.stop();
  }

  /** The current agent's frames (its whole log, up to the replay cap), without `message`. */
  get frames(): readonly WireFrame[] {
    return this.run.log;
  }

  /** The same frames with their messages parsed again: for the occasional whole-log reader. */
  framesWithMessages(): Frame[] {
    return this.run.log.map((frame) => withMessage({ ...frame }));
  }

  /** The frames as the recorder wrote them (redacted), to compare with a recording like for like. */
  framesAsRecorded(): Frame[] {
    const redactor = createRedactor(this.run.parts?.secrets ?? []);
    return this.run.log.map((frame) => withMessage({ ...frame, raw: redactor.frame(frame.raw).text }));
  }

  private queue(frame: Frame): void {
    const lean = this.run.keep(frame);
    for (const watcher of this.watchers) watcher.frame(lean);
    // After the watchers: the sockets' emit (scheduled first) leaves before the transcript's write.
    this.run.record(frame);
    this.undispatched.push(frame);
    if (this.dispatching) return;
    // A policy or a listener may send a frame while seeing this one: that frame waits its turn,
    // so the answerer and every listener see frames in seq order, as the log does.
    this.dispatching = true;
    try {
      for (let next = this.undispatched.shift(); next; next = this.undispatched.shift()) {
        const replayed = this.run.replayed;
        if (replayed) {
          // Never carried out here, never through the policies (a re-run answers as recorded itself).
          if (next.dir === "from-agent" && next.kind === "request" && next.method && !this.answerer.suspended)
            this.send(replayed.answer(next.id!, next.method));
        } else if (next.kind !== "invalid") this.answerer.track(next); // notifications: the agent's $/cancel_request
        const methods = this.run.info && initializeAuthMethods(next);
        if (methods) this.authMethods = { profile: this.run.info!.profile, methods };
        for (const listener of this.frameListeners) listener(next);
      }
    } finally {
      this.dispatching = false;
    }
  }

  /** What this host holds for re-attaching clients, in characters (frames' raw lines, stderr). */
  get keptChars(): { frames: number; stderr: number } {
    return { frames: this.run.kept.frameChars, stderr: this.run.kept.stderrChars };
  }
}
