/**
 * What the search index reads from a transcript's lines, apart from the index itself: an event
 * line and a meta file, checked as hostile input, and the columns that keep a phrase or a word
 * whole where a streamed chunk's edge cuts it (see JOINTS).
 */
import { readFileSync } from "node:fs";
import { isObject } from "../../lib/protocol/json";
import type { TranscriptEvent } from "../../lib/contracts/transcript";

export const NON_ASCII = /[^\x00-\x7f]/;

/**
 * Streamed chunks of one message are indexed one document each (a hit names its frame), so a
 * phrase or a word cut by a chunk's edge is kept whole in columns of their own: `split`, the
 * word the edge cuts, joined; `j1`, `j2`: the message's last 1 and 2 whole words before the
 * chunk (and the part of a word the edge cuts), then the chunk's first words. A phrase of k
 * words is looked for in j1..j(k-1) only, where it cannot lie wholly in the earlier chunks'
 * words (that document would be found twice): any phrase of up to JOINTS.length + 1 words
 * across an edge is found.
 */
export const JOINTS = ["j1", "j2"] as const;
/** What of a message is kept between chunks (a word longer than this is cut). */
const TAIL_CHARS = 256;
const WORD = /[\p{L}\p{N}]+/gu;
const ENDS_IN_WORD = /[\p{L}\p{N}]$/u;

/** The columns a term of `words` words is looked for in (not `tags`: filters only). */
export const termColumns = (words: number): string[] =>
  words === 1 ? ["body", "extra", "split"] : ["body", "extra", ...JOINTS.slice(0, words - 1)];

/** [0-9A-Za-z]: an ASCII letter or digit. */
const isAsciiWord = (c: number) => (c >= 48 && c <= 57) || (c >= 65 && c <= 90) || (c >= 97 && c <= 122);

/** The message's last words, to join with its next chunk: JOINTS.length whole words and a word cut at its end. */
export function tailOf(text: string): string {
  const t = text.length > TAIL_CHARS ? text.slice(-TAIL_CHARS) : text;
  // ASCII (most text): the words are counted back from the end, with no regular expression.
  if (!NON_ASCII.test(t)) {
    let words = 0;
    let from = 0;
    for (let i = t.length - 1; i >= 0; i--) {
      if (!isAsciiWord(t.charCodeAt(i)) || (i > 0 && isAsciiWord(t.charCodeAt(i - 1)))) continue;
      // A word starts at i: the kept words start at the last JOINTS.length + 1's, if there are more.
      if (++words === JOINTS.length + 1) from = i;
      else if (words > JOINTS.length + 1) return t.slice(from);
    }
    return t;
  }
  const words = [...t.matchAll(WORD)];
  return words.length > JOINTS.length + 1 ? t.slice(words[words.length - JOINTS.length - 1]!.index) : t;
}

/** A chunk's `split` and joint columns, given the message's tail before it. */
export function joints(tail: string, body: string): { split: string; joints: string[] } {
  const tailWords = [...tail.matchAll(WORD)];
  const bodyWords = [...body.slice(0, TAIL_CHARS).matchAll(WORD)];
  if (tailWords.length === 0 || bodyWords.length === 0) return { split: "", joints: [] };
  // The edge cuts a word: it is joined, and counted on neither side.
  const cut = ENDS_IN_WORD.test(tail) && bodyWords[0]!.index === 0;
  const last = bodyWords[Math.min(bodyWords.length, JOINTS.length + (cut ? 1 : 0)) - 1]!;
  const head = body.slice(0, last.index + last[0].length);
  const whole = tailWords.length - (cut ? 1 : 0);
  return {
    split: cut ? tailWords.at(-1)![0] + bodyWords[0]![0] : "",
    joints: JOINTS.map((_, i) => (whole > i ? tail.slice(tailWords[whole - 1 - i]!.index) + head : "")),
  };
}

/** A transcript's list fields as its meta file says (hostile: only strings of the right shape are taken). */
export function readMetaFile(file: string): Record<string, string> {
  try {
    const m: unknown = JSON.parse(readFileSync(file, "utf8"));
    if (!isObject(m)) return {};
    const out: Record<string, string> = {};
    for (const k of ["title", "profile", "agentName", "kind", "createdAt"])
      if (typeof m[k] === "string") out[k] = m[k].slice(0, 500);
    if (m.uploaded === true) out.uploaded = "1";
    if (m.tapped === true) out.tapped = "1";
    return out;
  } catch {
    return {};
  }
}

/** An event line, minimally checked (the index must not throw on a hostile file: a bad line is skipped). */
export function readEvent(line: string): TranscriptEvent | undefined {
  let v: unknown;
  try {
    v = JSON.parse(line);
  } catch {
    return undefined;
  }
  if (!isObject(v) || typeof v.ts !== "number") return undefined;
  if (v.type === "frame") {
    const ok =
      Number.isInteger(v.seq) &&
      typeof v.raw === "string" &&
      (v.dir === "to-agent" || v.dir === "from-agent") &&
      typeof v.kind === "string" &&
      (v.method === undefined || typeof v.method === "string") &&
      (v.latencyMs === undefined || typeof v.latencyMs === "number");
    return ok ? (v as unknown as TranscriptEvent) : undefined;
  }
  if (v.type === "stderr") return typeof v.text === "string" ? (v as unknown as TranscriptEvent) : undefined;
  if (v.type === "lifecycle")
    return typeof v.event === "string" && (v.message === undefined || typeof v.message === "string")
      ? (v as unknown as TranscriptEvent)
      : undefined;
  return undefined;
}
