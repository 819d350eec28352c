"use client";
/**
 * Shown instead of a page when it has no usable access token. A browser that signed in once
 * (server/http/sign-in.ts) gets the token back and reloads at once; otherwise the page says
 * where the token is, in words that fit how the server was started, and takes it in a form
 * (never in a URL that history keeps).
 */
import { useEffect, useState, type FormEvent } from "react";
import type { ServerStart } from "@/lib/contracts/http-api";
import { signInBrowser, signInState, TOKEN_KEY } from "./page-storage";

const code = "rounded bg-zinc-800 px-1 text-zinc-100";

function WhereIsTheToken({ start }: { start: ServerStart | undefined }) {
  if (start === "team")
    return (
      <p data-testid="token-where">
        This is a team server: ask whoever runs it for an access token, and paste it below. For one recording only, a
        share link from a teammate opens it without a token.
      </p>
    );
  const command = start === "installed" ? "acp-playground" : "npm start";
  return (
    <p data-testid="token-where">
      The terminal where <code className={code}>{command}</code> runs printed a URL ending in{" "}
      <code className={code}>?token=…</code>. Open that URL in this browser once, or paste the part after{" "}
      <code className={code}>token=</code> below: this browser then stays signed in, and links copied from the
      playground open here without it.
    </p>
  );
}

export function TokenMessage({ refused }: { refused: boolean }) {
  const [start, setStart] = useState<ServerStart>();
  const [token, setToken] = useState("");
  const [error, setError] = useState<string>();
  const [busy, setBusy] = useState(false);

  useEffect(() => {
    let live = true;
    void signInState().then((state) => {
      if (!live || !state) return;
      setStart(state.start);
      // A signed-in browser's new tab: take the token and load the page with it (once: the
      // server's own token cannot be refused, so a refused one is never taken again).
      if (state.signedIn && sessionStorage.getItem(TOKEN_KEY) !== state.token) {
        sessionStorage.setItem(TOKEN_KEY, state.token);
        window.location.reload();
      }
    });
    return () => {
      live = false;
    };
  }, []);

  const submit = async (e: FormEvent) => {
    e.preventDefault();
    const given = token.trim();
    if (!given) return;
    setBusy(true);
    const ok = await signInBrowser(given);
    setBusy(false);
    if (!ok) return setError("That is not this server's access token.");
    sessionStorage.setItem(TOKEN_KEY, given);
    window.location.reload();
  };

  return (
    <div className="flex flex-1 items-center justify-center p-8">
      <div
        data-testid="token-message"
        role="alert"
        className="flex max-w-lg flex-col gap-3 rounded-lg border border-zinc-800 bg-zinc-900 p-6 text-sm text-zinc-300 shadow-xl"
      >
        <h2 className="text-base font-semibold text-zinc-100">
          {refused ? "The access token was refused" : "No access token"}
        </h2>
        {refused && <p>The relay did not accept this page&apos;s token; it changes every time the server restarts.</p>}
        <WhereIsTheToken start={start} />
        <form data-testid="sign-in-form" className="flex items-center gap-2" onSubmit={(e) => void submit(e)}>
          <label htmlFor="sign-in-token" className="shrink-0 text-zinc-300">
            Access token
          </label>
          <input
            id="sign-in-token"
            data-testid="sign-in-token"
            type="password"
            autoComplete="off"
            value={token}
            onChange={(e) => {
              setToken(e.target.value);
              setError(undefined);
            }}
            className="min-w-0 flex-1 rounded border border-zinc-700 bg-zinc-950 px-2 py-1 text-zinc-100"
          />
          <button
            type="submit"
            data-testid="sign-in-submit"
            disabled={busy || !token.trim()}
            className="rounded border border-zinc-600 px-2 py-1 text-zinc-100 hover:bg-zinc-800 disabled:text-zinc-400"
          >
            Sign in
          </button>
        </form>
        {error && (
          <p data-testid="sign-in-error" className="text-red-300">
            {error}
          </p>
        )}
        {start !== "team" && (
          <p data-testid="token-stable-hint">
            To keep one token across restarts, start the server with{" "}
            <code className={code}>ACP_PLAYGROUND_TOKEN=&lt;a long random string&gt;</code>.
          </p>
        )}
      </div>
    </div>
  );
}
