/**
 * What a comparison reads from one side's turns, whatever its protocol: the records each
 * protocol's `compareTurns` (lib/features/protocols/<name>/compare-turns.ts) makes, and the
 * helpers they share. compare.ts aligns two sides of them.
 */
import { createTwoFilesPatch } from "diff";
import type { CLIENT_METHODS } from "../../protocol/methods";
import type { Frame } from "../../protocol/frame";
import type { TurnUsage } from "../../folds/turn-usage";
import { parsePatch, patchStats } from "../../folds/unified-diff";
import type { TurnSummary } from "../../folds/waterfall";

export interface ToolSummary {
  toolCallId: string;
  /** What the alignment matches on: the tool's name, else its kind, else its title. */
  name: string;
  title?: string;
  status?: string;
  /** rawInput (else locations), with the side's workspace path written as `.`. */
  args: unknown;
  /** The first frame of the call, to select it. */
  seq: number;
}

export interface FileChange {
  /** Relative to the side's workspace when inside it. */
  path: string;
  /**
   * How the change was seen: the agent wrote through the client, a tool call showed a diff, or an
   * app-server fileChange item.
   */
  source: typeof CLIENT_METHODS.fs_write_text_file | "diff" | "fileChange";
  /** Absent when the earlier content is unknown (a plain write, an app-server update). */
  oldText?: string | null;
  /** For an app-server update, its unified diff: the same change to the same file is the same result. */
  newText: string;
  patch: string;
  added: number;
  removed: number;
}

export interface SideTurn {
  answer: string;
  /** ACP's stop reason, or the app-server turn's final status. */
  stopReason?: string | null;
  error?: string;
  tools: ToolSummary[];
  files: FileChange[];
  timing?: TurnSummary;
  usage?: TurnUsage;
}

export type Obj = Record<string, unknown>;
export const isObj = (v: unknown): v is Obj => typeof v === "object" && v !== null && !Array.isArray(v);

export const textOf = (blocks: readonly unknown[]): string =>
  blocks.map((b) => (isObj(b) && b.type === "text" && typeof b.text === "string" ? b.text : "")).join("");

/** Writes `cwd` (and anything under it) as a relative path, so two workspaces compare equal. */
export function relativize(value: unknown, cwd: string | undefined): unknown {
  if (!cwd) return value;
  if (typeof value === "string") {
    if (value === cwd) return ".";
    return value.startsWith(`${cwd}/`) ? value.slice(cwd.length + 1) : value.split(`${cwd}/`).join("");
  }
  if (Array.isArray(value)) return value.map((v) => relativize(v, cwd));
  if (isObj(value)) return Object.fromEntries(Object.entries(value).map(([k, v]) => [k, relativize(v, cwd)]));
  return value;
}

export function fileChange(
  path: string,
  source: FileChange["source"],
  oldText: string | null | undefined,
  newText: string,
): FileChange {
  const patch = createTwoFilesPatch(path, path, oldText ?? "", newText, "", "", { context: 3 });
  const { added, removed } = patchStats(parsePatch(patch));
  return { path, source, ...(oldText === undefined ? {} : { oldText }), newText, patch, added, removed };
}

/** A side's turn, where it starts (to order a side's turns of either protocol). */
export interface TurnAt {
  seq: number;
  prompt: string;
  turn: SideTurn;
}

export type TimingOf = (promptSeq: number) => TurnSummary | undefined;

/** A protocol's reading of a side's frames: its turns, in order. */
export type CompareTurns = (frames: readonly Frame[], timingOf: TimingOf) => TurnAt[];
