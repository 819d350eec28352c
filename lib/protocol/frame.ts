/**
 * The frame: one JSON-RPC line seen on an agent's stdio, in either direction,
 * as the relay records and forwards it. Shared by relay, browser, CLI and tests.
 *
 * Two states: a `WireFrame` is what the relay keeps and sends (no parsed
 * message: clients parse `raw`); a `Frame` has been parsed (`message`).
 */
import type { AnyMessage, JsonRpcId } from "@agentclientprotocol/sdk";
import { field, type Infer, type Shape } from "./record-schema";
import { DEFAULT_PROTOCOL, PROTOCOLS, type ProtocolName } from "./protocols";

export type { AnyMessage, JsonRpcId };

/** A JSON-RPC id as a map key: 1 and "1" are different requests (an absent id keys as null). */
export const idKey = (id: JsonRpcId | null | undefined): string =>
  typeof id === "string" ? `s:${id}` : `n:${String(id ?? null)}`;

/**
 * The frame record, declared once: `WireFrame` is inferred from it, the
 * transcript's frame events add their own fields to it, and the converters and
 * the transcript's checks walk it (lib/contracts/transcript.ts). A new field is
 * one line here.
 */
const BASE64 = /^(?:[A-Za-z0-9+/]{4})*(?:[A-Za-z0-9+/]{2}==|[A-Za-z0-9+/]{3}=)?$/;

export const FRAME_FIELDS = {
  /** Counts from 1 per agent and never skips. */
  seq: field.int,
  /** Milliseconds since the epoch when the relay saw the line. */
  ts: field.number,
  dir: field.oneOf("to-agent", "from-agent").says('must be "to-agent" or "from-agent"'),
  /** The exact line, without its LF (a CR before it is kept). */
  raw: field.string,
  /**
   * The line's exact bytes, base64, when they are not valid UTF-8 (a transport violation:
   * the frame is invalid, and `raw` shows those bytes as U+FFFD).
   */
  rawBase64: field.matching(BASE64, "must be a base64 string").opt(),
  kind: field
    .oneOf("request", "response", "notification", "invalid")
    .says("must be request, response, notification or invalid"),
  method: field.string.opt(),
  id: field.id.opt(),
  /** For a response: the seq of the request it answers (absent when none matches). */
  requestSeq: field.int.opt(),
  /** For a response: milliseconds since the request it answers. */
  latencyMs: field.number.opt(),
  /** Why the line is invalid, or why a response matches no request. */
  error: field.string.opt(),
  /** Sent by a browser into a tapped conversation, not by the editor. */
  injected: field.true.opt(),
} as const satisfies Shape;

/** One JSON-RPC line as the relay keeps and sends it (no parsed message: clients parse `raw`). */
export type WireFrame = Infer<typeof FRAME_FIELDS>;
export type FrameDirection = WireFrame["dir"];
export type FrameKind = WireFrame["kind"];

/** A frame with its line parsed: `message` is undefined only when `raw` is not JSON. */
export interface Frame extends WireFrame {
  message: unknown;
}

export interface Classified {
  kind: FrameKind;
  message?: unknown;
  method?: string;
  id?: JsonRpcId;
  error?: string;
}

const isId = (v: unknown): v is JsonRpcId =>
  v === null || typeof v === "string" || (typeof v === "number" && Number.isFinite(v));

/**
 * Classifies an already parsed JSON value as a JSON-RPC 2.0 message. `"jsonrpc": "2.0"` is required
 * in ACP; Codex's app-server leaves it out, and a message there may carry it or not.
 */
export function classifyMessage(message: unknown, protocol: ProtocolName = DEFAULT_PROTOCOL): Classified {
  if (Array.isArray(message)) {
    return { kind: "invalid", message, error: `JSON-RPC batches are not part of ${PROTOCOLS[protocol].label}` };
  }
  if (typeof message !== "object" || message === null) {
    return { kind: "invalid", message, error: "not a JSON-RPC object" };
  }
  const m = message as Record<string, unknown>;
  const hasId = "id" in m && m.id !== undefined;
  if (hasId && !isId(m.id)) {
    return { kind: "invalid", message, error: "id must be a string, a number or null" };
  }
  const id = hasId ? (m.id as JsonRpcId) : undefined;
  if (PROTOCOLS[protocol].jsonrpcMember ? m.jsonrpc !== "2.0" : "jsonrpc" in m && m.jsonrpc !== "2.0") {
    return { kind: "invalid", message, id, error: 'jsonrpc must be "2.0"' };
  }
  if ("method" in m) {
    if (typeof m.method !== "string") {
      return { kind: "invalid", message, id, error: "method must be a string" };
    }
    return { kind: hasId ? "request" : "notification", message, method: m.method, id };
  }
  if (hasId && ("result" in m || "error" in m)) {
    if ("result" in m && "error" in m) {
      return { kind: "invalid", message, id, error: "a response has either result or error, not both" };
    }
    return { kind: "response", message, id };
  }
  return { kind: "invalid", message, id, error: "neither a request, a response nor a notification" };
}

/** Parses and classifies one line of text. Never throws. */
export function classifyLine(raw: string, protocol: ProtocolName = DEFAULT_PROTOCOL): Classified {
  let message: unknown;
  try {
    message = JSON.parse(raw);
  } catch (err) {
    return { kind: "invalid", error: `not JSON: ${(err as Error).message}` };
  }
  return classifyMessage(message, protocol);
}

/** Approximate UTF-8 size of a frame's raw text, for display. */
export function frameBytes(frame: Pick<WireFrame, "raw">): number {
  return new TextEncoder().encode(frame.raw).length;
}
