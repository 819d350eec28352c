"use client";
/**
 * The read-only share link of one transcript: none until the user shares,
 * then the link with copy and revoke (a revoked link stops working at once;
 * sharing again makes a new one).
 */
import { useState } from "react";
import { copyText } from "../clipboard";
import { sharePageUrl, type TranscriptMeta } from "./api";
import type { TranscriptsClient } from "./use-transcripts";

const button = "rounded border border-zinc-700 px-2 py-0.5 text-zinc-200 hover:bg-zinc-800 disabled:opacity-40";

interface Props {
  t: Pick<TranscriptMeta, "id" | "shareToken" | "shareShowsCommand">;
  client: TranscriptsClient;
  onChange: () => Promise<void>;
}

export function ShareBox({ t, client, onChange }: Props) {
  const [copied, setCopied] = useState<boolean>();
  const [busy, setBusy] = useState(false);
  const [error, setError] = useState<string>();
  const [showCommand, setShowCommand] = useState(t.shareShowsCommand ?? false);
  const act = async (work: () => Promise<unknown>) => {
    setBusy(true);
    try {
      await work();
      await onChange();
      setError(undefined);
      setCopied(undefined);
    } catch (err) {
      setError((err as Error).message);
    } finally {
      setBusy(false);
    }
  };
  const showOption = (
    <label className="flex items-center gap-1 text-zinc-300">
      <input
        type="checkbox"
        data-testid="share-show-command"
        checked={showCommand}
        disabled={busy}
        onChange={(e) => {
          const show = e.target.checked;
          setShowCommand(show);
          if (t.shareToken) void act(() => client.share(t.id, show));
        }}
      />
      show the command line and local paths
    </label>
  );
  if (!t.shareToken) {
    return (
      <div data-testid="share-box" className="flex flex-wrap items-center gap-2 text-xs">
        <span className="text-zinc-400">
          Not shared. A share link opens this transcript read-only to anyone who has it: it carries its own share token
          (for this transcript only), not your access token. The agent&apos;s command line and local paths are hidden
          unless you choose to show them.
        </span>
        {showOption}
        <button
          type="button"
          data-testid="create-share"
          disabled={busy}
          className={button}
          onClick={() => void act(() => client.share(t.id, showCommand))}
        >
          Create share link
        </button>
        {error ? <span className="text-red-300">{error}</span> : null}
      </div>
    );
  }
  const url = sharePageUrl(t.id, t.shareToken);
  return (
    <div data-testid="share-box" className="flex flex-wrap items-center gap-2 text-xs">
      <span className="text-zinc-400">
        Read-only link with a share token (<code>?token=</code> opens this transcript only, not the playground; revoke
        it to cut access):
      </span>
      <input
        readOnly
        data-testid="share-url"
        aria-label="Share link"
        value={url}
        onFocus={(e) => e.target.select()}
        className="min-w-0 flex-1 rounded border border-zinc-700 bg-zinc-950 px-2 py-0.5 font-mono text-[11px] text-zinc-200"
      />
      <button
        type="button"
        data-testid="copy-share"
        onClick={async () => setCopied(await copyText(url))}
        className={button}
      >
        {copied === undefined ? "Copy" : copied ? "Copied" : "Copy failed"}
      </button>
      <button
        type="button"
        data-testid="revoke-share"
        disabled={busy}
        title="The link stops working at once; sharing again makes a new one"
        className={button}
        onClick={() => void act(() => client.unshare(t.id))}
      >
        Revoke link
      </button>
      {showOption}
      {error ? <span className="text-red-300">{error}</span> : null}
    </div>
  );
}
