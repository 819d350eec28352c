/**
 * Where a streamed chunk's edge cuts a word or a phrase: both library stores index each chunk of
 * a message as one document (a hit names its frame), so each keeps, per transcript, the tail of
 * the message being streamed and gives each chunk what its edge joins: the SQLite index as
 * columns (server/transcripts/search-index-lines.ts), PostgreSQL as lexemes
 * (server/stores/pg-search.ts). Pure: the stores keep the state between their batches.
 */

export const NON_ASCII = /[^\x00-\x7f]/;

/**
 * What a chunk's edge joins: `split`, the word the edge cuts, joined; `joints[i]`: the message's
 * last i + 1 whole words before the chunk (and the part of a word the edge cuts), then the
 * chunk's first words. A phrase of k words is looked for in joints 0..k-2 only, where it cannot
 * lie wholly in the earlier chunks' words (that document would be found twice): any phrase of
 * up to JOINTS + 1 words across an edge is found.
 */
export const JOINTS = 2;
/** What of a message is kept between chunks (a word longer than this is cut). */
const TAIL_CHARS = 256;
const WORD = /[\p{L}\p{N}]+/gu;
const ENDS_IN_WORD = /[\p{L}\p{N}]$/u;

/** [0-9A-Za-z]: an ASCII letter or digit. */
const isAsciiWord = (c: number) => (c >= 48 && c <= 57) || (c >= 65 && c <= 90) || (c >= 97 && c <= 122);

/** The message's last words, to join with its next chunk: JOINTS whole words and a word cut at its end. */
export function tailOf(text: string): string {
  const t = text.length > TAIL_CHARS ? text.slice(-TAIL_CHARS) : text;
  // ASCII (most text): the words are counted back from the end, with no regular expression.
  if (!NON_ASCII.test(t)) {
    let words = 0;
    let from = 0;
    for (let i = t.length - 1; i >= 0; i--) {
      if (!isAsciiWord(t.charCodeAt(i)) || (i > 0 && isAsciiWord(t.charCodeAt(i - 1)))) continue;
      // A word starts at i: the kept words start at the last JOINTS + 1's, if there are more.
      if (++words === JOINTS + 1) from = i;
      else if (words > JOINTS + 1) return t.slice(from);
    }
    return t;
  }
  const words = [...t.matchAll(WORD)];
  return words.length > JOINTS + 1 ? t.slice(words[words.length - JOINTS - 1]!.index) : t;
}

export interface Joined {
  split: string;
  joints: string[];
}
export const NOT_JOINED: Joined = { split: "", joints: [] };

/** A chunk's split word and joints, given the message's tail before it. */
export function joints(tail: string, body: string): Joined {
  const tailWords = [...tail.matchAll(WORD)];
  const bodyWords = [...body.slice(0, TAIL_CHARS).matchAll(WORD)];
  if (tailWords.length === 0 || bodyWords.length === 0) return NOT_JOINED;
  // The edge cuts a word: it is joined, and counted on neither side.
  const cut = ENDS_IN_WORD.test(tail) && bodyWords[0]!.index === 0;
  const last = bodyWords[Math.min(bodyWords.length, JOINTS + (cut ? 1 : 0)) - 1]!;
  const head = body.slice(0, last.index + last[0].length);
  const whole = tailWords.length - (cut ? 1 : 0);
  return {
    split: cut ? tailWords.at(-1)![0] + bodyWords[0]![0] : "",
    joints: Array.from({ length: JOINTS }, (_, i) =>
      whole > i ? tail.slice(tailWords[whole - 1 - i]!.index) + head : "",
    ),
  };
}

/** A transcript's message being streamed, as a store keeps it between lines (and batches). */
export interface StreamTail {
  /** Which message (SearchDoc.stream); "" when none. */
  stream: string;
  tail: string;
}
export const NO_STREAM: StreamTail = { stream: "", tail: "" };

/**
 * One line's step: what its document's edge joins (a chunk continuing the message before it),
 * and the state after it. Any other frame ends the message being streamed; lines that are no
 * frame (stderr, lifecycle) leave it as it is.
 */
export function streamStep(
  state: StreamTail,
  doc: { stream?: string; body: string } | undefined,
  frame: boolean,
): { joined: Joined; state: StreamTail } {
  if (doc?.stream !== undefined) {
    const continues = doc.stream === state.stream;
    return {
      joined: continues ? joints(state.tail, doc.body) : NOT_JOINED,
      state: { stream: doc.stream, tail: tailOf(continues ? state.tail + doc.body : doc.body) },
    };
  }
  return { joined: NOT_JOINED, state: frame && doc ? NO_STREAM : state };
}
