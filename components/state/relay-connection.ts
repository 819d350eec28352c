/**
 * The tab's Socket.IO connection to the relay: opens it once with the tab's
 * clientId, follows its state, re-attaches with `lastSeq` on every reconnect,
 * and hands the relay's events to the session. Lives as long as the tab.
 */
import { io, type ManagerOptions, type Socket, type SocketOptions } from "socket.io-client";
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
  TransportEvent,
} from "@/lib/contracts/wire";
import type { WireFrame } from "@/lib/protocol/frame";
import type { SnapshotHost } from "./frame-log-state";

export type RelaySocket = Socket<ServerToClientEvents, ClientToServerEvents>;

/** Opens the socket to the relay; tests hand in a fake relay instead. */
export type OpenSocket = (options: Partial<ManagerOptions & SocketOptions>) => RelaySocket;

/** The page's own relay: the origin the page came from. */
export const openRelaySocket: OpenSocket = (options) => io(options);

/** What the relay tells the session about its agent. */
export interface RelayEvents {
  attached(event: AttachedEvent): void;
  started(agent: AgentInfo): void;
  exited(code: number | null, signal: string | null): void;
  agentError(error: RelayError): void;
  stderr(event: StderrEvent): void;
  /** A remote agent's transport event (HTTP status, stream open/close, reconnect). */
  transport(event: TransportEvent): void;
  frames(frames: WireFrame[]): void;
}

export function randomId(): string {
  // randomUUID needs a secure context; a LAN http:// address is not one.
  if (typeof crypto.randomUUID === "function") return crypto.randomUUID();
  return Array.from(crypto.getRandomValues(new Uint8Array(16)), (b) => b.toString(16).padStart(2, "0")).join("");
}

export class RelayConnection {
  private socket?: RelaySocket;
  private disposed = false;

  constructor(
    private readonly host: SnapshotHost,
    private readonly events: RelayEvents,
    /** The tab's chosen profile: the relay lists only a few replays, so it is named when asking. */
    private readonly chosenProfile: () => string | undefined = () => undefined,
    private readonly openSocket: OpenSocket = openRelaySocket,
  ) {}

  /** Asks the relay for its info (profiles, workspace roots) and keeps the answer. */
  async loadInfo(): Promise<Ack<{ info: RelayInfo }>> {
    const profile = this.chosenProfile();
    const res = await this.emitWithAck<{ info: RelayInfo }>((s, ack) =>
      s.emit("relay:info", profile ? { profile } : {}, ack),
    );
    if (res.ok) this.host.set({ info: res.info });
    return res;
  }

  /** Asks the relay for its profiles again (a transcript recorded since is a new replay profile). */
  refreshInfo(): void {
    void this.loadInfo();
  }

  /**
   * Opens the socket once; idempotent, so React strict mode's double effects are harmless.
   * `watch`: a watch link's token instead of the access token (a read-only watcher, no browser session).
   */
  open(token: string | undefined, clientIdKey: string, watch?: string): void {
    if (this.disposed || this.socket || this.host.get().connection !== "idle") return;
    if (!token && !watch) {
      this.host.set({ connection: "no-token" });
      return;
    }
    let clientId = watch ? undefined : sessionStorage.getItem(clientIdKey);
    if (!clientId && !watch) {
      clientId = randomId();
      sessionStorage.setItem(clientIdKey, clientId);
    }
    this.host.set({ connection: "connecting", clientId: clientId ?? undefined });

    const socket = this.openSocket({
      // A function is re-read on every (re)connect, so lastSeq is always current.
      auth: (cb) => {
        const { clientId: id, lastSeq } = this.host.get();
        const auth: HandshakeAuth = watch ? { watchLink: watch, lastSeq } : { token, clientId: id, lastSeq };
        cb(auth);
      },
      transports: ["websocket", "polling"],
      // Each tab needs its own connection: the relay keys an agent by connection.
      forceNew: true,
    });
    this.socket = socket;

    socket.on("connect", () => {
      this.host.set({ connection: "connected", connectionError: undefined });
      // Answered a round trip later: whatever needs it before then asks with relayInfo(). A watcher may not ask.
      if (!watch) this.refreshInfo();
    });
    socket.on("connect_error", (err) => {
      if (err.message === "no such watch link") {
        socket.disconnect();
        this.host.set({ connection: "disconnected", watchEnded: "This watch link has ended, or never existed." });
      } else if (err.message === "unauthorized") {
        // A refused token will not start working: stop retrying.
        socket.disconnect();
        this.host.set({ connection: "unauthorized", connectionError: err.message });
      } else {
        this.host.set({ connection: "disconnected", connectionError: err.message });
      }
    });
    socket.on("watch:ended", ({ message }) => this.host.set({ watchEnded: message }));
    socket.on("watch:paused", ({ message }) => this.host.set({ watchPaused: message }));
    socket.on("watch:resumed", () => this.host.set({ watchPaused: undefined }));
    socket.on("disconnect", (reason) => {
      if (this.host.get().connection === "unauthorized" || this.disposed) return;
      this.host.set({ connection: "disconnected", connectionError: reason });
    });
    socket.on("relay:hello", ({ clientId: assigned }) => {
      // A duplicated tab is given a clientId of its own: re-attach with that one.
      sessionStorage.setItem(clientIdKey, assigned);
      this.host.set({ clientId: assigned });
    });
    socket.on("agent:attached", (event) => this.events.attached(event));
    socket.on("agent:started", (agent) => this.events.started(agent));
    socket.on("agent:exit", ({ code, signal }) => this.events.exited(code, signal));
    socket.on("agent:error", (error) => this.events.agentError(error));
    socket.on("agent:stderr", (event) => this.events.stderr(event));
    socket.on("agent:transport", (event) => this.events.transport(event));
    socket.on("frames", (frames) => this.events.frames(frames));
  }

  /** Closes the socket for good (the tab was closed). */
  dispose(): void {
    this.disposed = true;
    this.socket?.disconnect();
    this.socket = undefined;
  }

  /** Emits with an acknowledgement; "not connected" when the socket is down. */
  emitWithAck<R extends object>(send: (socket: RelaySocket, ack: (res: Ack<R>) => void) => void): Promise<Ack<R>> {
    const socket = this.socket;
    if (!socket?.connected) {
      return Promise.resolve({ ok: false, error: { code: "internal", message: "not connected to the relay" } });
    }
    return new Promise((resolve) => send(socket, resolve));
  }
}
