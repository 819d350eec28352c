/**
 * Two runs of one prompt side by side (two agents, or one agent with two sets
 * of options): per turn the answers, the tool calls aligned by name and
 * arguments, the files each side changed, timing and token usage. Used live in
 * the browser, for a saved comparison's replay and for the CLI's report.
 *
 * A side speaks ACP or Codex's app-server protocol (docs/app-server.md): an ACP
 * turn is a session/prompt, an app-server turn a turn/start; each side's frames
 * are read by its own protocol's spec (`compareTurns`), so a Codex side compares
 * with a Gemini side.
 */
import type { Frame } from "../../protocol/frame";
import { DEFAULT_PROTOCOL, type ProtocolName } from "../../protocol/protocols";
import { buildWaterfall, summarizeTurn } from "../../folds/waterfall";
import { isObj, type FileChange, type SideTurn, type TimingOf, type ToolSummary } from "./turns";
import type { TurnUsage } from "../../folds/turn-usage";
import { specOf } from "../protocols/registry";

export interface CompareRun {
  /** What the side is called in the report (profile, with its options). */
  label: string;
  frames: readonly Frame[];
  /** The protocol the side's agent spoke (its profile's, its recording's); ACP when absent. */
  protocol?: ProtocolName;
}

export type { FileChange, SideTurn, ToolSummary } from "./turns";

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

interface SideRun {
  prompts: string[];
  turns: SideTurn[];
}

/** A side's turns, read by its own protocol's spec (each side may speak another protocol). */
function sideOf({ frames, protocol }: CompareRun): SideRun {
  const waterfall = buildWaterfall(frames, protocol ?? DEFAULT_PROTOCOL).turns;
  const lastTs = frames.length ? frames[frames.length - 1]!.ts : 0;
  const timingOf: TimingOf = (seq) => {
    const w = waterfall.find((t) => t.promptSeq === seq);
    return w ? summarizeTurn(w, lastTs) : undefined;
  };
  const turns = specOf(protocol).compareTurns(frames, timingOf);
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
  const sa = sideOf(a);
  const sb = sideOf(b);
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
    // The same answer is written once.
    if (t.answersEqual) out.push("", "Answers are the same:", "", fence(t.a!.answer));
    else {
      out.push("", "Answers differ.");
      for (const [label, side] of [
        [la, t.a],
        [lb, t.b],
      ] as const)
        out.push("", `**${cell(label)}**`, "", fence(side?.answer ?? "(no turn)"));
    }
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
      for (const f of t.files) {
        const path = f.path.replace(/`/g, "'");
        // The same change on both sides is written once (the same result by other edits is not the same patch).
        if (f.a && f.b && f.a.patch === f.b.patch)
          out.push("", `${cell(la)} and ${cell(lb)}: \`${path}\``, "", fence(f.a.patch.trimEnd()));
        else
          for (const [label, x] of [
            [la, f.a],
            [lb, f.b],
          ] as const)
            if (x) out.push("", `${cell(label)}: \`${path}\``, "", fence(x.patch.trimEnd()));
      }
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
