/**
 * Watch links: the owner of a running session lets people watch it live,
 * read-only (`POST /api/watch`, docs/relay-protocol.md#watch-links). Each link
 * is a Socket.IO room its watchers join; one feed per link hears the owner's
 * agent (as a browser's Attachment does), redacts every frame and event once
 * (the transcript's secrets, then the workspace and home paths, as a share
 * page hides them) and sends it to the room. Watchers may send nothing: every
 * event they emit is refused here, whatever their page does.
 */
import { randomBytes } from "node:crypto";
import type { Server, Socket } from "socket.io";
import { createRedactor } from "../../lib/features/library/redact";
import type { WireFrame } from "../../lib/protocol/frame";
import {
  clientEventSchemas,
  type AgentInfo,
  type ClientToServerEvents,
  type RelayError,
  type ServerToClientEvents,
} from "../../lib/contracts/wire";
import { z } from "zod";
import type { AgentHost, HostWatcher } from "../agents/agent-host";
import { socketEvents } from "../wire/socket-events";
import { HIDDEN_WORKSPACE, localPaths } from "../transcripts/local-paths";
import type { LiveCluster } from "./live-cluster";

type WatcherSocket = Socket<ClientToServerEvents, ServerToClientEvents>;
type Io = Server<ClientToServerEvents, ServerToClientEvents>;

/** A link's token: 32 URL-safe characters (192 random bits). */
export const WATCH_TOKEN = /^[\w-]{32}$/;
/** Links held at once by this relay; a demo needs a few. */
export const MAX_WATCH_LINKS = 64;
/**
 * Links one person holds at once on this relay (the relay's own token's count as the operator's):
 * without it one named token could take all MAX_WATCH_LINKS and no one else could make one.
 */
export const MAX_WATCH_LINKS_PER_PERSON = 8;
/** Watchers of one link on this relay (attached, or waiting for another instance to attach them); beyond it a watcher is refused. */
export const MAX_WATCHERS = 500;

export const watchRoom = (token: string) => `watch:${token}`;

/** What a watcher is told on every event it tries to send. */
export const READ_ONLY_MESSAGE = "this is a watch link: you can watch this session, not act in it";

/**
 * Characters of frames a watcher is resent when it attaches: the newest of the log (which may keep
 * 64 MiB), each watcher its own copy. Older frames count as missed.
 */
export const WATCH_RESEND_CHARS = 2 * 1024 * 1024;
/**
 * Bytes waiting to be sent to one watcher past which it is dropped: a watcher that reads nothing
 * would otherwise hold a copy of the stream in the relay for as long as its connection lasts.
 */
export const WATCH_PENDING_BYTES = 4 * 1024 * 1024;
/** Bytes waiting for all of this instance's watchers together past which the furthest behind are dropped. */
export const WATCH_PENDING_TOTAL = 128 * 1024 * 1024;
/**
 * Characters of resends a link's instance sends through Redis to watchers on other instances, per
 * minute (a token bucket: this much at once, refilled evenly). Each such resend is an entry of the
 * shared stream, which Redis keeps until it is trimmed: a watcher reconnecting in a loop would
 * otherwise add 2 MiB to it each time. Past it a remote watcher is resent the newest of what is
 * left (possibly nothing: it counts the rest as missed) and watches live as any other.
 */
export const REMOTE_RESEND_PER_LINK = 8 * 1024 * 1024;
/** The same, for all of this instance's links together. */
export const REMOTE_RESEND_PER_INSTANCE = 32 * 1024 * 1024;
const BUDGET_WINDOW_MS = 60_000;

/** Characters that may go out per window: a token bucket, full at first. */
class Budget {
  private left: number;
  private at = Date.now();

  constructor(private readonly perWindow: number) {
    this.left = perWindow;
  }

  available(): number {
    const now = Date.now();
    this.left = Math.min(this.perWindow, this.left + ((now - this.at) * this.perWindow) / BUDGET_WINDOW_MS);
    this.at = now;
    return Math.max(0, Math.floor(this.left));
  }

