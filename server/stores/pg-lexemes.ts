/**
 * What the team library's search on PostgreSQL is made of, pure: a document's lexemes and tsvector,
 * a typed query's tsquery, and what a document or a row of lines matching it holds (the rows'
 * indexes, server/stores/pg-row-index.ts). Words are cut and folded as the file store's SQLite
 * tokenizer cuts them (unicode61: letters and digits, lower case, accents removed), here in the
 * program, so both stores see the same words (PostgreSQL's own parser keeps `src/app.ts` or
 * `a.b@c.d` whole).
 *
 * Each document's tsvector holds its words with their positions (weight A in the text a reader
 * looks for, B in the other strings), and each pair of adjacent words as one lexeme of its own
 * (`~read write`, no position). GIN keeps no positions, so a phrase matched through positions
 * alone is checked in every row holding all its words: two common words that never meet
 * read them all (3.6 s on 5,000 transcripts). A pair is in the index: a two-word phrase is one
 * lookup, a longer one the lookup of its pairs, then its positions checked in the few rows left.
 * A streamed chunk's document also holds what its edge joins (docLexemes), so a word or a phrase
 * cut by the edge is found as the file store finds it.
 */
import { searchTerms } from "../../lib/features/library/search";
import type { Joined } from "../../lib/features/library/joints";
import { foldTerm, NON_ASCII, typedWord, WORD_TOKEN } from "../transcripts/search-index-lines";

/** What starts a pair's lexeme: no word holds it, so a typed word's prefix never reaches the pairs. */
export const PAIR = "~";
/**
 * What starts the lexeme of a run of three words or more across a streamed chunk's edge (its
 * positions are not in the document): no pair's prefix reaches it.
 */
export const JOINED = "~~";
/**
 * An error's tag, in the index (the errors filter inside the match, as SQLite's `tags`): GIN
 * steps over the documents that are no error instead of reading every match of a common word.
 */
export const ERROR_TAG = "!error";
/** PostgreSQL's bounds: a lexeme under 2 KiB, positions up to 16,383 and 256 of them per lexeme. */
const MAX_LEXEME_BYTES = 2_046;
const MAX_POSITION = 16_383;
const MAX_POSITIONS = 256;
const ASCII_GAP = /[^a-z0-9]+/;

/** A text's words as the file store's tokenizer sees them. */
export function words(text: string): string[] {
  const lower = text.toLowerCase();
  if (!NON_ASCII.test(lower)) return lower.split(ASCII_GAP).filter((w) => w !== "");
  return (lower.match(WORD_TOKEN) ?? []).map(foldTerm).filter((w) => w !== "");
}

export const fits = (lexeme: string) =>
  lexeme.length * 4 <= MAX_LEXEME_BYTES || Buffer.byteLength(lexeme) <= MAX_LEXEME_BYTES;

const UNPLACED: string[] = [];

/** A document's lexemes: its words with their positions, its pairs and runs across an edge (JOINED), its error tag. */
export interface DocLexemes {
  positions: Map<string, string[]>;
  pairs: Set<string>;
  error: boolean;
}

/**
 * A document's lexemes (docVector gives them as a tsvector): `body` and `extra` are two texts (a
 * phrase does not run from one into the other). A streamed chunk's `joined` (lib/features/library/
 * joints.ts) adds what its edge joins, as the file store's columns do: the word it cuts (a word of
 * its own, apart from the others), the pairs of its first joint (a phrase of two words across the
 * edge) and the runs of three words and more of its joints (JOINED: a longer phrase across it).
 */
export function docLexemes(
  body: string,
  extra: string,
  error: boolean,
  joined?: Joined,
  /** False: the words without their positions (a row's index has no use for them). */
  positioned = true,
): DocLexemes {
  const positions = new Map<string, string[]>();
  const pairs = new Set<string>();
  let at = 0;
  const place = (word: string, weight: "A" | "B") => {
    if (!positioned) {
      positions.set(word, UNPLACED);
      return;
    }
    let list = positions.get(word);
    if (!list) positions.set(word, (list = []));
    // Past PostgreSQL's last position every word is at it: a phrase there is found by its pairs.
    const p = `${Math.min(at, MAX_POSITION)}${weight}`;
    if (list.length < MAX_POSITIONS && list.at(-1) !== p) list.push(p);
  };
  const add = (text: string, weight: "A" | "B") => {
    let before: string | undefined;
    for (const word of words(text)) {
      at++;
      if (!fits(word)) {
        before = undefined;
        continue;
      }
      place(word, weight);
      const pair = `${PAIR}${before} ${word}`;
      if (before !== undefined && fits(pair)) pairs.add(pair);
      before = word;
    }
  };
  add(body, "A");
  at++;
  add(extra, "B");
  if (joined && joined.split !== "") {
    // A position of its own, next to no other word: a phrase is never read through it.
    at++;
    for (const word of words(joined.split)) {
      at++;
      if (fits(word)) place(word, "A");
    }
  }
  for (const [i, joint] of (joined?.joints ?? []).entries()) {
    const ws = words(joint).filter(fits);
    for (let j = 1; j < ws.length; j++) {
      if (i === 0) pairs.add(`${PAIR}${ws[j - 1]} ${ws[j]}`);
      for (let k = j - 2; k >= 0; k--) pairs.add(`${JOINED}${ws.slice(k, j + 1).join(" ")}`);
    }
  }
  for (const pair of pairs) if (!fits(pair)) pairs.delete(pair);
  return { positions, pairs, error };
}

