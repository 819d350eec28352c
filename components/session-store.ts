/**
 * The browser side of one relay session: owns the single Socket.IO socket and
 * holds everything the page shows as one immutable snapshot, read through
 * useSyncExternalStore. Protocol meaning (kinds, methods, latencies) comes from
 * the relay's frames; this store only keeps, dedupes and correlates them.
 */
import { io, type Socket } from "socket.io-client";
import { Correlator } from "@/lib/correlate";
import type { Frame } from "@/lib/frame";
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

/** Frames held in the browser; older ones are dropped (a virtualised log comes later). */
export const FRAME_CAP = 50_000;
/** Matches the relay's own stderr replay buffer. */
export const STDERR_CAP = 2_000;

const TOKEN_KEY = "acp-playground.token";
const CLIENT_ID_KEY = "acp-playground.clientId";

export type ConnectionState =
  | "idle"
  | "no-token"
  | "connecting"
  | "connected"
  | "disconnected"
  | "unauthorized";

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
  frames: readonly Frame[];
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
}

const INITIAL: SessionSnapshot = {
  connection: "idle",
  agent: { state: "not-started" },
  frames: [],
  epoch: 0,
  lastSeq: 0,
  missed: 0,
  pending: [],
  maxRequestId: 0,
  stderr: [],
};

type RelaySocket = Socket<ServerToClientEvents, ClientToServerEvents>;