  spend(chars: number): void {
    this.left -= chars;
  }
}

/** How often this instance looks at what waits for its watchers. */
const SHED_MS = 250;

/** Bytes a socket has waiting: Engine.IO's packets not yet handed on, and the WebSocket's buffer. */
function pendingBytes(socket: WatcherSocket): number {
  const conn = socket.conn as unknown as {
    writeBuffer?: { data?: unknown }[];
    transport?: { socket?: { bufferedAmount?: unknown } };
  };
  const buffered = conn.transport?.socket?.bufferedAmount;
  let bytes = typeof buffered === "number" ? buffered : 0;
  for (const { data } of conn.writeBuffer ?? [])
    bytes += typeof data === "string" ? data.length : data instanceof Uint8Array ? data.byteLength : 0;
  return bytes;
}

/** Watchers' frames leave at most every this many ms: one message per watcher per batch, not per frame. */
export const WATCH_BATCH_MS = 25;

/**
 * Frames gathered for a link's room and sent together: at 1,000 frames/s one message per watcher
 * every WATCH_BATCH_MS, not one per event-loop turn (each is a WebSocket write per watcher, on the
 * thread that also reads the owner's agent). Flushed before any other event, so order holds.
 */
class WatchOutbox {
  private frames: WireFrame[] = [];
  private timer?: NodeJS.Timeout;

  constructor(private readonly send: (frames: WireFrame[]) => void) {}

  push(lean: WireFrame): void {
    this.frames.push(lean);
    this.timer ??= setTimeout(() => this.flush(), WATCH_BATCH_MS);
  }

  flush(): void {
    clearTimeout(this.timer);
    this.timer = undefined;
    if (this.frames.length === 0) return;
    const frames = this.frames;
    this.frames = [];
    this.send(frames);
  }
}

/** Hears one agent for one link: redacts once per frame, whatever the number of watchers. */
class WatchFeed implements HostWatcher {
  private readonly outbox: WatchOutbox;
  private readonly hide: (text: string) => string;
  private readonly redactor: ReturnType<typeof createRedactor>;
  private readonly remoteBudget = new Budget(REMOTE_RESEND_PER_LINK);
  readonly stop: () => void;

  constructor(
    readonly token: string,
    readonly clientId: string,
    readonly host: AgentHost,
    /** Who made the link: a named token's owner; absent for the relay's own token. */
    readonly by: string | undefined,
    private readonly io: Io,
    /** What this instance may still resend through Redis, for all its links. */
    private readonly instanceBudget: Budget,
    /** Where a broadcast goes: every instance, or this one only while Redis is away. */
    private readonly reach: () => Io | Io["local"],
    private readonly ended: (message: string) => void,
  ) {
    this.redactor = createRedactor(host.secrets);
    this.hide = localPaths(host.agentInfo?.cwd ?? "");
    this.outbox = new WatchOutbox((frames) => reach().to(watchRoom(token)).emit("frames", frames));
    this.stop = host.watch(this);
  }

  /** Stops hearing the agent; what waits for the room goes first. */
  finish(): void {
    this.outbox.flush();
    this.stop();
  }

  text(text: string): string {
    return this.hide(this.redactor.text(text).text);
  }

  frameOf(lean: WireFrame): WireFrame {
    const raw = this.hide(this.redactor.frame(lean.raw).text);
    // A line that was not UTF-8 is shown as its replacement characters only: its bytes are not redacted.
    if (raw === lean.raw && lean.rawBase64 === undefined) return lean;
    const { rawBase64: _bytes, ...rest } = lean;
    return { ...rest, raw };
  }

  agentOf(info: AgentInfo | null): AgentInfo | null {
    if (!info) return null;
    // As a share page without the command line: the program's name, its arguments redacted.
    const command = info.command.split(/[\\/]/).at(-1) ?? "";
    return { ...info, command, args: this.redactor.args(info.args).map(this.hide), cwd: HIDDEN_WORKSPACE };
  }

