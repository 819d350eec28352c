/**
 * Comparing a secret someone sent with the one we hold: the relay's token, a share link's,
 * a team server's. Down here so every floor that checks one uses the same comparison.
 */
import { createHash, timingSafeEqual } from "node:crypto";

const digest = (s: string) => createHash("sha256").update(s).digest();

/** Constant-time comparison, whatever the lengths. */
export function tokenMatches(given: unknown, expected: string): boolean {
  if (typeof given !== "string" || given.length === 0) return false;
  return timingSafeEqual(digest(given), digest(expected));
}
