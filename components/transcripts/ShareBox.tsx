"use client";
/** The read-only share link of one transcript, with a copy button. */
import { useState } from "react";
import { copyText } from "../clipboard";
import { sharePageUrl } from "./api";

export function ShareBox({ id, shareToken }: { id: string; shareToken: string }) {
  const url = sharePageUrl(id, shareToken);
  const [copied, setCopied] = useState<boolean>();
  return (
    <div data-testid="share-box" className="flex flex-wrap items-center gap-2 text-xs">
      <span className="text-zinc-400">Read-only link (opens this transcript only, no access token needed):</span>
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
        className="rounded border border-zinc-700 px-2 py-0.5 text-zinc-200 hover:bg-zinc-800"
      >
        {copied === undefined ? "Copy" : copied ? "Copied" : "Copy failed"}
      </button>
    </div>
  );
}
