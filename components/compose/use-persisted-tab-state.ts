"use client";
/**
 * Like useTabState, but also kept in sessionStorage, so it survives a reload
 * (which column tab was open matters to someone who reloads mid-session).
 */
import { useCallback } from "react";
import { useTab, useTabState } from "../state/use-session";

export function usePersistedTabState<T extends string>(
  key: string,
  initial: T,
  allowed: readonly T[],
): [T, (v: T) => void] {
  const tab = useTab();
  const storageKey = `acp-playground.${key}.${tab.id}`;
  const [value, setValue] = useTabState<T>(key, () => {
    const saved = typeof sessionStorage === "undefined" ? null : sessionStorage.getItem(storageKey);
    return saved !== null && (allowed as readonly string[]).includes(saved) ? (saved as T) : initial;
  });
  const set = useCallback(
    (v: T) => {
      sessionStorage.setItem(storageKey, v);
      setValue(v);
    },
    [setValue, storageKey],
  );
  return [value, set];
}
