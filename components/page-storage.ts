"use client";
/**
 * What the pages keep in this tab's sessionStorage: the access token (the
 * playground's own key, so every page shares it) and the profile a link asked
 * the playground to preselect.
 */
import { useEffect, useState } from "react";
import type { SignInBody, SignInState } from "@/lib/contracts/http-api";

export const TOKEN_KEY = "acp-playground.token";
/** Taken by the playground, which gives it to the tab it opens for it (tabs-store init). */
export const PROFILE_KEY = "acp-playground.profile";

/**
 * The token from `?token=` (then hidden from the address bar) or from this tab's storage.
 * A link's token also signs this browser in (server/http/sign-in.ts), so that its other tabs
 * and windows open links without one.
 */
export function takeAccessToken(): string | undefined {
  const url = new URL(window.location.href);
  const fromUrl = url.searchParams.get("token");
  if (fromUrl) {
    sessionStorage.setItem(TOKEN_KEY, fromUrl);
    url.searchParams.delete("token");
    // Keeps the token out of history, bookmarks and screen shares.
    window.history.replaceState(window.history.state, "", url.pathname + url.search + url.hash);
    if (typeof window.fetch === "function") signingIn = signInBrowser(fromUrl);
    return fromUrl;
  }
  return sessionStorage.getItem(TOKEN_KEY) ?? undefined;
}

/**
 * The window whose `?profile=` was looked at already (a later visit to the page must not take it
 * again). Once per window is once per document, and a test can load a page again with a new window.
 */
let profileParamSeenIn: Window | undefined;

/**
 * `?profile=replay:<id>` on the playground: remembered for the playground, once
 * per document and not on a reload (the link was followed already).
 */
export function rememberProfileParam(): void {
  if (profileParamSeenIn === window) return;
  profileParamSeenIn = window;
  const profile = new URL(window.location.href).searchParams.get("profile");
  const navigation = performance.getEntriesByType("navigation")[0] as PerformanceNavigationTiming | undefined;
  if (profile && (navigation?.type ?? "navigate") === "navigate") sessionStorage.setItem(PROFILE_KEY, profile);
}

/** The profile a link asked for, once: it is forgotten when taken. */
export function takePreselectedProfile(): string | undefined {
  rememberProfileParam();
  const profile = sessionStorage.getItem(PROFILE_KEY) ?? undefined;
  sessionStorage.removeItem(PROFILE_KEY);
  return profile || undefined;
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

/** Exchanges the token for this browser's sign-in cookie (HttpOnly: no script reads it); whether it was taken. */
export async function signInBrowser(token: string): Promise<boolean> {
  try {
    const res = await fetch("/api/sign-in", {
      method: "POST",
      headers: { "content-type": "application/json" },
      body: JSON.stringify({ token } satisfies SignInBody),
      credentials: "same-origin",
    });
    return res.ok;
  } catch {
    return false;
  }
}

/** The sign-in a link's token started (takeAccessToken), so a question about it waits for its answer. */
let signingIn: Promise<boolean> | undefined;

/** signInState, once the sign-in a link's token started has been answered. */
export async function signedInState(): Promise<SignInState | undefined> {
  await signingIn;
  return signInState();
}

/** Clears this browser's sign-in cookie and this tab's token; whether the server cleared the cookie. */
export async function signOutBrowser(): Promise<boolean> {
  try {
    const res = await fetch("/api/sign-in", { method: "DELETE", credentials: "same-origin" });
    if (!res.ok) return false;
  } catch {
    return false;
  }
  sessionStorage.removeItem(TOKEN_KEY);
  return true;
}

/** Whether this browser signed in, and how the server was started; undefined when the relay cannot be reached. */
export async function signInState(): Promise<SignInState | undefined> {
  try {
    const res = await fetch("/api/sign-in", { credentials: "same-origin", cache: "no-store" });
    return res.ok ? ((await res.json()) as SignInState) : undefined;
  } catch {
    return undefined;
  }
}
