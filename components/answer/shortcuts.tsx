"use client";
/**
 * Keyboard answers for the request the Session view shows first: `a` allow,
 * `r` reject, Enter the primary answer. Buttons declare their key with
 * data-shortcut (and data-primary), so a card never needs to know the
 * listener; keys typed into a field, or with a modifier, are never taken.
 */
import { useEffect } from "react";

export const INLINE_REQUEST = "inline-request";

/** The key a button answers to, shown on it. */
export function Kbd({ k }: { k: string }) {
  return (
    <kbd
      aria-hidden="true"
      className="ml-1.5 rounded border border-current/40 px-1 font-mono text-[10px] leading-none opacity-80"
    >
      {k === "Enter" ? "↵" : k}
    </kbd>
  );
}

/** Keys the focused element needs itself: all of them in a text field, Enter on a button, link or summary. */
function ownsKey(target: EventTarget | null, key: string): boolean {
  if (!(target instanceof HTMLElement)) return false;
  if (target.isContentEditable || ["INPUT", "TEXTAREA", "SELECT"].includes(target.tagName)) return true;
  return key === "Enter" && ["BUTTON", "A", "SUMMARY"].includes(target.tagName);
}

/** Listens while mounted (the live Session view); `root` bounds where cards are looked up. */
export function useRequestShortcuts(root: React.RefObject<HTMLElement | null>, enabled: boolean): void {
  useEffect(() => {
    if (!enabled) return;
    const onKey = (e: KeyboardEvent) => {
      if (e.defaultPrevented || e.altKey || e.ctrlKey || e.metaKey || e.repeat) return;
      if (ownsKey(e.target, e.key)) return;
      const card = root.current?.querySelector(`[data-testid="${INLINE_REQUEST}"]`);
      if (!card) return;
      const selector = e.key === "Enter" ? "[data-primary='true']" : `[data-shortcut="${e.key.toLowerCase()}"]`;
      const button = card.querySelector<HTMLButtonElement>(`button${selector}:not(:disabled)`);
      if (!button) return;
      e.preventDefault();
      button.click();
    };
    window.addEventListener("keydown", onKey);
    return () => window.removeEventListener("keydown", onKey);
  }, [root, enabled]);
}
