"use client";
/**
 * "Sign out", in the page header, for a browser signed in by cookie (server/http/sign-in.ts): it
 * clears the cookie (DELETE /api/sign-in) and this tab's token, then reloads onto the page that asks
 * for a token. Not shown when the page holds a token from a link alone.
 */
import { useEffect, useState } from "react";
import { signedInState, signOutBrowser, useAccessToken } from "./page-storage";

/** `onSignedOut`: what follows (the page reloads onto the token page; a test watches instead). */
export function SignOut({ onSignedOut = () => window.location.reload() }: { onSignedOut?: () => void }) {
  const { token } = useAccessToken();
  const [signedIn, setSignedIn] = useState(false);
  const [error, setError] = useState<string>();
  useEffect(() => {
    if (!token) return;
    let live = true;
    void signedInState().then((s) => live && setSignedIn(s?.signedIn === true));
    return () => {
      live = false;
    };
  }, [token]);
  if (!signedIn) return null;
  const signOut = async () => {
    setError(undefined);
    if (await signOutBrowser()) onSignedOut();
    else setError("Sign out failed: the server did not answer");
  };
  return (
    <>
      <button
        type="button"
        data-testid="sign-out"
        onClick={() => void signOut()}
        title="Forget this browser's sign-in and this tab's access token"
        className="rounded border border-zinc-700 px-2 py-0.5 text-[11px] text-zinc-300 hover:bg-zinc-800"
      >
        Sign out
      </button>
      {error ? (
        <span role="alert" className="text-[11px] text-red-300">
          {error}
        </span>
      ) : null}
    </>
  );
}
