/** Small display formatters shared by the panes. */

const two = (n: number) => String(n).padStart(2, "0");

/** HH:MM:SS.mmm in local time. */
export function formatTime(ts: number): string {
  const d = new Date(ts);
  return `${two(d.getHours())}:${two(d.getMinutes())}:${two(d.getSeconds())}.${String(d.getMilliseconds()).padStart(3, "0")}`;
}

export function formatLatency(ms: number | undefined): string {
  if (ms === undefined) return "";
  return ms >= 1000 ? `${(ms / 1000).toFixed(2)} s` : `${ms.toFixed(1)} ms`;
}

export function formatId(id: unknown): string {
  if (id === undefined) return "";
  return JSON.stringify(id) ?? "";
}

/** Pretty JSON for a parsed frame, the raw text for anything else. */
export function prettyFrame(frame: { message?: unknown; raw: string; kind: string }): string {
  if (frame.kind === "invalid" || frame.message === undefined) return frame.raw;
  return JSON.stringify(frame.message, null, 2);
}

/** "512 B", "1.5 KB", "2.00 MB". */
export function formatBytes(n: number): string {
  if (n < 1024) return `${n} B`;
  if (n < 1024 * 1024) return `${(n / 1024).toFixed(1)} KB`;
  return `${(n / 1024 / 1024).toFixed(2)} MB`;
}

/** Date and time with milliseconds, for the detail pane. */
export function formatDateTime(ts: number): string {
  const d = new Date(ts);
  return `${d.getFullYear()}-${two(d.getMonth() + 1)}-${two(d.getDate())} ${formatTime(ts)}`;
}
