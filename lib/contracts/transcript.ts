/**
 * The transcript format (docs/transcript-format.md): JSON Lines, a header line
 * then one event per line. Written by the relay as it goes, read by the
 * playground's importer, the viewer and the CLI.
 */
import type { Frame, FrameDirection, FrameKind, JsonRpcId, WireFrame } from "../protocol/frame";
import { isObject } from "../protocol/json";
import { AGENT_METHODS } from "../protocol/methods";
import type { TranscriptKind } from "./transcript-meta";

export const TRANSCRIPT_FORMAT = "acp-playground-transcript";
export const TRANSCRIPT_VERSION = "1.1";
const MAJOR = 1;

export interface TranscriptHeader {
  type: "header";
  format: typeof TRANSCRIPT_FORMAT;
  version: string;
  id: string;
  createdAt: string;
  title?: string;
  playground: { version: string };
  agent: { profile: string; command: string; args: string[]; cwd: string; options?: Record<string, unknown> };
  /** Recorded through `acp-playground tap`: an editor, not the playground, was the client. */
  tapped?: true;
  /** How it was made (a session, a probe, a re-run…); absent in files from before it was recorded. */
  kind?: TranscriptKind;
}

export interface FrameEvent {
  type: "frame";
  seq: number;
  ts: number;
  dir: FrameDirection;
  raw: string;
  /** The exact bytes, base64, of a line that is not UTF-8 (version 1.1). */
  rawBase64?: string;
  kind: FrameKind;
  method?: string;
  id?: JsonRpcId;
  /** Absent in transcripts recorded before it was on the wire. */
  requestSeq?: number;
  latencyMs?: number;
  error?: string;
  /** How many secrets were replaced in `raw` before it was written. */
  redacted?: number;
  /** A browser injected it into a tapped conversation. */
  injected?: true;
}

export interface StderrEventLine {
  type: "stderr";
  ts: number;
  text: string;
  redacted?: number;
}

export interface LifecycleEvent {
  type: "lifecycle";
  ts: number;
  /** "transport": a remote agent's HTTP / SSE / WebSocket event, told in `message`. */
  /** "capped": the recording reached its size cap and stopped here (the last line). */
  event: "spawned" | "exited" | "error" | "stopping" | "transport" | "capped";
  pid?: number;
  code?: number | null;
  signal?: string | null;
  message?: string;
}

/** What the agent said of itself in its initialize result. */
export interface AgentInfoEvent {
  type: "agent-info";
  ts: number;
  protocolVersion?: unknown;
  agentInfo?: unknown;
  agentCapabilities?: unknown;
  authMethods?: unknown;
}

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

export function frameEvent(frame: WireFrame, raw = frame.raw, redacted = 0, rawBase64 = frame.rawBase64): FrameEvent {
  const e: FrameEvent = { type: "frame", seq: frame.seq, ts: frame.ts, dir: frame.dir, raw, kind: frame.kind };
  if (rawBase64 !== undefined) e.rawBase64 = rawBase64;
  if (frame.method !== undefined) e.method = frame.method;
  if (frame.id !== undefined) e.id = frame.id;
  if (frame.requestSeq !== undefined) e.requestSeq = frame.requestSeq;
  if (frame.latencyMs !== undefined) e.latencyMs = frame.latencyMs;
  if (frame.error !== undefined) e.error = frame.error;
  if (redacted > 0) e.redacted = redacted;
  if (frame.injected) e.injected = true;
  return e;
}

export function eventToFrame(e: FrameEvent): Frame {
  const frame: Frame = { seq: e.seq, ts: e.ts, dir: e.dir, raw: e.raw, kind: e.kind, message: undefined };
  if (e.rawBase64 !== undefined) frame.rawBase64 = e.rawBase64;
  else if (e.kind !== "invalid" || e.raw.startsWith("{")) {
    try {
      frame.message = JSON.parse(e.raw);
    } catch {
      // an invalid frame stays raw
    }
  }
  if (e.method !== undefined) frame.method = e.method;
  if (e.id !== undefined) frame.id = e.id;
  if (e.requestSeq !== undefined) frame.requestSeq = e.requestSeq;
  if (e.latencyMs !== undefined) frame.latencyMs = e.latencyMs;
  if (e.error !== undefined) frame.error = e.error;
  if (e.injected === true) frame.injected = true;
  return frame;
}

export const serialize = (line: TranscriptHeader | TranscriptEvent): string => `${JSON.stringify(line)}\n`;

