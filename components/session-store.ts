/**
 * The browser side of one relay session (one tab of the playground): owns one
 * Socket.IO socket with its own clientId, and holds everything that tab shows
 * as one immutable snapshot, read through useSyncExternalStore. Protocol meaning
 * (kinds, methods, latencies) comes from the relay's frames; correlation and
 * per-log facts come from lib/frame-index.ts; this store only keeps, dedupes
 * and forwards them.
 */
import { io, type Socket } from "socket.io-client";
import { EMPTY_FACTS, reduceFacts, type AgentFacts } from "@/lib/agent-facts";
import { DEFAULT_CLIENT_CAPABILITIES } from "@/lib/client-capabilities";
import { CLIENT_INFO } from "@/lib/compose-catalog";
import { runConnect, type ConnectProgress } from "@/lib/connect-flow";
import type { Frame } from "@/lib/frame";
import type { TimelineEvent } from "@/lib/frame-filter";
import { FrameIndex } from "@/lib/frame-index";
import { FrameLog, FrameWindow, withMessage } from "@/lib/frame-log";
import { notificationFrame, outcomeOf, requestFrame, type RpcOutcome } from "@/lib/jsonrpc";
import { countEventsUpTo } from "@/lib/playback";
import type { Policies } from "@/lib/policy";
import { RequestIdCounter } from "@/lib/request-ids";
import { appendSent, decodeSentHistory, encodeSentHistory, type SentEntry } from "@/lib/sent-history";
import type {
  Ack,
  AgentInfo,
  AttachedEvent,
  ClientToServerEvents,
  HandshakeAuth,
  RelayError,
  RelayInfo,
  ServerToClientEvents,
  StderrEvent,
} from "@/lib/wire";
import { SnapshotStore } from "./snapshot-store";

/** Frames held per tab; older ones are dropped (and counted in `missed`). */
export const FRAME_CAP = 200_000;
/** Matches the relay's own stderr replay buffer. */
export const STDERR_CAP = 2_000;
/** Lifecycle events kept for the timeline. */
export const LIFECYCLE_CAP = 1_000;

export type ConnectionState = "idle" | "no-token" | "connecting" | "connected" | "disconnected" | "unauthorized";

export type AgentStatus =
  | { state: "not-started" }
  | { state: "starting"; previous?: AgentStatus }
  | { state: "running"; agent: AgentInfo }
  /** code and signal are null when the exit happened while this page was away. */
  | { state: "exited"; agent: AgentInfo | null; code: number | null; signal: string | null };

export interface SendResult {
  ok: boolean;
  seq?: number;
  error?: RelayError;
}

export interface SessionSnapshot {
  connection: ConnectionState;
  /** Why the last connection attempt failed, when it did. */
  connectionError?: string;
  clientId?: string;
  info?: RelayInfo;
  agent: AgentStatus;
  /** Last start failure or `agent:error`, verbatim. */
  agentError?: RelayError;
  /** The frame log: an immutable window, a new object whenever frames arrive. */
  frames: FrameWindow;
  /**
   * Correlation, unanswered requests, methods and variants seen over `frames`.
   * Mutable and shared by every snapshot of one log (replaced when the log
   * restarts); read it while rendering the `frames` it came with.
   */
  index: FrameIndex;
  /** Bumped whenever the log restarts (seqs restart at 1), so views can drop per-seq state. */
  epoch: number;
  /** Highest seq held; sent as `lastSeq` so a reconnect gets only what is missing. */
  lastSeq: number;
  /** Frames the relay could no longer resend, plus those dropped by FRAME_CAP. */
  missed: number;
  /** Agent->client requests not yet answered, oldest first. */
  pending: readonly Frame[];
  /** From the newest `session/new` response, for the prompt template. */
  lastSessionId?: string;
  /** Highest numeric id of a request sent to the agent, for the templates. */
  maxRequestId: number;
  stderr: readonly StderrEvent[];
  /** Agent started / exited / errors / re-attached, for the inspector's timeline. */
  lifecycle: readonly TimelineEvent[];
  /** What the agent said that composing needs (capabilities, session, modes, last turn...). */
  facts: AgentFacts;
  /** The relay's answer policies for this browser session (from agent:attached and policy:set acks). */
  policies?: Policies;
  /** Frames this tab sent, newest last; kept across agents. */
  history: readonly SentEntry[];
  /** Progress of the last Connect. */
  handshake?: ConnectProgress;
}

