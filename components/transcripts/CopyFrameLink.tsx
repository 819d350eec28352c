"use client";
/**
 * "Copy link" to one frame or turn (`#seq=N`): the transcript's page opens scrolled to it,
 * selected. In the live playground it points into the session's recording; where there is
 * none (recording off) it is not shown.
 */
import { useState } from "react";
import { frameLink } from "@/lib/features/library/deep-link";
import { copyText } from "../clipboard";
import type { SessionSnapshot } from "../state/snapshot";
import { useSession } from "../state/use-session";

const selectTranscriptId = (s: SessionSnapshot): string | undefined =>
  s.agent.state === "running" || s.agent.state === "exited" ? (s.agent.agent?.transcriptId ?? undefined) : undefined;

export function CopyFrameLink({
  seq,
  what = "frame",
  className,
}: {
  seq: number;
  what?: "frame" | "turn";
  className?: string;
}) {
  const transcriptId = useSession(selectTranscriptId);
  const [copied, setCopied] = useState<boolean>();
  const link = typeof window === "undefined" ? undefined : frameLink(window.location.href, seq, transcriptId);
  if (!link) return null;
  return (
    <button
      type="button"
      data-testid={`copy-${what}-link`}
      data-link={link}
      title={`Copy a link that opens this ${what} (frame ${seq})`}
      className={className}
      onClick={() => void copyText(link).then(setCopied)}
      onBlur={() => setCopied(undefined)}
    >
      {copied === undefined ? "Copy link" : copied ? "Link copied" : "Copy failed"}
    </button>
  );
}
