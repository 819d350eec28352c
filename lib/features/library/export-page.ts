/**
 * The one-file HTML export: a transcript redacted for export, and the page
 * that carries it. Everything it holds travels as inert data: gzip + base64 blocks
 * (only [A-Za-z0-9+/=], so nothing can break out) in script elements of a type
 * browsers never run: the transcript, the viewer's code and CSS, and the schema
 * files its protocol needs. One small inline loader (allowed by its hash) inflates
 * and inserts the code, which runs because the policy names its hash too. A strict
 * Content-Security-Policy forbids any network access and any other script.
 */
import { createRedactor } from "./redact";
import { parseTranscript, type TranscriptHeader } from "../../contracts/transcript";

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
 * The transcript with every known secret replaced (lib/features/library/redact.ts): secret
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

/** The page's embedded blocks besides the transcript, each gzip + base64 (inert data, as the transcript is). */
export const EXPORT_CODE_ID = "acp-export-code";
export const EXPORT_CSS_ID = "acp-export-css";
/** The schema files the Frames view judges by, each its own block, only those the transcript's protocol needs. */
export const EXPORT_SCHEMA_IDS = {
  stable: "acp-schema-v1",
  unstable: "acp-schema-v1-unstable",
  v2: "acp-schema-v2-unstable",
  appServer: "acp-schema-app-server",
} as const;
export type ExportSchemaName = keyof typeof EXPORT_SCHEMA_IDS;

/**
 * The page's one parser-inserted script: it inflates the viewer's code and CSS and inserts them.
 * The code then runs because the policy names its hash too (a script inserted this way is judged
 * by its hash like any inline one): the viewer travels compressed, and nothing else can run.
 */
export const EXPORT_LOADER = `(async()=>{const z=async(id)=>{const b=atob(document.getElementById(id).textContent.trim()),u=new Uint8Array(b.length);for(let i=0;i<b.length;i++)u[i]=b.charCodeAt(i);return new Response(new Blob([u]).stream().pipeThrough(new DecompressionStream("gzip"))).text()};const c=document.createElement("style");c.textContent=await z(${JSON.stringify(EXPORT_CSS_ID)});document.head.appendChild(c);const s=document.createElement("script");s.textContent=await z(${JSON.stringify(EXPORT_CODE_ID)});document.body.appendChild(s)})().catch((e)=>{document.getElementById("root").textContent="This page could not start: "+e.message})`;

export interface ExportPageParts {
  title: string;
  /** gzip + base64 of the viewer bundle, which the loader inserts as it is. */
  code: string;
  /** sha256 of the bundle's text, base64. */
  codeHash: string;
  /** sha256 of EXPORT_LOADER, base64. */
  loaderHash: string;
  /** gzip + base64 of the viewer's CSS. */
  css: string;
  /** gzip + base64 of the redacted transcript ("" for the empty viewer). */
  data: string;
  /** gzip + base64 of each schema file embedded. */
  schemas: Partial<Record<ExportSchemaName, string>>;
  meta: ExportMeta;
}

/** `loaderHash`, `codeHash`: sha256 (base64) of EXPORT_LOADER and of the bundle. */
export function exportCsp(loaderHash: string, codeHash: string): string {
  return [
    "default-src 'none'",
    `script-src 'sha256-${loaderHash}' 'sha256-${codeHash}'`,
    // Tailwind's sheet (inserted by the loader) and React's style attributes.
    "style-src 'unsafe-inline'",
    // The embedded transcript, read back through a blob: URL made from the page's own data.
    "connect-src blob:",
    "base-uri 'none'",
    "form-action 'none'",
  ].join("; ");
}

const BASE64 = /^[A-Za-z0-9+/=]*$/;

/** An inert block: a script element of a type browsers never run, holding only base64. */
const block = (id: string, b64: string) => {
  if (!BASE64.test(b64)) throw new Error(`export block ${id} must be base64`);
  return `<script id="${id}" type="application/gzip+base64">${b64}</script>`;
};

export function renderExportPage(p: ExportPageParts): string {
  const schemas = (Object.keys(EXPORT_SCHEMA_IDS) as ExportSchemaName[])
    .filter((name) => p.schemas[name] !== undefined)
    .map((name) => block(EXPORT_SCHEMA_IDS[name], p.schemas[name]!));
  return `<!doctype html>
<html lang="en">
<head>
<meta charset="utf-8">
<meta http-equiv="Content-Security-Policy" content="${escapeHtml(exportCsp(p.loaderHash, p.codeHash))}">
<meta name="viewport" content="width=device-width, initial-scale=1">
<meta name="referrer" content="no-referrer">
<title>${escapeHtml(p.title)} · ACP Playground export</title>
</head>
<body class="bg-zinc-950">
<div id="root"></div>
<script id="${EXPORT_META_ID}" type="application/json">${scriptJson(p.meta)}</script>
${block(EXPORT_DATA_ID, p.data)}
${schemas.join("\n")}
${block(EXPORT_CSS_ID, p.css)}
${block(EXPORT_CODE_ID, p.code)}
<script>${EXPORT_LOADER}</script>
</body>
</html>
`;
}
