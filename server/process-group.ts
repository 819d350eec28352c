/**
 * Whole-process-tree control. Gemini CLI re-launches itself as a second node
 * process, so killing only the pid we spawned would orphan the real worker;
 * and a child that calls setsid leaves the group, so every spawn also carries
 * a marker in its environment that its descendants inherit.
 */
import { randomUUID } from "node:crypto";
import { readdirSync, readFileSync } from "node:fs";
import path from "node:path";

/** Set for every agent and terminal the relay spawns, unique per spawn. */
export const SPAWN_MARKER = "ACP_PLAYGROUND_SPAWN";

/** The relay's own variables (its token above all): no child may see them. */
const isRelayVariable = (name: string) => name.startsWith("ACP_PLAYGROUND_");

export interface Spawned {
  env: Record<string, string>;
  /** The value of SPAWN_MARKER in `env`. */
  marker: string;
}

/**
 * The environment of a child: the relay's, less the relay's own variables,
 * plus `extra` (a profile's or the agent's), plus a fresh marker that `extra`
 * cannot override. Pass it with execa's `extendEnv: false`.
 */
/** A PATH with its relative entries left out. */
export function absolutePath(value: string): string {
  return value
    .split(path.delimiter)
    .filter((dir) => path.isAbsolute(dir))
    .join(path.delimiter);
}

export function childEnv(extra: Record<string, string> = {}): Spawned {
  const env: Record<string, string> = {};
  for (const [name, value] of Object.entries(process.env)) {
    if (value !== undefined && !isRelayVariable(name)) env[name] = value;
  }
  for (const [name, value] of Object.entries(extra)) {
    if (!isRelayVariable(name)) env[name] = value;
  }
  // A relative PATH entry (`.`, empty, `bin`) finds commands in the spawn's folder, the workspace: a planted file.
  if (env.PATH !== undefined) env.PATH = absolutePath(env.PATH);
  const marker = randomUUID();
  env[SPAWN_MARKER] = marker;
  return { env, marker };
}

/** Live pids whose environment carries this spawn's marker (Linux; elsewhere none are found). */
export function markedProcesses(marker: string): number[] {
  if (process.platform !== "linux") return [];
  const needle = `${SPAWN_MARKER}=${marker}`;
  const found: number[] = [];
  for (const entry of readdirSync("/proc")) {
    if (!/^\d+$/.test(entry)) continue;
    let environ: string;
    try {
      environ = readFileSync(`/proc/${entry}/environ`, "latin1");
    } catch {
      continue; // exited, or not ours to read
    }
    if (environ.split("\0").includes(needle) && !isZombie(Number(entry))) found.push(Number(entry));
  }
  return found;
}

function isZombie(pid: number): boolean {
  try {
    const stat = readFileSync(`/proc/${pid}/stat`, "utf8");
    return stat.slice(stat.lastIndexOf(")") + 2)[0] === "Z";
  } catch {
    return true;
  }
}

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

/** Whether a process exists (EPERM: it does, owned by someone else). */
export function isAlive(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch (err) {
    return (err as NodeJS.ErrnoException).code === "EPERM";
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

/** A spawn's whole tree: its process group and whatever carries its marker. */
export interface Tree {
  pgid: number;
  marker?: string;
}

const treeMembers = ({ pgid, marker }: Tree): number[] => [
  ...new Set([...groupMembers(pgid), ...(marker ? markedProcesses(marker) : [])]),
];

function signalTree(tree: Tree, signal: NodeJS.Signals): void {
  signalGroup(tree.pgid, signal);
  if (!tree.marker) return;
  for (const pid of markedProcesses(tree.marker)) {
    try {
      process.kill(pid, signal);
    } catch {
      // exited meanwhile
    }
  }
}

async function waitTreeGone(tree: Tree, timeoutMs: number): Promise<boolean> {
  const deadline = Date.now() + timeoutMs;
  for (let delay = 10; ; delay = Math.min(delay * 2, 100)) {
    if (treeMembers(tree).length === 0) return true;
    if (Date.now() >= deadline) return false;
    await sleep(delay);
  }
}

/**
 * SIGTERM, then SIGKILL after `graceMs`, to the whole group and every marked
 * process, whether or not the leader is still there; resolves once none is left.
 */
export async function stopTree(tree: Tree, graceMs: number): Promise<void> {
  if (treeMembers(tree).length === 0) return;
  signalTree(tree, "SIGTERM");
  if (await waitTreeGone(tree, graceMs)) return;
  signalTree(tree, "SIGKILL");
  if (!(await waitTreeGone(tree, 5_000))) {
    throw new Error(`process group ${tree.pgid} survived SIGKILL: ${treeMembers(tree).join(", ")}`);
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
