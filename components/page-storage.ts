"use client";
/**
 * What the pages keep in this tab's sessionStorage: the access token (the
 * playground's own key, so every page shares it) and the profile a link asked
 * the playground to preselect.
 */
import { useEffect, useState } from "react";

export const TOKEN_KEY = "acp-playground.token";
/** Read by the playground's profile select (AgentControls). */
export const PROFILE_KEY = "acp-playground.profile";

/** The token from `?token=` (then hidden from the address bar) or from this tab's storage. */
export function takeAccessToken(): string | undefined {
  const url = new URL(window.location.href);
  const fromUrl = url.searchParams.get("token");
  if (fromUrl) {
    sessionStorage.setItem(TOKEN_KEY, fromUrl);
    url.searchParams.delete("token");
    // Keeps the token out of history, bookmarks and screen shares.
    window.history.replaceState(window.history.state, "", url.pathname + url.search + url.hash);
    return fromUrl;
  }
  return sessionStorage.getItem(TOKEN_KEY) ?? undefined;
}

/** `?profile=replay:<id>` on the playground: remembered for the profile select. */
export function rememberProfileParam(): void {
  const profile = new URL(window.location.href).searchParams.get("profile");
  if (profile) sessionStorage.setItem(PROFILE_KEY, profile);
}

/** The profile a link asked for (`?profile=` or remembered), once: it is forgotten when taken. */
export function takePreselectedProfile(): string | undefined {
  const profile =
    new URL(window.location.href).searchParams.get("profile") ?? sessionStorage.getItem(PROFILE_KEY) ?? undefined;
  sessionStorage.removeItem(PROFILE_KEY);
  return profile || undefined;
}

/** Whether a link asked for a profile, without taking it. */
export function hasPreselectedProfile(): boolean {
  return !!(new URL(window.location.href).searchParams.get("profile") ?? sessionStorage.getItem(PROFILE_KEY));
}

export function preselectProfile(profile: string): void {
  sessionStorage.setItem(PROFILE_KEY, profile);
}

/** The access token, read once on the client (undefined on the server and before hydration). */
export function useAccessToken(): { ready: boolean; token: string | undefined } {
  const [state, setState] = useState<{ ready: boolean; token: string | undefined }>({ ready: false, token: undefined });
  useEffect(() => setState({ ready: true, token: takeAccessToken() }), []);
  return state;
}
