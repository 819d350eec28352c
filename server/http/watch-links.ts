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
import { createRedactor } from "../../lib/features/redact";
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
import { FrameOutbox } from "./attachment";
import { socketEvents } from "./socket-events";
import { HIDDEN_WORKSPACE, localPaths } from "../transcripts/transcript-store";

type WatcherSocket = Socket<ClientToServerEvents, ServerToClientEvents>;
type Io = Server<ClientToServerEvents, ServerToClientEvents>;

/** A link's token: 32 URL-safe characters (192 random bits). */
export const WATCH_TOKEN = /^[\w-]{32}$/;
/** Links held at once by this relay; a demo needs a few. */
export const MAX_WATCH_LINKS = 64;
/** Watchers of one link on this relay; beyond it a watcher is refused. */
export const MAX_WATCHERS = 500;

export const watchRoom = (token: string) => `watch:${token}`;

/** What a watcher is told on every event it tries to send. */
export const READ_ONLY_MESSAGE = "this is a watch link: you can watch this session, not act in it";

/** Hears one agent for one link: redacts once per frame, whatever the number of watchers. */
class WatchFeed implements HostWatcher {
  private readonly outbox: FrameOutbox;
  private readonly hide: (text: string) => string;
  private readonly redactor: ReturnType<typeof createRedactor>;
  readonly stop: () => void;

  constructor(
    readonly token: string,
    readonly clientId: string,
    readonly host: AgentHost,
    private readonly io: Io,
    private readonly ended: (message: string) => void,
  ) {
    this.redactor = createRedactor(host.secrets);
    this.hide = localPaths(host.agentInfo?.cwd ?? "");
    this.outbox = new FrameOutbox((frames) => io.to(watchRoom(token)).emit("frames", frames));
    this.stop = host.watch(this);
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
    const room = this.io.to(watchRoom(this.token));
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

  /** A watcher joins: told where the log stands, sent what is kept after its `lastSeq`, redacted, then live. */
  attach(socket: WatcherSocket, lastSeq: number): void {
    this.outbox.flush();
    void socket.join(watchRoom(this.token));
    const log = this.host.log;
    socket.emit("agent:attached", {
      agent: this.agentOf(this.host.agentInfo),
      ...log.position(lastSeq),
      policies: {},
      transport: log.transport.map(({ ts, text }) => ({ ts, text: this.text(text) })),
    });
    log.resend(
      {
        emit: ((event: string, payload: unknown) => {
          if (event === "frames")
            socket.emit(
              "frames",
              (payload as WireFrame[]).map((f) => this.frameOf(f)),
            );
          else if (event === "agent:stderr") {
            const { ts, text } = payload as { ts: number; text: string };
            socket.emit("agent:stderr", { ts, text: this.text(text) });
          }
        }) as WatcherSocket["emit"],
      },
      lastSeq,
    );
  }
}

export type WatchAnswer =
  { ok: true; token: string } | { ok: false; status: number; error: { code: string; message: string } };

export class WatchLinks {
  private readonly feeds = new Map<string, WatchFeed>();

  constructor(
    private readonly io: Io,
    /** The browser session's agent host by clientId (undefined when there is no such session). */
    private readonly hostOf: (clientId: string) => AgentHost | undefined,
  ) {}

  /** A new link to the running session of `clientId`. */
  create(clientId: string): WatchAnswer {
    const host = this.hostOf(clientId);
    if (!host) return { ok: false, status: 404, error: { code: "not_found", message: "no such browser session" } };
    if (!host.running)
      return { ok: false, status: 409, error: { code: "no_agent", message: "the session has no running agent" } };
    if (this.feeds.size >= MAX_WATCH_LINKS)
      return {
        ok: false,
        status: 429,
        error: { code: "too_many", message: `the relay holds ${MAX_WATCH_LINKS} watch links already` },
      };
    const token = randomBytes(24).toString("base64url");
    this.feeds.set(token, new WatchFeed(token, clientId, host, this.io, (message) => this.end(token, message)));
    return { ok: true, token };
  }

  has(token: string): boolean {
    return this.feeds.has(token);
  }

  /** Ends a link: every watcher is told why, then disconnected (and not reconnected). False when there is none. */
  end(token: string, message = "the owner ended this watch link"): boolean {
    const feed = this.feeds.get(token);
    if (!feed) return false;
    this.feeds.delete(token);
    feed.stop();
    const room = this.io.to(watchRoom(token));
    room.emit("watch:ended", { message });
    // A namespace-level disconnect (not the connection's close) follows the message in order.
    this.io.in(watchRoom(token)).disconnectSockets(false);
    return true;
  }

  /** Takes over a watcher's connection (handshake `auth.watch`): read-only, one link's session. */
  connection(socket: WatcherSocket, token: string, lastSeq: number): void {
    const events = socketEvents(socket);
    // Every client event is refused, relay:info too (it names profiles, commands and workspace roots).
    for (const event of [...Object.keys(clientEventSchemas), "tap:injection"])
      events.on(event, z.unknown(), () => ({ ok: false, error: { code: "read_only", message: READ_ONLY_MESSAGE } }));
    events.refuseUnknown();
    const feed = this.feeds.get(token);
    if (!feed) {
      socket.emit("watch:ended", { message: "this watch link has ended" });
      socket.disconnect();
      return;
    }
    if ((this.io.sockets.adapter.rooms.get(watchRoom(token))?.size ?? 0) >= MAX_WATCHERS) {
      socket.emit("watch:ended", { message: `this watch link has ${MAX_WATCHERS} watchers already` });
      socket.disconnect();
      return;
    }
    feed.attach(socket, lastSeq);
  }

  close(): void {
    for (const token of [...this.feeds.keys()]) this.end(token, "the relay is shutting down");
  }
}
