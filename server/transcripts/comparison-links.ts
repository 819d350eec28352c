/**
 * The rules of saved comparisons, one copy for both stores (the data directory's files in
 * comparison-store.ts, PostgreSQL in stores/pg-comparisons.ts). A comparison links two
 * transcripts; sharing it shares both and gives it a token of its own, `<random>.<digest>`, where
 * the digest is of both transcripts' share tokens at the time: revoking either transcript's link
 * revokes the comparison's for good (sharing that transcript again makes a new token, which the
 * old digest does not match).
 */
import { createHash, randomBytes } from "node:crypto";
import {
  COMPARISON_FORMAT,
  COMPARISON_VERSION,
  type ComparisonInput,
  type ComparisonRecord,
  type SharedComparison,
} from "../../lib/contracts/compare-format";
import { ownerRefusal, type Me, type OwnerAction } from "../../lib/contracts/transcript-meta";
import { tokenMatches } from "../tokens";

/**
 * Why `me` may not `action` a comparison (saving it: "compare"), or undefined when it may: the
 * comparison is its owner's (who saved it), and saving, sharing or unsharing one also tags, shares
 * or unshares both its transcripts, so those must be `me`'s to change too (ownerRefusal's rule).
 */
export function comparisonRefusal(
  me: Me,
  action: OwnerAction,
  /** The comparison's owner; undefined when saving (it is not made yet) or when it has none. */
  comparison: { owner?: string } | undefined,
  /** Both transcripts: their ids and owners. */
  sides: ReadonlyArray<{ id: string; owner?: string }>,
): string | undefined {
  if (comparison) {
    const why = ownerRefusal(me, comparison.owner, action);
    if (why) return `this comparison: ${why}`;
  }
  if (action === "delete") return undefined; // the transcripts stay
  for (const side of sides) {
    const why = ownerRefusal(me, side.owner, action);
    if (why) return `transcript ${side.id}: ${why}`;
  }
  return undefined;
}

/** A new record for a comparison of `input`, made at `now`. */
export function newComparison(input: ComparisonInput, now: Date, owner?: string): ComparisonRecord {
  const stamp = now.toISOString().replace(/[-:]/g, "").replace("T", "-").slice(0, 15);
  return {
    format: COMPARISON_FORMAT,
    version: COMPARISON_VERSION,
    id: `${stamp}-${randomBytes(4).toString("hex")}`,
    createdAt: now.toISOString(),
    ...input,
    ...(owner ? { owner } : {}),
  };
}

/** The digest of both transcripts' share tokens; undefined while either is not shared. */
export function linkDigest(tokens: ReadonlyArray<string | undefined>): string | undefined {
  if (tokens.some((t) => !t)) return undefined;
  return createHash("sha256").update(tokens.join("\n")).digest("base64url").slice(0, 22);
}

/** The record without its link. */
export function unlinked(record: ComparisonRecord): ComparisonRecord {
  const { shareToken: _token, sharedAt: _at, ...rest } = record;
  return rest;
}

/** The record as it may be shown: its link only while bound to the transcripts' current tokens. */
export function withCurrentLink(record: ComparisonRecord, tokens: ReadonlyArray<string | undefined>): ComparisonRecord {
  if (!record.shareToken) return record;
  const dot = record.shareToken.lastIndexOf(".");
  const digest = linkDigest(tokens);
  const bound = dot > 0 && digest !== undefined && record.shareToken.slice(dot + 1) === digest;
  return bound ? record : unlinked(record);
}

/** The record shared with the transcripts' new tokens: the same link while it is bound to them. */
export function linked(record: ComparisonRecord, tokens: readonly string[]): ComparisonRecord {
  const digest = linkDigest(tokens)!;
  if (record.shareToken?.endsWith(`.${digest}`)) return record;
  return {
    ...record,
    shareToken: `${randomBytes(18).toString("base64url")}.${digest}`,
    sharedAt: new Date().toISOString(),
  };
}

/**
 * The public view: undefined unless the token matches the record's current link (the record
 * as withCurrentLink gives it) and both transcripts are still shared.
 */
export function sharedView(
  record: ComparisonRecord | undefined,
  token: string | null,
  tokens: ReadonlyArray<string | undefined>,
): SharedComparison | undefined {
  if (!record?.shareToken || !tokenMatches(token, record.shareToken)) return undefined;
  if (tokens.some((t) => !t)) return undefined;
  const { shareToken: _token, ...comparison } = record;
  return {
    comparison,
    transcripts: record.sides.map((s, i) => ({
      id: s.transcriptId,
      token: tokens[i]!,
    })) as SharedComparison["transcripts"],
  };
}
