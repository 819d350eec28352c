/**
 * Display helpers for the decoded session view: safe image sources, line diffs,
 * one-line summaries of session events, durations and token usage. Pure, so
 * the React components stay thin and these are unit-tested.
 */
import { diffLines } from "diff";
import type { SessionEventUpdate, TurnUsageView } from "./session-view";

const IMAGE_MIME = /^image\/[a-z0-9.+-]+$/i;
const BASE64 = /^[A-Za-z0-9+/]*={0,2}$/;

/**
 * A `data:` URL for an image content block, only for an image/* mime type and
 * base64 data; anything else gets no image at all (never a remote URL).
 */
export function imageDataUrl(block: { mimeType?: unknown; data?: unknown }): string | undefined {
  const { mimeType, data } = block;
  if (typeof mimeType !== "string" || typeof data !== "string" || !IMAGE_MIME.test(mimeType)) return undefined;
  const clean = data.replace(/\s+/g, "");
  if (clean === "" || clean.length % 4 === 1 || !BASE64.test(clean)) return undefined;
  return `data:${mimeType.toLowerCase()};base64,${clean}`;
}

export type DiffRow =
  { type: "add" | "del" | "same"; text: string; oldNo?: number; newNo?: number } | { type: "skip"; count: number };

/** Lines of unchanged context kept around each change; longer runs fold into a "skip" row. */
export const DIFF_CONTEXT = 3;

function lines(value: string): string[] {
  const out = value.split("\n");
  if (out.at(-1) === "") out.pop();
  return out;
}

/** Lines compared beyond which no diff is computed (an agent's diff is hostile input; this is a card, not a review tool). */
export const MAX_DIFF_LINES = 5_000;

/**
 * A line diff of `oldText` (null or absent: a new file) against `newText`, with
 * folded context; undefined when the texts have more than MAX_DIFF_LINES lines.
 */
export function diffRows(
  oldText: string | null | undefined,
  newText: string,
  context = DIFF_CONTEXT,
): DiffRow[] | undefined {
  if ((oldText ?? "").split("\n").length + newText.split("\n").length > MAX_DIFF_LINES) return undefined;
  const rows: Array<Extract<DiffRow, { text: string }>> = [];
  let oldNo = 1;
  let newNo = 1;
  for (const change of diffLines(oldText ?? "", newText)) {
    for (const text of lines(change.value)) {
      if (change.added) rows.push({ type: "add", text, newNo: newNo++ });
      else if (change.removed) rows.push({ type: "del", text, oldNo: oldNo++ });
      else rows.push({ type: "same", text, oldNo: oldNo++, newNo: newNo++ });
    }
  }
  // Keep `context` lines either side of a change; fold the rest.
  const keep = rows.map((r) => r.type !== "same");
  const near = keep.slice();
  rows.forEach((_, i) => {
    if (!keep[i]) return;
    for (let j = Math.max(0, i - context); j <= Math.min(rows.length - 1, i + context); j++) near[j] = true;
  });
  const out: DiffRow[] = [];
  let skipped = 0;
  rows.forEach((r, i) => {
    if (near[i]) {
      if (skipped) out.push({ type: "skip", count: skipped });
      skipped = 0;
      out.push(r);
    } else {
      skipped++;
    }
  });
  if (skipped) out.push({ type: "skip", count: skipped });
  return out;
}

export function diffStats(rows: readonly DiffRow[]): { added: number; removed: number } {
  let added = 0;
  let removed = 0;
  for (const r of rows) {
    if (r.type === "add") added++;
    else if (r.type === "del") removed++;
  }
  return { added, removed };
}

/** "850 ms", "1.25 s", "2 min 5 s". */
export function formatMs(ms: number | undefined): string {
  if (ms === undefined || !Number.isFinite(ms)) return "";
  if (ms < 1000) return `${Math.round(ms)} ms`;
  if (ms < 60_000) return `${(ms / 1000).toFixed(2)} s`;
  const s = Math.round(ms / 1000);
  return `${Math.floor(s / 60)} min ${s % 60} s`;
}

const n = (v: number) => v.toLocaleString("en-US");

/** "12 in · 7 out · 19 total" (what the agent reported; nothing when it reported nothing). */
export function formatUsage(u: TurnUsageView): string {
  const parts: string[] = [];
  if (u.inputTokens !== undefined) parts.push(`${n(u.inputTokens)} in`);
  if (u.outputTokens !== undefined) parts.push(`${n(u.outputTokens)} out`);
  if (u.thoughtTokens !== undefined) parts.push(`${n(u.thoughtTokens)} thought`);
  if (u.cachedReadTokens !== undefined) parts.push(`${n(u.cachedReadTokens)} cached`);
  if (u.totalTokens !== undefined) parts.push(`${n(u.totalTokens)} total`);
  return parts.join(" · ");
}

const COMMANDS_SHOWN = 8;

/** One line for a session-state update shown in place. */
export function eventSummary(u: SessionEventUpdate): { label: string; text: string } {
  switch (u.sessionUpdate) {
    case "available_commands_update": {
      const names = u.availableCommands.map((c) => `/${c.name}`);
      const more = names.length > COMMANDS_SHOWN ? ` +${names.length - COMMANDS_SHOWN} more` : "";
      return { label: `${names.length} commands`, text: names.slice(0, COMMANDS_SHOWN).join(" ") + more };
    }
    case "current_mode_update":
      return { label: "mode", text: `→ ${u.currentModeId}` };
    case "config_option_update":
      return {
        label: "config",
        text:
          u.configOptions
            .map((o) => `${o.name}${"currentValue" in o ? ` = ${String(o.currentValue)}` : ""}`)
            .join(", ") || "(none)",
      };
    case "session_info_update": {
      const parts: string[] = [];
      if (u.title !== undefined) parts.push(u.title === null ? "title cleared" : `title “${u.title}”`);
      if (u.updatedAt !== undefined && u.updatedAt !== null) parts.push(`updated ${u.updatedAt}`);
      return { label: "session info", text: parts.join(" · ") || "(no change)" };
    }
    case "usage_update": {
      const pct = u.size > 0 ? ` (${Math.round((u.used / u.size) * 100)}%)` : "";
      const cost = u.cost ? ` · ${u.cost.amount} ${u.cost.currency}` : "";
      return { label: "context", text: `${n(u.used)} / ${n(u.size)} tokens${pct}${cost}` };
    }
    case "notice":
      return {
        label: `notice${u.severity ? ` (${u.severity})` : ""}`,
        text: u.description ? `${u.title}: ${u.description}` : u.title,
      };
    default: {
      const v: { sessionUpdate?: unknown } = u;
      return { label: String(v.sessionUpdate), text: "" };
    }
  }
}

/**
 * A user message that starts with Gemini's `<session_context>` block (the workspace context it
 * sends as a prompt of its own, e.g. in a loaded history): the block, and what follows it (the
 * user's own words, when merged into the same message). Undefined for any other message.
 */
export function sessionContextOf(
  blocks: readonly { type: string; text?: unknown }[],
): { context: string; rest: string } | undefined {
  if (blocks.length === 0 || !blocks.every((b) => b.type === "text" && typeof b.text === "string")) return undefined;
  const text = blocks.map((b) => b.text as string).join("");
  if (!/^\s*<session_context>/.test(text)) return undefined;
  const close = text.indexOf("</session_context>");
  if (close < 0) return { context: text, rest: "" };
  const end = close + "</session_context>".length;
  return { context: text.slice(0, end), rest: text.slice(end).trim() };
}
