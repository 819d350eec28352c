"use client";
/**
 * "Copy link": this page's address with the access token, for a second browser
 * tab or window (the token is hidden from the address bar once read).
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
    url.search = "";
    url.hash = "";
    url.searchParams.set("token", token);
    setCopied(await copyText(url.toString()));
  };
  return (
    <button
      type="button"
      data-testid="copy-link"
      onClick={() => void copy()}
      onBlur={() => setCopied(undefined)}
      title="Copy this page's address with the access token, to open the playground in another tab or browser"
      className="rounded border border-zinc-700 px-2 py-0.5 text-[11px] text-zinc-300 hover:bg-zinc-800"
    >
      {copied === undefined ? "Copy link" : copied ? "Link copied" : "Copy failed"}
    </button>
  );
}