/**
 * A document's tsvector, as PostgreSQL's input syntax. Words hold only letters and digits, pairs
 * and runs a space and PAIR: quoting them is enough. An error is tagged (ERROR_TAG). Its words
 * are added to `terms` when given (the table of terms).
 */
export function docVector(body: string, extra: string, error: boolean, terms?: Set<string>, joined?: Joined): string {
  const lexemes = docLexemes(body, extra, error, joined);
  if (terms) for (const word of lexemes.positions.keys()) terms.add(word);
  return vectorText(lexemes);
}

export function vectorText({ positions, pairs, error }: DocLexemes): string {
  const out: string[] = [];
  for (const [word, list] of positions) out.push(`'${word}':${list.join(",")}`);
  for (const pair of pairs) out.push(`'${pair}'`);
  if (error) out.push(`'${ERROR_TAG}'`);
  return out.join(" ");
}

/**
 * A lexeme's number in a row's index (transcript_lines.terms, migration 8): FNV-1a of its UTF-16
 * code units, as int4. Two lexemes with one number only make a row a candidate that the
 * documents' own vectors then turn down.
 */
export function termHash(lexeme: string): number {
  let h = 0x811c9dc5;
  for (let i = 0; i < lexeme.length; i++) {
    h ^= lexeme.charCodeAt(i);
    h = Math.imul(h, 0x01000193);
  }
  return h | 0;
}

/**
 * The pairs of a message's tail (joints.ts tailOf): a row whose first chunk continues it holds
 * them in its index, so a phrase across the row's first edge has all its pairs in the row. (A
 * document matched through a run across an edge holds the run, not the pairs before the edge.)
 */
export function tailPairs(tail: string): string[] {
  const ws = words(tail).filter(fits);
  return ws
    .slice(1)
    .map((w, j) => `${PAIR}${ws[j]} ${w}`)
    .filter(fits);
}

/** The terms searchTerms keeps, folded (a word of marks alone folds to nothing and is left out). */
export function foldedTerms(input: string): { terms: string[][]; cut?: string } {
  const { terms, cut } = searchTerms(input);
  const folded = terms.map((t) => t.map(foldTerm).filter((w) => w !== "")).filter((t) => t.length > 0);
  return { terms: folded, ...(cut === undefined ? {} : { cut }) };
}

/** The word being typed (the query's last, folded), looked for as the words it begins; none when the query ends in a quote or was cut. */
export function typedStart(input: string): string | undefined {
  const { terms, cut } = foldedTerms(input);
  if (terms.length === 0 || cut !== undefined || input.trimEnd().endsWith('"')) return undefined;
  return terms.at(-1)!.at(-1)!;
}

const lexeme = (text: string, prefix: boolean) => `'${text}'${prefix ? ":*" : ""}`;

/** A term's tsquery: a word, or a phrase as its pairs (two words: exactly), then its order, or its run across an edge. */
function termQuery(ws: string[], prefix: boolean): string {
  if (ws.length === 1) return lexeme(ws[0]!, prefix);
  const pairs = ws.slice(1).map((w, j) => lexeme(`${PAIR}${ws[j]} ${w}`, prefix && j === ws.length - 2));
  if (ws.length === 2) return pairs[0]!;
  // One pair may recur apart from the other: the order is checked in the rows holding them all;
  // or the phrase runs across a chunk's edge (JOINED).
  const order = ws.map((w, j) => lexeme(w, prefix && j === ws.length - 1)).join(" <-> ");
  const run = `${JOINED}${ws.join(" ")}`;
  const within = `(${pairs.join(" & ")} & (${order}))`;
  // A run too long to hold is in no document (docVector leaves it out).
  return fits(run) ? `(${within} | ${lexeme(run, prefix)})` : within;
}

/**
 * The tsquery of a typed query, as the file store reads one (matchOf): the terms searchTerms
 * keeps (and what it cut, to say so), each must match, a phrase's words in order; the word being
 * typed as the words it begins (`begun`: those in the table of terms, up to PREFIX_WORDS + 1;
 * none given, a prefix), as typedWord says. Lexemes are quoted words: no input is read as syntax.
 */
