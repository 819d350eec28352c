/**
 * The sockets watching one conversation (a browser tab's agent, the viewers of
 * a tapped conversation): frames leave once per event-loop turn, any other
 * event after the frames before it, and a socket that (re-)attaches is told
 * where the log starts and sent what it holds (server/agents/attachable-log.ts).
 * With a grace period, the last socket leaving starts a timer that a socket
 * attaching in time cancels.
 */
import type { Socket } from "socket.io";
import type { WireFrame } from "../../lib/protocol/frame";
import type { AttachedEvent, ServerToClientEvents } from "../../lib/contracts/wire";
import type { AttachableLog, LogPosition } from "../agents/attachable-log";

export type AttachedSocket = Pick<Socket<never, ServerToClientEvents>, "emit" | "connected">;

/** What `agent:attached` says beyond the log's position. */
export type AttachedState = Omit<AttachedEvent, keyof LogPosition | "transport">;

export class Attachment<S extends AttachedSocket = AttachedSocket> {
  private readonly sockets = new Set<S>();
  private readonly outbox = new FrameOutbox((frames) => {
    for (const socket of this.sockets) socket.emit("frames", frames);
  });
  private graceTimer?: NodeJS.Timeout;

  /** `grace`: once the last socket has left, `abandoned` is called after `ms` unless one attaches. */
  constructor(private readonly grace?: { ms: number; abandoned: () => void }) {}

  /** Whether a connected socket is attached. */
  get attached(): boolean {
    for (const socket of this.sockets) if (socket.connected) return true;
    return false;
  }

  /** Whether any socket is attached, connected or not yet told of its disconnect. */
  get watched(): boolean {
    return this.sockets.size > 0;
  }

  /** The grace period has begun (and not been cancelled by an attach): the conversation's end is decided. */
  get abandoning(): boolean {
    return this.graceTimer !== undefined;
  }

  attach(socket: S, lastSeq: number, log: AttachableLog, state: AttachedState): void {
    clearTimeout(this.graceTimer);
    this.graceTimer = undefined;
    this.outbox.flush();
    this.sockets.add(socket);
    socket.emit("agent:attached", { ...state, ...log.position(lastSeq), transport: log.transport });
    log.resend(socket, lastSeq);
  }

  /** Returns whether the socket was attached. */
  detach(socket: S): boolean {
    if (!this.sockets.has(socket)) return false;
    this.outbox.flush();
    this.sockets.delete(socket);
    if (this.sockets.size === 0 && this.grace) {
      const { ms, abandoned } = this.grace;
      this.graceTimer = setTimeout(abandoned, ms);
      this.graceTimer.unref();
    }
    return true;
  }

  /** No grace period after all (nothing is worth keeping): the timer never fires. */
  cancelGrace(): void {
    clearTimeout(this.graceTimer);
  }

  frame(lean: WireFrame): void {
    this.outbox.push(lean);
  }

  /** Anything but frames goes out after the frames before it. */
  emit<E extends keyof ServerToClientEvents>(event: E, ...args: Parameters<ServerToClientEvents[E]>): void {
    this.outbox.flush();
    for (const socket of this.sockets) socket.emit(event, ...args);
  }
}

/**
 * Frames sent once per event-loop turn: one Socket.IO message per burst, not one per frame.
 * Holds the log's own frame objects only until the next turn.
 */
export class FrameOutbox {
  private frames: WireFrame[] = [];
  private scheduled = false;

  constructor(private readonly send: (frames: WireFrame[]) => void) {}

  push(lean: WireFrame): void {
    this.frames.push(lean);
    if (this.scheduled) return;
    this.scheduled = true;
    setImmediate(() => this.flush());
  }

  /** Sends what waits now, before an event that must follow the frames (an exit), or before the socket changes. */
  flush(): void {
    this.scheduled = false;
    if (this.frames.length === 0) return;
    const frames = this.frames;
    this.frames = [];
    this.send(frames);
  }
}
