"use client";
/**
 * The viewer's transcript GET, started by a small inline script in the page's
 * HTML rather than after the page's code has loaded, React has hydrated and the
 * token has been read (on a loaded machine, over a second): the download
 * overlaps start-up, and useRecording takes the response already arriving.
 */
import { TOKEN_KEY } from "../page-storage";

/** Where the inline script leaves its fetch. */
const GLOBAL = "__acpTranscriptFetch";

interface EarlyFetch {
  url: string;
  token: string;
  res: Promise<Response>;
}

export function fetchTranscript(url: string, token: string | undefined, signal?: AbortSignal): Promise<Response> {
  return fetch(url, {
    headers: token ? { authorization: `Bearer ${token}` } : {},
    cache: "no-store",
    signal,
  });
}

/**
 * The inline script: GET `url` with the token takeAccessToken will return
 * (`?token=`, else this tab's storage). JSON.stringify with `<` escaped keeps
 * the url from closing the script element.
 */
export function earlyFetchScript(url: string): string {
  const json = (v: string) => JSON.stringify(v).replace(/</g, "\\u003c");
  return `try{var t=new URL(location.href).searchParams.get("token")||sessionStorage.getItem(${json(TOKEN_KEY)});if(t){var r=fetch(${json(url)},{headers:{authorization:"Bearer "+t},cache:"no-store"});r.catch(function(){});window.${GLOBAL}={url:${json(url)},token:t,res:r}}}catch(e){}`;
}

/** The inline script's response for this url and token, once (a second viewer fetches anew). */
export function takeEarlyFetch(url: string, token: string | undefined): Promise<Response> | undefined {
  const w = window as unknown as Record<typeof GLOBAL, EarlyFetch | undefined>;
  const early = w[GLOBAL];
  if (!early || early.url !== url || early.token !== token) return undefined;
  w[GLOBAL] = undefined;
  return early.res;
}
