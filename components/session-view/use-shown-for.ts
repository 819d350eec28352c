"use client";
/**
 * Whether an element has stayed near the viewport for `ms` (and then for
 * good). One IntersectionObserver serves every element. Used to upgrade parts
 * of huge messages from plain text to Markdown only once someone can see them:
 * while a flood streams past, they scroll away before the timer fires.
 */
import { startTransition, useEffect, useState, type RefObject } from "react";

const callbacks = new WeakMap<Element, (visible: boolean) => void>();
let observer: IntersectionObserver | undefined;

function shared(): IntersectionObserver {
  observer ??= new IntersectionObserver(
    (entries) => {
      for (const e of entries) callbacks.get(e.target)?.(e.isIntersecting);
    },
    { rootMargin: "200px 0px" },
  );
  return observer;
}

export function useShownFor(ref: RefObject<Element | null>, ms: number, enabled: boolean): boolean {
  const [shown, setShown] = useState(false);
  useEffect(() => {
    const el = ref.current;
    if (!enabled || shown || !el) return;
    let timer: ReturnType<typeof setTimeout> | undefined;
    callbacks.set(el, (visible) => {
      clearTimeout(timer);
      timer = visible ? setTimeout(() => startTransition(() => setShown(true)), ms) : undefined;
    });
    const obs = shared();
    obs.observe(el);
    return () => {
      clearTimeout(timer);
      obs.unobserve(el);
      callbacks.delete(el);
    };
  }, [ref, ms, enabled, shown]);
  return shown;
}
