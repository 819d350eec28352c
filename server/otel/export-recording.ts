/**
 * A transcript file to an OTLP endpoint, read as a stream: lines are folded into spans as they are
 * read and sent in batches, one batch in flight, so a 100,000-frame recording holds one chunk of
 * text, the running turns and one batch at a time.
 */
import { createReadStream } from "node:fs";
import { StringDecoder } from "node:string_decoder";
import { TranscriptReader, type RecordedPart } from "../../lib/folds/transcript-stream";
import { SessionSpans, type SessionSpanOptions } from "../../lib/features/otel/session-spans";
import type { TraceSpan } from "../../lib/features/otel/trace-span";
import type { OtlpSender } from "./otlp-sender";

/** Spans per OTLP request: well under backends' request limits (Phoenix, Tempo: 4 MiB and more). */
export const BATCH_SPANS = 256;

export interface ExportSummary {
  transcriptId: string;
  spans: number;
  turns: number;
}

type Lifecycle = Parameters<SessionSpans["lifecycle"]>[0];

/** The lifecycle lines that end or fail turns (the reader keeps only the last exit), in file order. */
function lifecycleOf(lines: string): Lifecycle[] {
  if (!lines.includes('"lifecycle"')) return [];
  const out: Lifecycle[] = [];
  for (const line of lines.split("\n")) {
    if (!line.includes('"lifecycle"')) continue;
    try {
      const e = JSON.parse(line) as Lifecycle & { type?: string };
      if (e.type === "lifecycle" && typeof e.ts === "number") out.push(e);
    } catch {
      // The reader reports a broken line with its number.
    }
  }
  return out;
}

export async function exportRecording(
  file: string,
  sender: OtlpSender,
  options: SessionSpanOptions,
  onProgress?: (sent: number) => void,
  /** The id the store knows it by, for the ids and links, when it is not the header's (an import, the demo). */
  transcriptId?: string,
): Promise<ExportSummary> {
  const reader = new TranscriptReader();
  let spans: SessionSpans | undefined;
  let batch: TraceSpan[] = [];
  let sent = 0;
  let turns = 0;
  const flush = async (all: boolean) => {
    while (batch.length >= BATCH_SPANS || (all && batch.length)) {
      const next = batch.slice(0, BATCH_SPANS);
      batch = batch.slice(BATCH_SPANS);
      await sender.send(next);
      sent += next.length;
      onProgress?.(sent);
    }
  };
  const queue = (out: TraceSpan[]) => {
    for (const s of out) {
      if (s.parentSpanId === undefined) turns++;
      batch.push(s);
    }
  };
  /** One batch of complete lines: the reader checks them and gives the frames; lifecycle lines go in by time. */
  const take = (lines: string, part: RecordedPart) => {
    const header = reader.header;
    if (!header) return;
    spans ??= new SessionSpans(
      {
        transcriptId: transcriptId ?? header.id,
        profile: header.agent.profile,
        protocol: header.agent.protocol,
        model: typeof header.agent.options?.model === "string" ? header.agent.options.model : undefined,
      },
      options,
    );
    const events = lifecycleOf(lines);
    let i = 0;
    for (const f of part.frames) {
      while (i < events.length && events[i]!.ts < f.ts) queue(spans.lifecycle(events[i++]!));
      queue(spans.add(f));
    }
    while (i < events.length) queue(spans.lifecycle(events[i++]!));
  };
  const decoder = new StringDecoder("utf8");
  // The reader cuts at the last newline; the same cut here gives the lifecycle lines of the same batch.
  let carry = "";
  const feed = (text: string) => {
    const all = carry + text;
    const cut = all.lastIndexOf("\n") + 1;
    carry = all.slice(cut);
    take(all.slice(0, cut), reader.push(text));
  };
  for await (const chunk of createReadStream(file, { highWaterMark: 1 << 20 })) {
    feed(decoder.write(chunk as Buffer));
    await flush(false);
  }
  feed(decoder.end());
  take(carry, reader.end());
  if (!reader.header || !spans) throw new Error("empty file: no header");
  queue(spans.finish());
  await flush(true);
  return { transcriptId: transcriptId ?? reader.header.id, spans: sent, turns };
}
