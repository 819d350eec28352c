/**
 * The frame: one JSON-RPC line seen on an agent's stdio, in either direction,
 * as the relay records and forwards it. Shared by relay, browser, CLI and tests.
 *
 * Two states: a `WireFrame` is what the relay keeps and sends (no parsed
 * message: clients parse `raw`); a `Frame` has been parsed (`message`).
 */
import type { AnyMessage, JsonRpcId } from "@agentclientprotocol/sdk";

export type { AnyMessage, JsonRpcId };

export type FrameDirection = "to-agent" | "from-agent";
export type FrameKind = "request" | "response" | "notification" | "invalid";

export interface WireFrame {
  /** Counts from 1 per agent and never skips. */
  seq: number;
  /** Milliseconds since the epoch when the relay saw the line. */
  ts: number;
  dir: FrameDirection;
  /** The exact line, without its LF (a CR before it is kept). */
  raw: string;
  /**
   * The line's exact bytes, base64, when they are not valid UTF-8 (a transport violation:
   * the frame is invalid, and `raw` shows those bytes as U+FFFD).
   */
  rawBase64?: string;
  kind: FrameKind;
  method?: string;
  id?: JsonRpcId;
  /** For a response: the seq of the request it answers (absent when none matches). */
  requestSeq?: number;
  /** For a response: milliseconds since the request it answers. */
  latencyMs?: number;
  /** Why the line is invalid, or why a response matches no request. */
  error?: string;
  /** Sent by a browser into a tapped conversation, not by the editor. */
  injected?: true;
}

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

/** Classifies an already parsed JSON value as a JSON-RPC 2.0 message. */
export function classifyMessage(message: unknown): Classified {
  if (Array.isArray(message)) {
    return { kind: "invalid", message, error: "JSON-RPC batches are not part of ACP" };
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
  if (m.jsonrpc !== "2.0") {
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
export function classifyLine(raw: string): Classified {
  let message: unknown;
  try {
    message = JSON.parse(raw);
  } catch (err) {
    return { kind: "invalid", error: `not JSON: ${(err as Error).message}` };
  }
  return classifyMessage(message);
}

/** Approximate UTF-8 size of a frame's raw text, for display. */
export function frameBytes(frame: Pick<WireFrame, "raw">): number {
  return new TextEncoder().encode(frame.raw).length;
}