/** serialize(frameEvent(...)) for the recorder's hot path, without building the event object. */
export function serializeFrame(
  frame: WireFrame,
  raw = frame.raw,
  redacted = 0,
  rawBase64 = frame.rawBase64,
  ts = frame.ts,
): string {
  let line = `{"type":"frame","seq":${frame.seq},"ts":${ts},"dir":"${frame.dir}","raw":${JSON.stringify(raw)}`;
  if (rawBase64 !== undefined) line += `,"rawBase64":${JSON.stringify(rawBase64)}`;
  line += `,"kind":"${frame.kind}"`;
  if (frame.method !== undefined) line += `,"method":${JSON.stringify(frame.method)}`;
  if (frame.id !== undefined) line += `,"id":${JSON.stringify(frame.id)}`;
  if (frame.requestSeq !== undefined) line += `,"requestSeq":${frame.requestSeq}`;
  if (frame.latencyMs !== undefined) line += `,"latencyMs":${frame.latencyMs}`;
  if (frame.error !== undefined) line += `,"error":${JSON.stringify(frame.error)}`;
  if (redacted > 0) line += `,"redacted":${redacted}`;
  if (frame.injected) line += `,"injected":true`;
  return `${line}}\n`;
}

const BASE64 = /^(?:[A-Za-z0-9+/]{4})*(?:[A-Za-z0-9+/]{2}==|[A-Za-z0-9+/]{3}=)?$/;
const DIRS = new Set(["to-agent", "from-agent"]);
const KINDS = new Set(["request", "response", "notification", "invalid"]);

function checkHeader(value: unknown): TranscriptHeader {
  if (!isObject(value) || value.type !== "header")
    throw new TranscriptError(1, 'the first line must be a header ({"type":"header",...})');
  if (value.format !== TRANSCRIPT_FORMAT) throw new TranscriptError(1, `format must be "${TRANSCRIPT_FORMAT}"`);
  if (typeof value.version !== "string" || !/^\d+\.\d+$/.test(value.version)) {
    throw new TranscriptError(1, 'version must look like "1.0"');
  }
  const major = Number(value.version.split(".")[0]);
  if (major !== MAJOR) {
    throw new TranscriptError(
      1,
      `unsupported transcript version ${value.version}: this playground reads version ${MAJOR}.x`,
    );
  }
  if (typeof value.id !== "string" || typeof value.createdAt !== "string")
    throw new TranscriptError(1, "header needs id and createdAt");
  const agent = value.agent;
  if (
    !isObject(agent) ||
    typeof agent.profile !== "string" ||
    typeof agent.command !== "string" ||
    !Array.isArray(agent.args)
  ) {
    throw new TranscriptError(1, "header.agent needs profile, command and args");
  }
  return value as unknown as TranscriptHeader;
}

function checkEvent(value: unknown, line: number, lastSeq: number): TranscriptEvent {
  if (!isObject(value)) throw new TranscriptError(line, "an event must be a JSON object");
  if (typeof value.ts !== "number") throw new TranscriptError(line, "ts must be a number");
  switch (value.type) {
    case "frame": {
      if (typeof value.seq !== "number" || !Number.isInteger(value.seq))
        throw new TranscriptError(line, "frame seq must be an integer");
      if (value.seq <= lastSeq) throw new TranscriptError(line, `frame seq ${value.seq} does not follow ${lastSeq}`);
      if (!DIRS.has(value.dir as string))
        throw new TranscriptError(line, 'frame dir must be "to-agent" or "from-agent"');
      if (typeof value.raw !== "string") throw new TranscriptError(line, "frame raw must be a string");
      if (value.rawBase64 !== undefined && !(typeof value.rawBase64 === "string" && BASE64.test(value.rawBase64)))
        throw new TranscriptError(line, "frame rawBase64 must be a base64 string");
      if (value.rawBase64 !== undefined && value.kind !== "invalid")
        throw new TranscriptError(line, "a frame with rawBase64 (not UTF-8) must be invalid");
      if (!KINDS.has(value.kind as string))
        throw new TranscriptError(line, "frame kind must be request, response, notification or invalid");
      const rs = value.requestSeq;
      if (rs !== undefined && !(Number.isInteger(rs) && (rs as number) > 0 && (rs as number) < value.seq))
        throw new TranscriptError(line, "frame requestSeq must be the seq of an earlier frame");
      return value as unknown as FrameEvent;
    }
    case "stderr":
      if (typeof value.text !== "string") throw new TranscriptError(line, "stderr text must be a string");
      return value as unknown as StderrEventLine;
    case "lifecycle":
      if (typeof value.event !== "string") throw new TranscriptError(line, "lifecycle event must be a string");
      return value as unknown as LifecycleEvent;
    case "agent-info":
      return value as unknown as AgentInfoEvent;
    default:
      throw new TranscriptError(line, `unknown event type ${JSON.stringify(value.type)}`);
  }
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
      header = checkHeader(value);
      continue;
    }
    const event = checkEvent(value, lineNo, lastSeq);
    events.push(event);
    if (event.type === "frame") {
      lastSeq = event.seq;
      frames.push(eventToFrame(event));
    }
    if ((event.type === "frame" || event.type === "stderr") && event.redacted) redactions += event.redacted;
  }
  return { header: header!, events, frames, truncated, redactions };
}

/** Number of prompt turns: session/prompt requests sent to the agent. */
export function countTurns(frames: Pick<Frame, "dir" | "kind" | "method">[]): number {
  return frames.filter((f) => f.dir === "to-agent" && f.kind === "request" && f.method === AGENT_METHODS.session_prompt)
    .length;
}
