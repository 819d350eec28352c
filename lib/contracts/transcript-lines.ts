/**
 * The one reader of a transcript's JSON Lines (docs/transcript-format.md) from bytes: chunks of
 * any size in; out, each line checked against the format (the header's fields, each event's by
 * its type: a frame's are FRAME_FIELDS) with where it stands in the file. It holds at most one
 * line, of at most `maxLineBytes`: a longer one is refused without being kept. A bad line comes
 * out as an error naming it, and the lines after it are read all the same, so a caller decides:
 * the store and `validate` refuse the file, the search index leaves that one line out.
 */
import {
  checkEventLine,
  checkHeaderLine,
  TranscriptError,
  type TranscriptEvent,
  type TranscriptHeader,
} from "./transcript";

/** The largest line read by default: the upload cap's default (a whole upload on one line). */
export const TRANSCRIPT_MAX_LINE_BYTES = 256 * 1024 * 1024;

interface Place {
  /** The file's line number, from 1. */
  line: number;
  /** The byte offset of the line's start, and its bytes without the newline. */
  offset: number;
  bytes: number;
}

export type TranscriptLine =
  | (Place & { value: TranscriptHeader | TranscriptEvent; error?: undefined })
  | (Place & { value?: undefined; error: TranscriptError });

/** Where reading starts: a file's start, or where an earlier reader stopped (its `offset`, `line`, `lastSeq`). */
export interface TranscriptLinesFrom {
  offset?: number;
  line?: number;
  lastSeq?: number;
  maxLineBytes?: number;
}

const NEWLINE = 0x0a;
const utf8 = new TextDecoder("utf-8", { fatal: true });

export class TranscriptLines {
  /** The last line had no newline and was not JSON (a crash mid-write): it is left out, not an error. */
  truncated = false;
  /** The seq of the last frame read: the next must follow it. */
  lastSeq: number;
  /** Where the next line starts: a reader made from here (with `line` and `lastSeq`) goes on. */
  offset: number;
  line: number;
  readonly #max: number;
  #parts: Uint8Array[] = [];
  #buffered = 0;
  /** Bytes of the current line past the bound (dropped, only counted). */
  #over = 0;
  #ended = false;

  constructor(from: TranscriptLinesFrom = {}) {
    this.offset = from.offset ?? 0;
    this.line = from.line ?? 1;
    this.lastSeq = from.lastSeq ?? 0;
    this.#max = from.maxLineBytes ?? TRANSCRIPT_MAX_LINE_BYTES;
  }

  /** The lines that `chunk` completes. */
  push(chunk: Uint8Array): TranscriptLine[] {
    if (this.#ended) throw new Error("push after end");
    const out: TranscriptLine[] = [];
    let start = 0;
    while (start < chunk.length) {
      const nl = chunk.indexOf(NEWLINE, start);
      const end = nl === -1 ? chunk.length : nl;
      // A whole line inside the chunk is read in place, with no copy.
      if (nl !== -1 && this.#buffered === 0 && this.#over === 0 && end - start <= this.#max) {
        this.#take(chunk.subarray(start, end), true, out);
      } else {
        this.#append(chunk.subarray(start, end));
        if (nl === -1) break;
        this.#take(this.#line(), true, out);
      }
      start = nl + 1;
    }
    return out;
  }

  /** The end of the file: a last line without its newline is read, or marks the transcript truncated. */
  end(): TranscriptLine[] {
    if (this.#ended) return [];
    this.#ended = true;
    const out: TranscriptLine[] = [];
    if (this.#buffered > 0 || this.#over > 0) this.#take(this.#line(), false, out);
    else if (this.offset === 0)
      out.push({ line: 1, offset: 0, bytes: 0, error: new TranscriptError(1, "empty file: no header") });
    return out;
  }

  #append(bytes: Uint8Array): void {
    if (bytes.length === 0) return;
    if (this.#over > 0 || this.#buffered + bytes.length > this.#max) {
      this.#over += this.#buffered + bytes.length;
      this.#parts = [];
      this.#buffered = 0;
      return;
    }
    // A copy (a Buffer's slice() would be a view): the caller may reuse its chunk.
    this.#parts.push(new Uint8Array(bytes));
    this.#buffered += bytes.length;
  }

  /** The buffered line's bytes (undefined when it was past the bound), the buffer emptied. */
  #line(): Uint8Array | undefined {
    const parts = this.#parts;
    this.#parts = [];
    this.#buffered = 0;
    if (this.#over > 0) return undefined;
    if (parts.length === 1) return parts[0]!;
    const whole = new Uint8Array(parts.reduce((n, p) => n + p.length, 0));
    let at = 0;
    for (const p of parts) {
      whole.set(p, at);
      at += p.length;
    }
    return whole;
  }

  /** Reads one line (`bytes` undefined: it was too long) and moves past it. */
  #take(bytes: Uint8Array | undefined, complete: boolean, out: TranscriptLine[]): void {
    const place: Place = { line: this.line, offset: this.offset, bytes: bytes?.length ?? this.#over };
    const first = this.offset === 0;
    // A last line cut off by a crash mid-write is left out, as parseTranscript does (never the header).
    const cut = !complete && !first;
    this.#over = 0;
    this.line++;
    this.offset += place.bytes + (complete ? 1 : 0);
    if (bytes === undefined) return this.#refuse(place, `longer than ${this.#max} bytes: not read`, cut, out);
    let text: string;
    try {
      text = utf8.decode(bytes);
    } catch {
      return this.#refuse(place, "not UTF-8", cut, out);
    }
    if (text.trim() === "") {
      if (first) this.#refuse(place, "empty file: no header", false, out);
      return;
    }
    let value: unknown;
    try {
      value = JSON.parse(text);
    } catch (err) {
      return this.#refuse(place, `not JSON: ${(err as Error).message}`, cut, out);
    }
    try {
      if (first) return void out.push({ ...place, value: checkHeaderLine(value) });
      const event = checkEventLine(value, place.line, this.lastSeq);
      if (event.type === "frame") this.lastSeq = event.seq;
      out.push({ ...place, value: event });
    } catch (err) {
      if (!(err instanceof TranscriptError)) throw err;
      out.push({ ...place, error: err });
    }
  }

  /** A bad line, named; or, `cut` off at the end, the transcript marked truncated. */
  #refuse(place: Place, message: string, cut: boolean, out: TranscriptLine[]): void {
    if (cut) this.truncated = true;
    else out.push({ ...place, error: new TranscriptError(place.line, message) });
  }
}
