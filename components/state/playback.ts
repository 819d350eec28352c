/**
 * Offline playback (transcript viewer, share page): a session without a
 * socket whose log is a prefix of a recording. Lives as long as the viewer.
 */
import type { Frame } from "@/lib/protocol/frame";
import type { TimelineEvent } from "@/lib/folds/frame-filter";
import { countEventsUpTo } from "@/lib/folds/playback";
import type { AgentInfo, StderrEvent } from "@/lib/contracts/wire";
import type { FrameLogState, SnapshotHost } from "./frame-log-state";
import type { AgentStatus } from "./snapshot";

/** What a playback shows. Append-only: the viewer streams a transcript into these arrays. */
export interface OfflineRecording {
  /** In seq order. */
  frames: Frame[];
  /** stderr and lifecycle: in ts order. */
  stderr: StderrEvent[];
  lifecycle: TimelineEvent[];
  agent?: AgentInfo;
  exit?: { ts: number; code: number | null; signal: string | null };
}

export class Playback {
  constructor(
    private readonly host: SnapshotHost,
    private readonly log: FrameLogState,
    private readonly recording: OfflineRecording,
  ) {}

  /** Shows the first `count` recorded frames, and the stderr and lifecycle events up to `eventsUntil` (ms since the epoch). */
  showUpTo(count: number, eventsUntil: number): void {
    const rec = this.recording;
    const snap = this.host.get();
    // Prefixes of append-only lists: the same length means the same content.
    const prefix = <T>(all: readonly T[], current: readonly T[], k: number) =>
      current.length === k ? current : all.slice(0, k);
    const exited = rec.exit !== undefined && rec.exit.ts <= eventsUntil;
    const agent: AgentStatus = !rec.agent
      ? { state: "not-started" }
      : exited
        ? { state: "exited", agent: rec.agent, code: rec.exit!.code, signal: rec.exit!.signal }
        : { state: "running", agent: rec.agent };
    this.host.set({
      stderr: prefix(rec.stderr, snap.stderr, countEventsUpTo(rec.stderr, eventsUntil)),
      lifecycle: prefix(rec.lifecycle, snap.lifecycle, countEventsUpTo(rec.lifecycle, eventsUntil)),
      agent,
    });
    // After the agent: the log's rules are made for its protocol.
    this.log.showPrefix(rec.frames, Math.max(0, Math.min(count, rec.frames.length)));
  }
}
