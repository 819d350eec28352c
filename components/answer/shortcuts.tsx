"use client";
/**
 * Keyboard answers for the request that waits first: `a` allow, `r` reject,
 * Enter the primary answer, in every view of the tab (the conversation's card
 * when the Session view shows it, else the prompt dock's). Buttons declare
 * their key with data-shortcut (and data-primary), so a card never needs to
 * know the listener; keys typed into a field, or with a modifier, are never
 * taken. When a request arrives and nothing is being typed (focus on the page,
 * or in an empty prompt box), the card's primary answer takes the focus; Escape
 * leaves a text field (the prompt box's handler).
 */
import { createContext, useContext, useEffect } from "react";

export const INLINE_REQUEST = "inline-request";
export const PENDING_CARD = "pending-card";

/** What the first card's header says: the keys work once no text field has the focus. */
export const KEYS_HINT = "keys: a allow · r reject · ↵ primary · Esc leaves the prompt box";

/** True inside a page that listens for answer keys itself (the playground's tab): views then do not. */
export const PageShortcuts = createContext(false);
export const usePageShortcuts = () => useContext(PageShortcuts);

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

const isTextField = (el: Element | null): boolean =>
  el instanceof HTMLElement && (el.isContentEditable || ["INPUT", "TEXTAREA", "SELECT"].includes(el.tagName));

/** Keys the focused element needs itself: all of them in a text field, Enter on a button, link or summary. */
function ownsKey(target: EventTarget | null, key: string): boolean {
  if (!(target instanceof HTMLElement)) return false;
  if (isTextField(target)) return true;
  return key === "Enter" && ["BUTTON", "A", "SUMMARY"].includes(target.tagName);
}

/** The card that answers keys: the conversation's first, else the prompt dock's first. */
function firstCard(root: HTMLElement): Element | null {
  return (
    root.querySelector(`[data-testid="${INLINE_REQUEST}"]`) ?? root.querySelector(`[data-testid="${PENDING_CARD}"]`)
  );
}

/** Nothing is being typed: the focus is on the page itself, or in an empty text field (the prompt box after Enter). */
function idleFocus(): boolean {
  const el = document.activeElement;
  if (!el || el === document.body) return true;
  return (el instanceof HTMLTextAreaElement || el instanceof HTMLInputElement) && el.value === "";
}

/**
 * Listens while mounted and `enabled`; `root` bounds where cards are looked up. `firstSeq` (the
 * request that waits first) moves the focus to its card's primary answer when it changes and
 * nothing is being typed.
 */
export function useRequestShortcuts(
  root: React.RefObject<HTMLElement | null>,
  enabled: boolean,
  firstSeq?: number,
): void {
  useEffect(() => {
    if (!enabled) return;
    const onKey = (e: KeyboardEvent) => {
      if (e.defaultPrevented || e.altKey || e.ctrlKey || e.metaKey || e.repeat) return;
      if (ownsKey(e.target, e.key)) return;
      const card = root.current && firstCard(root.current);
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

  useEffect(() => {
    if (!enabled || firstSeq === undefined || !idleFocus()) return;
    // After the render that shows the card (a few frames: the conversation may place it a frame later).
    let frame = 0;
    let tries = 10;
    const focusCard = () => {
      if (!idleFocus()) return;
      const card = root.current && firstCard(root.current);
      const button =
        card?.getAttribute("data-seq") === String(firstSeq)
          ? card.querySelector<HTMLButtonElement>(
              "button[data-primary='true']:not(:disabled), button[data-shortcut]:not(:disabled)",
            )
          : null;
      if (button) button.focus();
      else if (--tries > 0) frame = requestAnimationFrame(focusCard);
    };
    frame = requestAnimationFrame(focusCard);
    return () => cancelAnimationFrame(frame);
  }, [root, enabled, firstSeq]);
}
