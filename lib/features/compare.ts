/**
 * Two runs of one prompt side by side (two agents, or one agent with two sets
 * of options): per turn the answers, the tool calls aligned by name and
 * arguments, the files each side changed, timing and token usage. Used live in
 * the browser, for a saved comparison's replay and for the CLI's report.
 *
 * A side speaks ACP or Codex's app-server protocol (docs/app-server.md): an ACP
 * turn is a session/prompt, an app-server turn a turn/start; each side's frames
 * are read for both, so a Codex side compares with a Gemini side.
 */
import { createTwoFilesPatch } from "diff";
import type { Frame } from "../protocol/frame";
import { CLIENT_METHODS } from "../protocol/methods";
import { reduceFrames, type ToolCallItem, type Turn } from "../folds/session-view";
import type { TurnUsage } from "../folds/turn-usage";
import { parsePatch, patchStats } from "../folds/unified-diff";
import {
  APP_SERVER_ITEM_KIND,
  appServerItemTitle,
  buildWaterfall,
  summarizeTurn,
  type TurnSummary,
} from "../folds/waterfall";
import {
  reduceAppServerFrames,
  type AsItem,
  type FileChangeItem,
  type MessageItem,
} from "../folds/codex-app-server/view";
import { str } from "../protocol/json";

export interface CompareRun {
  /** What the side is called in the report (profile, with its options). */
  label: string;
  frames: readonly Frame[];
}

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

export interface ToolPair {
  a?: ToolSummary;
  b?: ToolSummary;
  /** 1 for the same name and arguments, 0.5 for the same name with nothing in common, 0 when one side lacks it. */
  similarity: number;
}

export interface FilePair {
  path: string;
  a?: FileChange;
  b?: FileChange;
  /** Both sides left the file with the same content. */
  same: boolean;
}

export interface TurnComparison {
  index: number;
  prompt: string;
  a?: SideTurn;
  b?: SideTurn;
  answersEqual: boolean;
  tools: ToolPair[];
  files: FilePair[];
}

export interface Comparison {
  labels: [string, string];
  turns: TurnComparison[];
  /** Counted per turn: answers that differ, unmatched or unequal tool calls, files that differ. */
  differences: number;
}

type Obj = Record<string, unknown>;
const isObj = (v: unknown): v is Obj => typeof v === "object" && v !== null && !Array.isArray(v);

const textOf = (blocks: readonly unknown[]): string =>
  blocks.map((b) => (isObj(b) && b.type === "text" && typeof b.text === "string" ? b.text : "")).join("");

/** Writes `cwd` (and anything under it) as a relative path, so two workspaces compare equal. */
function relativize(value: unknown, cwd: string | undefined): unknown {
  if (!cwd) return value;
  if (typeof value === "string") {
    if (value === cwd) return ".";
    return value.startsWith(`${cwd}/`) ? value.slice(cwd.length + 1) : value.split(`${cwd}/`).join("");
  }
  if (Array.isArray(value)) return value.map((v) => relativize(v, cwd));
  if (isObj(value)) return Object.fromEntries(Object.entries(value).map(([k, v]) => [k, relativize(v, cwd)]));
  return value;
}

function toolSummary(item: ToolCallItem, cwd: string | undefined): ToolSummary {
  return {
    toolCallId: item.toolCallId,
    name: item.name ?? item.kind ?? item.title ?? "tool",
    title: item.title,
    status: item.status,
    args: relativize(item.rawInput ?? item.locations ?? null, cwd),
    seq: item.seqs.first ?? 0,
  };
}

/** `key=value` leaves of a JSON value, for a similarity that does not care about key order. */
function leaves(value: unknown, prefix = "", out = new Set<string>()): Set<string> {
  if (Array.isArray(value)) value.forEach((v, i) => leaves(v, `${prefix}[${i}]`, out));
  else if (isObj(value)) for (const [k, v] of Object.entries(value)) leaves(v, prefix ? `${prefix}.${k}` : k, out);
  else out.add(`${prefix}=${JSON.stringify(value)}`);
  return out;
}

