/**
 * The one-file HTML export: a transcript redacted for export, and the page
 * that carries it. The page holds the viewer's code once (one inline script,
 * allowed by its hash), its CSS inline, and the transcript as inert data: a
 * gzip + base64 block (only [A-Za-z0-9+/=], so nothing can break out) in a
 * script element of a type browsers never run. A strict Content-Security-Policy
 * forbids any network access and any other script.
 */
import { createRedactor } from "./redact";
import { parseTranscript, type TranscriptHeader } from "../contracts/transcript";

export const EXPORT_DATA_ID = "acp-transcript";
export const EXPORT_META_ID = "acp-export-meta";

export interface ExportMeta {
  /** ISO date of the export. */
  exportedAt: string;
  /** Secrets replaced at export time (the transcript's own count is in its frames). */
  redactions: number;
  title: string;
  /** No transcript embedded: the page is a viewer that opens a file the reader picks or drops. */
  viewer?: true;
}

/**
 * The transcript with every known secret replaced (lib/features/redact.ts): secret
 * values anywhere in a line, and credential fields in frames. Validates the
 * transcript first (throws TranscriptError).
 */
export function redactTranscript(
  text: string,
  secrets: string[],
): { text: string; redactions: number; header: TranscriptHeader } {
  const { header } = parseTranscript(text);
  const redactor = createRedactor(secrets);
  let redactions = 0;
  const lines = text.split("\n").map((line) => {
    if (line.trim() === "") return line;
    const r = redactor.text(line);
    redactions += r.count;
    let event: { type?: unknown; raw?: unknown; redacted?: unknown };
    try {
      event = JSON.parse(r.text) as typeof event;
    } catch {
      return r.text; // a cut-off last line: parseTranscript accepted it as truncated
    }
    if (event.type !== "frame" && event.type !== "stderr") return r.text;
    const f = event.type === "frame" && typeof event.raw === "string" ? redactor.frame(event.raw) : undefined;
    const count = r.count + (f?.count ?? 0);
    if (count === 0) return r.text;
    redactions += f?.count ?? 0;
    // The event says how much was redacted in it, as the recorder's do.
    const before = typeof event.redacted === "number" ? event.redacted : 0;
    return JSON.stringify({ ...event, ...(f ? { raw: f.text } : {}), redacted: before + count });
  });
  return { text: lines.join("\n"), redactions, header };
}

const HTML_ESCAPES: Record<string, string> = { "&": "&amp;", "<": "&lt;", ">": "&gt;", '"': "&quot;", "'": "&#39;" };
export const escapeHtml = (s: string) => s.replace(/[&<>"']/g, (c) => HTML_ESCAPES[c]!);

/**
 * JSON safe inside a script element: no `<` (so no `</script>` or `<!--`) and
 * no U+2028/U+2029, each written as a \u escape that JSON.parse reads back.
 */
export const scriptJson = (value: unknown) =>
  JSON.stringify(value).replace(/[<>&\u2028\u2029]/g, (c) => `\\u${c.charCodeAt(0).toString(16).padStart(4, "0")}`);

/**
 * Code safe inside a script element: `</script` and `<!--` only occur in the
 * bundle inside strings and regular expressions, where `\x3C` means `<`.
 */
export const inlineScriptCode = (js: string) => js.replace(/<(\/script|!--)/gi, "\\x3C$1");

export interface ExportPageParts {
  title: string;
  /** The viewer bundle, already through inlineScriptCode. */
  script: string;
  /** sha256 of `script`, base64. */
  scriptHash: string;
  css: string;
  /** gzip + base64 of the redacted transcript. */
  data: string;
  meta: ExportMeta;
}

export function exportCsp(scriptHash: string): string {
  return [
    "default-src 'none'",
    `script-src 'sha256-${scriptHash}'`,
    // Tailwind's sheet and React's style attributes.
    "style-src 'unsafe-inline'",
    // The embedded transcript, read back through a blob: URL made from the page's own data.
    "connect-src blob:",
    "base-uri 'none'",
    "form-action 'none'",
  ].join("; ");
}

export function renderExportPage(p: ExportPageParts): string {
  if (!/^[A-Za-z0-9+/=]*$/.test(p.data)) throw new Error("export data must be base64");
  // CSS comes from our own build; still, nothing in it may close the style element.
  const css = p.css.replace(/<\/style/gi, "\\3C/style");
  return `<!doctype html>
<html lang="en">
<head>
<meta charset="utf-8">
<meta http-equiv="Content-Security-Policy" content="${escapeHtml(exportCsp(p.scriptHash))}">
<meta name="viewport" content="width=device-width, initial-scale=1">
<meta name="referrer" content="no-referrer">
<title>${escapeHtml(p.title)} · ACP Playground export</title>
<style>${css}</style>
</head>
<body>
<div id="root"></div>
<script id="${EXPORT_META_ID}" type="application/json">${scriptJson(p.meta)}</script>
<script id="${EXPORT_DATA_ID}" type="application/gzip+base64">${p.data}</script>
<script>${p.script}</script>
</body>
</html>
`;
}
