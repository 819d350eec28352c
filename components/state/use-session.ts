"use client";
/** React bindings: the tabs, the tab a subtree belongs to, and its session store. */
import {
  createContext,
  startTransition,
  useCallback,
  useContext,
  useEffect,
  useMemo,
  useRef,
  useState,
  useSyncExternalStore,
} from "react";
import type { LogFolds } from "@/lib/folds/agent-facts";
import { specOf, specState, type ProtocolSpec, type SpecState } from "@/lib/features/protocols/registry";
import { selectProtocol, SessionStore } from "./session-store";
import type { SessionSnapshot } from "./snapshot";
import { getTabsStore, TabsStore, type Tab, type TabsSnapshot } from "./tabs-store";

export const TabContext = createContext<Tab | null>(null);

export function useTabs(): TabsSnapshot {
  const tabs = getTabsStore();
  return useSyncExternalStore(tabs.subscribe, tabs.getSnapshot, () => TabsStore.serverSnapshot);
}

export function useTab(): Tab {
  const tab = useContext(TabContext);
  if (!tab) throw new Error("useTab outside a TabContext provider");
  return tab;
}

/** The session store of the surrounding tab. */
export function useSessionStore(): SessionStore {
  return useTab().store;
}

/**
 * Subscribes to one slice of a session snapshot (the surrounding tab's, or the
 * given store's). The selector must return a value already in the snapshot
 * (not a new object), or React would re-render forever.
 */
export function useSession<T>(select: (s: SessionSnapshot) => T, store?: SessionStore): T {
  const tab = useContext(TabContext);
  const s = store ?? tab?.store;
  if (!s) throw new Error("useSession outside a TabContext provider");
  return useSyncExternalStore(
    s.subscribe,
    () => select(s.getSnapshot()),
    () => select(SessionStore.serverSnapshot),
  );
}

/**
 * The agent's protocol's spec, and the facts with the conversation's state as that spec reads
 * them (its prompt client, its compose rules): the same object until either changes.
 */
export function useProtocolState(store?: SessionStore): {
  spec: ProtocolSpec<SpecState>;
  state: LogFolds<SpecState>;
} {
  const protocol = useSession(selectProtocol, store);
  const facts = useSession((s) => s.facts, store);
  const conversation = useSession((s) => s.conversation, store);
  return useMemo(
    () => ({ spec: specOf(protocol), state: { facts, conversation: specState(protocol, conversation) } }),
    [protocol, facts, conversation],
  );
}

/**
 * Like useSession, but catches up at most once per animation frame, as a
 * transition (a big render yields to input): for views that need not follow
 * each of a flood's batches, which can arrive every few milliseconds. Every
 * batch re-rendering the view twice (urgent, then deferred) made the Frames
 * view's tasks long. `select` must be stable (a module-level function).
 * `minIntervalMs`: in a burst, catch up no more often than this (the first
 * change after a quiet spell still shows at the next animation frame).
 */
export function useSessionPerFrame<T>(select: (s: SessionSnapshot) => T, minIntervalMs = 0): T {
  const store = useSessionStore();
  const [value, setValue] = useState(() => select(store.getSnapshot()));
  const first = useRef(value);
  useEffect(() => {
    let raf = 0;
    let timer: ReturnType<typeof setTimeout> | undefined;
    let last = -Infinity;
    let held = first.current;
    const flush = () => {
      raf = 0;
      const next = select(store.getSnapshot());
      if (Object.is(next, held)) return;
      // The first change is the first screen (a transcript's first frames): not deferred.
      const urgent = held === first.current;
      held = next;
      last = performance.now();
      if (urgent) setValue(() => next);
      else startTransition(() => setValue(() => next));
    };
    const schedule = () => {
      timer = undefined;
      if (raf === 0) raf = requestAnimationFrame(flush);
    };
    const unsubscribe = store.subscribe(() => {
      if (held === first.current) return flush(); // the first screen: without waiting for a frame
      if (raf !== 0 || timer !== undefined) return;
      const wait = last + minIntervalMs - performance.now();
      if (wait > 0) timer = setTimeout(schedule, wait);
      else schedule();
    });
    flush(); // changes between the first render and this effect
    return () => {
      unsubscribe();
      if (raf !== 0) cancelAnimationFrame(raf);
      clearTimeout(timer);
    };
  }, [store, select, minIntervalMs]);
  return value;
}

/**
 * A value the tab's store folds anew from the previous one (a view over its frames), caught up
 * at most once per animation frame, as a transition so a big render yields to input.
 * `next` must be stable (a module-level function) and return `prev` when nothing changed.
 */
export function useStoreFold<T>(next: (store: SessionStore, prev: T | undefined) => T): T {
  const store = useSessionStore();
  const [value, setValue] = useState(() => next(store, undefined));
  useEffect(() => {
    let raf = 0;
    const flush = () => {
      raf = 0;
      startTransition(() => setValue((prev) => next(store, prev)));
    };
    const unsubscribe = store.subscribe(() => {
      if (raf === 0) raf = requestAnimationFrame(flush);
    });
    flush(); // frames that arrived between the first render and this effect
    return () => {
      unsubscribe();
      if (raf !== 0) cancelAnimationFrame(raf);
    };
  }, [store, next]);
  return value;
}

type SetState<T> = (value: T | ((prev: T) => T)) => void;

/**
 * useState whose value is kept with the tab, so it survives switching to
 * another tab and back (the tab's views are unmounted meanwhile).
 */
export function useTabState<T>(key: string, initial: T | (() => T)): [T, SetState<T>] {
  const tab = useTab();
  const [value, setValue] = useState<T>(() =>
    tab.ui.has(key) ? (tab.ui.get(key) as T) : typeof initial === "function" ? (initial as () => T)() : initial,
  );
  const latest = useRef(value);
  latest.current = value;
  // Written to the tab at once, not in a state updater: a component that sets a value and unmounts
  // in the same event (the session view choosing a frame, then switching to the Frames view) may
  // never run its updater, and the view that mounts next must read the value from the tab.
  const set = useCallback<SetState<T>>(
    (next) => {
      const prev = tab.ui.has(key) ? (tab.ui.get(key) as T) : latest.current;
      const v = typeof next === "function" ? (next as (p: T) => T)(prev) : next;
      tab.ui.set(key, v);
      setValue(v);
    },
    [tab, key],
  );
  return [value, set];
}
