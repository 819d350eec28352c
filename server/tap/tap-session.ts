/**
 * Tapped conversations in the relay: a tap (`acp-playground tap`, between an
 * editor and its agent) connects on the `/tap` namespace with the relay's
 * token and streams copies of what it sees; each becomes an agent browsers can
 * watch (clientId `tap-<id>`), recorded like any other. Watching is read-only:
 * a browser's frame reaches the agent only through a socket that has turned
 * injection on, and is marked injected. On a team server a tap is its opener's:
 * only they and the admin see it listed, watch it or steer it (tapRefusal).
 */
import type { Namespace, Server, Socket } from "socket.io";
import type { Frame, WireFrame } from "../../lib/protocol/frame";
import { secretsFromEnv } from "../../lib/features/library/redact";
import {
  shownAgent,
  TAP_BATCH_CHARS,
  TAP_ID,
  TAP_NAMESPACE,
  tapClientId,
  tapEventChars,
  tapIdOf,
  tapRefusal,
  WATCH_TAPS,
  type TapBatch,
  type TapBrowserEvents,
  type TapClientToServerEvents,
  type TapEvent,
  type TapInfo,
  type TapServerToClientEvents,
} from "../../lib/contracts/tap-wire";
import { z } from "zod";
import {
  clientEventSchemas,
  frameLine,
  invalidPayload,
  parsePayload,
  type Ack,
  type ClientToServerEvents,
  type RelayInfo,
  type ServerToClientEvents,
  type StderrEvent,
} from "../../lib/contracts/wire";
import {
  tapBatchSchema,
  tapInjectionForSchema,
  tapInjectionSchema,
  tapOpenSchema,
} from "../../lib/contracts/tap-schema";
import type { Me } from "../../lib/contracts/transcript-meta";
import type { ServerConfig } from "../config";
import { AttachableLog, withoutMessage, type LogCaps } from "../agents/attachable-log";
import { Attachment } from "../wire/attachment";
import { socketEvents } from "../wire/socket-events";
import { TapRecording } from "./tap-recording";
import type { TranscriptStore } from "../transcripts/transcript-store";

type TapSocket = Socket<TapClientToServerEvents, TapServerToClientEvents>;
type ViewerSocket = Socket<ClientToServerEvents, ServerToClientEvents & TapBrowserEvents>;

/**
 * The browsers told of taps: the sockets an access token opened (every one the hub's `connection`
 * sees), never a watch link's, which may see its one session and nothing else. The admin's sockets
 * are told of every tap, a person's (a named token's) of their own only: one room each.
 */
const TAPS_ROOM = "taps";
const ownerRoom = (owner: string) => `taps:${owner}`;
const roomOf = (me: Me) => (me.owner === undefined ? TAPS_ROOM : ownerRoom(me.owner));

/** Tapped conversations held at once; a tap beyond it is refused (and records on its own). */
const MAX_TAPS = 64;
/** Events applied in one event-loop task: a batch is applied in slices, so browsers and other taps get turns. */
const APPLY_SLICE = 250;
/** Batches of one tap waiting to be applied; a tap that does not wait for its acks is refused beyond it. */
const PENDING_BATCHES = 32;
/** Changes to the taps list within this are sent to browsers as one `taps`. */
const ANNOUNCE_MS = 50;

/** Who a token is (server/http/identities.ts's Identities, a floor up): `{}` for the relay's own. */
export interface TapIdentities {
  who(token: unknown): Me | undefined;
  onRevoked(listener: (names: Set<string>) => void): void;
}

const nextTurn = () => new Promise<void>((resolve) => setImmediate(resolve));

const READ_ONLY_EVENTS = [
  "agent:start",
  "agent:stop",
  "policy:set",
  "agent:serve",
  "agent:probe",
  "transcript:rerun",
] as const;

class TapSession {
  info: TapInfo;
  socket?: TapSocket;
  lastBatch = 0;
  /** Frames and stderr for viewers that attach, under an agent run's caps (server/agents/attachable-log.ts). */
  private readonly kept: AttachableLog;
  /** Batches are applied one after the other, in the order they came. */
  private applying: Promise<unknown> = Promise.resolve();
  pending = 0;
  exit?: { code: number | null; signal: string | null };
  /** The viewers' clientIds (tabs), by socket. */
  readonly viewers = new Map<ViewerSocket, string>();
  /** Viewer clientIds (tabs) whose frames reach the agent. */
  readonly injecting = new Set<string>();
  /** The viewers' sockets, as a browser's is attached to an agent (no grace: the tap decides how long this lasts). */
  private readonly attachment = new Attachment<ViewerSocket>();
  removeTimer?: NodeJS.Timeout;