export function toolSimilarity(a: Pick<ToolSummary, "name" | "args">, b: Pick<ToolSummary, "name" | "args">): number {
  if (a.name !== b.name) return 0;
  const la = leaves(a.args);
  const lb = leaves(b.args);
  let common = 0;
  for (const l of la) if (lb.has(l)) common++;
  const union = la.size + lb.size - common;
  return 0.5 + 0.5 * (union === 0 ? 1 : common / union);
}

/**
 * Aligns two ordered lists of tool calls: the order-keeping pairing with the
 * greatest total similarity (calls with different names never pair).
 */
export function alignTools(a: readonly ToolSummary[], b: readonly ToolSummary[]): ToolPair[] {
  const n = a.length;
  const m = b.length;
  const score: number[][] = Array.from({ length: n + 1 }, () => new Array<number>(m + 1).fill(0));
  for (let i = n - 1; i >= 0; i--)
    for (let j = m - 1; j >= 0; j--) {
      const s = toolSimilarity(a[i]!, b[j]!);
      score[i]![j] = Math.max(score[i + 1]![j]!, score[i]![j + 1]!, s > 0 ? s + score[i + 1]![j + 1]! : 0);
    }
  const pairs: ToolPair[] = [];
  let i = 0;
  let j = 0;
  while (i < n || j < m) {
    if (i < n && j < m) {
      const s = toolSimilarity(a[i]!, b[j]!);
      if (s > 0 && score[i]![j] === s + score[i + 1]![j + 1]!) {
        pairs.push({ a: a[i++], b: b[j++], similarity: s });
        continue;
      }
      if (score[i]![j] === score[i + 1]![j]) pairs.push({ a: a[i++], similarity: 0 });
      else pairs.push({ b: b[j++], similarity: 0 });
    } else if (i < n) pairs.push({ a: a[i++], similarity: 0 });
    else pairs.push({ b: b[j++], similarity: 0 });
  }
  return pairs;
}

function fileChange(
  path: string,
  source: FileChange["source"],
  oldText: string | null | undefined,
  newText: string,
): FileChange {
  const patch = createTwoFilesPatch(path, path, oldText ?? "", newText, "", "", { context: 3 });
  const { added, removed } = patchStats(parsePatch(patch));
  return { path, source, ...(oldText === undefined ? {} : { oldText }), newText, patch, added, removed };
}

/** Files changed during a turn: fs/write_text_file requests and diffs in tool call content, last content wins. */
function filesOf(frames: readonly Frame[], turn: Turn, tools: readonly ToolCallItem[], cwd: string | undefined) {
  const seen = new Map<string, { source: FileChange["source"]; oldText?: string | null; newText: string }>();
  const note = (raw: string, source: FileChange["source"], oldText: string | null | undefined, newText: string) => {
    const path = relativize(raw, cwd) as string;
    const before = seen.get(path);
    // The first known "before" stays: the change is from the turn's start.
    seen.set(path, { source, oldText: before ? before.oldText : oldText, newText });
  };
  const end = turn.endSeq ?? Infinity;
  for (const tool of tools)
    for (const c of tool.content ?? []) {
      const d = c as unknown as Obj;
      if (d.type === "diff" && typeof d.path === "string" && typeof d.newText === "string")
        note(d.path, "diff", typeof d.oldText === "string" ? d.oldText : null, d.newText);
    }
  for (const f of frames) {
    if (f.seq < turn.seq || f.seq > end) continue;
    if (f.dir !== "from-agent" || f.kind !== "request" || f.method !== CLIENT_METHODS.fs_write_text_file) continue;
    const params = isObj(f.message) && isObj(f.message.params) ? f.message.params : {};
    const path = str(params.path);
    const content = str(params.content);
    if (path !== undefined && content !== undefined) note(path, CLIENT_METHODS.fs_write_text_file, undefined, content);
  }
  return [...seen].map(([path, c]) => fileChange(path, c.source, c.oldText, c.newText));
}

