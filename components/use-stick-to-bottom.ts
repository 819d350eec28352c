"use client";
/**
 * Keeps a scroll container pinned to its bottom while content grows, but only
 * while the user is already there (scrolling up to read stops the pinning).
 */
import { useCallback, useLayoutEffect, useRef, type RefObject } from "react";

const SLACK_PX = 24;

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

  const onScroll = useCallback(() => {
    const el = ref.current;
    if (el) atBottom.current = el.scrollHeight - el.scrollTop - el.clientHeight < slackPx;
  }, [ref, slackPx]);

  useLayoutEffect(() => {
    const el = ref.current;
    if (el && atBottom.current) el.scrollTop = el.scrollHeight;
    // eslint-disable-next-line react-hooks/exhaustive-deps -- the caller says what growth is
  }, dependencies);

  return { ref, onScroll, atBottom };
}
