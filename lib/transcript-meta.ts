/** A transcript as the store lists it: the HTTP API's contract (docs/relay-protocol.md#http-api). */
export interface TranscriptMeta {
  id: string;
  title: string;
  createdAt: string;
  profile: string;
  agentName?: string;
  /** Recorded through `acp-playground tap`. */
  tapped?: boolean;
  turns: number;
  frames: number;
  bytes: number;
  redactions: number;
  /** True while an agent is writing it. */
  recording: boolean;
  /** Who is writing it, so that another relay sharing the store can tell a live recording from a crashed one. */
  writer?: { host: string; pid: number };
  /** Only once the user shared it (POST /api/transcripts/:id/share); removed when they revoke it. */
  shareToken?: string;
  /** When the current share link was made. */
  sharedAt?: string;
  /** Renamed or uploaded by the user: retention never drops it. */
  renamed?: boolean;
  uploaded?: boolean;
}
