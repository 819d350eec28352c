/**
 * The tap's contract with the relay (docs/relay-protocol.md#taps): what a tap
 * sends on the `/tap` namespace, validated here because even an authenticated
 * tap is a process the relay did not start; and what browsers learn of taps.
 */
import type { Ack, AgentInfo } from "./wire";

/** Socket.IO namespace taps connect to. */
export const TAP_NAMESPACE = "/tap";
/**
 * A browser watches a tap by connecting with clientId `tap-<tap id>-<tab>`:
 * each tab its own viewer, so injection is turned on for one tab only.
 */
export const TAP_CLIENT_PREFIX = "tap-";
export const TAP_ID = /^[0-9a-f]{16}$/;
const VIEWER = /^tap-([0-9a-f]{16})(?:-[\w-]{1,40})?$/;

/** A viewer clientId for a tap; `tab` tells one tab's viewer from another's. */
export const tapClientId = (tapId: string, tab?: string) => `${TAP_CLIENT_PREFIX}${tapId}${tab ? `-${tab}` : ""}`;
export const tapIdOf = (clientId: string | undefined): string | undefined =>
  clientId ? VIEWER.exec(clientId)?.[1] : undefined;

/** Handshake `auth.watch` of a socket that only follows the `taps` list (and turns injection on and off). */
export const WATCH_TAPS = "taps";

type Dir = "to-agent" | "from-agent";

/** One thing the tap saw, in the order it saw it (validated by lib/tap-schema.ts). */
export type TapEvent =
  | { t: "line"; ts: number; dir: Dir; raw: string }
  /** A line longer than the tap's limit: its first bytes and size only. */
  | { t: "oversize"; ts: number; dir: Dir; preview: string; bytes: number }
  | { t: "stderr"; ts: number; text: string }
  /** Copies the tap had to drop (its buffer was full) since the last report. */
  | { t: "dropped"; ts: number; frames: number; bytes: number }
  | { t: "exit"; ts: number; code: number | null; signal: string | null };

export interface TapOpen {
  profile: string;
  command: string;
  args: string[];
  cwd: string;
  pid: number;
}

/** A batch of events; `n` counts batches from 1 so a batch re-sent after a reconnect is applied once. */
export interface TapBatch {
  n: number;
  events: TapEvent[];
}

/** A tapped conversation, as browsers see it in `taps`. */
export interface TapInfo {
  id: string;
  /** The clientId a browser connects with to watch it (add `-<tab>` to tell tabs apart). */
  clientId: string;
  agent: AgentInfo;
  startedAt: number;
  /** Whether the tap process is connected right now. */
  connected: boolean;
  exited: boolean;
}

export interface TapClientToServerEvents {
  "tap:open": (open: TapOpen, ack: (res: Ack<{ transcriptId: string }>) => void) => void;
  "tap:events": (batch: TapBatch, ack: (res: Ack<{ n: number }>) => void) => void;
}

export interface TapServerToClientEvents {
  /** A frame a browser injected: the tap writes `line` to the agent's stdin. */
  "tap:inject": (event: { line: string }) => void;
}

/** Relay → browser events beyond lib/wire.ts's, for taps. */
export interface TapBrowserEvents {
  taps: (event: { taps: TapInfo[] }) => void;
  /** To a socket watching a tap: the tap and whether this viewer (its clientId) may inject. */
  "tap:state": (event: { tap: TapInfo; injection: boolean }) => void;
}
