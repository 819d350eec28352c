/**
 * Searching and measuring the whole library (GET /api/search, GET /api/latency and the MCP
 * server's tools): the query, as a zod schema the server parses with, and the answers.
 */
import { z } from "zod";
import { OWNER_NAME, TRANSCRIPT_KINDS } from "./transcript-meta";

/** What a search hit's text came from. */
export const SEARCH_FIELDS = ["message", "thought", "prompt", "tool", "error", "stderr", "lifecycle", "frame"] as const;
export type SearchField = (typeof SEARCH_FIELDS)[number];

const day = z
  .string()
  .regex(/^\d{4}-\d{2}-\d{2}$/, "must be a date YYYY-MM-DD")
  .optional();
const name = z.string().trim().min(1).max(200).optional();

const owner = z.string().regex(OWNER_NAME, "must be a token's name (letters, digits and . _ @ -)").optional();

/** Filters the search and the latency table share: which transcripts (and, for search, which frames). */
export const libraryFilter = z.strictObject({
  /** The agent's own name (`agentInfo.name`, e.g. gemini-cli). */
  agent: name,
  profile: name,
  kind: z.enum(TRANSCRIPT_KINDS).optional(),
  /** Only one person's transcripts (a named token's name), as the list's `?owner=`. */
  owner,
  /** Transcripts created on or after this day (UTC). */
  from: day,
  /** Transcripts created on or before this day (UTC). */
  to: day,
});
export type LibraryFilter = z.infer<typeof libraryFilter>;

/** GET /api/transcripts's query: only one person's transcripts (`?owner=`, a named token's name). */
export const listQuery = z.strictObject({ owner });

export const searchQuery = libraryFilter.extend({
  // An empty `q=` reaches here as no q at all (queryParams drops empty values): both are "missing".
  q: z
    .string({ error: (issue) => (issue.input === undefined ? "missing: give the words to search for" : undefined) })
    .trim()
    .min(1, "must not be empty")
    .max(500, "may be at most 500 characters"),
  method: name,
  /** Only error responses, invalid frames and agent errors. */
  errors: z.boolean().optional(),
  /** Only in this one transcript. */
  transcript: z
    .string()
    .regex(/^[A-Za-z0-9_-]{1,80}$/, "must be a transcript id")
    .optional(),
  limit: z.number().int().min(1).max(200).optional(),
});
export type SearchQuery = z.infer<typeof searchQuery>;

export interface SearchHit {
  transcript: { id: string; title: string; profile: string; agentName?: string; kind: string; createdAt: string };
  /** The frame to open (`/transcripts/ID#seq=N`); stderr and lifecycle lines name the frame before them (0: none yet). */
  seq: number;
  ts: number;
  dir?: "to-agent" | "from-agent";
  frameKind: string;
  method?: string;
  field: SearchField;
  error: boolean;
  /** The matching line, cut around the match. */
  line: string;
  /** [start, end) of each matched word in `line`. */
  marks: [number, number][];
}

export interface SearchAnswer {
  hits: SearchHit[];
  /** Matches counted, up to `SEARCH_CANDIDATES`; `more` when there were more. */
  total: number;
  more: boolean;
  tookMs: number;
  /** Set when the search did not look at everything: a query cut to its limits, or one that ran out of its budget. */
  cut?: string;
  /** Set while the index is still catching up with the library: what it has read so far. */
  progress?: IndexProgress;
}

/** How far the index has got: transcripts and bytes of the library read. */
export interface IndexProgress {
  indexedDocs: number;
  totalDocs: number;
  indexedBytes: number;
  totalBytes: number;
}

/** How far the index has got, in whole percent of the library's bytes (99 until it is done). */
export function indexPercent(p: IndexProgress): number {
  if (p.totalBytes <= 0) return p.indexedDocs >= p.totalDocs ? 100 : 0;
  const done = p.indexedBytes >= p.totalBytes && p.indexedDocs >= p.totalDocs;
  return done ? 100 : Math.min(99, Math.floor((100 * p.indexedBytes) / p.totalBytes));
}

/** Different words or phrases one search looks for (more are left out, and the answer says so). */
export const MAX_QUERY_TERMS = 16;
/** Words of one quoted phrase looked for. */
export const MAX_PHRASE_WORDS = 16;

/** Matches ranked per search: the newest this many, then the best of them (keeps a common word fast). */
export const SEARCH_CANDIDATES = 2_000;

export const latencyQuery = libraryFilter.extend({ transcript: searchQuery.shape.transcript });
export type LatencyQuery = z.infer<typeof latencyQuery>;

/**
 * One row of a latency table, per method and direction: of one transcript or a
 * live log (lib/folds/method-latency.ts) and across the library (the index's
 * timed calls). Percentiles are nearest-rank: every figure is a real request's.
 */
export interface MethodLatency {
  method: string;
  /** The way the request travelled. */
  dir: "to-agent" | "from-agent";
  /** Requests sent. */
  requests: number;
  /** Requests answered (the latency figures are over these). */
  answered: number;
  /** Answers that were JSON-RPC errors. */
  errors: number;
  /** Requests with no answer (yet). */
  pending: number;
  p50?: number;
  p95?: number;
  p99?: number;
  max?: number;
  /** The request answered slowest, to link to (one log's seq: absent across the library). */
  slowestSeq?: number;
}

export interface LatencyAnswer {
  rows: MethodLatency[];
  transcripts: number;
  tookMs: number;
}

/** A query string's parameters as the schemas above read them ("1"/"true" for booleans, numbers). */
export function queryParams(params: Iterable<[string, string]>): Record<string, unknown> {
  const out: Record<string, unknown> = {};
  for (const [k, v] of params) {
    if (k === "errors") out[k] = v === "" || v === "1" || v === "true";
    else if (k === "limit") out[k] = Number(v);
    else if (v !== "") out[k] = v;
  }
  return out;
}
