/**
 * The transcript format (docs/transcript-format.md): JSON Lines, a header line
 * then one event per line. Written by the relay as it goes, read by the
 * playground's importer, the viewer and the CLI.
 */
import { FRAME_FIELDS, type Frame, type WireFrame } from "../protocol/frame";
import { field, pickFields, shapeIssue, type Infer, type Shape } from "../protocol/record-schema";
import { display, isObject } from "../protocol/json";
import { DEFAULT_PROTOCOL, isTurnStart, PROTOCOL_NAMES, type ProtocolName } from "../protocol/protocols";
import type { TranscriptKind } from "./transcript-meta";

export const TRANSCRIPT_FORMAT = "acp-playground-transcript";
export const TRANSCRIPT_VERSION = "1.2";
const MAJOR = 1;

const HEADER_FIELDS = {
  type: field.oneOf("header"),
  format: field.oneOf(TRANSCRIPT_FORMAT).says(`must be "${TRANSCRIPT_FORMAT}"`),
  version: field.matching(/^\d+\.\d+$/, 'must look like "1.0"'),
  id: field.string,
  createdAt: field.string,
  title: field.string.opt(),
  playground: field.object({ version: field.string }),
  agent: field.object({
    profile: field.string,
    command: field.string,
    args: field.strings,
    cwd: field.string,
    options: field.record.opt(),
    /** The protocol spoken (lib/protocol/protocols.ts); absent: ACP (1.2 added it). */
    protocol: field.oneOf(...PROTOCOL_NAMES).opt(),
  }),
  /** Recorded through `acp-playground tap`: an editor, not the playground, was the client. */
  tapped: field.true.opt(),
  /** How it was made (a session, a probe, a re-run…); absent in files from before it was recorded. Not checked against today's list: a newer 1.x may add one. */
  kind: field.string.as<TranscriptKind>().opt(),
} as const satisfies Shape;

export type TranscriptHeader = Infer<typeof HEADER_FIELDS>;

/** A frame event's fields: the frame record's (lib/protocol/frame.ts), and how many secrets were replaced in `raw`. */
const FRAME_EVENT_FIELDS = { ...FRAME_FIELDS, redacted: field.count.opt() } as const satisfies Shape;

/** `requestSeq` is absent in transcripts recorded before it was on the wire. */
export type FrameEvent = { type: "frame" } & Infer<typeof FRAME_EVENT_FIELDS>;

const STDERR_FIELDS = {
  type: field.oneOf("stderr"),
  ts: field.number,
  text: field.string,
  redacted: field.count.opt(),
} as const satisfies Shape;

export type StderrEventLine = Infer<typeof STDERR_FIELDS>;

type LifecycleName = "spawned" | "exited" | "error" | "stopping" | "transport" | "capped";

const LIFECYCLE_FIELDS = {
  type: field.oneOf("lifecycle"),
  ts: field.number,
  /**
   * "transport": a remote agent's HTTP / SSE / WebSocket event, told in `message`; "capped": the
   * recording reached its size cap and stopped here (the last line). Not checked against the list: a
   * newer 1.x may add one.
   */
  event: field.string.as<LifecycleName>(),
  pid: field.int.opt(),
  code: field.nullable(field.int).opt(),
  signal: field.nullable(field.string).opt(),
  message: field.string.opt(),
} as const satisfies Shape;

export type LifecycleEvent = Infer<typeof LIFECYCLE_FIELDS>;

/** What the agent said of itself in its initialize result (the agent's own words, unchecked). */
const AGENT_INFO_FIELDS = {
  type: field.oneOf("agent-info"),
  ts: field.number,
  protocolVersion: field.unknown.opt(),
  agentInfo: field.unknown.opt(),
  agentCapabilities: field.unknown.opt(),
  authMethods: field.unknown.opt(),
} as const satisfies Shape;

export type AgentInfoEvent = Infer<typeof AGENT_INFO_FIELDS>;

/** The transcript's line format, one shape per event type: what `parseTranscript` checks. */
const EVENT_SHAPES = {
  frame: { type: field.oneOf("frame"), ...FRAME_EVENT_FIELDS },
  stderr: STDERR_FIELDS,
  lifecycle: LIFECYCLE_FIELDS,
  "agent-info": AGENT_INFO_FIELDS,
} as const satisfies Record<string, Shape>;

export type TranscriptEvent = FrameEvent | StderrEventLine | LifecycleEvent | AgentInfoEvent;

export interface Transcript {
  header: TranscriptHeader;
  events: TranscriptEvent[];
  /** Frames rebuilt from the frame events, with parsed messages. */
  frames: Frame[];
  /** True when the last line was cut off (a crash mid-write) and was skipped. */
  truncated: boolean;
  redactions: number;
}

export class TranscriptError extends Error {
  constructor(
    readonly line: number,
    message: string,
  ) {
    super(`line ${line}: ${message}`);
  }
}

/** The frame fields a record has, copied in the record's order (undefined ones left out). */
const frameFieldsOf = (from: Readonly<Record<string, unknown>>) => pickFields(FRAME_FIELDS, from) as WireFrame;

export function frameEvent(frame: WireFrame, raw = frame.raw, redacted = 0): FrameEvent {
  return { type: "frame", ...frameFieldsOf(frame), raw, ...(redacted > 0 ? { redacted } : {}) };
}

