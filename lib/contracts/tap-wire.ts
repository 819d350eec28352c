/**
 * The tap's contract with the relay (docs/relay-protocol.md#taps): what a tap
 * sends on the `/tap` namespace, validated here because even an authenticated
 * tap is a process the relay did not start; and what browsers learn of taps.
 */
import { ownerOrAdmin, type Me } from "./transcript-meta";
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

/** One thing the tap saw, in the order it saw it (validated by lib/contracts/tap-schema.ts). */
export type TapEvent =
  /** `base64`: the exact bytes of a line that is not UTF-8 (`raw` shows them as U+FFFD). */
  | { t: "line"; ts: number; dir: Dir; raw: string; base64?: string }
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
  /** When the tap started the agent (its clock, ms since the epoch): the recording's start. */
  startedAt?: number;
}

/**
 * What `tap:open` may carry (a command line, not a payload): the relay refuses more
 * (lib/contracts/tap-schema.ts), the tap clips to it first (`clipOpen`).
 */
export const TAP_OPEN_LIMITS = { profile: 200, command: 4096, cwd: 4096, args: 256, arg: 8192, argsChars: 64 * 1024 };

/** At most this many events in one `tap:events` batch: no batch costs the relay a long task. */
export const TAP_BATCH_EVENTS = 1_000;
/** Characters of text (`tapEventChars`) in a batch of more than one event; one event alone may be a whole line. */
export const TAP_BATCH_CHARS = 256 * 1024;
/** The longest `stderr` text and `oversize` preview an event carries (the tap splits longer stderr). */
export const TAP_STDERR_CHARS = 64 * 1024;
export const TAP_PREVIEW_CHARS = 1024;

/** The text an event carries, what the batch limit counts. */
export const tapEventChars = (e: TapEvent): number =>
  e.t === "line"
    ? e.raw.length + (e.base64?.length ?? 0)
    : e.t === "stderr"
      ? e.text.length
      : e.t === "oversize"
        ? e.preview.length
        : 0;

const clip = (s: string, max: number): string => (s.length <= max ? s : `${s.slice(0, max - 1)}…`);

/** A `tap:open` within TAP_OPEN_LIMITS: long values cut, arguments beyond the limits left out (and said so). */
export function clipOpen(open: TapOpen): TapOpen {
  const L = TAP_OPEN_LIMITS;
  let args = open.args.map((a) => clip(a, L.arg));
  let chars = args.reduce((n, a) => n + a.length, 0);
  if (args.length > L.args || chars > L.argsChars) {
    // Room for the note that says what is left out.
    const kept: string[] = [];
    chars = 0;
    for (const arg of args) {
      if (kept.length === L.args - 1 || chars + arg.length > L.argsChars - 64) break;
      kept.push(arg);
      chars += arg.length;
    }
    args = [...kept, `… ${args.length - kept.length} more arguments`];
  }
  return {
    profile: clip(open.profile, L.profile),
    command: clip(open.command, L.command),
    args,
    cwd: clip(open.cwd, L.cwd),
    pid: open.pid,
    ...(open.startedAt === undefined ? {} : { startedAt: open.startedAt }),
  };
}

/** How much of a tap's command line browsers are shown in `taps` and `tap:state`: enough to tell taps apart. */
export const TAP_SHOWN = { args: 8, chars: 160 };

/** A tap as `AgentInfo` for browsers: the command line cut to TAP_SHOWN (the transcript keeps it whole). */
export function shownAgent(open: TapOpen, transcriptId: string): AgentInfo {
  const { args, chars } = TAP_SHOWN;
  const shown = open.args.slice(0, args).map((a) => clip(a, chars));
  if (open.args.length > args) shown.push(`… ${open.args.length - args} more`);
  return {
    profile: clip(open.profile, chars),
    command: clip(open.command, chars),
    args: shown,
    cwd: clip(open.cwd, chars),
    pid: open.pid,
    transcriptId,
  };
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
  /** Its command line cut to TAP_SHOWN (`shownAgent`). */
  agent: AgentInfo;
  startedAt: number;
  /** The person whose named token opened it; absent: the relay's own token (the admin's). */
  owner?: string;
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

/** Relay → browser events beyond lib/contracts/wire.ts's, for taps. */
export interface TapBrowserEvents {
  taps: (event: { taps: TapInfo[] }) => void;
  /** To a socket watching a tap: the tap and whether this viewer (its clientId) may inject. */
  "tap:state": (event: { tap: TapInfo; injection: boolean }) => void;
}

/** What a browser does with a tap: see it listed and watch its frames; turn injection on and send into it. */
export type TapAction = "watch" | "inject";

const TAP_VERBS: Record<TapAction, string> = {
  watch: "see and watch this tapped conversation",
  inject: "send into this tapped conversation",
};

/**
 * Why `me` may not `action` a tap opened by `owner`, or undefined when it may: ownerRefusal's rule
 * for reading too, since a tap is a live session on someone's machine (its command line, folders,
 * every frame), not a finished recording in the shared library. On a server without named tokens
 * everyone is the admin, so nothing is refused (docs/scaling.md#named-tokens-and-owners).
 */
export function tapRefusal(me: Me, owner: string | undefined, action: TapAction): string | undefined {
  if (ownerOrAdmin(me, owner)) return undefined;
  return owner === undefined
    ? `only the server's admin can ${TAP_VERBS[action]}: it was opened with the relay's own token`
    : `only the person who opened this tap, ${owner}, or the server's admin can ${TAP_VERBS[action]}`;
}
