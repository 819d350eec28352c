"use client";
/**
 * "Watch link" in the playground's header: the owner of a running session makes
 * a link others open to watch it live, read-only (POST /api/watch), copies it,
 * and ends it (DELETE /api/watch/:token), which ends every watcher's stream.
 */
import { useEffect, useState } from "react";
import { copyText } from "../clipboard";
import { useAccessToken } from "../page-storage";
import { useSession } from "../state/use-session";

interface Link {
  url: string;
  token: string;
}

const button = "rounded border border-zinc-700 px-2 py-0.5 text-[11px] text-zinc-300 hover:bg-zinc-800";

export function WatchLinkButton() {
  const { token } = useAccessToken();
  const clientId = useSession((s) => s.clientId);
  const running = useSession((s) => s.agent.state === "running");
  const [link, setLink] = useState<Link>();
  const [note, setNote] = useState<string>();
  // The relay ends a link with its session: so does this button.
  useEffect(() => {
    if (!running) setLink(undefined);
  }, [running]);
  if (!token || !clientId) return null;
  const headers = { authorization: `Bearer ${token}`, "content-type": "application/json" };

  const create = async () => {
    setNote(undefined);
    const res = await fetch("/api/watch", { method: "POST", headers, body: JSON.stringify({ clientId }) });
    const body = (await res.json().catch(() => ({}))) as Partial<Link> & { error?: { message: string } };
    if (res.status !== 201 || !body.url || !body.token) return setNote(body.error?.message ?? `HTTP ${res.status}`);
    // On the page's own origin (the relay's answer names the Host it was asked on).
    const url = new URL(new URL(body.url).pathname, window.location.origin).toString();
    setLink({ url, token: body.token });
    setNote((await copyText(url)) ? "copied" : undefined);
  };
  const end = async () => {
    if (!link) return;
    await fetch(`/api/watch/${link.token}`, { method: "DELETE", headers });
    setLink(undefined);
    setNote("ended");
  };

  if (!link)
    return (
      <span className="flex items-center gap-1">
        <button
          type="button"
          data-testid="watch-link-create"
          disabled={!running}
          onClick={() => void create()}
          title={
            running
              ? "Make a link others open to watch this session live, read-only"
              : "Start an agent first: a watch link shows a running session"
          }
          className={`${button} disabled:opacity-40`}
        >
          Watch link
        </button>
        {note ? <span className="text-[11px] text-zinc-400">{note}</span> : null}
      </span>
    );
  return (
    <span className="flex items-center gap-1">
      <input
        readOnly
        data-testid="watch-link-url"
        value={link.url}
        aria-label="Watch link"
        onFocus={(e) => e.currentTarget.select()}
        className="w-56 rounded border border-zinc-700 bg-zinc-950 px-1 text-[11px] text-zinc-300"
      />
      <button
        type="button"
        className={button}
        onClick={() => void copyText(link.url).then((ok) => setNote(ok ? "copied" : "copy failed"))}
      >
        Copy
      </button>
      <button type="button" data-testid="watch-link-end" className={button} onClick={() => void end()}>
        End
      </button>
      {note ? <span className="text-[11px] text-zinc-400">{note}</span> : null}
    </span>
  );
}