function randomId(): string {
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

/** Reads the token from the address bar (then hides it) or from this tab's storage. */
function takeToken(): string | undefined {
  const url = new URL(window.location.href);
  const fromUrl = url.searchParams.get("token");
  if (fromUrl) {
    sessionStorage.setItem(TOKEN_KEY, fromUrl);
    url.searchParams.delete("token");
    // Keeps the token out of history, bookmarks and screen shares.
    window.history.replaceState(window.history.state, "", url.pathname + url.search + url.hash);
    return fromUrl;
  }
  return sessionStorage.getItem(TOKEN_KEY) ?? undefined;
}

export class SessionStore {
  private snapshot: SessionSnapshot = INITIAL;
  private readonly listeners = new Set<() => void>();
  private socket?: RelaySocket;
  private correlator = new Correlator();
  /** Pending agent->client requests by seq (they outlive FRAME_CAP trimming). */
  private pendingBySeq = new Map<number, Frame>();

  subscribe = (listener: () => void): (() => void) => {
    this.listeners.add(listener);
    return () => this.listeners.delete(listener);
  };

  getSnapshot = (): SessionSnapshot => this.snapshot;

  static readonly serverSnapshot = INITIAL;

  private set(patch: Partial<SessionSnapshot>): void {
    this.snapshot = { ...this.snapshot, ...patch };
    for (const listener of this.listeners) listener();
  }

  /** Opens the socket once; idempotent, so React strict mode's double effects are harmless. */
  connect(): void {
    if (this.socket || this.snapshot.connection !== "idle") return;
    const token = takeToken();
    if (!token) {
      this.set({ connection: "no-token" });
      return;
    }
    let clientId = sessionStorage.getItem(CLIENT_ID_KEY);
    if (!clientId) {
      clientId = randomId();
      sessionStorage.setItem(CLIENT_ID_KEY, clientId);
    }
    this.set({ connection: "connecting", clientId });

    const socket: RelaySocket = io({
      // A function is re-read on every (re)connect, so lastSeq is always current.
      auth: (cb) => {
        const auth: HandshakeAuth = { token, clientId: this.snapshot.clientId, lastSeq: this.snapshot.lastSeq };
        cb(auth as unknown as Record<string, unknown>);
      },
      transports: ["websocket", "polling"],
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
      if (this.snapshot.connection === "unauthorized") return;
      this.set({ connection: "disconnected", connectionError: reason });
    });

    socket.on("relay:hello", ({ clientId: assigned }) => {
      // A duplicated tab is given a clientId of its own: re-attach with that one.
      sessionStorage.setItem(CLIENT_ID_KEY, assigned);
      this.set({ clientId: assigned });
    });
    socket.on("agent:attached", (event) => this.onAttached(event));
    socket.on("agent:started", (agent) => {
      this.resetLog();
      this.set({ agent: { state: "running", agent }, agentError: undefined, stderr: [] });
    });
    socket.on("agent:exit", ({ code, signal }) => {
      const agent = this.snapshot.agent.state === "running" ? this.snapshot.agent.agent : null;
      this.set({ agent: { state: "exited", agent, code, signal } });
    });
    socket.on("agent:error", (error) => this.set({ agentError: error }));
    socket.on("agent:stderr", (event) => {
      const stderr = [...this.snapshot.stderr, event];
      this.set({ stderr: stderr.length > STDERR_CAP ? stderr.slice(-STDERR_CAP) : stderr });
    });
    socket.on("frames", (frames) => this.addFrames(frames));
  }

  private onAttached(event: AttachedEvent): void {
    // The relay's log restarted (new session or new agent): ours is stale.
    if (event.lastSeq < this.snapshot.lastSeq) this.resetLog();
    let agent = this.snapshot.agent;
    if (event.agent) agent = { state: "running", agent: event.agent };
    else if (agent.state === "running" || (agent.state === "not-started" && event.lastSeq > 0)) {
      agent = { state: "exited", agent: agent.state === "running" ? agent.agent : null, code: null, signal: null };
    }
    // The relay resends what it still holds after this event, in `frames`.
    this.set({ agent, missed: this.snapshot.missed + event.missed });
  }

  private resetLog(): void {
    this.correlator = new Correlator();
    this.pendingBySeq = new Map();
    this.set({ frames: [], epoch: this.snapshot.epoch + 1, lastSeq: 0, missed: 0, pending: [], lastSessionId: undefined, maxRequestId: 0 });
  }

  private addFrames(batch: Frame[]): void {
    let { lastSeq, lastSessionId, maxRequestId, missed } = this.snapshot;
    const fresh: Frame[] = [];
    let pendingChanged = false;
    for (const frame of batch) {
      // Seqs only grow, so anything at or below lastSeq is a resend we hold.
      if (frame.seq <= lastSeq) continue;
      lastSeq = frame.seq;
      fresh.push(frame);
      if (frame.kind === "request" && frame.id !== undefined && frame.method !== undefined) {
        this.correlator.request(frame.dir, frame.id, frame.method, frame.ts, frame.seq);
        if (frame.dir === "from-agent") {
          this.pendingBySeq.set(frame.seq, frame);
          pendingChanged = true;
        } else if (typeof frame.id === "number" && frame.id > maxRequestId) {
          maxRequestId = frame.id;
        }
      } else if (frame.kind === "response" && frame.id !== undefined) {
        const match = this.correlator.response(frame.dir, frame.id, frame.ts);
        if (match && frame.dir === "to-agent") pendingChanged = this.pendingBySeq.delete(match.requestSeq) || pendingChanged;
      }
      lastSessionId = sessionIdOf(frame) ?? lastSessionId;
    }
    if (fresh.length === 0) return;
    let frames = this.snapshot.frames.concat(fresh);
    // Trim in steps so a steady stream does not copy the whole log per batch twice.
    if (frames.length > FRAME_CAP * 1.1) {
      missed += frames.length - FRAME_CAP;
      frames = frames.slice(-FRAME_CAP);
    }
    const patch: Partial<SessionSnapshot> = { frames, lastSeq, lastSessionId, maxRequestId, missed };
    if (pendingChanged) patch.pending = [...this.pendingBySeq.values()];
    this.set(patch);
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

  async startAgent(profile: string | undefined, cwd: string | undefined): Promise<void> {
    const previous = this.snapshot.agent;
    if (previous.state === "starting" || previous.state === "running") return;
    this.set({ agent: { state: "starting", previous }, agentError: undefined });
    const payload: { profile?: string; cwd?: string } = {};
    if (profile) payload.profile = profile;
    if (cwd) payload.cwd = cwd;
    const res = await this.emitWithAck<{ agent: AgentInfo }>((s, ack) => s.emit("agent:start", payload, ack));
    if (res.ok) {
      // `agent:started` normally arrived first; the ack covers a lost event.
      if (this.snapshot.agent.state === "starting") this.set({ agent: { state: "running", agent: res.agent } });
    } else {
      const current = this.snapshot.agent;
      this.set({
        agent: current.state === "starting" ? (current.previous ?? { state: "not-started" }) : current,
        agentError: res.error,
      });
    }
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
    if (isObject(frame) && typeof frame.id === "number" && typeof frame.method === "string" && frame.id > this.snapshot.maxRequestId) {
      this.set({ maxRequestId: frame.id });
    }
    return { ok: true, seq: res.seq };
  }

  clearStderr(): void {
    this.set({ stderr: [] });
  }
}

let store: SessionStore | undefined;

/** One store per page: the socket lives as long as the tab. */
export function getSessionStore(): SessionStore {
  store ??= new SessionStore();
  return store;
}
