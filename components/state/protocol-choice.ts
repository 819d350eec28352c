/**
 * The protocol version Connect asks for, chosen per profile in Connect's
 * settings and kept with the other choices in localStorage: 1 (the default)
 * or 2 (the v2 draft, an explicit choice).
 */

export const connectStorageKey = (profile: string) => `acp-playground.connect.${profile}`;

/** The versions offered: the SDK's stable one, and the v2 draft. */
export const PROTOCOL_CHOICES = [1, 2] as const;
export type ProtocolChoice = (typeof PROTOCOL_CHOICES)[number];

/** The version kept for a profile (its `v2` choice); 1 when nothing usable is kept or there is no storage. */
export function chosenProtocolVersion(profile: string | undefined): ProtocolChoice {
  if (!profile || typeof localStorage === "undefined") return 1;
  try {
    const kept: unknown = JSON.parse(localStorage.getItem(connectStorageKey(profile)) ?? "null");
    return typeof kept === "object" && kept !== null && (kept as { v2?: unknown }).v2 === true ? 2 : 1;
  } catch {
    return 1;
  }
}
