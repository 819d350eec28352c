/**
 * A span as the mapping makes it: plain data with the frames' own times (ms since the epoch) and
 * ids already fixed, so server/ turns it into the OpenTelemetry SDK's ReadableSpan for an exporter
 * without the mapping knowing the SDK, and tests read it directly.
 */

export type AttrValue = string | number | boolean | string[];
export type Attributes = Record<string, AttrValue>;

/** OpenTelemetry's span kinds that the mapping uses. */
export type TraceSpanKind = "client" | "server" | "internal";

export interface TraceSpanEvent {
  name: string;
  time: number;
  attributes: Attributes;
}

export interface TraceSpanLink {
  traceId: string;
  spanId: string;
  attributes: Attributes;
}

export interface TraceSpan {
  /** 32 hex digits. */
  traceId: string;
  /** 16 hex digits. */
  spanId: string;
  parentSpanId?: string;
  name: string;
  kind: TraceSpanKind;
  /** ms since the epoch: the frame that starts it. */
  start: number;
  /** ms since the epoch: the frame that ends it (never before start). */
  end: number;
  attributes: Attributes;
  events: TraceSpanEvent[];
  status: { code: "unset" | "ok" | "error"; message?: string };
  links: TraceSpanLink[];
}

/** Where a span's frames are: the transcript, the first frame's seq, and the viewer's link to it. */
export const ATTR_TRANSCRIPT_ID = "acp_playground.transcript.id";
export const ATTR_SEQ = "acp_playground.seq";
export const ATTR_FRAME_URL = "acp_playground.frame.url";