export function pgQuery(input: string, begun?: string[]): { query: string; cut?: string } | undefined {
  const { terms, cut } = foldedTerms(input);
  if (terms.length === 0) return undefined;
  const start = typedStart(input);
  const typed = start === undefined ? {} : begun ? typedWord(start, begun) : { prefix: true };
  const parts = terms.map((ws, i) => {
    if (i < terms.length - 1 || start === undefined) return termQuery(ws, false);
    if (typed.words) return `(${typed.words.map((w) => termQuery([...ws.slice(0, -1), w], false)).join(" | ")})`;
    return termQuery(ws, typed.prefix === true);
  });
  const query = parts.join(" & ");
  // A word or pair PostgreSQL cannot hold is in no document (docVector leaves it out), and in a
  // tsquery it is an error: such a query finds nothing. (Folding can triple a word's bytes.)
  if (query.split("'").some((text, i) => i % 2 === 1 && !fits(text))) return undefined;
  const said = [cut, typed.cut].filter(Boolean).join(" ");
  return { query, ...(said === "" ? {} : { cut: said }) };
}

/**
 * What a document matching a typed query holds, read as pgQuery reads the query: per term, its
 * alternatives, each the lexemes it holds all of (a word; a phrase's pairs, or its run across an
 * edge); undefined for the word being typed looked for as a prefix (nothing known of it).
 */
export type Need = (string[][] | undefined)[];

function termNeed(ws: string[]): string[][] {
  if (ws.length === 1) return [[ws[0]!]];
  const pairs = ws.slice(1).map((w, j) => `${PAIR}${ws[j]} ${w}`);
  const run = `${JOINED}${ws.join(" ")}`;
  return ws.length > 2 && fits(run) ? [pairs, [run]] : [pairs];
}

/**
 * `begun`: as pgQuery's; `prefixed`: every word the one being typed begins, when it is looked for
 * as a prefix (undefined: too many to list, or not known).
 */
export function queryNeed(input: string, begun?: string[], prefixed?: string[]): Need {
  const { terms } = foldedTerms(input);
  const start = typedStart(input);
  const typed = start === undefined ? {} : begun ? typedWord(start, begun) : { prefix: true };
  const alternatives = (ws: string[], last: string[]) => last.flatMap((w) => termNeed([...ws.slice(0, -1), w]));
  return terms.map((ws, i) => {
    if (i < terms.length - 1 || start === undefined) return termNeed(ws);
    if (typed.words) return alternatives(ws, typed.words);
    if (!typed.prefix) return termNeed(ws);
    return prefixed && alternatives(ws, prefixed);
  });
}

/** Whether a document's lexemes hold what `need` asks: the documents worth PostgreSQL's own match. */
export function holds({ positions, pairs }: DocLexemes, need: Need): boolean {
  const has = (x: string) => positions.has(x) || pairs.has(x);
  return need.every((alternatives) => !alternatives || alternatives.some((all) => all.every(has)));
}

/** Alternatives of several lexemes a row's clause lists one by one (a phrase ending in a prefix has more). */
const MAX_ALTERNATIVES = 64;
/** Words a prefix may begin for a row's clause to list them (as one `&&`); past it, the rows are not narrowed by it. */
export const PREFIXED_WORDS = 4_096;

/**
 * The clause over a row's index (`l.terms`) that every row holding a match passes, its values
 * appended to `params`. Runs are not in rows' indexes: a document matched through one has the
 * phrase's pairs in its row, or in the tail the row starts from (tailPairs).
 */

export function rowClause(need: Need, errors: boolean, params: unknown[]): string {
  const clauses: string[] = [];
  const add = (sql: string, hashes: number[]) => {
    params.push(hashes);
    return sql.replace("?", `$${params.length}::int4[]`);
  };
  for (const alternatives of need) {
    if (!alternatives) continue;
    // A word begun by nothing indexed: no row holds it.
    if (alternatives.length === 0) return "false";
    const usable = alternatives.filter((all) => !all.some((x) => x.startsWith(JOINED)));
    const single = usable.filter((all) => all.length === 1).map((all) => termHash(all[0]!));
    const several = usable.filter((all) => all.length > 1);
    if (several.length > MAX_ALTERNATIVES) {
      // A phrase ending in a word typed as a prefix: what all its alternatives hold, if anything.
      const common = several.reduce((kept, all) => kept.filter((x) => all.includes(x)));
      if (common.length > 0 && single.length === 0) clauses.push(add("l.terms @> ?", common.map(termHash)));
      continue;
    }
    const ors = several.map((all) => add("l.terms @> ?", all.map(termHash)));
    if (single.length > 0) ors.unshift(add("l.terms && ?", single));
    clauses.push(ors.length === 1 ? ors[0]! : `(${ors.join(" OR ")})`);
  }
  if (errors) clauses.push(add("l.terms @> ?", [termHash(ERROR_TAG)]));
  return clauses.length > 0 ? clauses.join(" AND ") : "true";
}
