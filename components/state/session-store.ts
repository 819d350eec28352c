/**
 * One tab of the playground (or one playback) as one immutable snapshot, read
 * through useSyncExternalStore (use-session.ts). Composed of parts with one
 * lifetime each: the relay connection (the tab), the frame log (one agent's
 * log), the RPC client (one agent's requests), the sent history (the tab),
 * Connect (one handshake) and playback (a viewer). This class holds the
 * agent's status and routes the relay's events to the parts.
 */
import type { ConnectProgress } from "@/lib/features/connect/connect-steps";
import type { AuthChoice } from "@/lib/features/connect/handshake";
import type { Frame, JsonRpcId, WireFrame } from "@/lib/protocol/frame";
import type { Result } from "@/lib/protocol/result";
import type { RequestOptions } from "@/lib/protocol/request-port";
import type { TimelineEvent } from "@/lib/folds/frame-filter";
import { isObject } from "@/lib/protocol/json";
import type { RpcOutcome } from "@/lib/protocol/jsonrpc";
import type { Policies } from "@/lib/features/answers/policy";
import { specOf, specState } from "@/lib/features/protocols/registry";
import type { Ack, AgentInfo, AttachedEvent, RelayError, RelayInfo, TransportEvent } from "@/lib/contracts/wire";
import { connectAgent, type ConnectOptions } from "./connect";
import { emptyLogState, endWaiting, FrameLogState, type SnapshotHost } from "./frame-log-state";
import { Playback, type OfflineRecording } from "./playback";
import { openRelaySocket, RelayConnection, type OpenSocket } from "./relay-connection";
import { RpcClient } from "./rpc-client";
import { SentHistoryStorage } from "./sent-history-storage";
import { SnapshotStore } from "./snapshot-store";
import type { SendResult, SessionSnapshot } from "./snapshot";

import { selectProtocol } from "./frame-log-state";
export { FRAME_CAP, selectProtocol } from "./frame-log-state";
export { randomId } from "./relay-connection";
export { sentHistoryKey } from "./sent-history-storage";
export type { OfflineRecording } from "./playback";

/** Matches the relay's own stderr replay buffer. */
export const STDERR_CAP = 2_000;
/** Lifecycle events kept for the timeline. */
export const LIFECYCLE_CAP = 1_000;

/**
 * A remote agent's transport events resent on re-attach, merged into the timeline: those not
 * shown yet (a reconnect resends them all), in time order, within the cap.
 */
export function withTransportEvents(
  lifecycle: readonly TimelineEvent[],
  transport: readonly TransportEvent[],
): readonly TimelineEvent[] {
  const fresh = transport.filter(
    (t) => !lifecycle.some((e) => e.type === "transport" && e.ts === t.ts && e.text === t.text),
  );
  if (fresh.length === 0) return lifecycle;
  return [...lifecycle, ...fresh.map((t) => ({ ...t, type: "transport" as const }))]
    .sort((a, b) => a.ts - b.ts)
    .slice(-LIFECYCLE_CAP);
}

const INITIAL: SessionSnapshot = {
  connection: "idle",
  agent: { state: "not-started" },
  ...emptyLogState(0),
  stderr: [],
  lifecycle: [],
  history: [],
};

/** The session the prompt template and the composer address: the one opened last (new, load, resume, fork). */
export const selectSessionId = (s: SessionSnapshot): string | undefined => s.facts.sessionId;

/**
 * Where Connect lands and the prompt box prompts, by the agent's protocol's spec: ACP's session,
 * the app-server's thread (opened last). Its prompt client reads the conversation's state, never
 * the snapshot.
 */
export function selectPromptSessionId(s: SessionSnapshot): string | undefined {
  const protocol = selectProtocol(s);
  return specOf(protocol).promptClient.sessionId({
    facts: s.facts,
    conversation: specState(protocol, s.conversation),
  });
}

function describeAgent(agent: AgentInfo): string {
  return `${agent.profile} · pid ${agent.pid} · ${[agent.command, ...agent.args].join(" ")} · cwd ${agent.cwd}`;
}

export interface SessionStoreOptions {
  /** The relay's access token; undefined shows the "no token" message. */
  token: string | undefined;
  /** The sessionStorage key this tab keeps its clientId under. */
  clientIdKey: string;
  /** The profile the tab has chosen (a `replay:<id>` from a link), named when asking for relay:info. */
  profile?: () => string | undefined;
  /** How to open the relay's socket: the page's relay unless a test hands in a fake. */
  openSocket?: OpenSocket;
  /** A watch link's token: this store watches that session read-only (the relay refuses whatever it would send). */
  watch?: string;
}