  errorOf(error: RelayError): RelayError {
    const data =
      error.data === undefined ? undefined : (JSON.parse(this.text(JSON.stringify(error.data))) as RelayError["data"]);
    return { ...error, message: this.text(error.message), ...(data === undefined ? {} : { data }) };
  }

  frame(lean: WireFrame): void {
    this.outbox.push(this.frameOf(lean));
  }

  emit<E extends keyof ServerToClientEvents>(event: E, ...args: Parameters<ServerToClientEvents[E]>): void {
    this.outbox.flush();
    const room = this.reach().to(watchRoom(this.token));
    const [payload] = args as unknown[];
    if (event === "agent:stderr" || event === "agent:transport") {
      const { ts, text } = payload as { ts: number; text: string };
      room.emit(event as "agent:stderr", { ts, text: this.text(text) });
    } else if (event === "agent:error") room.emit("agent:error", this.errorOf(payload as RelayError));
    else if (event === "agent:exit") {
      room.emit("agent:exit", payload as Parameters<ServerToClientEvents["agent:exit"]>[0]);
      this.ended("the session ended: its agent exited");
    } else if (event === "agent:started") room.emit("agent:started", this.agentOf(payload as AgentInfo)!);
  }

  /**
   * A watcher joins: told where the log stands, sent what is kept after its `lastSeq`, redacted, then live.
   * `socket` is this instance's, or another instance's socket id: then the join and what is sent go through
   * the adapter, in one stream with the live frames that follow, so that instance sees them in this order.
   */
  attach(socket: WatcherSocket | string, lastSeq: number): void {
    this.outbox.flush();
    type Emit = (event: string, payload: unknown) => void;
    let emit: Emit;
    if (typeof socket === "string") {
      const id = socket;
      this.io.in(id).socketsJoin(watchRoom(this.token));
      emit = (event, payload) => {
        const to = this.io.to(id);
        (to.emit as Emit).call(to, event, payload);
      };
    } else {
      void socket.join(watchRoom(this.token));
      emit = (event, payload) => (socket.emit as Emit).call(socket, event, payload);
    }
    const log = this.host.log;
    // Another instance's watcher is resent what the budgets through Redis leave.
    const remote = typeof socket === "string";
    const limit = remote
      ? Math.min(WATCH_RESEND_CHARS, this.remoteBudget.available(), this.instanceBudget.available())
      : WATCH_RESEND_CHARS;
    // The newest `limit` characters of the log after `lastSeq`; what is older counts as missed.
    const position = log.position(lastSeq);
    let from = lastSeq;
    let chars = 0;
    for (let i = log.frames.length - 1; i >= 0 && log.frames[i]!.seq > lastSeq; i--) {
      chars += log.frames[i]!.raw.length;
      if (chars > limit) {
        from = log.frames[i]!.seq;
        position.firstSeq = from + 1;
        position.missed = from - lastSeq;
        chars -= log.frames[i]!.raw.length;
        break;
      }
    }
    const transport = log.transport.map(({ ts, text }) => ({ ts, text: this.text(text) }));
    // Its stderr goes with it only when it fits in what is left.
    const stderr = !remote || log.stderrChars <= limit - chars;
    if (remote) {
      const spent = chars + (stderr ? log.stderrChars : 0) + transport.reduce((n, t) => n + t.text.length, 0);
      this.remoteBudget.spend(spent);
      this.instanceBudget.spend(spent);
    }
    emit("agent:attached", { agent: this.agentOf(this.host.agentInfo), ...position, policies: {}, transport });
    log.resend(
      {
        emit: ((event: string, payload: unknown) => {
          if (event === "frames")
            emit(
              "frames",
              (payload as WireFrame[]).map((f) => this.frameOf(f)),
            );
          else if (event === "agent:stderr" && stderr) {
            const { ts, text } = payload as { ts: number; text: string };
            emit("agent:stderr", { ts, text: this.text(text) });
          }
        }) as WatcherSocket["emit"],
      },
      from,
    );
  }
}

