/**
 * Newline-delimited framing for an agent's stdout: buffers partial lines across
 * chunks, splits many lines per chunk, and drops (but reports) over-long lines
 * without holding them in memory. A line is kept exactly: only its LF goes (a CR
 * before it stays, a BOM stays), and bytes that are not UTF-8 are kept in `base64`.
 */

import { toBase64 } from "./base64";

export const DEFAULT_MAX_LINE_BYTES = 16 * 1024 * 1024;

export type LineEvent =
  /** `base64`: the line's exact bytes when they are not valid UTF-8 (`text` then shows them as U+FFFD). */
  { type: "line"; text: string; base64?: string } | { type: "oversize"; bytes: number; preview: string };

const NEWLINE = 0x0a;
const CR = 0x0d;
const strict = new TextDecoder("utf-8", { fatal: true, ignoreBOM: true });
const lenient = new TextDecoder("utf-8", { ignoreBOM: true });

/** One line's event: blank lines (nothing, or a lone CR) between messages are not frames. */
function lineEvent(bytes: Uint8Array): LineEvent | undefined {
  if (bytes.length === 0 || (bytes.length === 1 && bytes[0] === CR)) return undefined;
  try {
    return { type: "line", text: strict.decode(bytes) };
  } catch {
    return { type: "line", text: lenient.decode(bytes), base64: toBase64(bytes) };
  }
}

const PREVIEW_BYTES = 200;

export class LineSplitter {
  private parts: Uint8Array[] = [];
  private buffered = 0;
  /** Bytes of the current line dropped so far (it is already too long). */
  private dropped = 0;
  private preview = "";

  constructor(private readonly maxLineBytes = DEFAULT_MAX_LINE_BYTES) {}

  push(chunk: Uint8Array): LineEvent[] {
    const events: LineEvent[] = [];
    let start = 0;
    while (start < chunk.length) {
      const nl = chunk.indexOf(NEWLINE, start);
      const end = nl === -1 ? chunk.length : nl;
      // Fast path: a whole line inside this chunk is decoded in place, no copy.
      if (nl !== -1 && this.buffered === 0 && this.dropped === 0 && end - start <= this.maxLineBytes) {
        const event = lineEvent(chunk.subarray(start, end));
        if (event) events.push(event);
        start = nl + 1;
        continue;
      }
      this.append(chunk.subarray(start, end));
      if (nl === -1) break;
      const event = this.finishLine();
      if (event) events.push(event);
      start = nl + 1;
    }
    return events;
  }

  /** Flushes a last line that had no newline (stream ended). */
  end(): LineEvent[] {
    const event = this.finishLine();
    return event ? [event] : [];
  }

  private append(bytes: Uint8Array): void {
    if (bytes.length === 0) return;
    if (this.dropped > 0) {
      this.dropped += bytes.length;
      return;
    }
    if (this.buffered + bytes.length > this.maxLineBytes) {
      const head = this.concat().subarray(0, PREVIEW_BYTES);
      const preview = new Uint8Array(Math.min(PREVIEW_BYTES, head.length + bytes.length));
      preview.set(head);
      preview.set(bytes.subarray(0, preview.length - head.length), head.length);
      // Lenient decode: the preview may end inside a multi-byte character.
      this.preview = new TextDecoder().decode(preview);
      this.dropped = this.buffered + bytes.length;
      this.parts = [];
      this.buffered = 0;
      return;
    }
    // A copy (a Buffer's slice() would be a view): the caller may reuse its chunk buffer.
    this.parts.push(new Uint8Array(bytes));
    this.buffered += bytes.length;
  }

  private finishLine(): LineEvent | undefined {
    if (this.dropped > 0) {
      const event: LineEvent = { type: "oversize", bytes: this.dropped, preview: this.preview };
      this.dropped = 0;
      this.preview = "";
      return event;
    }
    if (this.buffered === 0) return undefined;
    const event = lineEvent(this.concat());
    this.parts = [];
    this.buffered = 0;
    return event;
  }

  private concat(): Uint8Array {
    if (this.parts.length === 1) return this.parts[0]!;
    const out = new Uint8Array(this.buffered);
    let offset = 0;
    for (const part of this.parts) {
      out.set(part, offset);
      offset += part.length;
    }
    return out;
  }
}
