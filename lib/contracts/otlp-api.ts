/**
 * The OTLP routes of the HTTP API (docs/relay-protocol.md#http-api, docs/otel.md): where the server
 * sends traces, and the lines a "Send to" answers with while it sends a transcript.
 */

/** `GET /api/otlp`: the endpoint `serve --otlp` was given, or null when none was. */
export interface OtlpTargetInfo {
  url: string | null;
  protocol?: string;
  /** Message contents are sent (`--otlp-content`). */
  content?: boolean;
}

/** One line of `POST /api/transcripts/:id/otlp`'s NDJSON answer; the last is `done` or `error`. */
export type OtlpSendEvent =
  | { type: "progress"; spans: number }
  | { type: "done"; spans: number; traces: number; url: string }
  | { type: "error"; message: string; status?: number };