  constructor(
    readonly id: string,
    readonly recording: TapRecording,
    info: Omit<TapInfo, "connected" | "exited">,
    caps: LogCaps,
  ) {
    this.info = { ...info, connected: true, exited: false };
    this.kept = new AttachableLog(caps);
  }

  /** The frames kept for viewers that attach, oldest first, without `message`. */
  get log(): WireFrame[] {
    return this.kept.frames;
  }

  /** What is kept, in characters (frames' raw lines, stderr). */
  get keptChars(): { frames: number; stderr: number } {
    return { frames: this.kept.frameChars, stderr: this.kept.stderrChars };
  }

  queue(frame: Frame): void {
    const lean = withoutMessage(frame);
    this.kept.pushFrame(lean);
    this.attachment.frame(lean);
  }

  keepStderr(event: StderrEvent): void {
    this.kept.pushStderr(event);
    this.emit("agent:stderr", event);
  }

  /**
   * Applies a batch after those before it, APPLY_SLICE events per event-loop turn; resolves
   * with the highest batch applied. A batch at or below it (re-sent after a reconnect) is not applied again.
   */
  applyBatch({ n, events }: TapBatch, apply: (event: TapEvent) => void): Promise<Ack<{ n: number }>> {
    this.pending++;
    const done = this.applying.then(async () => {
      if (n <= this.lastBatch) return;
      this.lastBatch = n;
      for (let i = 0; i < events.length; i += APPLY_SLICE) {
        await nextTurn();
        for (const event of events.slice(i, i + APPLY_SLICE)) apply(event);
      }
    });
    this.applying = done.catch(() => {});
    return done.then(() => ({ ok: true as const, n: this.lastBatch })).finally(() => this.pending--);
  }

  /** Resolves once what was sent before is applied. */
  settled(): Promise<unknown> {
    return this.applying;
  }

  /** Anything but frames goes out after the frames before it. */
  emit<E extends keyof ServerToClientEvents>(event: E, ...args: Parameters<ServerToClientEvents[E]>): void {
    this.attachment.emit(event, ...args);
  }

  state(viewer: ViewerSocket): void {
    viewer.emit("tap:state", { tap: this.info, injection: this.injecting.has(this.viewers.get(viewer) ?? "") });
  }

  attach(viewer: ViewerSocket, clientId: string, lastSeq: number): void {
    this.viewers.set(viewer, clientId);
    this.attachment.attach(viewer, lastSeq, this.kept, { agent: this.exit ? null : this.info.agent, policies: {} });
    this.state(viewer);
    if (this.exit) viewer.emit("agent:exit", this.exit);
  }

  detach(viewer: ViewerSocket): void {
    this.viewers.delete(viewer);
    this.attachment.detach(viewer);
  }
}

export interface TapHub {
  /** Tapped conversations by tap id. */
  sessions: Map<string, TapSession>;
  /** The taps `me` may see (tapRefusal). */
  list(me: Me): TapInfo[];
  /**
   * For every connection on the browsers' namespace: takes over a socket that
   * watches a tap (clientId `tap-<id>[-<tab>]`) or only the taps list
   * (`auth.watch: "taps"`) and returns true; otherwise tells the socket which
   * taps there are and returns false.
   */
  connection(socket: Socket, clientId: string | undefined, lastSeq: number): boolean;
  close(): void;
}