export class SessionStore extends SnapshotStore<SessionSnapshot> {
  private readonly host: SnapshotHost = { get: () => this.snapshot, set: (patch) => this.set(patch) };
  private readonly log = new FrameLogState(this.host);
  private readonly relay = new RelayConnection(
    this.host,
    {
      attached: (event) => this.onAttached(event),
      started: (agent) => this.onStarted(agent),
      exited: (code, signal) => this.onExit(code, signal),
      agentError: (error) => this.onAgentError(error),
      transport: ({ ts, text }) => this.set({ lifecycle: this.lifecycleEvent("transport", text, ts) }),
      stderr: (event) => {
        const stderr = [...this.snapshot.stderr, event];
        this.set({ stderr: stderr.length > STDERR_CAP ? stderr.slice(-STDERR_CAP) : stderr });
      },
      frames: (frames) => this.addFrames(frames),
    },
    () => this.options.profile?.(),
    (options) => (this.options.openSocket ?? openRelaySocket)(options),
  );
  private readonly rpc = new RpcClient(this.host, this.log, (frame) => this.send(frame));
  private readonly sent: SentHistoryStorage;
  private playback?: Playback;
  /** Answers the auth question of the running Connect. */
  private answerAuthChoice?: (choice: AuthChoice) => void;
  private lastConnect?: ConnectOptions;

  constructor(private readonly options: SessionStoreOptions) {
    super({ ...INITIAL, ...emptyLogState(0) });
    this.sent = new SentHistoryStorage(options.clientIdKey);
  }

  static readonly serverSnapshot = INITIAL;

  /** Opens the relay connection once (idempotent). */
  connect(): void {
    if (this.playback || this.snapshot.connection !== "idle") return;
    if (this.options.token) this.set({ history: this.sent.load() });
    this.relay.open(this.options.token, this.options.clientIdKey, this.options.watch);
  }

  /** Re-reads the relay's profiles (replay profiles appear as transcripts are recorded). */
  refreshInfo(): void {
    this.relay.refreshInfo();
  }

  /** The relay's info, asked for when its first answer has not arrived yet (undefined when the relay cannot answer). */
  async relayInfo(): Promise<RelayInfo | undefined> {
    if (this.snapshot.info) return this.snapshot.info;
    const res = await this.relay.loadInfo();
    return res.ok ? res.info : undefined;
  }

  /** The agent controls' profile choice (the one a start or Connect would use). */
  chooseProfile(profile: string | undefined): void {
    if (profile !== this.snapshot.chosenProfile) this.set({ chosenProfile: profile });
  }

  /** Closes the socket for good (the tab was closed). */
  dispose(): void {
    this.relay.dispose();
    this.listeners.clear();
  }

  // ── The agent's status, from the relay's events ──────────────────────────

  private lifecycleEvent(type: TimelineEvent["type"], text: string, ts = Date.now()): TimelineEvent[] {
    const events = [...this.snapshot.lifecycle, { ts, type, text }];
    return events.length > LIFECYCLE_CAP ? events.slice(-LIFECYCLE_CAP) : events;
  }

  private resetLog(): void {
    this.rpc.fail("the agent was replaced");
    this.log.reset();
  }

  private onStarted(agent: AgentInfo): void {
    this.resetLog();
    this.set({
      agent: { state: "running", agent },
      agentError: undefined,
      stderr: [],
      lifecycle: this.lifecycleEvent("started", `agent started: ${describeAgent(agent)}`),
    });
  }

  private onExit(code: number | null, signal: string | null): void {
    const agent = this.snapshot.agent.state === "running" ? this.snapshot.agent.agent : null;
    const how = signal ? `signal ${signal}` : `code ${code}`;
    this.set({
      agent: { state: "exited", agent, code, signal },
      lifecycle: this.lifecycleEvent("exited", `agent exited (${how})`),
      // Its requests end here: no card, badge or title may still ask for an answer.
      ...endWaiting(this.snapshot.index),
    });
    this.rpc.fail(`the agent exited (${how})`);
  }

  private onAgentError(error: RelayError): void {
    const text = `agent error (${error.code}): ${error.message}`;
    const last = this.snapshot.lifecycle.at(-1);
    // A failed spawn is both acked and emitted: one timeline entry is enough.
    const duplicate = last?.type === "error" && last.text === text && Date.now() - last.ts < 5_000;
    this.set({ agentError: error, ...(duplicate ? {} : { lifecycle: this.lifecycleEvent("error", text) }) });
  }