const INITIAL: SessionSnapshot = {
  connection: "idle",
  agent: { state: "not-started" },
  frames: FrameWindow.EMPTY,
  index: new FrameIndex(),
  epoch: 0,
  lastSeq: 0,
  missed: 0,
  pending: [],
  maxRequestId: 0,
  stderr: [],
  lifecycle: [],
  facts: EMPTY_FACTS,
  history: [],
};

type RelaySocket = Socket<ServerToClientEvents, ClientToServerEvents>;

export function randomId(): string {
  // randomUUID needs a secure context; a LAN http:// address is not one.
  if (typeof crypto.randomUUID === "function") return crypto.randomUUID();
  return Array.from(crypto.getRandomValues(new Uint8Array(16)), (b) => b.toString(16).padStart(2, "0")).join("");
}

const isObject = (v: unknown): v is Record<string, unknown> => typeof v === "object" && v !== null;

function sessionIdOf(frame: Frame): string | undefined {
  if (frame.dir !== "from-agent" || frame.kind !== "response" || frame.method !== "session/new") return undefined;
  const result = isObject(frame.message) ? frame.message.result : undefined;
  return isObject(result) && typeof result.sessionId === "string" ? result.sessionId : undefined;
}

const idKey = (id: unknown): string => (typeof id === "string" ? `s:${id}` : `n:${String(id)}`);

/** Where a tab keeps what it sent, next to its clientId, so a reload keeps the history. */
export const sentHistoryKey = (clientIdKey: string) => `${clientIdKey}.sent`;

function describeAgent(agent: AgentInfo): string {
  return `${agent.profile} · pid ${agent.pid} · ${[agent.command, ...agent.args].join(" ")} · cwd ${agent.cwd}`;
}

export interface SessionStoreOptions {
  /** The relay's access token; undefined shows the "no token" message. */
  token: string | undefined;
  /** The sessionStorage key this tab keeps its clientId under. */
  clientIdKey: string;
}

export class SessionStore extends SnapshotStore<SessionSnapshot> {
  private socket?: RelaySocket;
  private log = new FrameLog(FRAME_CAP);
  private droppedSincePrune = 0;
  private disposed = false;
  /** Request ids for this agent; above any id seen going to it. */
  private readonly ids = new RequestIdCounter();
  /** Requests sent with request(), waiting for their response, by id key. */
  private readonly waiters = new Map<string, (outcome: RpcOutcome) => void>();
  /** One-off frame watchers (waitForFrame); return true once satisfied. */
  private readonly watchers = new Set<(frame: Frame) => boolean>();

  constructor(private readonly options: SessionStoreOptions) {
    super({ ...INITIAL, index: new FrameIndex() });
  }

  static readonly serverSnapshot = INITIAL;

  private lifecycleEvent(type: TimelineEvent["type"], text: string): TimelineEvent[] {
    const events = [...this.snapshot.lifecycle, { ts: Date.now(), type, text }];
    return events.length > LIFECYCLE_CAP ? events.slice(-LIFECYCLE_CAP) : events;
  }