interface SideRun {
  prompts: string[];
  turns: SideTurn[];
}

/** A side's turn, where it starts (to order a side's turns of either protocol). */
interface TurnAt {
  seq: number;
  prompt: string;
  turn: SideTurn;
}

type TimingOf = (promptSeq: number) => TurnSummary | undefined;

function acpTurns(frames: readonly Frame[], timingOf: TimingOf): TurnAt[] {
  const view = reduceFrames(frames);
  const out: TurnAt[] = [];
  for (const session of Object.values(view.sessions))
    for (const turn of session.turns) {
      const cwd = session.origin?.cwd;
      const items = turn.items;
      const tools = items.filter((i): i is ToolCallItem => i.type === "tool_call");
      const answer = items
        .filter((i) => i.type === "agent_message")
        .map((i) => textOf((i as { blocks: unknown[] }).blocks))
        .join("");
      const timing = timingOf(turn.seq);
      out.push({
        seq: turn.seq,
        prompt: textOf(turn.prompt),
        turn: {
          answer,
          ...(turn.stopReason === undefined ? {} : { stopReason: turn.stopReason }),
          ...(turn.error ? { error: turn.error.message } : {}),
          tools: tools.map((t) => toolSummary(t, cwd)),
          files: filesOf(frames, turn, tools, cwd),
          timing,
          usage: timing?.usage,
        },
      });
    }
  return out;
}

/** An app-server tool item as a tool call: matched on its type (an MCP or dynamic tool: its name) and arguments. */
function appServerTool(item: AsItem, cwd: string | undefined): ToolSummary | undefined {
  const common = { toolCallId: item.id, ...(item.status ? { status: item.status } : {}), seq: item.seqs.first ?? 0 };
  const call = (name: string, title: string | undefined, args: unknown): ToolSummary => ({
    ...common,
    name,
    ...(title === undefined ? {} : { title: relativize(title, cwd) as string }),
    args: relativize(args, cwd),
  });
  if (item.type === "commandExecution") return call(item.type, item.command, { command: item.command });
  if (item.type === "fileChange")
    return call(
      item.type,
      item.changes.map((c) => c.path).join(", "),
      item.changes.map((c) => ({ path: c.path, kind: c.kind })),
    );
  if (item.type !== "other" || APP_SERVER_ITEM_KIND[item.itemType] !== "tool") return undefined;
  const { query, tool, arguments: args } = item.item;
  if (item.itemType === "webSearch") return call(item.itemType, str(query), { query });
  return call(str(tool) ?? item.itemType, appServerItemTitle(item.item), args ?? null);
}

/** A file change item's files: `diff` is an added file's content, a deleted one's, or an update's unified diff. */
function appServerFiles(item: FileChangeItem, cwd: string | undefined): FileChange[] {
  return item.changes.map((c) => {
    const path = relativize(c.path, cwd) as string;
    if (c.kind === "add") return fileChange(path, "fileChange", null, c.diff);
    if (c.kind === "delete") return fileChange(path, "fileChange", c.diff, "");
    const { added, removed } = patchStats(parsePatch(c.diff));
    return { path, source: "fileChange" as const, newText: c.diff, patch: c.diff, added, removed };
  });
}

/**
 * App-server turns, from the decoded view (lib/folds/codex-app-server/view.ts): the prompt is the user's
 * message, the answer the agent messages (one paragraph each), the stop reason the turn's final
 * status; tool items (command executions, file changes, MCP and other tools) are its tool calls.
 */