  private onAttached(event: AttachedEvent): void {
    // The relay's log restarted (new session or new agent): ours is stale.
    if (event.lastSeq < this.snapshot.lastSeq) this.resetLog();
    let agent = this.snapshot.agent;
    let lifecycle = this.snapshot.lifecycle;
    if (event.agent) {
      agent = { state: "running", agent: event.agent };
      lifecycle = this.lifecycleEvent("attached", `attached to running agent: ${describeAgent(event.agent)}`);
    } else if (agent.state === "running" || (agent.state === "not-started" && event.lastSeq > 0)) {
      agent = { state: "exited", agent: agent.state === "running" ? agent.agent : null, code: null, signal: null };
      lifecycle = this.lifecycleEvent("exited", "agent exited while this page was away");
    }
    lifecycle = withTransportEvents(lifecycle, event.transport ?? []);
    // The relay resends what it still holds after this event, in `frames`.
    this.set({
      agent,
      lifecycle,
      missed: this.snapshot.missed + event.missed,
      policies: event.policies ?? this.snapshot.policies,
      ...(agent.state === "exited" ? endWaiting(this.snapshot.index) : {}),
    });
  }

  private addFrames(batch: WireFrame[]): void {
    const fresh = this.log.append(batch);
    if (fresh.length) this.rpc.received(fresh);
  }

  // ── Commands to the relay ─────────────────────────────────────────────────

  /**
   * agent:start. `pooled` lets the relay hand over a warm, initialized agent
   * (only for a start without cwd and options). A warm agent comes with the
   * pool's own browser session, whose policies are the defaults: ours are
   * sent again so what the user chose still holds.
   */
  async startAgent(
    profile: string | undefined,
    cwd: string | undefined,
    extra: { options?: Record<string, unknown>; pooled?: boolean; env?: Record<string, string> } = {},
  ): Promise<Ack<{ agent: AgentInfo }>> {
    const previous = this.snapshot.agent;
    if (previous.state === "starting" || previous.state === "running") {
      return { ok: false, error: { code: "agent_running", message: "an agent is already running in this tab" } };
    }
    const policies = this.snapshot.policies;
    this.set({ agent: { state: "starting", previous }, agentError: undefined });
    const payload: {
      profile?: string;
      cwd?: string;
      options?: Record<string, unknown>;
      pooled?: boolean;
      env?: Record<string, string>;
    } = {};
    if (profile) payload.profile = profile;
    if (cwd) payload.cwd = cwd;
    if (extra.options && Object.keys(extra.options).length) payload.options = extra.options;
    if (extra.pooled) payload.pooled = true;
    if (extra.env && Object.keys(extra.env).length) payload.env = extra.env;
    const res = await this.relay.emitWithAck<{ agent: AgentInfo }>((s, ack) => s.emit("agent:start", payload, ack));
    if (res.ok) {
      // `agent:started` normally arrived first; the ack covers a lost event.
      if (this.snapshot.agent.state === "starting") this.set({ agent: { state: "running", agent: res.agent } });
      if (res.agent.pooled && policies) await this.setPolicies(policies);
    } else {
      const current = this.snapshot.agent;
      this.set({ agent: current.state === "starting" ? (current.previous ?? { state: "not-started" }) : current });
      this.onAgentError(res.error);
    }
    return res;
  }

  /** Connect (connect.ts); a second call while one runs returns its progress. */
  async connectAgent(opts: ConnectOptions): Promise<ConnectProgress> {
    const step = this.snapshot.handshake?.step;
    if (step && step !== "ready" && step !== "failed") return this.snapshot.handshake!;
    this.lastConnect = opts;
    return connectAgent(
      this,
      opts,
      (handshake) => this.set({ handshake }),
      (answer) => (this.answerAuthChoice = answer),
    );
  }

  /** The user's answer to Connect's auth question (ignored when none is pending). */
  answerAuth(choice: AuthChoice): void {
    this.answerAuthChoice?.(choice);
  }

  /**
   * An `env_var` method's values typed in the page: this Connect stops, the
   * agent is restarted with them (the relay checks them again) and
   * authenticates with that method when asked.
   */
  async reconnectWithEnv(methodId: string, env: Record<string, string>): Promise<ConnectProgress | undefined> {
    const last = this.lastConnect;
    if (!last) return undefined;
    this.answerAuth({ type: "cancel" });
    if (this.snapshot.agent.state === "running") await this.stopAgent();
    await this.waitForExit();
    this.set({ handshake: undefined });
    return this.connectAgent({ ...last, env, authMethodId: methodId });
  }

