"use client";
/**
 * The viewer's transcript GET, started when the page's code first runs
 * rather than after React has hydrated the page and read the token (which on a
 * loaded machine is most of a second): the download overlaps start-up, and
 * useRecording takes the response that is already arriving.
 */
import { transcriptUrl } from "./api";
import { peekAccessToken } from "../page-storage";

const started = new Map<string, Promise<Response>>();
const key = (url: string, token: string | undefined) => `${token ?? ""} ${url}`;

export function fetchTranscript(url: string, token: string | undefined, signal?: AbortSignal): Promise<Response> {
  return fetch(url, {
    headers: token ? { authorization: `Bearer ${token}` } : {},
    cache: "no-store",
    signal,
  });
}

/** The early GET of this url, once (a second viewer of it fetches anew); undefined if none was started. */
export function takeEarlyFetch(url: string, token: string | undefined): Promise<Response> | undefined {
  const k = key(url, token);
  const res = started.get(k);
  started.delete(k);
  return res;
}

/** On /transcripts/[id] with a token: starts its GET now. */
export function startEarlyFetch(): void {
  if (typeof window === "undefined") return;
  const id = /^\/transcripts\/([^/]+)\/?$/.exec(window.location.pathname)?.[1];
  const token = peekAccessToken();
  if (!id || !token) return;
  const url = transcriptUrl(decodeURIComponent(id));
  const res = fetchTranscript(url, token);
  // A page that never takes it (an error page, say) must not report an unhandled rejection.
  res.catch(() => undefined);
  started.set(key(url, token), res);
}