export type WatchAnswer =
  { ok: true; token: string } | { ok: false; status: number; error: { code: string; message: string } };

/** Between two attempts to reach a link's instance. */
const RETRY_MS = 1_000;
/** Attempts to reach a link's instance after Redis came back (its heartbeat may not have come back yet). */
const RESUME_ATTEMPTS = 10;
/** A watcher here of a link held by another instance: the newest frame it was sent, and whether it is attached. */
interface RemoteWatcher {
  token: string;
  lastSeq: number;
  attached: boolean;
  /** Called when its `agent:attached` goes out (the attach, through Redis's stream, arrived). */
  onAttached?: () => void;
}
/** Asks a link's instance left unanswered (busy, not gone) before a watcher is told the link has ended. */
const UNANSWERED_ATTEMPTS = 5;
/**
 * How long an attach the link's instance said it made may take to arrive: it comes through Redis's
 * stream, its answer through pub/sub, so the answer comes first; past this the instance is asked again.
 */
export const ATTACH_ARRIVAL_MS = 5_000;

/** What a watcher is told while its instance cannot reach the link's. */
export const PAUSED_MESSAGE = "paused: this playground instance lost Redis; the stream resumes when it is back";

export class WatchLinks {
  private readonly feeds = new Map<string, WatchFeed>();
  private cluster?: LiveCluster;
  /** Watchers on this instance of links another instance holds, with the newest seq each was sent. */
  private readonly remote = new Map<WatcherSocket, RemoteWatcher>();
  /** How many of `remote` watch each link. */
  private readonly remoteCount = new Map<string, number>();
  private readonly shedding: NodeJS.Timeout;
  private readonly instanceBudget = new Budget(REMOTE_RESEND_PER_INSTANCE);
  /** Links being listed in Redis: their URL is handed out once every instance can find them. */
  private readonly listing = new Map<string, Promise<void>>();
  /** Ended links being unlisted in Redis: an end is answered once no instance lets a watcher in. */
  private readonly unlisting = new Map<string, Promise<void>>();
  /** Watchers of one link on this instance; `maxWatchers` for a test's smaller number. */
  maxWatchers = MAX_WATCHERS;

  constructor(
    private readonly io: Io,
    /** The browser session's agent host by clientId (undefined when there is no such session). */
    private readonly hostOf: (clientId: string) => AgentHost | undefined,
  ) {
    this.shedding = setInterval(() => this.shed(), SHED_MS).unref();
  }

  /**
   * Drops this instance's watchers (of any link, held here or not) that have fallen WATCH_PENDING_BYTES
   * behind, then the furthest behind while all of them together wait for more than WATCH_PENDING_TOTAL.
   */
  shed(): void {
    const waiting: [WatcherSocket, number][] = [];
    for (const [room, ids] of this.io.sockets.adapter.rooms) {
      if (!room.startsWith("watch:")) continue;
      for (const id of ids) {
        const socket = this.io.sockets.sockets.get(id);
        const bytes = socket ? pendingBytes(socket) : 0;
        if (bytes > 0) waiting.push([socket!, bytes]);
      }
    }
    waiting.sort((a, b) => b[1] - a[1]);
    let total = waiting.reduce((sum, [, bytes]) => sum + bytes, 0);
    const behind: WatcherSocket[] = [];
    for (const [socket, bytes] of waiting) {
      if (bytes <= WATCH_PENDING_BYTES && total <= WATCH_PENDING_TOTAL) break;
      behind.push(socket);
      total -= bytes;
    }
    // Cut off at once: a message, or a WebSocket's closing handshake, would wait behind what it does
    // not read (and keep it for ws's 30 s close timeout).
    for (const socket of behind) {
      const ws = (socket.conn as unknown as { transport?: { socket?: { terminate?: unknown } } }).transport?.socket;
      if (typeof ws?.terminate === "function") (ws.terminate as () => void)();
      socket.disconnect(true);
    }
  }