export function eventToFrame(e: FrameEvent): Frame {
  const frame: Frame = { ...frameFieldsOf(e), message: undefined };
  if (e.rawBase64 === undefined && (e.kind !== "invalid" || e.raw.startsWith("{"))) {
    try {
      frame.message = JSON.parse(e.raw);
    } catch {
      // an invalid frame stays raw
    }
  }
  return frame;
}

export const serialize = (line: TranscriptHeader | TranscriptEvent): string => `${JSON.stringify(line)}\n`;

/** Each frame field with the text that opens it in a line (`,"seq":`), in the record's order. */
const FRAME_KEYS = (Object.keys(FRAME_FIELDS) as Array<keyof WireFrame>).map((key) => [key, `,"${key}":`] as const);

/** serialize(frameEvent(...)) for the recorder's hot path, without building the event object. */
export function serializeFrame(
  frame: WireFrame,
  raw = frame.raw,
  redacted = 0,
  rawBase64 = frame.rawBase64,
  ts = frame.ts,
): string {
  const override: Partial<WireFrame> = { raw, rawBase64, ts };
  let line = '{"type":"frame"';
  for (const [key, opening] of FRAME_KEYS) {
    const value = key in override ? override[key] : frame[key];
    if (value === undefined) continue;
    line += opening + (typeof value === "number" ? String(value) : JSON.stringify(value));
  }
  if (redacted > 0) line += `,"redacted":${redacted}`;
  return `${line}}\n`;
}

/** The header line (line 1), checked: throws TranscriptError. */
export function checkHeaderLine(value: unknown): TranscriptHeader {
  if (!isObject(value) || value.type !== "header")
    throw new TranscriptError(1, 'the first line must be a header ({"type":"header",...})');
  if (value.format !== TRANSCRIPT_FORMAT) throw new TranscriptError(1, `format must be "${TRANSCRIPT_FORMAT}"`);
  if (HEADER_FIELDS.version.accepts(value.version) && Number(String(value.version).split(".")[0]) !== MAJOR) {
    throw new TranscriptError(
      1,
      `unsupported transcript version ${display(value.version)}: this playground reads version ${MAJOR}.x`,
    );
  }
  const issue = shapeIssue(HEADER_FIELDS, value);
  if (issue) throw new TranscriptError(1, `header ${issue}`);
  return value as TranscriptHeader;
}

/** An event line, checked by its type's fields (a frame's seq must follow `lastSeq`): throws TranscriptError. */
export function checkEventLine(value: unknown, line: number, lastSeq: number): TranscriptEvent {
  if (!isObject(value)) throw new TranscriptError(line, "an event must be a JSON object");
  const type = value.type;
  if (typeof type !== "string" || !Object.hasOwn(EVENT_SHAPES, type))
    throw new TranscriptError(line, `unknown event type ${JSON.stringify(type)}`);
  const issue = shapeIssue(EVENT_SHAPES[type as keyof typeof EVENT_SHAPES], value);
  if (issue) throw new TranscriptError(line, `${type} ${issue}`);
  if (type !== "frame") return value as TranscriptEvent;
  const frame = value as FrameEvent;
  if (frame.rawBase64 !== undefined && frame.kind !== "invalid")
    throw new TranscriptError(line, "a frame with rawBase64 (not UTF-8) must be invalid");
  if (frame.seq <= lastSeq) throw new TranscriptError(line, `frame seq ${frame.seq} does not follow ${lastSeq}`);
  const rs = frame.requestSeq;
  if (rs !== undefined && !(rs > 0 && rs < frame.seq))
    throw new TranscriptError(line, "frame requestSeq must be the seq of an earlier frame");
  return frame;
}

/**
 * Parses a whole transcript. Throws TranscriptError naming the line; a last
 * line without its newline that does not parse (a crash mid-write) is skipped.
 */
export function parseTranscript(text: string): Transcript {
  const lines = text.split("\n");
  const endsWithNewline = text.endsWith("\n");
  if (endsWithNewline) lines.pop();
  if (lines.length === 0 || lines[0]!.trim() === "") throw new TranscriptError(1, "empty file: no header");
  let header: TranscriptHeader | undefined;
  const events: TranscriptEvent[] = [];
  const frames: Frame[] = [];
  let truncated = false;
  let redactions = 0;
  let lastSeq = 0;
  for (let i = 0; i < lines.length; i++) {
    const lineNo = i + 1;
    const line = lines[i]!;
    if (line.trim() === "" && i > 0) continue;
    let value: unknown;
    try {
      value = JSON.parse(line);
    } catch (err) {
      if (i === lines.length - 1 && !endsWithNewline && i > 0) {
        truncated = true;
        break;
      }
      throw new TranscriptError(lineNo, `not JSON: ${(err as Error).message}`);
    }
    if (i === 0) {
      header = checkHeaderLine(value);
      continue;
    }
    const event = checkEventLine(value, lineNo, lastSeq);
    events.push(event);
    if (event.type === "frame") {
      lastSeq = event.seq;
      frames.push(eventToFrame(event));
    }
    if ((event.type === "frame" || event.type === "stderr") && event.redacted) redactions += event.redacted;
  }
  return { header: header!, events, frames, truncated, redactions };
}

/** Number of prompt turns: the requests that start one (session/prompt in ACP, turn/start in the app-server). */
export function countTurns(
  frames: Pick<Frame, "dir" | "kind" | "method">[],
  protocol: ProtocolName = DEFAULT_PROTOCOL,
): number {
  return frames.filter((f) => isTurnStart(protocol, f)).length;
}
