"use client";
/**
 * "Copy link": this page's address, without the access token: it opens in any tab of a
 * browser that signed in once (server/http/sign-in.ts), and a browser that did not asks
 * for the token rather than finding it in a pasted URL.
 */
import { useState } from "react";
import { copyText } from "./clipboard";
import { useAccessToken } from "./page-storage";

export function CopyLink() {
  const { token } = useAccessToken();
  const [copied, setCopied] = useState<boolean>();
  if (!token) return null;
  const copy = async () => {
    const url = new URL(window.location.href);
    // Only the token goes: a page's own parameters (a diff's ?a=&b=) are what it shows.
    url.searchParams.delete("token");
    url.hash = "";
    setCopied(await copyText(url.toString()));
  };
  return (
    <button
      type="button"
      data-testid="copy-link"
      onClick={() => void copy()}
      onBlur={() => setCopied(undefined)}
      title="Copy this page's address (without the access token: a browser signed in once opens it)"
      className="rounded border border-zinc-700 px-2 py-0.5 text-[11px] text-zinc-300 hover:bg-zinc-800"
    >
      {copied === undefined ? "Copy link" : copied ? "Link copied" : "Copy failed"}
    </button>
  );
}