export function createTapHub(
  io: Server,
  config: ServerConfig,
  transcripts: TranscriptStore,
  relayInfo: () => Promise<RelayInfo>,
  /** Marks the connection as authenticated, so the relay's connect timeout spares it. */
  authenticated: (conn: object) => void,
  /** Who a token is: a tap is opened by the admin (the relay's own token) or a person (a named one). */
  identities: TapIdentities,
  /** Who a browser's socket is (its token's owner, taken when it connected). */
  meOf: (socket: Socket) => Me,
): TapHub {
  const sessions = new Map<string, TapSession>();
  const list = (me: Me) =>
    [...sessions.values()].filter((s) => !tapRefusal(me, s.info.owner, "watch")).map((s) => s.info);
  // A tap that reconnects in a loop costs browsers one small list per ANNOUNCE_MS, not one per connect.
  let announcing: NodeJS.Timeout | undefined;
  /** People told of a tap of theirs last time: told again (an empty list, once theirs are gone). */
  let told = new Set<string>();
  const announce = () => {
    announcing ??= setTimeout(() => {
      announcing = undefined;
      io.of("/")
        .to(TAPS_ROOM)
        .emit("taps", { taps: list({}) });
      const owners = new Set<string>();
      for (const s of sessions.values()) if (s.info.owner !== undefined) owners.add(s.info.owner);
      for (const owner of new Set([...told, ...owners]))
        io.of("/")
          .to(ownerRoom(owner))
          .emit("taps", { taps: list({ owner }) });
      told = owners;
    }, ANNOUNCE_MS);
  };
  const update = (session: TapSession, patch: Partial<TapInfo>) => {
    session.info = { ...session.info, ...patch };
    for (const viewer of session.viewers.keys()) session.state(viewer);
    announce();
  };
  /** A tap gone (exited, or away longer than the grace period) is closed, then kept a while for watchers. */
  const finishIfDone = (session: TapSession) => {
    if (session.socket?.connected) return;
    const remove = () => {
      void session.settled().then(() => session.recording.close());
      session.removeTimer = setTimeout(() => {
        if (sessions.get(session.id) === session) sessions.delete(session.id);
        announce();
      }, config.graceMs);
      session.removeTimer.unref();
    };
    if (session.exit) return remove();
    session.removeTimer = setTimeout(() => {
      if (!session.socket?.connected) remove();
    }, config.graceMs);
    session.removeTimer.unref();
  };

  const taps: Namespace = io.of(TAP_NAMESPACE);
  /** Each tap socket's opener (by socket id): a named token's owner, or none for the relay's own. */
  const openers = new Map<string, Me>();
  taps.use((socket, next) => {
    const auth = socket.handshake.auth as Record<string, unknown>;
    const who = identities.who(auth?.token);
    if (!who) return next(new Error("unauthorized"));
    if (typeof auth.tapId !== "string" || !TAP_ID.test(auth.tapId)) return next(new Error("bad tapId"));
    openers.set(socket.id, who.owner === undefined ? {} : { owner: who.owner });
    authenticated(socket.conn);
    next();
  });
  // A revoked person's taps are cut off at once (their editors keep working; the tap does not reconnect).
  identities.onRevoked((names) => {
    for (const socket of taps.sockets.values()) {
      const owner = openers.get(socket.id)?.owner;
      if (owner !== undefined && names.has(owner)) socket.disconnect(true);
    }
  });

  taps.on("connection", (socket: TapSocket) => {
    const tapId = (socket.handshake.auth as { tapId: string }).tapId;
    const opener = openers.get(socket.id) ?? {};
    socket.once("disconnect", () => openers.delete(socket.id));
    let session: TapSession | undefined;

    const events = socketEvents(socket);
    events.on("tap:open", tapOpenSchema, (open): Ack<{ transcriptId: string }> => {
      const existing = sessions.get(tapId);
      // Only whoever opened a tap carries it on (its reconnects): not another person, not the admin.
      if (existing && existing.info.owner !== opener.owner)
        return {
          ok: false,
          error: { code: "not_owner", message: "this tap id belongs to a tap another token opened" },
        };
      session = existing;
      if (!session) {
        if (sessions.size >= MAX_TAPS)
          return { ok: false, error: { code: "internal", message: `the relay holds ${MAX_TAPS} taps already` } };
        // The tap redacts with the agent's environment before it sends; the relay adds its own.
        const recording = new TapRecording(transcripts, open, config.maxLineBytes, secretsFromEnv(process.env));
        // Its recording is its opener's, under the library's rules (ownerRefusal).
        if (opener.owner !== undefined) transcripts.own(recording.id, opener.owner);
        session = new TapSession(
          tapId,
          recording,
          {
            id: tapId,
            clientId: tapClientId(tapId),
            agent: shownAgent(open, recording.id),
            startedAt: Date.now(),
            ...(opener.owner === undefined ? {} : { owner: opener.owner }),
          },
          config,
        );
        sessions.set(tapId, session);
      }
      clearTimeout(session.removeTimer);
      session.socket = socket;
      update(session, { connected: true });
      return { ok: true, transcriptId: session.recording.id };
    });

    events.on("tap:events", tapBatchSchema, (batch): Ack<{ n: number }> | Promise<Ack<{ n: number }>> => {
      const tap = session;
      if (!tap || tap.socket !== socket)
        return { ok: false, error: { code: "no_agent", message: "send tap:open first" } };
      const chars = batch.events.reduce((sum, e) => sum + tapEventChars(e), 0);
      if (batch.events.length > 1 && chars > TAP_BATCH_CHARS)
        return invalidPayload(
          `tap:events: batch ${batch.n} carries ${chars} characters in ${batch.events.length} events; at most ${TAP_BATCH_CHARS} unless it is one event`,
        );
      if (tap.pending >= PENDING_BATCHES)
        return invalidPayload(
          `tap:events: batch ${batch.n} refused: ${tap.pending} batches of this tap wait to be applied; wait for their acks`,
        );
      return tap.applyBatch(batch, (event) => {
        const applied = tap.recording.apply(event);
        if (applied.type === "frame") tap.queue(applied.frame);
        else if (applied.type === "stderr") tap.keepStderr(applied.event);
        else if (applied.type === "notice") tap.emit("agent:error", { code: "internal", message: applied.message });
        else {
          tap.exit = { code: applied.code, signal: applied.signal };
          tap.emit("agent:exit", tap.exit);
          update(tap, { exited: true });
        }
      });
    });

    socket.on("disconnect", () => {
      if (!session || session.socket !== socket) return;
      session.socket = undefined;
      update(session, { connected: false });
      finishIfDone(session);
    });
  });

  /** `tap:injection`: from a viewer for itself, or from a taps-watch socket for a viewer (by clientId). */
  const setInjection = (me: Me, clientId: string, enabled: boolean): Ack<{ injection: boolean }> => {
    const tapId = tapIdOf(clientId);
    const tap = tapId ? sessions.get(tapId) : undefined;
    if (!tap) return { ok: false, error: { code: "no_agent", message: "no such tapped conversation" } };
    const refused = tapRefusal(me, tap.info.owner, "inject");
    if (refused) return { ok: false, error: { code: "not_owner", message: refused } };
    if (enabled) tap.injecting.add(clientId);
    else tap.injecting.delete(clientId);
    for (const [viewer, id] of tap.viewers) if (id === clientId) tap.state(viewer);
    return { ok: true, injection: enabled };
  };

  const attachViewer = (socket: ViewerSocket, me: Me, clientId: string, tapId: string, lastSeq: number) => {
    socket.emit("relay:hello", { clientId });
    const session = sessions.get(tapId);
    const refused = session && tapRefusal(me, session.info.owner, "watch");
    if (session && !refused) session.attach(socket, clientId, lastSeq);
    else socket.emit("agent:attached", { agent: null, lastSeq: 0, missed: 0, firstSeq: 1, policies: {} });
    // Not another person's frames, command line or state: the tab says why it shows nothing.
    if (refused) socket.emit("agent:error", { code: "not_owner", message: refused });
    const events = socketEvents(socket);
    events.on("relay:info", clientEventSchemas["relay:info"], async () => ({ ok: true, info: await relayInfo() }));
    for (const event of READ_ONLY_EVENTS)
      events.on(event, z.unknown(), () => ({
        ok: false,
        error: { code: "read_only", message: "this is a tapped conversation: the editor drives it; watch only" },
      }));
    events.on("tap:injection", tapInjectionSchema, ({ enabled }) => setInjection(me, clientId, enabled));
    events.on("agent:send", z.unknown(), (payload): Ack<{ seq: number }> => {
      const tap = sessions.get(tapId);
      // Injection is turned on per clientId, which is no secret: the sender must be allowed too.
      const forbidden = tap && tapRefusal(me, tap.info.owner, "inject");
      if (forbidden) return { ok: false, error: { code: "not_owner", message: forbidden } };
      if (!tap?.injecting.has(clientId))
        return {
          ok: false,
          error: { code: "read_only", message: "this is a tapped conversation: the editor drives it; watch only" },
        };
      const parsed = parsePayload("agent:send", payload);
      if (!parsed.ok) return parsed;
      const line = frameLine(parsed.value.frame, config.maxLineBytes);
      if (!line.ok) return line;
      if (!tap.socket?.connected || tap.exit)
        return { ok: false, error: { code: "no_agent", message: "the tap is not connected" } };
      const frame = tap.recording.inject(line.value);
      tap.queue(frame);
      tap.socket.emit("tap:inject", { line: line.value });
      return { ok: true, seq: frame.seq };
    });
    events.refuseUnknown();
    socket.on("disconnect", () => sessions.get(tapId)?.detach(socket));
  };

  return {
    sessions,
    list,
    connection(socket, clientId, lastSeq) {
      const me = meOf(socket);
      void socket.join(roomOf(me));
      if ((socket.handshake.auth as { watch?: unknown }).watch === WATCH_TAPS) {
        socket.emit("taps", { taps: list(me) });
        const events = socketEvents(socket);
        events.on("tap:injection", tapInjectionForSchema, ({ clientId: viewer, enabled }) =>
          setInjection(me, viewer, enabled),
        );
        events.refuseUnknown();
        return true;
      }
      const tapId = tapIdOf(clientId);
      if (tapId === undefined) {
        socket.emit("taps", { taps: list(me) });
        return false;
      }
      attachViewer(socket as ViewerSocket, me, clientId!, tapId, lastSeq);
      return true;
    },
    close() {
      clearTimeout(announcing);
      for (const session of sessions.values()) {
        clearTimeout(session.removeTimer);
        session.recording.close();
        session.socket?.disconnect(true);
      }
      sessions.clear();
    },
  };
}
