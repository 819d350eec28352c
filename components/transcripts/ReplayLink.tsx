"use client";
/** "Replay as mock agent": the library's row and the viewer draw it, and disable it, alike. */
import Link from "next/link";
import { preselectProfile } from "../page-storage";

/** Why a transcript cannot be replayed (the link is disabled), or undefined when it can. */
export function replayUnavailable(t: { frames: number; recording: boolean }): string | undefined {
  if (t.recording) return "Still being recorded";
  if (t.frames === 0) return "No frames to replay";
  return undefined;
}

export function ReplayLink({
  t,
  className,
  testId,
}: {
  t: { id: string; title: string; frames: number; recording: boolean };
  className: string;
  testId: string;
}) {
  const why = replayUnavailable(t);
  const profile = `replay:${t.id}`;
  return (
    <Link
      href={`/?profile=${encodeURIComponent(profile)}`}
      data-testid={testId}
      aria-disabled={why !== undefined}
      title={why ?? `Open the playground with “${t.title}” as a mock agent (profile ${profile})`}
      onClick={(e) => (why === undefined ? preselectProfile(profile) : e.preventDefault())}
      className={`${className} ${why === undefined ? "" : "pointer-events-none opacity-40"}`}
    >
      Replay as mock agent
    </Link>
  );
}
