/**
 * Reads a transcript as it downloads, so the viewer can show the first frames
 * of a 100,000-frame file before the last byte arrives. Same rules as
 * parseTranscript (it does the checking, batch by batch); line numbers in
 * errors are the file's. Also splits the events into what a session view
 * needs: frames, stderr chunks and lifecycle entries for the timeline.
 */
import type { Frame } from "../protocol/frame";
import type { TimelineEvent } from "./frame-filter";
import {
  parseTranscript,
  TranscriptError,
  type AgentInfoEvent,
  type LifecycleEvent,
  type TranscriptEvent,
  type TranscriptHeader,
} from "../contracts/transcript";

export interface StderrChunk {
  ts: number;
  text: string;
}

/** What one batch of lines added. */
export interface RecordedPart {
  frames: Frame[];
  stderr: StderrChunk[];
  lifecycle: TimelineEvent[];
}

/** Timeline text for a lifecycle line; "stopping" is left out, as in the live view. */
export function lifecycleEntry(e: LifecycleEvent, header?: TranscriptHeader): TimelineEvent | undefined {
  switch (e.event) {
    case "spawned": {
      const a = header?.agent;
      const how = a ? ` · ${[a.command, ...a.args].join(" ")} · cwd ${a.cwd}` : "";
      return { ts: e.ts, type: "started", text: `agent started: ${a?.profile ?? "agent"} · pid ${e.pid ?? "?"}${how}` };
    }
    case "exited":
      return { ts: e.ts, type: "exited", text: `agent exited (${e.signal ? `signal ${e.signal}` : `code ${e.code}`})` };
    case "error":
      return { ts: e.ts, type: "error", text: `agent error: ${e.message ?? "unknown"}` };
    case "transport":
      return { ts: e.ts, type: "transport", text: e.message ?? "" };
    case "capped":
      return { ts: e.ts, type: "error", text: `transcript cut: ${e.message ?? "size cap reached"}` };
    default:
      return undefined;
  }
}

export class TranscriptReader {
  header?: TranscriptHeader;
  agentInfo?: AgentInfoEvent;
  exit?: LifecycleEvent;
  spawned?: LifecycleEvent;
  redactions = 0;
  truncated = false;
  frameCount = 0;

  #headerLine = "";
  #rest = "";
  /** File line number of the next complete line. */
  #line = 1;
  #lastSeq = 0;
  #ended = false;

  /** Feeds the next piece of text; returns what its complete lines added. Throws TranscriptError. */
  push(chunk: string): RecordedPart {
    if (this.#ended) throw new Error("push after end");
    const text = this.#rest + chunk;
    const cut = text.lastIndexOf("\n");
    if (cut < 0) {
      this.#rest = text;
      return empty();
    }
    this.#rest = text.slice(cut + 1);
    return this.#lines(text.slice(0, cut + 1), true);
  }

  /** The end of the file: a last line without its newline is read, or marks the transcript truncated. */
  end(): RecordedPart {
    if (this.#ended) return empty();
    this.#ended = true;
    const rest = this.#rest;
    this.#rest = "";
    if (rest === "") {
      if (!this.header) throw new TranscriptError(1, "empty file: no header");
      return empty();
    }
    return this.#lines(rest, false);
  }

  #lines(text: string, complete: boolean): RecordedPart {
    let body = text;
    if (!this.header) {
      const nl = text.indexOf("\n");
      this.#headerLine = nl < 0 ? text : text.slice(0, nl);
      // parseTranscript checks the header; a lone header line must end with its newline.
      this.header = parseTranscript(`${this.#headerLine}\n`).header;
      this.#line = 2;
      body = nl < 0 ? "" : text.slice(nl + 1);
      if (body === "") return empty();
    }
    const firstLine = this.#line;
    let parsed;
    try {
      parsed = parseTranscript(`${this.#headerLine}\n${body}`);
    } catch (err) {
      // Line 2 of the combined text is this batch's first line.
      if (err instanceof TranscriptError)
        throw new TranscriptError(firstLine + err.line - 2, err.message.replace(/^line \d+: /, ""));
      throw err;
    }
    this.#line += countLines(body, complete);
    if (parsed.truncated) this.truncated = true;
    const first = parsed.frames[0];
    if (first && first.seq <= this.#lastSeq) {
      throw new TranscriptError(
        firstLine + lineOfFirstFrame(body),
        `frame seq ${first.seq} does not follow ${this.#lastSeq}`,
      );
    }
    const last = parsed.frames.at(-1);
    if (last) this.#lastSeq = last.seq;
    this.frameCount += parsed.frames.length;
    this.redactions += parsed.redactions;
    return { frames: parsed.frames, ...this.#split(parsed.events) };
  }

  #split(events: TranscriptEvent[]): Omit<RecordedPart, "frames"> {
    const stderr: StderrChunk[] = [];
    const lifecycle: TimelineEvent[] = [];
    for (const e of events) {
      if (e.type === "stderr") stderr.push({ ts: e.ts, text: e.text });
      else if (e.type === "agent-info") this.agentInfo ??= e;
      else if (e.type === "lifecycle") {
        if (e.event === "exited") this.exit = e;
        if (e.event === "spawned") this.spawned ??= e;
        const entry = lifecycleEntry(e, this.header);
        if (entry) lifecycle.push(entry);
      }
    }
    return { stderr, lifecycle };
  }
}

const empty = (): RecordedPart => ({ frames: [], stderr: [], lifecycle: [] });

function countLines(text: string, complete: boolean): number {
  let n = 0;
  for (let i = text.indexOf("\n"); i >= 0; i = text.indexOf("\n", i + 1)) n++;
  return complete ? n : n + 1;
}

/** Offset (from 0) of the first frame line in a batch; only on the error path. */
function lineOfFirstFrame(body: string): number {
  const lines = body.split("\n");
  const i = lines.findIndex((l) => l.includes('"type":"frame"'));
  return Math.max(0, i);
}

/** Reads a whole text at once (tests, small files). */
export function readAll(text: string): { reader: TranscriptReader; part: RecordedPart } {
  const reader = new TranscriptReader();
  const a = reader.push(text);
  const b = reader.end();
  return {
    reader,
    part: {
      frames: [...a.frames, ...b.frames],
      stderr: [...a.stderr, ...b.stderr],
      lifecycle: [...a.lifecycle, ...b.lifecycle],
    },
  };
}
