/**
 * One-file HTML export of a transcript (lib/features/export-page.ts): builds the
 * viewer bundle (export/viewer.tsx with esbuild, the app's Tailwind CSS with
 * PostCSS) once into export-viewer/ (by `npm run build`, or lazily here
 * when missing or older than its sources), then writes the page: the viewer
 * once plus the redacted transcript, gzip-compressed. The directory is not
 * under .next/, which `next build` empties: an export during a rebuild finds it.
 */
import { createHash } from "node:crypto";
import { existsSync, mkdirSync, readdirSync, readFileSync, renameSync, statSync, writeFileSync } from "node:fs";
import path from "node:path";
import { gzipSync } from "node:zlib";
import { exportCsp, inlineScriptCode, redactTranscript, renderExportPage } from "../../lib/features/export-page";
import { PACKAGE_ROOT } from "../runtime";

const outDir = path.join(PACKAGE_ROOT, "export-viewer");
const SOURCES = ["export", "components", "lib", "app/globals.css", "package-lock.json"];

export interface ViewerAssets {
  script: string;
  css: string;
}

function newest(p: string): number {
  if (!existsSync(p)) return 0;
  const st = statSync(p);
  if (!st.isDirectory()) return st.mtimeMs;
  return Math.max(st.mtimeMs, ...readdirSync(p).map((e) => newest(path.join(p, e))));
}

/** Bundles the viewer and its CSS and writes them to export-viewer/. */
export async function buildViewer(): Promise<ViewerAssets> {
  const [{ build }, { default: postcss }, { default: tailwind }] = await Promise.all([
    import("esbuild"),
    import("postcss"),
    import("@tailwindcss/postcss"),
  ]);
  const result = await build({
    absWorkingDir: PACKAGE_ROOT,
    entryPoints: ["export/viewer.tsx"],
    bundle: true,
    minify: true,
    format: "iife",
    platform: "browser",
    target: "es2022",
    jsx: "automatic",
    // Next's client modules (links in shared components) read process.env.__NEXT_*: a page opened from
    // disk has no process, and an empty env gives them their defaults.
    define: { "process.env.NODE_ENV": '"production"', "process.env": "{}" },
    write: false,
    outdir: "out",
    logLevel: "silent",
  });
  const out = (ext: string) => result.outputFiles.find((f) => f.path.endsWith(ext))?.text ?? "";
  const globals = path.join(PACKAGE_ROOT, "app", "globals.css");
  const tw = await postcss([tailwind({ base: PACKAGE_ROOT })]).process(readFileSync(globals, "utf8"), {
    from: globals,
  });
  const jsonView = readFileSync(
    path.join(PACKAGE_ROOT, "node_modules", "react-json-view-lite", "dist", "index.css"),
    "utf8",
  );
  // The app's order (app/layout.tsx): the JSON tree's sheet, then ours, then the components'.
  const assets = { script: out(".js"), css: `${jsonView}\n${tw.css}\n${out(".css")}` };
  mkdirSync(outDir, { recursive: true });
  // Whole files or none: another process (a test, the build) may read or build them at the same time.
  // The CSS first: the script's time is what says the pair is current.
  for (const [name, text] of [
    ["viewer.css", assets.css],
    ["viewer.js", assets.script],
  ] as const) {
    const temp = path.join(outDir, `.${name}.${process.pid}.tmp`);
    writeFileSync(temp, text);
    renameSync(temp, path.join(outDir, name));
  }
  return assets;
}

let cached: Promise<ViewerAssets> | undefined;

/** The built viewer, rebuilt when missing or older than its sources. */
export function viewerAssets(): Promise<ViewerAssets> {
  const js = path.join(outDir, "viewer.js");
  const css = path.join(outDir, "viewer.css");
  const stale = () =>
    !existsSync(js) ||
    !existsSync(css) ||
    Math.max(...SOURCES.map((s) => newest(path.join(PACKAGE_ROOT, s)))) > statSync(js).mtimeMs;
  if (!cached) {
    cached = stale()
      ? buildViewer()
      : Promise.resolve({ script: readFileSync(js, "utf8"), css: readFileSync(css, "utf8") });
    cached.catch(() => (cached = undefined));
  }
  return cached;
}

export interface ExportResult {
  html: string;
  redactions: number;
}

/** The export page of a transcript's JSONL text (throws TranscriptError when it is not one). */
export async function exportHtml(text: string, secrets: string[], now = new Date()): Promise<ExportResult> {
  const redacted = redactTranscript(text, secrets);
  const { header } = redacted;
  const { script: bundle, css } = await viewerAssets();
  const script = inlineScriptCode(bundle);
  const title = header.title ?? header.id;
  const html = renderExportPage({
    title,
    script,
    scriptHash: createHash("sha256").update(script, "utf8").digest("base64"),
    css,
    data: gzipSync(redacted.text, { level: 9 }).toString("base64"),
    meta: { exportedAt: now.toISOString(), redactions: redacted.redactions, title },
  });
  return { html, redactions: redacted.redactions };
}

/**
 * The export's viewer with no transcript in it: it opens a `.jsonl` file the
 * reader drops on it or picks, in the browser (from `file://` or served), so a
 * team keeps one viewer page and shares plain transcript files.
 */
export async function viewerHtml(now = new Date()): Promise<{ html: string; csp: string }> {
  const { script: bundle, css } = await viewerAssets();
  const script = inlineScriptCode(bundle);
  const scriptHash = createHash("sha256").update(script, "utf8").digest("base64");
  const title = "Transcript viewer";
  const html = renderExportPage({
    title,
    script,
    scriptHash,
    css,
    data: "",
    meta: { exportedAt: now.toISOString(), redactions: 0, title, viewer: true },
  });
  return { html, csp: exportCsp(scriptHash) };
}
