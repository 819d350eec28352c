"use client";
/**
 * Keeps a scroll container pinned to its bottom while content grows, but only
 * while the user is already there (scrolling up to read stops the pinning,
 * scrolling back to the bottom resumes it).
 */
import { useCallback, useLayoutEffect, useRef, type RefObject } from "react";

const SLACK_PX = 24;

type ScrollBox = Pick<HTMLElement, "scrollHeight" | "scrollTop" | "clientHeight">;

/**
 * Whether the pinning holds after a scroll event. Only the user scrolling up leaves the bottom: a
 * scroll event that lands after the content grew again (a virtualised row measured taller than
 * estimated) is no reason to stop following.
 */
export function followsAfterScroll(following: boolean, el: ScrollBox, lastTop: number, slackPx: number): boolean {
  if (el.scrollHeight - el.scrollTop - el.clientHeight < slackPx) return true;
  return el.scrollTop < lastTop ? false : following;
}

/**
 * `dependencies` say when the content grew. `atBottom` is returned so a view can
 * stop the pinning itself (the user jumped to an item) or resume it.
 */
export function useStickToBottom<T extends HTMLElement>(
  dependencies: unknown[],
  slackPx = SLACK_PX,
  given?: RefObject<T | null>,
) {
  const own = useRef<T>(null);
  const ref = given ?? own;
  const atBottom = useRef(true);
  const lastTop = useRef(0);

  const onScroll = useCallback(() => {
    const el = ref.current;
    if (!el) return;
    atBottom.current = followsAfterScroll(atBottom.current, el, lastTop.current, slackPx);
    lastTop.current = el.scrollTop;
  }, [ref, slackPx]);

  useLayoutEffect(() => {
    const el = ref.current;
    if (el && atBottom.current) el.scrollTop = el.scrollHeight;
    // eslint-disable-next-line react-hooks/exhaustive-deps -- the caller says what growth is
  }, dependencies);

  return { ref, onScroll, atBottom };
}
