"use client";
/**
 * /share/[id]?token=SHARE_TOKEN: the read-only viewer. Playback only: no
 * access token is read or stored, no socket, no links to anything else.
 */
import { shareApiUrl } from "./api";
import { SharedPageHeader } from "../PageHeader";
import { TranscriptPlayer, ViewerMessage } from "./TranscriptPlayer";

export function SharedTranscriptPage({ id, shareToken }: { id: string; shareToken: string }) {
  return (
    <div className="flex h-dvh flex-col">
      <SharedPageHeader subtitle="Shared transcript · read-only" />
      <TranscriptPlayer
        url={shareApiUrl(id, shareToken)}
        failure={(e) => (
          <ViewerMessage title="This share link is not valid">
            <p>
              {e.status === 404
                ? "The link was revoked (Unshare), the transcript was deleted, or the link is incomplete. Ask its owner for a new link."
                : e.message}
            </p>
          </ViewerMessage>
        )}
      />
    </div>
  );
}
