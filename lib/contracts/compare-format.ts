/**
 * A saved comparison (docs/transcript-format.md#comparisons): one prompt run on
 * two sides, each linking the transcript it recorded. Read from disk and from
 * the browser: parsed strictly, never trusted.
 */
import { z } from "zod";
import { OWNER_NAME } from "./transcript-meta";

export const COMPARISON_FORMAT = "acp-playground-comparison";
export const COMPARISON_VERSION = "1.0";

const ID = /^\d{8}-\d{6}-[0-9a-f]{8}$/;
/** Transcript ids as the transcript store makes them, and the shipped demo's. */
const TRANSCRIPT_ID = /^[A-Za-z0-9_-]{1,80}$/;

export const isComparisonId = (id: string): boolean => ID.test(id);

const side = z.strictObject({
  label: z.string().min(1).max(200),
  profile: z.string().min(1).max(200),
  options: z.record(z.string(), z.union([z.string().max(1000), z.boolean()])).optional(),
  transcriptId: z.string().regex(TRANSCRIPT_ID),
});

export type ComparisonSide = z.infer<typeof side>;

/** What a client sends to save a comparison. */
export const comparisonInput = z.strictObject({
  title: z.string().trim().min(1).max(200).optional(),
  prompt: z.string().max(100_000),
  sides: z.tuple([side, side]),
});

export type ComparisonInput = z.infer<typeof comparisonInput>;

export const comparisonRecord = comparisonInput.extend({
  format: z.literal(COMPARISON_FORMAT),
  version: z.literal(COMPARISON_VERSION),
  id: z.string().regex(ID),
  createdAt: z.string().max(40),
  /** Who saved it: a named token's name (absent for the relay's own token, and before owners were recorded). */
  owner: z.string().regex(OWNER_NAME).optional(),
  /** Set while the comparison is shared: the public link's token. */
  shareToken: z.string().min(16).max(100).optional(),
  sharedAt: z.string().max(40).optional(),
});

export type ComparisonRecord = z.infer<typeof comparisonRecord>;

/** What the public share route answers: the comparison, and each transcript's own share token. */
export interface SharedComparison {
  comparison: Omit<ComparisonRecord, "shareToken">;
  transcripts: [{ id: string; token: string }, { id: string; token: string }];
}

/** A side's label: the profile, and its options when set (`gemini model=x`). */
export function sideLabel(profile: string, options?: Record<string, unknown>): string {
  const opts = Object.entries(options ?? {})
    .filter(([, v]) => v !== undefined && v !== "" && v !== false)
    .map(([k, v]) => (v === true ? k : `${k}=${String(v)}`));
  return [profile, ...opts].join(" ");
}
