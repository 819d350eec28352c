/**
 * Whole-process-group control. Gemini CLI re-launches itself as a second node
 * process, so killing only the pid we spawned would orphan the real worker.
 */
import { readdirSync, readFileSync } from "node:fs";

/** Live (non-zombie) pids in a process group; Linux reads /proc, elsewhere kill(-pgid, 0). */
export function groupMembers(pgid: number): number[] {
  if (process.platform === "linux") {
    const members: number[] = [];
    for (const entry of readdirSync("/proc")) {
      if (!/^\d+$/.test(entry)) continue;
      let stat: string;
      try {
        stat = readFileSync(`/proc/${entry}/stat`, "utf8");
      } catch {
        continue; // exited while we looked
      }
      // Fields after the parenthesised command name: state ppid pgrp ...
      const fields = stat.slice(stat.lastIndexOf(")") + 2).split(" ");
      if (Number(fields[2]) === pgid && fields[0] !== "Z") members.push(Number(entry));
    }
    return members;
  }
  try {
    process.kill(-pgid, 0);
    return [pgid];
  } catch (err) {
    return (err as NodeJS.ErrnoException).code === "EPERM" ? [pgid] : [];
  }
}

export function signalGroup(pgid: number, signal: NodeJS.Signals): void {
  try {
    process.kill(-pgid, signal);
  } catch {
    // ESRCH: the group is already gone.
  }
}

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

export async function waitGroupGone(pgid: number, timeoutMs: number): Promise<boolean> {
  const deadline = Date.now() + timeoutMs;
  for (let delay = 10; ; delay = Math.min(delay * 2, 100)) {
    if (groupMembers(pgid).length === 0) return true;
    if (Date.now() >= deadline) return false;
    await sleep(delay);
  }
}

/** SIGTERM, then SIGKILL after `graceMs`; resolves once no member is left. */
export async function stopGroup(pgid: number, graceMs: number): Promise<void> {
  signalGroup(pgid, "SIGTERM");
  if (await waitGroupGone(pgid, graceMs)) return;
  signalGroup(pgid, "SIGKILL");
  if (!(await waitGroupGone(pgid, 5_000))) {
    throw new Error(`process group ${pgid} survived SIGKILL: ${groupMembers(pgid).join(", ")}`);
  }
}

/** Resident memory of a process group's live members, in bytes (Linux /proc; undefined elsewhere). */
export function groupRssBytes(pgid: number): number | undefined {
  if (process.platform !== "linux") return undefined;
  let total = 0;
  for (const pid of groupMembers(pgid)) {
    try {
      const kb = /^VmRSS:\s+(\d+) kB/m.exec(readFileSync(`/proc/${pid}/status`, "utf8"))?.[1];
      total += Number(kb ?? 0) * 1024;
    } catch {
      // exited while we looked
    }
  }
  return total;
}
