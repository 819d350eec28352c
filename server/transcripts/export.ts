/**
 * One-file HTML export of a transcript (lib/features/library/export-page.ts): builds the
 * viewer bundle (export/viewer.tsx with esbuild, the app's Tailwind CSS with
 * PostCSS) once into export-viewer/ (by `npm run build`, or lazily here
 * when missing or older than its sources), then writes the page: the viewer
 * once plus the redacted transcript, gzip-compressed. The directory is not
 * under .next/, which `next build` empties: an export during a rebuild finds it.
 */
import { createHash } from "node:crypto";
import { existsSync, mkdirSync, readdirSync, readFileSync, renameSync, statSync, writeFileSync } from "node:fs";
import { createRequire } from "node:module";
import path from "node:path";
import { gzipSync } from "node:zlib";
import {
  EXPORT_LOADER,
  exportCsp,
  redactTranscript,
  renderExportPage,
  type ExportMeta,
  type ExportSchemaName,
} from "../../lib/features/library/export-page";
import { negotiatedV2, SCHEMA_FILE_PATHS } from "../../lib/protocol/schema-check";
import { parseTranscript } from "../../lib/contracts/transcript";
import { AGENT_METHODS } from "../../lib/protocol/methods";
import { isObject } from "../../lib/protocol/json";
import { descriptorOf, protocolOf } from "../../lib/protocol/protocols";
import { PACKAGE_ROOT } from "../runtime";

/**
 * The schema files are data the page embeds apart (only those a transcript's protocol needs),
 * never code in the bundle: their imports there resolve to nothing (export/viewer.tsx reads the
 * page's blocks instead).
 */
const SCHEMA_IMPORT = /(^@agentclientprotocol\/sdk\/schema\/.*\.json$)|(app-server-schema\.json$)/;
const SCHEMA_FILES: Record<ExportSchemaName, string> = {
  ...SCHEMA_FILE_PATHS,
  appServer: path.join(PACKAGE_ROOT, "lib", "protocol", "app-server-schema.json"),
};

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
    plugins: [
      {
        name: "export-apart",
        setup(b) {
          b.onResolve({ filter: SCHEMA_IMPORT }, (args) => ({ path: args.path, namespace: "schema-apart" }));
          b.onLoad({ filter: /.*/, namespace: "schema-apart" }, () => ({
            contents: "export default null",
            loader: "js",
          }));
          // Nor does it run probes: a spec loads its probe with import() (lib/features/protocols/*/spec.ts).
          b.onResolve({ filter: /probe/ }, (args) =>
            args.kind === "dynamic-import" ? { path: args.path, namespace: "no-probe" } : undefined,
          );
          b.onLoad({ filter: /.*/, namespace: "no-probe" }, () => ({
            contents: 'throw new Error("an exported page runs no probe");',
            loader: "js",
          }));
          // A page opened from disk has no relay: the socket client (which only connecting uses) stays out.
          b.onResolve({ filter: /^socket\.io-client$/ }, (args) => ({ path: args.path, namespace: "no-relay" }));
          b.onLoad({ filter: /.*/, namespace: "no-relay" }, () => ({
            contents: 'export function io() { throw new Error("an exported page has no relay to connect to"); }',
            loader: "js",
          }));
        },
      },
    ],
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

const sha256 = (text: string) => createHash("sha256").update(text, "utf8").digest("base64");
const gz64 = (text: string) => gzipSync(text, { level: 9 }).toString("base64");

/** The viewer's code and CSS as the page carries them (compressed once per build of the viewer). */
let packed: { from: ViewerAssets; code: string; codeHash: string; css: string } | undefined;
const schemaBlocks = new Map<ExportSchemaName, string>();

function schemaBlock(name: ExportSchemaName): string {
  let b64 = schemaBlocks.get(name);
  if (b64 === undefined) {
    const file = createRequire(import.meta.url).resolve(SCHEMA_FILES[name]);
    // Minified: the same JSON without the file's indentation.
    b64 = gz64(JSON.stringify(JSON.parse(readFileSync(file, "utf8"))));
    schemaBlocks.set(name, b64);
  }
  return b64;
}

/** The page around `data` (gzip + base64 of a transcript, or "") with the schema files `schemas`. */
async function page(
  data: string,
  schemas: ExportSchemaName[],
  meta: ExportMeta,
): Promise<{ html: string; csp: string }> {
  const assets = await viewerAssets();
  if (packed?.from !== assets)
    packed = { from: assets, code: gz64(assets.script), codeHash: sha256(assets.script), css: gz64(assets.css) };
  const loaderHash = sha256(EXPORT_LOADER);
  const html = renderExportPage({
    title: meta.title,
    code: packed.code,
    codeHash: packed.codeHash,
    loaderHash,
    css: packed.css,
    data,
    schemas: Object.fromEntries(schemas.map((name) => [name, schemaBlock(name)])),
    meta,
  });
  return { html, csp: exportCsp(loaderHash, packed.codeHash) };
}

/** Whether the agent of a transcript answered initialize with protocol version 2. */
function usesV2(text: string): boolean {
  const init = parseTranscript(text).frames.find(
    (f) => f.dir === "from-agent" && f.kind === "response" && f.method === AGENT_METHODS.initialize,
  );
  return negotiatedV2(isObject(init?.message) ? init.message.result : undefined);
}

/** The export page of a transcript's JSONL text (throws TranscriptError when it is not one). */
export async function exportHtml(text: string, secrets: string[], now = new Date()): Promise<ExportResult> {
  const redacted = redactTranscript(text, secrets);
  const { header } = redacted;
  const title = header.title ?? header.id;
  // The Frames view judges an ACP log by ACP's schemas (v2's only when the agent answered
  // initialize with version 2), an app-server log by its own.
  const schemas: ExportSchemaName[] =
    descriptorOf(protocolOf(header.agent)).schema !== "acpSdk"
      ? ["appServer"]
      : usesV2(redacted.text)
        ? ["stable", "unstable", "v2"]
        : ["stable", "unstable"];
  const { html } = await page(gz64(redacted.text), schemas, {
    exportedAt: now.toISOString(),
    redactions: redacted.redactions,
    title,
  });
  return { html, redactions: redacted.redactions };
}

/**
 * The export's viewer with no transcript in it: it opens a `.jsonl` file the
 * reader drops on it or picks, in the browser (from `file://` or served), so a
 * team keeps one viewer page and shares plain transcript files.
 */
export async function viewerHtml(now = new Date()): Promise<{ html: string; csp: string }> {
  const title = "Transcript viewer";
  return page("", ["stable", "unstable", "v2", "appServer"], {
    exportedAt: now.toISOString(),
    redactions: 0,
    title,
    viewer: true,
  });
}
