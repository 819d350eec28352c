/**
 * The tab's snapshot as every view reads it (session-store.ts makes it): its own module, so the
 * store's parts (frame-log-state, playback, rpc-client) and the views read its types without
 * importing the store that imports them.
 */
import type { AgentInfo, RelayError, RelayInfo, StderrEvent } from "@/lib/contracts/wire";
import type { AgentFacts } from "@/lib/folds/agent-facts";
import type { TimelineEvent } from "@/lib/folds/frame-filter";
import type { FrameIndex } from "@/lib/folds/frame-index";
import type { FrameWindow } from "@/lib/folds/frame-log";
import type { SentEntry } from "@/lib/folds/sent-history";
import type { Policies } from "@/lib/features/answers/policy";
import type { Conversation } from "@/lib/features/protocols/registry";
import type { Frame } from "@/lib/protocol/frame";
import type { Handshake } from "./connect";

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
   * Pairs, unanswered requests, methods and variants seen over `frames`.
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
  /** Agent->client requests not yet answered, oldest first; none once the agent has exited. */
  pending: readonly Frame[];
  /** Agent->client requests that the agent's exit left unanswered (nobody can answer them now), oldest first. */
  endedByExit: readonly Frame[];
  /** Highest numeric id of a request sent to the agent, for the templates. */
  maxRequestId: number;
  stderr: readonly StderrEvent[];
  /** Agent started / exited / errors / re-attached, for the inspector's timeline. */
  lifecycle: readonly TimelineEvent[];
  /** What the agent said that composing needs (capabilities, session, modes, last turn...). */
  facts: AgentFacts;
  /**
   * The decoded conversation, typed by the agent's protocol (its spec's fold: ACP's sessions, the
   * app-server's threads); read it through its spec (lib/features/protocols/registry.ts).
   */
  conversation: Conversation;
  /** The relay's answer policies for this browser session (from agent:attached and policy:set acks). */
  policies?: Policies;
  /** Frames this tab sent, newest last; kept across agents. */
  history: readonly SentEntry[];
  /** Progress of the last Connect, with the auth question it waits on. */
  handshake?: Handshake;
  /** The profile the tab's agent controls have chosen: before an agent runs, its protocol picks the view. */
  chosenProfile?: string;
  /** A watch link's stream ended (or the link was refused): why, as the relay said it. */
  watchEnded?: string;
  /** A watch link's stream is paused (the playground's instances lost Redis): why; cleared when it resumes. */
  watchPaused?: string;
}