  private waitForExit(): Promise<void> {
    if (this.snapshot.agent.state !== "running" && this.snapshot.agent.state !== "starting") return Promise.resolve();
    return new Promise((resolve) => {
      const off = this.subscribe(() => {
        if (this.snapshot.agent.state === "running" || this.snapshot.agent.state === "starting") return;
        off();
        resolve();
      });
    });
  }

  async stopAgent(): Promise<RelayError | undefined> {
    const res = await this.relay.emitWithAck((s, ack) => s.emit("agent:stop", {}, ack));
    return res.ok ? undefined : res.error;
  }

  /** Sends one frame: an object is serialised by the relay, a string goes out as is. */
  async send(frame: string | object): Promise<SendResult> {
    const res = await this.relay.emitWithAck<{ seq: number }>((s, ack) => s.emit("agent:send", { frame }, ack));
    if (!res.ok) return { ok: false, error: res.error };
    // The ack arrives before the echoed frame: bump the template id right away.
    if (isObject(frame) && typeof frame.method === "string") this.log.ids.observe(frame.id as JsonRpcId);
    this.set({ maxRequestId: this.log.ids.max, history: this.sent.append(this.snapshot.history, frame, res.seq) });
    return { ok: true, seq: res.seq };
  }

  /** The id the next composed request will get (for previews). */
  peekRequestId(): number {
    return this.rpc.peekRequestId();
  }

  /** Takes a fresh request id for this agent: unique, above any id seen. */
  nextRequestId(): number {
    return this.rpc.nextRequestId();
  }

  /** Sends a request with a fresh id and resolves with its answer (or why there is none). */
  request(method: string, params: unknown, options?: RequestOptions): Promise<RpcOutcome> {
    return this.rpc.request(method, params, options);
  }

  /** Sends a request frame as given (its id must be unused) and resolves with its answer. */
  sendRequest(frame: { id: JsonRpcId; method: string; [key: string]: unknown }): Promise<RpcOutcome> {
    return this.rpc.sendRequest(frame);
  }

  /** Sends a notification: the seq the relay gave it, or why it was not sent. */
  notify(method: string, params: unknown): Promise<Result<number>> {
    return this.rpc.notify(method, params);
  }

  /** Resolves with the first frame arriving from now on that matches; undefined after the timeout or once the agent is gone. */
  waitForFrame(match: (frame: Frame) => boolean, timeoutMs: number): Promise<Frame | undefined> {
    return this.rpc.waitForFrame(match, timeoutMs);
  }

  /** Whether this page set policies on this store (then the browser's kept ones must not override them). */
  policiesSetByPage = false;

  /** policy:set; the snapshot follows the relay's ack. */
  async setPolicies(policies: Policies): Promise<RelayError | undefined> {
    this.policiesSetByPage = true;
    const res = await this.relay.emitWithAck<{ policies: Policies }>((s, ack) =>
      s.emit("policy:set", { policies }, ack),
    );
    if (!res.ok) return res.error;
    this.set({ policies: res.policies });
    return undefined;
  }

  /** Ask mode, "do it": the relay carries out a pending fs/ or terminal/ request and answers it. */
  async serve(id: string | number): Promise<SendResult> {
    const res = await this.relay.emitWithAck<{ seq: number }>((s, ack) => s.emit("agent:serve", { id }, ack));
    return res.ok ? { ok: true, seq: res.seq } : { ok: false, error: res.error };
  }

  dismissAgentError(): void {
    this.set({ agentError: undefined });
  }

  clearStderr(): void {
    this.set({ stderr: [] });
  }

  // ── Playback ──────────────────────────────────────────────────────────────

  /** A store that plays back a recording instead of talking to a relay; send/start answer "not connected". */
  static offline(recording: OfflineRecording): SessionStore {
    const store = new SessionStore({ token: undefined, clientIdKey: "" });
    store.playback = new Playback(store.host, store.log, recording);
    return store;
  }

  /** True for a watch link's store: live, but nothing is answered or sent from here. */
  get watching(): boolean {
    return this.options.watch !== undefined;
  }

  /** True for a playback store: views may hide what only a live agent can do. */
  get isOffline(): boolean {
    return this.playback !== undefined;
  }

  /**
   * Shows the first `count` recorded frames, and the stderr and lifecycle
   * events up to `eventsUntil` (ms since the epoch). Moving back bumps `epoch`,
   * so views drop per-seq state as if the log had restarted.
   */
  showUpTo(count: number, eventsUntil: number): void {
    if (!this.playback) throw new Error("showUpTo is only for offline stores");
    this.playback.showUpTo(count, eventsUntil);
  }
}
