/**
 * Which profiles the Side by side page starts with: two that can answer here (installed, with
 * credentials, not a recording), different ones when there are two, so that Run works as it
 * stands; a profile without credentials (Gemini before a key or a login) only when nothing else can.
 */
import type { ProfileSummary } from "@/lib/contracts/wire";

type Candidate = Pick<ProfileSummary, "name" | "available" | "credentialsMissing" | "demo" | "replayOf">;

export function defaultSides(profiles: readonly Candidate[]): { a: string; b: string } {
  const live = profiles.filter((p) => p.available && !p.replayOf && !p.demo);
  const ready = live.filter((p) => !p.credentialsMissing);
  const pool = ready.length ? ready : live.length ? live : profiles;
  const a = pool[0]?.name ?? "";
  return { a, b: pool[1]?.name ?? a };
}
