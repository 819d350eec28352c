/**
 * The frame log of one agent, as a tab holds it: the capped log, its index
 * (pairs, unanswered requests, methods seen), what the agent's protocol folds from it (the facts
 * and one conversation, by its spec's `foldLog`: ACP's session view, or the app-server's threads;
 * each frame folded once, by its own protocol), and the request ids seen going to the agent. Shared by live
 * sessions (frames from the relay) and playback (a prefix of a recording).
 * Lives until the log restarts (a new agent, or the relay's log restarted).
 */
import { EMPTY_FACTS, type LogFolds } from "@/lib/folds/agent-facts";
import { emptyConversation, foldConversation, type Conversation } from "@/lib/features/protocols/registry";
import { RequestSeqFiller } from "@/lib/protocol/correlate";
import type { Frame, WireFrame } from "@/lib/protocol/frame";
import { FrameIndex } from "@/lib/folds/frame-index";
import { FrameLog, FrameWindow, withMessage } from "@/lib/folds/frame-log";
import { DEFAULT_PROTOCOL, protocolOf, type ProtocolName } from "@/lib/protocol/protocols";
import { RequestIdCounter } from "@/lib/protocol/request-ids";
import type { SessionSnapshot } from "./snapshot";

/** Frames held per tab; older ones are dropped (and counted in `missed`). */
export const FRAME_CAP = 200_000;

/** The protocol of this log's agent (running or gone; ACP when there is none). */
export const selectProtocol = (s: SessionSnapshot): ProtocolName =>
  protocolOf(s.agent.state === "running" || s.agent.state === "exited" ? s.agent.agent : undefined);

/** Nothing folded yet (the conversation's protocol is the default's until a fold says another). */
const EMPTY_FOLDS: LogFolds<Conversation> = { facts: EMPTY_FACTS, conversation: emptyConversation(DEFAULT_PROTOCOL) };

/** Where a part of the session reads and patches the one snapshot. */
export interface SnapshotHost {
  get(): SessionSnapshot;
  set(patch: Partial<SessionSnapshot>): void;
}

/** The log's part of a fresh snapshot. */
export function emptyLogState(epoch: number) {
  return {
    frames: FrameWindow.EMPTY,
    index: new FrameIndex(),
    epoch,
    lastSeq: 0,
    missed: 0,
    pending: [] as readonly Frame[],
    endedByExit: [] as readonly Frame[],
    maxRequestId: 0,
    ...EMPTY_FOLDS,
  } satisfies Partial<SessionSnapshot>;
}

/** The agent is gone: what waited for the user ends unanswered (and is said so), nothing waits any more. */
export function endWaiting(index: FrameIndex): Pick<SessionSnapshot, "pending" | "endedByExit"> {
  return { pending: [], endedByExit: index.pending() };
}

export class FrameLogState {
  private log: FrameLog;
  private droppedSincePrune = 0;
  /** Request ids for this agent; above any id seen going to it. */
  readonly ids = new RequestIdCounter();
  /** Pairs responses of recordings made before the relay sent `requestSeq`. */
  private filler = new RequestSeqFiller();

  constructor(
    private readonly host: SnapshotHost,
    /** Frames held; a test gives a small one. */
    private readonly cap = FRAME_CAP,
  ) {
    this.log = new FrameLog(cap);
  }

  /** A new log: seqs restart at 1, views drop per-seq state (epoch). */
  reset(): void {
    this.log = new FrameLog(this.cap);
    this.droppedSincePrune = 0;
    this.ids.reset();
    this.filler = new RequestSeqFiller();
    this.host.set({ ...emptyLogState(this.host.get().epoch + 1), lifecycle: [] });
  }

  /** Appends what the relay sent; resends already held are skipped. Returns the new frames. O(batch). */
  append(batch: readonly WireFrame[]): Frame[] {
    const snap = this.host.get();
    const { index } = snap;
    const protocol = selectProtocol(snap);
    let { lastSeq, missed } = snap;
    const fresh: Frame[] = [];
    let pendingChanged = false;
    for (const wire of batch) {
      // Seqs only grow, so anything at or below lastSeq is a resend we hold.
      if (wire.seq <= lastSeq) continue;
      lastSeq = wire.seq;
      const frame = withMessage(wire);
      fresh.push(frame);
      this.log.push(frame);
      const change = index.add(frame, protocol);
      if (change.opened?.dir === "from-agent" || change.closed?.dir === "from-agent" || change.dismissed)
        pendingChanged = true;
      if (change.opened?.dir === "to-agent") this.ids.observe(frame.id);
    }
    if (fresh.length === 0) return fresh;
    const dropped = this.log.trim();
    const frames = this.log.window();
    if (dropped > 0) {
      missed += dropped;
      this.droppedSincePrune += dropped;
      // Pruning is O(index size): only once a good share of the log has gone.
      if (this.droppedSincePrune >= this.cap >> 2) {
        this.droppedSincePrune = 0;
        index.prune(frames.first!.seq);
      }
    }
    const patch: Partial<SessionSnapshot> = {
      frames,
      lastSeq,
      maxRequestId: this.ids.max,
      missed,
      ...foldConversation(protocol, fresh, snap),
    };
    // Frames resent after the agent exited (a page that re-attached) open no card: nobody can answer them.
    if (pendingChanged)
      Object.assign(patch, snap.agent.state === "exited" ? endWaiting(index) : { pending: index.pending() });
    this.host.set(patch);
    return fresh;
  }

  /**
   * Shows the first `n` frames of a recording. Moving forward folds only the
   * new frames; moving back starts over and bumps `epoch`, as if the log had
   * restarted.
   */
  showPrefix(recorded: readonly Frame[], n: number): void {
    const snap = this.host.get();
    const shown = snap.frames.length;
    const back = n < shown;
    if (back) {
      this.ids.reset();
      this.filler = new RequestSeqFiller();
    }
    const index = back ? new FrameIndex() : snap.index;
    const protocol = selectProtocol(snap);
    const fresh: Frame[] = [];
    for (let i = back ? 0 : shown; i < n; i++) {
      const frame = withMessage(this.filler.fill(recorded[i]!));
      fresh.push(frame);
      if (index.add(frame, protocol).opened?.dir === "to-agent") this.ids.observe(frame.id);
    }
    const folded = foldConversation(protocol, fresh, back ? EMPTY_FOLDS : snap);
    this.host.set({
      // A window over the recording's own array: no copy, and prefix windows `extend` each other.
      frames: n === shown && !back ? snap.frames : new FrameWindow(recorded, 0, n),
      index,
      epoch: back ? snap.epoch + 1 : snap.epoch,
      lastSeq: n > 0 ? recorded[n - 1]!.seq : 0,
      pending: index.pending(),
      maxRequestId: this.ids.max,
      ...folded,
    });
  }
}
