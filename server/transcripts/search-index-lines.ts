/**
 * What the search index reads beside a transcript's lines (which lib/contracts/transcript-lines.ts
 * reads and checks): a meta file, checked as hostile input, and the columns that keep a phrase or a word
 * whole where a streamed chunk's edge cuts it (JOINT_COLUMNS), and the FTS5 expression a typed query
 * becomes (matchOf).
 */
import { readFileSync } from "node:fs";
import { isObject } from "../../lib/protocol/json";
import { searchTerms } from "../../lib/features/library/search";
import { JOINTS, NON_ASCII } from "../../lib/features/library/joints";

export { NON_ASCII };

/**
 * The columns that keep a phrase or a word whole where a streamed chunk's edge cuts it
 * (lib/features/library/joints.ts): `split`, then `j1`, `j2`, a chunk's joints.
 */
export const JOINT_COLUMNS = Array.from({ length: JOINTS }, (_, i) => `j${i + 1}`);

/** The columns a term of `words` words is looked for in (not `tags`: filters only). */
export const termColumns = (words: number): string[] =>
  words === 1 ? ["body", "extra", "split"] : ["body", "extra", ...JOINT_COLUMNS.slice(0, words - 1)];

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
/**
 * A word as unicode61 (remove_diacritics 2) reads one: letters, digits, private use, and the 25
 * combining marks it removes (U+0300–U+0331, SQLite's list), so a word written decomposed (NFD, as
 * macOS writes file names: e + U+0301) or whose lower case adds a mark (İ → i + U+0307) is one
 * word, as FTS5 reads it; other marks part words there, and here. Both stores cut text with it.
 */
export const WORD_TOKEN =
  /[\p{L}\p{N}\p{Co}\u0300-\u0304\u0306-\u030c\u030f\u0311\u031b\u0323-\u0328\u032d\u032e\u0330\u0331]+/gu;
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
