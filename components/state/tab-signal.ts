"use client";
/**
 * Per-tab values one component publishes while it is mounted and others read, live: the view the
 * ViewPane shows, the session whose running turn the prompt box owns. (useTabState keeps a value per
 * component; these are read by siblings, so a change must reach them.)
 */
import { useEffect, useSyncExternalStore } from "react";
import type { Tab } from "./tabs-store";
import { useTab } from "./use-session";

interface Slot {
  value: unknown;
  listeners: Set<() => void>;
}

const slots = new WeakMap<Tab, Map<string, Slot>>();

function slotOf(tab: Tab, key: string): Slot {
  let byKey = slots.get(tab);
  if (!byKey) slots.set(tab, (byKey = new Map<string, Slot>()));
  let slot = byKey.get(key);
  if (!slot) byKey.set(key, (slot = { value: undefined, listeners: new Set() }));
  return slot;
}

function publish(slot: Slot, value: unknown): void {
  if (slot.value === value) return;
  slot.value = value;
  for (const l of slot.listeners) l();
}

/** Publishes `value` under `key` for this tab while the caller is mounted (undefined once it is not). */
export function usePublishTabSignal(key: string, value: string | undefined): void {
  const tab = useTab();
  useEffect(() => {
    const slot = slotOf(tab, key);
    publish(slot, value);
    return () => publish(slot, undefined);
  }, [tab, key, value]);
}

/** The value published under `key` in this tab, undefined when nothing publishes it. */
export function useTabSignal(key: string): string | undefined {
  const slot = slotOf(useTab(), key);
  return useSyncExternalStore(
    (cb) => {
      slot.listeners.add(cb);
      return () => slot.listeners.delete(cb);
    },
    () => slot.value as string | undefined,
    () => undefined,
  );
}

/** The view a ViewPane shows in this tab ("session", "frames", "waterfall", "insights"). */
export const SHOWN_VIEW = "view.shown";
/** The session whose turn runs in the prompt box (whose Cancel it offers). */
export const PROMPT_RUNNING_SESSION = "prompt.running-session";
