/**
 * What the search index reads beside a transcript's lines (which lib/contracts/transcript-lines.ts
 * reads and checks): a meta file, checked as hostile input, and the columns that keep a phrase or a word
 * whole where a streamed chunk's edge cuts it (see JOINTS), and the FTS5 expression a typed query
 * becomes (matchOf).
 */
import { readFileSync } from "node:fs";
import { isObject } from "../../lib/protocol/json";
import { searchTerms } from "../../lib/features/library/search";

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
    for (const k of ["title", "profile", "agentName", "kind", "createdAt", "owner"])
      if (typeof m[k] === "string") out[k] = m[k].slice(0, 500);
    if (m.uploaded === true) out.uploaded = "1";
    if (m.tapped === true) out.tapped = "1";
    return out;
  } catch {
    return {};
  }
}

/**
 * Every word indexed is kept in a table of terms, so the word being typed (the query's last, a
 * prefix) is looked for as the words it begins: FTS5 reads those one match at a time, newest
 * first, where a prefix query reads and merges every match of every word it begins, however
 * many (the cost of a common word grew with the library). A prefix that begins more words than
 * this is left to FTS5. Words are kept as FTS5's tokenizer makes them (unicode61, lower case,
 * diacritics removed).
 */
export const PREFIX_WORDS = 64;
/**
 * Letters a typed word needs before FTS5 reads it as a prefix (when it begins more than
 * PREFIX_WORDS words): FTS5 merges every match of every word a prefix begins before the first
 * row, work search_budget never sees, and a one-letter prefix begins most of the library.
 * Shorter, it is looked for as the word itself, and the answer says so.
 */
export const MIN_PREFIX = 3;
export const foldTerm = (word: string) => {
  const lower = word.toLowerCase();
  return NON_ASCII.test(lower) ? lower.normalize("NFD").replace(/\p{M}/gu, "") : lower;
};

/**
 * How the word being typed is looked for, given the indexed words it begins (up to
 * PREFIX_WORDS + 1): as those words, as a prefix, or (too short a prefix of too many) as itself,
 * saying so. The PostgreSQL store reads it the same way (server/stores/pg-search.ts).
 */
export function typedWord(start: string, begun: string[]): { words?: string[]; prefix?: boolean; cut?: string } {
  if (begun.length > 0 && begun.length <= PREFIX_WORDS) return { words: begun };
  if ([...start].length >= MIN_PREFIX) return { prefix: true };
  if (begun.length > PREFIX_WORDS)
    return {
      cut: `“${start}” begins too many words to look for them all: only the word itself was looked for. Type at least ${MIN_PREFIX} letters to find the words it begins.`,
    };
  return {};
}

/**
 * The FTS5 MATCH expression of a typed query: every term must match (a phrase's words in
 * order), each in its columns (termColumns), the last word as the words it begins while it is
 * being typed. Words are quoted, so no input is read as FTS5 syntax. Undefined when the query
 * has no word.
 */
export function matchOf(
  input: string,
  wordsBegun: (start: string, limit: number) => string[],
): { match: string; cut?: string } | undefined {
  const { terms, cut } = searchTerms(input);
  if (terms.length === 0) return undefined;
  // The word being typed is the query's last: if it was cut off, every kept word is whole.
  const typing = !input.trimEnd().endsWith('"') && cut === undefined;
  const phrase = (words: string[]) => `"${words.join(" ")}"`;
  let short: string | undefined;
  const match = terms
    .map((words, i) => {
      const columns = `{${termColumns(words.length).join(" ")}}`;
      if (i < terms.length - 1 || !typing) return `${columns} : ${phrase(words)}`;
      const start = foldTerm(words.at(-1)!);
      const read = typedWord(start, wordsBegun(start, PREFIX_WORDS + 1));
      short = read.cut;
      if (read.words) return `${columns} : (${read.words.map((w) => phrase([...words.slice(0, -1), w])).join(" OR ")})`;
      return `${columns} : ${phrase(words)}${read.prefix ? "*" : ""}`;
    })
    .join(" AND ");
  const said = [cut, short].filter(Boolean).join(" ");
  return said === "" ? { match } : { match, cut: said };
}
