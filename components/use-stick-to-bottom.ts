"use client";
/**
 * Keeps a scroll container pinned to its bottom while content grows, but only
 * while the user is already there (scrolling up to read stops the pinning).
 */
import { useCallback, useLayoutEffect, useRef } from "react";

const SLACK_PX = 24;

export function useStickToBottom<T extends HTMLElement>(dependency: unknown) {
  const ref = useRef<T>(null);
  const atBottom = useRef(true);

  const onScroll = useCallback(() => {
    const el = ref.current;
    if (el) atBottom.current = el.scrollHeight - el.scrollTop - el.clientHeight < SLACK_PX;
  }, []);

  useLayoutEffect(() => {
    const el = ref.current;
    if (el && atBottom.current) el.scrollTop = el.scrollHeight;
  }, [dependency]);

  return { ref, onScroll };
}
