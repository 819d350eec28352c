/**
 * Splits streaming Markdown into segments that can be rendered (and memoised)
 * one by one, so that a growing message costs a re-render of its open tail
 * only, never of everything said so far.
 *
 * Cuts are made at blank lines outside fenced code (a block boundary, so the
 * rendering is unchanged), and, for a block longer than `max` characters, at a
 * line end (or, for one giant line, at a space before a letter): the rendering
 * then shows a line break there. A cut inside a fenced block closes the fence
 * and re-opens it in the next segment, so code stays code.
 *
 * Incremental: given the previous state and the same text with more appended,
 * only the open tail is scanned again; closed segments keep their identity.
 */

export interface Segment {
  /** Markdown to render on its own. */
  text: string;
  /** Cut by size in the middle of a block: continues the previous segment's block. */
  cont: boolean;
}

export interface SegmentState {
  /** The text this state covers. */
  source: string;
  /** Closed segments: they never change again. */
  done: readonly Segment[];
  /** Where the open tail starts in `source`. */
  tailStart: number;
  /** The fence opener line when the tail starts inside a fenced block (to re-open it). */
  tailFence?: string;
  tailCont: boolean;
}

/** Segments of about this many characters re-render in a few ms. */
export const MAX_SEGMENT = 3000;

const FENCE = /^ {0,3}(`{3,}|~{3,})/;

interface Fence {
  opener: string;
  char: string;
  len: number;
}

function openFence(line: string): Fence | undefined {
  const m = FENCE.exec(line);
  if (!m) return undefined;
  // A backtick fence's info string may not contain backticks.
  if (m[1]![0] === "`" && line.slice(m[0].length).includes("`")) return undefined;
  return { opener: line, char: m[1]![0]!, len: m[1]!.length };
}

function closesFence(line: string, f: Fence): boolean {
  const m = FENCE.exec(line);
  return !!m && m[1]![0] === f.char && m[1]!.length >= f.len && line.slice(m[0].length).trim() === "";
}

const fenceOf = (opener: string | undefined): Fence | undefined =>
  opener === undefined ? undefined : openFence(opener);

function extends_(text: string, prev: SegmentState): boolean {
  const n = prev.source.length;
  if (text.length < n) return false;
  const head = Math.min(n, 64);
  return (
    text.slice(0, head) === prev.source.slice(0, head) &&
    text.slice(prev.tailStart, n) === prev.source.slice(prev.tailStart)
  );
}

export function emptySegments(): SegmentState {
  return { source: "", done: [], tailStart: 0, tailCont: false };
}

export function segmentMarkdown(text: string, prev: SegmentState = emptySegments(), max = MAX_SEGMENT): SegmentState {
  if (text === prev.source) return prev;
  // Not an append (a different message): start over. Comparing the whole prefix would cost
  // O(length) per call; the head and the open tail catch any other message.
  const base = extends_(text, prev) ? prev : emptySegments();
  const done = base.done.slice();
  let segStart = base.tailStart;
  let fence = fenceOf(base.tailFence);
  let segFence = base.tailFence; // the fence the current segment re-opens
  let cont = base.tailCont;

  const close = (end: number, next: number, nextCont: boolean) => {
    let body = text.slice(segStart, end);
    if (segFence !== undefined) body = `${segFence}\n${body}`;
    if (fence) body = `${body.endsWith("\n") ? body : `${body}\n`}${fence.char.repeat(fence.len)}\n`;
    done.push({ text: body, cont });
    segStart = next;
    segFence = fence?.opener;
    cont = nextCont;
  };

  /** Cuts a line too long for one segment at spaces before letters (never before a list or heading marker). */
  const cutLongLine = (lineStart: number, end: number) => {
    if (lineStart > segStart) close(lineStart, lineStart, true);
    while (end - segStart > max) {
      const window = text.slice(segStart, segStart + max);
      let at = -1;
      for (let i = window.length - 1; i > 0; i--) {
        if (window[i - 1] === " " && /[A-Za-z]/.test(window[i]!)) {
          at = i;
          break;
        }
      }
      if (at <= 0) return;
      close(segStart + at, segStart + at, true);
    }
  };

  let lineStart = segStart;
  let hasContent = false;
  for (;;) {
    const nl = text.indexOf("\n", lineStart);
    // The line with its newline must fit, else cut before it (and within it if it alone is too long).
    const end = nl < 0 ? text.length : nl + 1;
    if (!fence && end - segStart > max) {
      cutLongLine(lineStart, end);
      hasContent = false;
    }
    if (nl < 0) break;
    const line = text.slice(lineStart, nl);
    const blank = line.trim() === "";
    if (fence) {
      if (closesFence(line, fence)) fence = undefined;
    } else if (!blank && lineStart >= segStart) {
      fence = openFence(line);
    }
    const next = nl + 1;
    // A blank line ends a block; wait for the next line to start so an indented continuation
    // (list item, indented code) is never cut from its block.
    if (!fence && blank && hasContent && next < text.length && !/[ \t\n]/.test(text[next]!)) {
      close(next, next, false);
      hasContent = false;
    } else if (next - segStart > max) {
      close(next, next, true);
      hasContent = false;
    } else if (!blank) {
      hasContent = true;
    }
    lineStart = next;
  }
  return {
    source: text,
    done,
    tailStart: segStart,
    ...(segFence !== undefined ? { tailFence: segFence } : {}),
    tailCont: cont,
  };
}

/** The open tail, ready to render (its fence re-opened when it starts inside one). */
export function tailSegment(state: SegmentState): Segment | undefined {
  const body = state.source.slice(state.tailStart);
  if (body === "" && state.tailFence === undefined) return undefined;
  return { text: state.tailFence !== undefined ? `${state.tailFence}\n${body}` : body, cont: state.tailCont };
}

/** All segments: closed ones, then the tail. */
export function segmentsOf(state: SegmentState): Segment[] {
  const tail = tailSegment(state);
  return tail ? [...state.done, tail] : [...state.done];
}
