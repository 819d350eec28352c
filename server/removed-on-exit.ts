/**
 * Temporary folders a command removes however it ends: when it is done with them, at exit, and on
 * Ctrl-C (SIGINT) or SIGTERM, after which the process ends by that signal as it would have (a
 * shell shows 130 or 143). Signals are listened to only while a folder is held: before and after,
 * they do what they always do.
 */
import { rmSync } from "node:fs";

const held = new Set<string>();
const SIGNALS = ["SIGINT", "SIGTERM"] as const;

function removeAll(): void {
  for (const dir of held) rmSync(dir, { recursive: true, force: true });
  held.clear();
}

function onSignal(signal: NodeJS.Signals): void {
  removeAll();
  unlisten();
  // Another listener (a server's shutdown) ends the process its way; alone, it ends by the signal.
  if (process.listenerCount(signal) === 0) process.kill(process.pid, signal);
}

function listen(): void {
  for (const s of SIGNALS) process.on(s, onSignal);
  process.on("exit", removeAll);
}

function unlisten(): void {
  for (const s of SIGNALS) process.off(s, onSignal);
  process.off("exit", removeAll);
}

/** Holds `dir` until the returned function removes it; the process's end removes it first. */
export function removedOnExit(dir: string): () => void {
  if (held.size === 0) listen();
  held.add(dir);
  return () => {
    rmSync(dir, { recursive: true, force: true });
    if (held.delete(dir) && held.size === 0) unlisten();
  };
}