  /** Redis joins the instances (server/http/live-cluster.ts): links are found, watched and ended from any of them. */
  useCluster(cluster: LiveCluster): void {
    this.cluster = cluster;
    const io = this.io as unknown as {
      on(event: string, listener: (payload: unknown, ack: (answer: boolean) => void) => void): void;
    };
    io.on("watch:attach", (payload, ack) => {
      const { token, socketId, lastSeq } = (payload ?? {}) as {
        token?: unknown;
        socketId?: unknown;
        lastSeq?: unknown;
      };
      const feed = typeof token === "string" ? this.feeds.get(token) : undefined;
      if (!feed || typeof socketId !== "string" || typeof lastSeq !== "number") return ack(false);
      feed.attach(socketId, lastSeq);
      ack(true);
    });
    cluster.onChange((up) => (up ? this.resume() : this.pause()));
  }

  /** Every instance, or this one only while Redis is away (the owner's session never waits on it). */
  private reach(): Io | Io["local"] {
    return this.cluster && !this.cluster.up ? this.io.local : this.io;
  }

  /**
   * Asks the other instances (the adapter waits for each at most 5 s): true when one answers true,
   * false when all answered otherwise, undefined when one did not answer in time (a busy instance).
   */
  private ask(event: string, payload: unknown): Promise<boolean | undefined> {
    if (!this.cluster?.up) return Promise.resolve(false);
    return new Promise((resolve) => {
      const ack = (err: Error | null, answers: unknown[] | undefined) =>
        resolve((answers ?? []).some((a) => a === true) ? true : err ? undefined : false);
      try {
        (this.io.serverSideEmit as (event: string, ...args: unknown[]) => boolean).call(this.io, event, payload, ack);
      } catch {
        resolve(false);
      }
    });
  }

  /**
   * A new link to the running session of `clientId`, asked for `by` a named token's owner (absent:
   * the relay's own token). A person links only what they record: another's session answers as
   * absent, so a client id learnt elsewhere opens nothing.
   */
  create(clientId: string, by?: string): WatchAnswer {
    const host = this.hostOf(clientId);
    if (!host || (by !== undefined && host.owner !== by))
      return { ok: false, status: 404, error: { code: "not_found", message: "no such browser session" } };
    if (!host.running)
      return { ok: false, status: 409, error: { code: "no_agent", message: "the session has no running agent" } };
    let held = 0;
    for (const feed of this.feeds.values()) if (feed.by === by) held++;
    if (held >= MAX_WATCH_LINKS_PER_PERSON) {
      const whose = by === undefined ? "the relay's own token holds" : "you hold";
      const message = `${whose} ${held} watch links already (at most ${MAX_WATCH_LINKS_PER_PERSON} each): end one with DELETE /api/watch/:token, or stop its session's agent`;
      return { ok: false, status: 429, error: { code: "too_many", message } };
    }
    if (this.feeds.size >= MAX_WATCH_LINKS)
      return {
        ok: false,
        status: 429,
        error: { code: "too_many", message: `the relay holds ${MAX_WATCH_LINKS} watch links already` },
      };
    const token = randomBytes(24).toString("base64url");
    const feed = new WatchFeed(
      token,
      clientId,
      host,
      by,
      this.io,
      this.instanceBudget,
      () => this.reach(),
      (message) => this.end(token, message),
    );
    this.feeds.set(token, feed);
    if (this.cluster) this.listing.set(token, this.cluster.links.add(token));
    return { ok: true, token };
  }

  /** Resolves once other instances can find a new link (at once without Redis). */
  async listed(token: string): Promise<void> {
    await this.listing.get(token);
    this.listing.delete(token);
  }