  /** Opens the socket once; idempotent, so React strict mode's double effects are harmless. */
  connect(): void {
    if (this.disposed || this.socket || this.snapshot.connection !== "idle") return;
    const { token, clientIdKey } = this.options;
    if (!token) {
      this.set({ connection: "no-token" });
      return;
    }
    let clientId = sessionStorage.getItem(clientIdKey);
    if (!clientId) {
      clientId = randomId();
      sessionStorage.setItem(clientIdKey, clientId);
    }
    this.set({
      connection: "connecting",
      clientId,
      history: decodeSentHistory(sessionStorage.getItem(sentHistoryKey(clientIdKey))),
    });

    const socket: RelaySocket = io({
      // A function is re-read on every (re)connect, so lastSeq is always current.
      auth: (cb) => {
        const auth: HandshakeAuth = { token, clientId: this.snapshot.clientId, lastSeq: this.snapshot.lastSeq };
        cb(auth as unknown as Record<string, unknown>);
      },
      transports: ["websocket", "polling"],
      // Each tab needs its own connection: the relay keys an agent by connection.
      forceNew: true,
    });
    this.socket = socket;

    socket.on("connect", () => {
      this.set({ connection: "connected", connectionError: undefined });
      socket.emit("relay:info", {}, (res) => {
        if (res.ok) this.set({ info: res.info });
      });
    });
    socket.on("connect_error", (err) => {
      if (err.message === "unauthorized") {
        // A refused token will not start working: stop retrying.
        socket.disconnect();
        this.set({ connection: "unauthorized", connectionError: err.message });
      } else {
        this.set({ connection: "disconnected", connectionError: err.message });
      }
    });
    socket.on("disconnect", (reason) => {
      if (this.snapshot.connection === "unauthorized" || this.disposed) return;
      this.set({ connection: "disconnected", connectionError: reason });
    });

    socket.on("relay:hello", ({ clientId: assigned }) => {
      // A duplicated tab is given a clientId of its own: re-attach with that one.
      sessionStorage.setItem(clientIdKey, assigned);
      this.set({ clientId: assigned });
    });
    socket.on("agent:attached", (event) => this.onAttached(event));
    socket.on("agent:started", (agent) => {
      this.resetLog();
      this.set({
        agent: { state: "running", agent },
        agentError: undefined,
        stderr: [],
        lifecycle: this.lifecycleEvent("started", `agent started: ${describeAgent(agent)}`),
      });
    });
    socket.on("agent:exit", ({ code, signal }) => {
      const agent = this.snapshot.agent.state === "running" ? this.snapshot.agent.agent : null;
      const how = signal ? `signal ${signal}` : `code ${code}`;
      this.set({
        agent: { state: "exited", agent, code, signal },
        lifecycle: this.lifecycleEvent("exited", `agent exited (${how})`),
      });
      this.failWaiters(`the agent exited (${how})`);
    });
    socket.on("agent:error", (error) => this.onAgentError(error));
    socket.on("agent:transport", ({ text }) => this.set({ lifecycle: this.lifecycleEvent("transport", text) }));
    socket.on("agent:stderr", (event) => {
      const stderr = [...this.snapshot.stderr, event];
      this.set({ stderr: stderr.length > STDERR_CAP ? stderr.slice(-STDERR_CAP) : stderr });
    });
    socket.on("frames", (frames) => this.addFrames(frames));
  }

  /** Closes the socket for good (the tab was closed). */
  dispose(): void {
    this.disposed = true;
    this.socket?.disconnect();
    this.socket = undefined;
    this.listeners.clear();
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
    // The relay resends what it still holds after this event, in `frames`.
    this.set({
      agent,
      lifecycle,
      missed: this.snapshot.missed + event.missed,
      policies: event.policies ?? this.snapshot.policies,
    });
  }

  private resetLog(): void {
    this.log = new FrameLog(FRAME_CAP);
    this.droppedSincePrune = 0;
    this.ids.reset();
    this.failWaiters("the agent was replaced");
    this.set({
      frames: FrameWindow.EMPTY,
      index: new FrameIndex(),
      epoch: this.snapshot.epoch + 1,
      lastSeq: 0,
      missed: 0,
      pending: [],
      lastSessionId: undefined,
      maxRequestId: 0,
      lifecycle: [],
      facts: EMPTY_FACTS,
    });
  }

