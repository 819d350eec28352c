/**
 * Redaction of a line kept as bytes because it is not UTF-8 (a frame's `rawBase64`): the
 * recorder and the tap redact it like the line's text, or it would carry the secrets the
 * text no longer does.
 */
import type { createRedactor } from "../../lib/features/library/redact";

/**
 * Read as Latin-1 (one character per byte), so the bytes around a secret stay as they were.
 * Undefined when a redaction would change bytes beyond that (a `\u` escape decoded and
 * written back): then the exact bytes are not kept at all.
 */
export function redactBytes(redactor: ReturnType<typeof createRedactor>, base64: string): string | undefined {
  const r = redactor.frame(Buffer.from(base64, "base64").toString("latin1"));
  if (r.count === 0) return base64;
  if (/[^\u0000-\u00ff]/.test(r.text)) return undefined;
  return Buffer.from(r.text, "latin1").toString("base64");
}
