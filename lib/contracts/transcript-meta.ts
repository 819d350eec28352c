import type { ProtocolName } from "../protocol/protocols";

/** How a transcript came to be: said by whoever made it, inferred for files from before it was recorded. */
export const TRANSCRIPT_KINDS = [
  "session",
  "probe",
  "rerun",
  "upload",
  "demo",
  "tapped",
  "compare",
  "unstarted",
] as const;
export type TranscriptKind = (typeof TRANSCRIPT_KINDS)[number];

export const KIND_LABELS: Record<TranscriptKind, string> = {
  session: "session",
  probe: "probe",
  rerun: "re-run",
  upload: "upload",
  demo: "demo",
  tapped: "tapped",
  compare: "comparison",
  unstarted: "no turn",
};

/**
 * A session whose agent never got a turn (a failed Connect, an agent stopped before any prompt):
 * kept for what it shows of the start, but not a row of the library's "all" nor a replay profile.
 */
export const UNSTARTED: TranscriptKind = "unstarted";

export const isTranscriptKind = (v: unknown): v is TranscriptKind =>
  typeof v === "string" && (TRANSCRIPT_KINDS as readonly string[]).includes(v);

/** A transcript as the store lists it: the HTTP API's contract (docs/relay-protocol.md#http-api). */
export interface TranscriptMeta {
  id: string;
  title: string;
  createdAt: string;
  profile: string;
  agentName?: string;
  /** Always set in the store's answers (inferred for old files). */
  kind?: TranscriptKind;
  /** Recorded through `acp-playground tap`. */
  tapped?: boolean;
  /** The protocol spoken, from the header; absent: ACP. */
  protocol?: ProtocolName;
  turns: number;
  frames: number;
  bytes: number;
  redactions: number;
  /** Who recorded or uploaded it: the name of their token on a team server (absent for the relay's own token). */
  owner?: string;
  /** True while an agent is writing it. */
  recording: boolean;
  /** The recording ended because the relay writing it died (a team server noticed: docs/scaling.md). */
  endedBy?: "crash";
  /** Who is writing it, so that another relay sharing the store can tell a live recording from a crashed one. */
  writer?: { host: string; pid: number };
  /** Only once the user shared it (POST /api/transcripts/:id/share); removed when they revoke it. */
  shareToken?: string;
  /** When the current share link was made. */
  sharedAt?: string;
  /** The sharer chose to show the agent's command line and local paths on the share page (hidden otherwise). */
  shareShowsCommand?: boolean;
  /** Renamed or uploaded by the user: retention never drops it. */
  renamed?: boolean;
  uploaded?: boolean;
  /** SHA-256 of an uploaded file, to tell the user when they import the same file again. */
  contentHash?: string;
  /** Set in an upload's answer when a stored transcript has the same content (the new one is kept anyway). */
  duplicateOf?: { id: string; title: string };
}

/** A person's name on a team server (a named token's): what the library shows and filters by. */
export const OWNER_NAME = /^[\w.@-]{1,64}$/;

/** GET /api/me: who the request's token is; `owner` absent: the relay's own token, the server's admin. */
export interface Me {
  owner?: string;
}

/** What changes or exposes a recording: allowed to its owner or the server's admin only. */
export type OwnerAction = "delete" | "rename" | "share" | "unshare" | "compare";

const VERBS: Record<OwnerAction, string> = {
  delete: "delete it",
  rename: "rename it",
  share: "share it",
  unshare: "unshare it",
  // Saving a comparison files both its transcripts under it (their kind becomes "compare").
  compare: "save it in a comparison",
};

/** The team server's one rule (recordings and taps alike): `me` is the admin, or the owner. */
export const ownerOrAdmin = (me: Me, owner: string | undefined): boolean =>
  me.owner === undefined || me.owner === owner;

/**
 * Why `me` may not `action` a recording owned by `owner`, or undefined when it may. The admin (the
 * relay's own token, the only one the embedded default has) may change everything; a person (a
 * named token) only what they own. A recording with no owner was made with the admin's token, or
 * before owners were recorded: the admin's, so no person may change it, which also keeps every
 * recording made before an upgrade out of everyone's reach (docs/scaling.md#named-tokens-and-owners).
 */
export function ownerRefusal(me: Me, owner: string | undefined, action: OwnerAction): string | undefined {
  if (ownerOrAdmin(me, owner)) return undefined;
  return owner === undefined
    ? `only the server's admin can ${VERBS[action]}: it has no owner (made with the relay's own token, or before owners were recorded)`
    : `only its owner, ${owner}, or the server's admin can ${VERBS[action]}`;
}

/** What GET /api/transcripts may be narrowed to (`?owner=`). */
export interface ListFilter {
  owner?: string;
}

/** The kind of a transcript whose meta does not say (made before kinds were recorded). */
export function inferKind(
  meta: Pick<TranscriptMeta, "id" | "kind" | "tapped" | "uploaded">,
  demo: boolean,
): TranscriptKind {
  if (meta.kind) return meta.kind;
  if (demo) return "demo";
  if (meta.uploaded) return "upload";
  if (meta.tapped) return "tapped";
  return "session";
}
