"use client";
/**
 * /share/[id]?token=SHARE_TOKEN: the read-only viewer. Playback only: no
 * access token is read or stored, no socket, no links to anything else.
 */
import { shareApiUrl } from "./api";
import { TranscriptPlayer, ViewerMessage } from "./TranscriptPlayer";

export function SharedTranscriptPage({ id, shareToken }: { id: string; shareToken: string }) {
  return (
    <div className="flex h-dvh flex-col">
      <header className="flex h-10 shrink-0 items-center gap-3 border-b border-zinc-800 bg-zinc-900/70 px-3">
        <h1 className="text-sm font-semibold tracking-tight text-zinc-100">ACP Playground</h1>
        <span className="text-xs text-zinc-400">Shared transcript · read-only</span>
      </header>
      <TranscriptPlayer
        url={shareApiUrl(id, shareToken)}
        failure={(e) => (
          <ViewerMessage title="This share link is not valid">
            <p>
              {e.status === 404
                ? "The transcript was deleted, or the link is incomplete. Ask for a new link."
                : e.message}
            </p>
          </ViewerMessage>
        )}
      />
    </div>
  );
}