function appServerTurns(frames: readonly Frame[], timingOf: TimingOf): TurnAt[] {
  const view = reduceAppServerFrames(frames);
  const out: TurnAt[] = [];
  for (const threadId of view.order) {
    const { cwd, turns } = view.threads[threadId]!;
    for (const t of turns) {
      const texts = (type: MessageItem["type"]) =>
        t.items.flatMap((i) => (i.type === type && i.text !== "" ? [i.text] : []));
      const timing = timingOf(t.seq);
      out.push({
        seq: t.seq,
        prompt: texts("userMessage").join("\n"),
        turn: {
          answer: texts("agentMessage").join("\n\n"),
          ...(t.status === "inProgress" ? {} : { stopReason: t.status }),
          ...(t.error ? { error: str(t.error.message) ?? "error" } : {}),
          tools: t.items.flatMap((i) => appServerTool(i, cwd) ?? []),
          files: t.items.flatMap((i) => (i.type === "fileChange" && i.completed ? appServerFiles(i, cwd) : [])),
          timing,
          usage: timing?.usage,
        },
      });
    }
  }
  return out;
}

function sideOf(frames: readonly Frame[]): SideRun {
  const waterfall = buildWaterfall(frames).turns;
  const lastTs = frames.length ? frames[frames.length - 1]!.ts : 0;
  const timingOf: TimingOf = (seq) => {
    const w = waterfall.find((t) => t.promptSeq === seq);
    return w ? summarizeTurn(w, lastTs) : undefined;
  };
  const turns = [...acpTurns(frames, timingOf), ...appServerTurns(frames, timingOf)].sort((x, y) => x.seq - y.seq);
  return { prompts: turns.map((t) => t.prompt), turns: turns.map((t) => t.turn) };
}

function pairFiles(a: readonly FileChange[] = [], b: readonly FileChange[] = []): FilePair[] {
  const paths = [...new Set([...a.map((f) => f.path), ...b.map((f) => f.path)])].sort();
  return paths.map((path) => {
    const fa = a.find((f) => f.path === path);
    const fb = b.find((f) => f.path === path);
    return { path, a: fa, b: fb, same: !!fa && !!fb && fa.newText === fb.newText };
  });
}

/** Compares two runs turn by turn (the nth prompt of one with the nth of the other). */
export function compareRuns(a: CompareRun, b: CompareRun): Comparison {
  const sa = sideOf(a.frames);
  const sb = sideOf(b.frames);
  const turns: TurnComparison[] = [];
  let differences = 0;
  for (let index = 0; index < Math.max(sa.turns.length, sb.turns.length); index++) {
    const ta = sa.turns[index];
    const tb = sb.turns[index];
    const tools = alignTools(ta?.tools ?? [], tb?.tools ?? []);
    const files = pairFiles(ta?.files, tb?.files);
    const answersEqual = !!ta && !!tb && ta.answer.trim() === tb.answer.trim();
    differences +=
      (answersEqual ? 0 : 1) + tools.filter((p) => p.similarity < 1).length + files.filter((f) => !f.same).length;
    turns.push({
      index,
      prompt: sa.prompts[index] ?? sb.prompts[index] ?? "",
      a: ta,
      b: tb,
      answersEqual,
      tools,
      files,
    });
  }
  return { labels: [a.label, b.label], turns, differences };
}

// ---------------------------------------------------------------------------
// Reports

const ms = (v: number | undefined) => (v === undefined ? "–" : `${Math.round(v)} ms`);
const tokens = (u: TurnUsage | undefined) =>
  u?.totalTokens !== undefined
    ? `${u.totalTokens}${u.inputTokens !== undefined ? ` (${u.inputTokens} in, ${u.outputTokens ?? "?"} out)` : ""}`
    : "–";
