/**
 * How the MCP server reads a transcript: as a stream, from the frame asked for (found by a
 * binary search over the file, not by reading everything before it), keeping only the frames a
 * tool uses and stopping at a byte budget, so one call on a transcript of any size holds and
 * reads a bounded amount. Every frame kept is redacted again with this machine's secrets.
 */
import { closeSync, fstatSync, openSync, readSync } from "node:fs";
import { StringDecoder } from "node:string_decoder";
import type { createRedactor } from "../../lib/features/library/redact";
import { TranscriptReader } from "../../lib/folds/transcript-stream";
import type { Frame } from "../../lib/protocol/frame";
import { protocolOf, type ProtocolName } from "../../lib/protocol/protocols";
import { TranscriptStore } from "../transcripts/transcript-store";

/** Bytes of one transcript that one tool call reads at most (past it, the answer says it was cut). */
export const MAX_READ_BYTES = 16 * 1024 * 1024;
/** A line read to learn its seq while seeking: frames' lines begin with it. */
const PROBE_BYTES = 64 * 1024;

type Redactor = ReturnType<typeof createRedactor>;

export class ToolError extends Error {}

export interface ReadOptions {
  /** Frames before this seq are skipped; the file is entered near it. */
  fromSeq?: number;
  /** True when no frame from this one on is needed (reading stops). */
  done?: (f: Frame) => boolean;
  maxBytes?: number;
}

export interface ReadCut {
  bytes: number;
  limit: number;
  lastSeq: number;
}

export interface ReadResult {
  frames: Frame[];
  title: string;
  protocol: ProtocolName;
  /** Set when the byte budget ended the read before the file did: the bytes read, the budget, the last seq reached. */
  cut?: ReadCut;
}

/** The seq of the first frame line starting in `buf` at or after `at`, and that line's offset there. */
function firstFrame(buf: Buffer, at: number): { seq: number; at: number } | undefined {
  for (let start = at; start < buf.length;) {
    const nl = buf.indexOf(0x0a, start);
    const head = buf.subarray(start, Math.min(nl === -1 ? buf.length : nl, start + 64)).toString("latin1");
    const m = /^\{"type":"frame","seq":(\d{1,15})[,}]/.exec(head);
    if (m) return { seq: Number(m[1]), at: start };
    if (nl === -1) return undefined;
    start = nl + 1;
  }
  return undefined;
}

/**
 * A line's start in the file from which every frame of seq >= `seq` follows (the header's end
 * when unsure): the last probed line whose frame comes before `seq`. Lines are hostile: a file
 * whose seqs do not grow is read from wherever the search ends, and only frames in range count.
 */
export function seekSeq(file: string, seq: number): number {
  const fd = openSync(file, "r");
  try {
    const size = fstatSync(fd).size;
    const buf = Buffer.alloc(PROBE_BYTES);
    const probe = (pos: number): { seq: number; at: number } | undefined => {
      const n = readSync(fd, buf, 0, Math.min(PROBE_BYTES, size - pos), pos);
      const view = buf.subarray(0, n);
      // Past `pos`'s own (probably partial) line.
      const nl = view.indexOf(0x0a);
      const f = nl === -1 ? undefined : firstFrame(view, nl + 1);
      return f && { seq: f.seq, at: pos + f.at };
    };
    let lo = 0;
    let hi = size;
    let best = 0;
    while (hi - lo > PROBE_BYTES) {
      const mid = lo + Math.floor((hi - lo) / 2);
      const f = probe(mid);
      if (f && f.seq < seq) {
        best = f.at;
        lo = mid;
      } else hi = mid;
    }
    return best;
  } finally {
    closeSync(fd);
  }
}

/** A transcript's frames as a share link shows them, redacted again, read as `options` say. */
export async function readFrames(
  store: TranscriptStore,
  id: string,
  redactor: Redactor,
  options: ReadOptions = {},
): Promise<ReadResult> {
  const meta = TranscriptStore.isId(id) ? store.meta(id) : undefined;
  if (!meta) throw new ToolError(`no transcript ${id.slice(0, 80)} (list_transcripts names them)`);
  const fromSeq = options.fromSeq ?? 1;
  const maxBytes = options.maxBytes ?? MAX_READ_BYTES;
  const start = fromSeq > 1 ? seekSeq(store.file(id), fromSeq) : 0;
  let stream: ReturnType<TranscriptStore["stream"]>;
  try {
    // The header line counts against the budget too: it is read whole, before anything else.
    stream = store.stream(id, { hideLocal: true, start, maxHeader: maxBytes });
  } catch (err) {
    throw new ToolError(`transcript ${id} does not parse: ${(err as Error).message}`);
  }
  if (!stream) throw new ToolError(`no transcript ${id.slice(0, 80)} (list_transcripts names them)`);
  const reader = new TranscriptReader();
  const frames: Frame[] = [];
  const decoder = new StringDecoder("utf8");
  let lastSeq = 0;
  let finished = false;
  const take = (part: { frames: Frame[] }) => {
    for (const f of part.frames) {
      lastSeq = f.seq;
      if (finished || f.seq < fromSeq) continue;
      if (options.done?.(f)) {
        finished = true;
        continue;
      }
      const { text, count } = redactor.frame(f.raw);
      if (count === 0) frames.push(f);
      else {
        let message: unknown = f.message;
        try {
          message = JSON.parse(text);
        } catch {
          // stays as it was parsed
        }
        frames.push({ ...f, raw: text, message });
      }
    }
  };
  let bytes = Buffer.byteLength(stream.header);
  let cut = false;
  try {
    take(reader.push(stream.header));
    if (stream.rest)
      for await (const chunk of stream.rest) {
        take(reader.push(decoder.write(chunk as Buffer)));
        bytes += (chunk as Buffer).length;
        if (finished) break;
        if (bytes >= maxBytes) {
          cut = true;
          break;
        }
      }
    if (!cut && !finished) {
      take(reader.push(decoder.end()));
      take(reader.end());
    }
  } catch (err) {
    throw new ToolError(`transcript ${id} does not parse: ${(err as Error).message}`);
  } finally {
    stream.rest?.destroy();
  }
  return {
    frames,
    title: meta.title,
    protocol: protocolOf(meta),
    ...(cut ? { cut: { bytes, limit: maxBytes, lastSeq } } : {}),
  };
}

const mib = (n: number) => `${(n / (1024 * 1024)).toFixed(1)} MiB`;

/** What an answer says when a read was cut (`what`: what was read, e.g. "transcript a"). */
export function cutNote(what: string, cut: ReadCut): string {
  return `Reading ${what} stopped after ${mib(cut.bytes)} at frame ${cut.lastSeq} (one call reads at most ${mib(cut.limit)} of a transcript): the answer covers only what was read.`;
}