  /** O(batch): frames are appended to a shared buffer, never copied per batch. */
  private addFrames(batch: Frame[]): void {
    let { lastSeq, lastSessionId, missed, facts } = this.snapshot;
    const { index } = this.snapshot;
    let fresh = 0;
    let pendingChanged = false;
    const answered: Frame[] = [];
    for (const frame of batch) {
      // Seqs only grow, so anything at or below lastSeq is a resend we hold.
      if (frame.seq <= lastSeq) continue;
      lastSeq = frame.seq;
      fresh++;
      withMessage(frame);
      this.log.push(frame);
      const change = index.add(frame);
      if (change.opened?.dir === "from-agent" || change.closed?.dir === "from-agent") pendingChanged = true;
      if (change.opened?.dir === "to-agent") this.ids.observe(frame.id);
      lastSessionId = sessionIdOf(frame) ?? lastSessionId;
      facts = reduceFacts(facts, frame);
      if (frame.dir === "from-agent" && frame.kind === "response") answered.push(frame);
    }
    if (fresh === 0) return;
    const dropped = this.log.trim();
    const frames = this.log.window();
    if (dropped > 0) {
      missed += dropped;
      this.droppedSincePrune += dropped;
      // Pruning is O(index size): only once a good share of the log has gone.
      if (this.droppedSincePrune >= FRAME_CAP >> 2) {
        this.droppedSincePrune = 0;
        index.prune(frames.first!.seq);
      }
    }
    const patch: Partial<SessionSnapshot> = {
      frames,
      lastSeq,
      lastSessionId,
      maxRequestId: this.ids.max,
      missed,
      facts,
    };
    if (pendingChanged) patch.pending = index.unanswered("from-agent");
    this.set(patch);
    // After the snapshot is current: whoever waited reads facts that include the answer.
    for (const frame of answered) {
      const key = idKey(frame.id);
      const resolve = this.waiters.get(key);
      if (resolve) {
        this.waiters.delete(key);
        resolve(outcomeOf(frame));
      }
    }
    if (this.watchers.size) {
      for (const frame of frames.slice(-fresh))
        for (const w of [...this.watchers]) if (w(frame)) this.watchers.delete(w);
    }
  }

  private failWaiters(message: string): void {
    const waiting = [...this.waiters.values()];
    this.waiters.clear();
    for (const resolve of waiting) resolve({ kind: "failed", message });
  }

  private emitWithAck<R extends object>(
    send: (socket: RelaySocket, ack: (res: Ack<R>) => void) => void,
  ): Promise<Ack<R>> {
    const socket = this.socket;
    if (!socket?.connected) {
      return Promise.resolve({ ok: false, error: { code: "internal", message: "not connected to the relay" } });
    }
    return new Promise((resolve) => send(socket, resolve));
  }