  /** Resolves once no other instance finds an ended link (at once without Redis). */
  async unlisted(token: string): Promise<void> {
    await this.unlisting.get(token);
  }

  has(token: string): boolean {
    return this.feeds.has(token);
  }

  /** Ends every link these people made (their tokens were revoked): no one watches for them any more. */
  endMadeBy(names: ReadonlySet<string>): void {
    for (const [token, feed] of [...this.feeds])
      if (feed.by !== undefined && names.has(feed.by)) this.end(token, "the link's owner no longer has access");
  }

  /**
   * Ends a link `by` a named token's owner (absent: the relay's own token, which may end any): a
   * person ends only the links they made; another's answers as absent, as `create` does.
   */
  endAs(token: string, by: string | undefined): boolean {
    const feed = this.feeds.get(token);
    if (!feed || (by !== undefined && feed.by !== by)) return false;
    return this.end(token);
  }

  /**
   * Whether a watcher may connect with this token: held here, or by another instance. Refused with a
   * reason a client retries on while Redis is away (the link may be another instance's).
   */
  async admit(token: string): Promise<string | undefined> {
    if (!WATCH_TOKEN.test(token)) return "no such watch link";
    if (this.feeds.has(token)) return undefined;
    if (!this.cluster) return "no such watch link";
    if (!this.cluster.up) return PAUSED_MESSAGE;
    // Redis lists every instance's links: an unknown token costs one lookup there, no other instance's work.
    try {
      return (await this.cluster.links.listed(token)) ? undefined : "no such watch link";
    } catch {
      return PAUSED_MESSAGE;
    }
  }

  /** Ends a link: every watcher is told why, then disconnected (and not reconnected). False when there is none. */
  end(token: string, message = "the owner ended this watch link"): boolean {
    const feed = this.feeds.get(token);
    if (!feed) return false;
    this.feeds.delete(token);
    this.listing.delete(token);
    if (this.cluster) {
      // Kept only until Redis has it: links ended by revocation or an agent's exit are awaited by no one.
      const unlisting = this.cluster.links.delete(token).finally(() => {
        if (this.unlisting.get(token) === unlisting) this.unlisting.delete(token);
      });
      this.unlisting.set(token, unlisting);
    }
    feed.finish();
    const reach = this.reach();
    reach.to(watchRoom(token)).emit("watch:ended", { message });
    // A namespace-level disconnect (not the connection's close) follows the message in order.
    reach.in(watchRoom(token)).disconnectSockets(false);
    return true;
  }

  /** Takes over a watcher's connection (handshake `auth.watchLink`): read-only, one link's session. */
  connection(socket: WatcherSocket, token: string, lastSeq: number): void {
    const events = socketEvents(socket);
    // Every client event is refused, relay:info too (it names profiles, commands and workspace roots).
    for (const event of [...Object.keys(clientEventSchemas), "tap:injection"])
      events.on(event, z.unknown(), () => ({ ok: false, error: { code: "read_only", message: READ_ONLY_MESSAGE } }));
    events.refuseUnknown();
    const refuse = (message: string) => {
      socket.emit("watch:ended", { message });
      socket.disconnect();
    };
    if (this.watchers(token) >= this.maxWatchers)
      return refuse(`this watch link has ${this.maxWatchers} watchers already`);
    const feed = this.feeds.get(token);
    if (feed) {
      feed.attach(socket, lastSeq);
      // What it was just sent counts at once: watchers that attach and read nothing add up between two looks.
      return this.shed();
    }
    if (!this.cluster) return refuse("this watch link has ended");
    // Another instance holds the link: it joins this socket to the room and sends the log itself.
    const watcher: RemoteWatcher = { token, lastSeq, attached: false };
    this.remote.set(socket, watcher);
    this.remoteCount.set(token, (this.remoteCount.get(token) ?? 0) + 1);
    socket.onAnyOutgoing((event: string, frames: unknown) => {
      if (event === "agent:attached") {
        watcher.attached = true;
        watcher.onAttached?.();
      }
      if (event === "frames" && Array.isArray(frames) && frames.length)
        watcher.lastSeq = Math.max(watcher.lastSeq, (frames.at(-1) as WireFrame).seq);
    });
    socket.on("disconnect", () => {
      if (!this.remote.delete(socket)) return;
      const left = (this.remoteCount.get(token) ?? 1) - 1;
      if (left > 0) this.remoteCount.set(token, left);
      else this.remoteCount.delete(token);
    });
    // Redis went away after this watcher was admitted: told now, attached when it is back (resume).
    if (!this.cluster.up) socket.emit("watch:paused", { message: PAUSED_MESSAGE });
    void this.attachRemote(socket, 1);
  }