/** A Markdown table cell: one line, no pipe breaking out. */
const cell = (s: string) => s.replace(/\\/g, "\\\\").replace(/\|/g, "\\|").replace(/\r?\n/g, "<br>") || " ";
const toolLabel = (t: ToolSummary | undefined) => (t ? `${t.name} ${JSON.stringify(t.args)}`.slice(0, 200) : "—");
/** Fenced so that agent text cannot close the fence. */
const fence = (s: string) => {
  const longest = Math.max(2, ...(s.match(/`+/g) ?? []).map((m) => m.length));
  return `${"`".repeat(longest + 1)}\n${s}\n${"`".repeat(longest + 1)}`;
};

export function comparisonToMarkdown(c: Comparison): string {
  const [la, lb] = c.labels;
  const out = [
    `# Comparison: ${cell(la)} vs ${cell(lb)}`,
    "",
    `${c.differences} difference(s) over ${c.turns.length} turn(s).`,
  ];
  for (const t of c.turns) {
    out.push("", `## Turn ${t.index + 1}: ${cell(t.prompt.slice(0, 120))}`, "");
    out.push(`| | ${cell(la)} | ${cell(lb)} |`, "|---|---|---|");
    const row = (name: string, f: (s: SideTurn) => string) =>
      out.push(`| ${name} | ${cell(t.a ? f(t.a) : "—")} | ${cell(t.b ? f(t.b) : "—")} |`);
    row("stop reason", (s) => s.error ?? String(s.stopReason ?? "–"));
    row("total", (s) => ms(s.timing?.totalMs));
    row("first output", (s) => ms(s.timing?.timeToFirstChunkMs));
    row("agent time", (s) => ms(s.timing?.agentMs));
    row("tokens", (s) => tokens(s.usage));
    row("tool calls", (s) => String(s.tools.length));
    row("files changed", (s) => String(s.files.length));
    out.push("", `Answers ${t.answersEqual ? "are the same" : "differ"}.`);
    for (const [label, side] of [
      [la, t.a],
      [lb, t.b],
    ] as const)
      out.push("", `**${cell(label)}**`, "", fence(side?.answer ?? "(no turn)"));
    if (t.tools.length) {
      out.push("", "### Tool calls", "", `| ${cell(la)} | ${cell(lb)} | match |`, "|---|---|---|");
      for (const p of t.tools)
        out.push(
          `| ${cell(toolLabel(p.a))} | ${cell(toolLabel(p.b))} | ${p.similarity === 1 ? "same" : p.similarity > 0 ? "similar" : "only one side"} |`,
        );
    }
    if (t.files.length) {
      out.push("", "### Files changed", "");
      for (const f of t.files) {
        const counts = (x: FileChange | undefined) => (x ? `+${x.added} −${x.removed}` : "unchanged");
        out.push(
          `- \`${f.path.replace(/`/g, "'")}\`: ${cell(la)} ${counts(f.a)}, ${cell(lb)} ${counts(f.b)}${f.same ? " (same result)" : ""}`,
        );
      }
      for (const f of t.files)
        for (const [label, x] of [
          [la, f.a],
          [lb, f.b],
        ] as const)
          if (x) out.push("", `${cell(label)}: \`${f.path.replace(/`/g, "'")}\``, "", fence(x.patch.trimEnd()));
    }
  }
  return `${out.join("\n")}\n`;
}

export const COMPARISON_REPORT_FORMAT = "acp-playground-comparison-report";

/** The JSON report: the comparison as computed, with the patches (the files' full texts left out). */
export function comparisonToJson(c: Comparison, extra: Record<string, unknown> = {}): string {
  const slim = (f: FileChange | undefined) =>
    f && { path: f.path, source: f.source, patch: f.patch, added: f.added, removed: f.removed };
  return `${JSON.stringify(
    {
      format: COMPARISON_REPORT_FORMAT,
      version: "1.0",
      ...extra,
      labels: c.labels,
      differences: c.differences,
      turns: c.turns.map((t) => ({
        ...t,
        files: t.files.map((f) => ({ ...f, a: slim(f.a), b: slim(f.b) })),
        a: t.a && { ...t.a, files: undefined },
        b: t.b && { ...t.b, files: undefined },
      })),
    },
    null,
    2,
  )}\n`;
}