  /**
   * agent:start. `pooled` lets the relay hand over a warm, initialized agent
   * (only for a start without cwd and options). A warm agent comes with the
   * pool's own browser session, whose policies are the defaults: ours are
   * sent again so what the user chose still holds.
   */
  async startAgent(
    profile: string | undefined,
    cwd: string | undefined,
    extra: { options?: Record<string, unknown>; pooled?: boolean } = {},
  ): Promise<Ack<{ agent: AgentInfo }>> {
    const previous = this.snapshot.agent;
    if (previous.state === "starting" || previous.state === "running") {
      return { ok: false, error: { code: "agent_running", message: "an agent is already running in this tab" } };
    }
    const policies = this.snapshot.policies;
    this.set({ agent: { state: "starting", previous }, agentError: undefined });
    const payload: { profile?: string; cwd?: string; options?: Record<string, unknown>; pooled?: boolean } = {};
    if (profile) payload.profile = profile;
    if (cwd) payload.cwd = cwd;
    if (extra.options && Object.keys(extra.options).length) payload.options = extra.options;
    if (extra.pooled) payload.pooled = true;
    const res = await this.emitWithAck<{ agent: AgentInfo }>((s, ack) => s.emit("agent:start", payload, ack));
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

  /**
   * Connect: start (pooled), initialize unless the pool did, authenticate if
   * session/new asks for it, session/new. Advertises DEFAULT_CLIENT_CAPABILITIES,
   * which the relay really answers (by policy).
   */
  async connectAgent(opts: {
    profile?: string;
    options?: Record<string, unknown>;
    cwd: string;
  }): Promise<ConnectProgress> {
    const step = this.snapshot.handshake?.step;
    if (step && step !== "ready" && step !== "failed") return this.snapshot.handshake!;
    // Loaded on demand: a value import of the SDK would put its validators in the page.
    const sdk = import("@agentclientprotocol/sdk");
    return runConnect(
      {
        start: async () => {
          const res = await this.startAgent(opts.profile, undefined, { options: opts.options, pooled: true });
          return res.ok ? { ok: true, pooled: res.agent.pooled === true } : { ok: false, message: res.error.message };
        },
        pooledInitialize: async () => {
          const frame = await this.waitForFrame(
            (f) => f.dir === "from-agent" && f.kind === "response" && f.method === "initialize",
            5_000,
          );
          const outcome = frame ? outcomeOf(frame) : undefined;
          return outcome?.kind === "result" && typeof outcome.result === "object" && outcome.result !== null
            ? (outcome.result as Record<string, unknown>)
            : undefined;
        },
        request: (method, params) => this.request(method, params),
        progress: (handshake) => this.set({ handshake }),
      },
      {
        cwd: opts.cwd,
        protocolVersion: (await sdk).PROTOCOL_VERSION,
        clientCapabilities: DEFAULT_CLIENT_CAPABILITIES,
        clientInfo: CLIENT_INFO,
      },
    );
  }

  async stopAgent(): Promise<RelayError | undefined> {
    const res = await this.emitWithAck((s, ack) => s.emit("agent:stop", {}, ack));
    return res.ok ? undefined : res.error;
  }

  /** Sends one frame: an object is serialised by the relay, a string goes out as is. */
  async send(frame: string | object): Promise<SendResult> {
    const res = await this.emitWithAck<{ seq: number }>((s, ack) => s.emit("agent:send", { frame }, ack));
    if (!res.ok) return { ok: false, error: res.error };
    // The ack arrives before the echoed frame: bump the template id right away.
    if (isObject(frame) && typeof frame.method === "string") this.ids.observe(frame.id as number);
    const history = appendSent(this.snapshot.history, frame, res.seq);
    this.set({ maxRequestId: this.ids.max, history });
    try {
      sessionStorage.setItem(sentHistoryKey(this.options.clientIdKey), encodeSentHistory(history));
    } catch {
      // Storage full or refused: the history still lives until the reload; drop the stale copy.
      sessionStorage.removeItem(sentHistoryKey(this.options.clientIdKey));
    }
    return { ok: true, seq: res.seq };
  }

  /** The id the next composed request will get (for previews). */
  peekRequestId(): number {
    return Math.max(this.ids.peek(), this.snapshot.maxRequestId + 1);
  }

  /** Takes a fresh request id for this agent: unique, above any id seen. */
  nextRequestId(): number {
    this.ids.observe(this.snapshot.maxRequestId);
    const id = this.ids.next();
    this.set({ maxRequestId: this.ids.max });
    return id;
  }

  /** Sends a request with a fresh id and resolves with its answer (or why there is none). */
  async request(method: string, params: unknown): Promise<RpcOutcome> {
    return this.sendRequest(requestFrame(this.nextRequestId(), method, params));
  }

  /** Sends a request frame as given (its id must be unused) and resolves with its answer. */
  async sendRequest(frame: {
    id: string | number | null;
    method: string;
    [key: string]: unknown;
  }): Promise<RpcOutcome> {
    const key = idKey(frame.id);
    const answer = new Promise<RpcOutcome>((resolve) => this.waiters.set(key, resolve));
    const res = await this.send(frame);
    if (!res.ok) {
      this.waiters.delete(key);
      return { kind: "failed", message: res.error?.message ?? "not sent" };
    }
    return answer;
  }

  notify(method: string, params: unknown): Promise<SendResult> {
    return this.send(notificationFrame(method, params));
  }

  /** Resolves with the first frame (held or arriving) that matches, or undefined after the timeout. */
  waitForFrame(match: (frame: Frame) => boolean, timeoutMs: number): Promise<Frame | undefined> {
    for (const frame of this.snapshot.frames) if (match(frame)) return Promise.resolve(frame);
    return new Promise((resolve) => {
      const watcher = (frame: Frame) => {
        if (!match(frame)) return false;
        clearTimeout(timer);
        resolve(frame);
        return true;
      };
      const timer = setTimeout(() => {
        this.watchers.delete(watcher);
        resolve(undefined);
      }, timeoutMs);
      this.watchers.add(watcher);
    });
  }

  /** policy:set; the snapshot follows the relay's ack. */
  async setPolicies(policies: Policies): Promise<RelayError | undefined> {
    const res = await this.emitWithAck<{ policies: Policies }>((s, ack) => s.emit("policy:set", { policies }, ack));
    if (!res.ok) return res.error;
    this.set({ policies: res.policies });
    return undefined;
  }

  /** Ask mode, "do it": the relay carries out a pending fs/ or terminal/ request and answers it. */
  async serve(id: string | number): Promise<SendResult> {
    const res = await this.emitWithAck<{ seq: number }>((s, ack) => s.emit("agent:serve", { id }, ack));
    return res.ok ? { ok: true, seq: res.seq } : { ok: false, error: res.error };
  }

  dismissAgentError(): void {
    this.set({ agentError: undefined });
  }

  clearStderr(): void {
    this.set({ stderr: [] });
  }

  // ── Offline playback (transcript viewer, share page) ──────────────────────
  // Additive: a store without a socket whose log is a prefix of a recording.
  // connect() is never called on it; send/start answer "not connected".

  private recording?: OfflineRecording;

  /** A store that plays back a recording instead of talking to a relay. */
  static offline(recording: OfflineRecording): SessionStore {
    const store = new SessionStore({ token: undefined, clientIdKey: "" });
    store.recording = recording;
    return store;
  }

  /** True for a playback store: views may hide what only a live agent can do. */
  get isOffline(): boolean {
    return this.recording !== undefined;
  }

  /**
   * Shows the first `count` recorded frames, and the stderr and lifecycle
   * events up to `eventsUntil` (ms since the epoch). Moving forward indexes
   * only the new frames; moving back rebuilds the index and bumps `epoch`, so
   * views drop per-seq state as if the log had restarted.
   */
  showUpTo(count: number, eventsUntil: number): void {
    const rec = this.recording;
    if (!rec) throw new Error("showUpTo is only for offline stores");
    const n = Math.max(0, Math.min(count, rec.frames.length));
    const shown = this.snapshot.frames.length;
    const back = n < shown;
    const index = back ? new FrameIndex() : this.snapshot.index;
    let lastSessionId = back ? undefined : this.snapshot.lastSessionId;
    let maxRequestId = back ? 0 : this.snapshot.maxRequestId;
    for (let i = back ? 0 : shown; i < n; i++) {
      const frame = withMessage(rec.frames[i]!);
      const change = index.add(frame);
      if (change.opened?.dir === "to-agent" && typeof frame.id === "number" && frame.id > maxRequestId)
        maxRequestId = frame.id;
      lastSessionId = sessionIdOf(frame) ?? lastSessionId;
    }
    // Prefixes of append-only lists: the same length means the same content.
    const prefix = <T>(all: readonly T[], current: readonly T[], k: number) =>
      current.length === k ? current : all.slice(0, k);
    const exited = rec.exit !== undefined && rec.exit.ts <= eventsUntil;
    const agent: AgentStatus = !rec.agent
      ? { state: "not-started" }
      : exited
        ? { state: "exited", agent: rec.agent, code: rec.exit!.code, signal: rec.exit!.signal }
        : { state: "running", agent: rec.agent };
    this.set({
      // A window over the recording's own array: no copy, and prefix windows `extend` each other.
      frames: n === shown && !back ? this.snapshot.frames : new FrameWindow(rec.frames, 0, n),
      index,
      epoch: back ? this.snapshot.epoch + 1 : this.snapshot.epoch,
      lastSeq: n > 0 ? rec.frames[n - 1]!.seq : 0,
      pending: index.unanswered("from-agent"),
      lastSessionId,
      maxRequestId,
      stderr: prefix(rec.stderr, this.snapshot.stderr, countEventsUpTo(rec.stderr, eventsUntil)),
      lifecycle: prefix(rec.lifecycle, this.snapshot.lifecycle, countEventsUpTo(rec.lifecycle, eventsUntil)),
      agent,
    });
  }
}

/** What an offline store plays back. Append-only: the viewer streams a transcript into these arrays. */
export interface OfflineRecording {
  /** In seq order. */
  frames: Frame[];
  /** stderr and lifecycle: in ts order. */
  stderr: StderrEvent[];
  lifecycle: TimelineEvent[];
  agent?: AgentInfo;
  exit?: { ts: number; code: number | null; signal: string | null };
}