  /**
   * This instance's watchers of a link: its room's when the link is held here; else every watcher in
   * `remote`, in the room or not (yet, or paused), which the room alone did not count.
   */
  private watchers(token: string): number {
    if (this.feeds.has(token)) return this.io.sockets.adapter.rooms.get(watchRoom(token))?.size ?? 0;
    return this.remoteCount.get(token) ?? 0;
  }

  private async attachRemote(socket: WatcherSocket, attempts: number): Promise<void> {
    const watcher = this.remote.get(socket);
    if (!watcher) return;
    watcher.attached = false;
    let unanswered = 0;
    for (let i = 0; i < attempts; i++) {
      if (i > 0) await new Promise((resolve) => setTimeout(resolve, RETRY_MS));
      if (!this.remote.has(socket) || !this.cluster?.up || watcher.attached) return;
      const payload = { token: watcher.token, socketId: socket.id, lastSeq: watcher.lastSeq };
      const answer = await this.ask("watch:attach", payload);
      // A busy instance's answer may come after the adapter's 5 s (its attach, sent before it, too):
      // not an ended link; asked again unless the attach arrived meanwhile. An attach said made that
      // does not arrive (lost between the instances) is asked for again too, with the frames it was
      // sent since: a watcher is never left waiting on nothing.
      if (answer === true && (await this.arrives(watcher))) return;
      if (answer !== false && ++unanswered <= UNANSWERED_ATTEMPTS) i--;
    }
    if (watcher.attached) return;
    if (!this.remote.has(socket)) return;
    socket.emit("watch:ended", { message: "this watch link has ended" });
    socket.disconnect();
  }

  /** Whether the watcher's attach arrives within ATTACH_ARRIVAL_MS (or has; or it left meanwhile). */
  private arrives(watcher: RemoteWatcher): Promise<boolean> {
    if (watcher.attached) return Promise.resolve(true);
    return new Promise((resolve) => {
      const timer = setTimeout(() => {
        watcher.onAttached = undefined;
        resolve(watcher.attached);
      }, ATTACH_ARRIVAL_MS);
      watcher.onAttached = () => {
        clearTimeout(timer);
        watcher.onAttached = undefined;
        resolve(true);
      };
    });
  }

  /** Redis is away: remote watchers leave their rooms (what comes late is not theirs) and are told. */
  private pause(): void {
    for (const [socket, { token }] of this.remote) {
      void socket.leave(watchRoom(token));
      socket.emit("watch:paused", { message: PAUSED_MESSAGE });
    }
  }

  /** Redis is back: each remote watcher is attached again after the newest frame it was sent. */
  private resume(): void {
    for (const socket of this.remote.keys()) {
      socket.emit("watch:resumed", { message: "live again" });
      void this.attachRemote(socket, RESUME_ATTEMPTS);
    }
  }

  close(): void {
    clearInterval(this.shedding);
    for (const token of [...this.feeds.keys()]) this.end(token, "the relay is shutting down");
    for (const socket of this.remote.keys()) socket.disconnect();
    this.remote.clear();
    this.remoteCount.clear();
  }
}
