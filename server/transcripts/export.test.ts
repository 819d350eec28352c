import { createHash } from "node:crypto";
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { gunzipSync } from "node:zlib";
import { execa } from "execa";
import { afterAll, describe, expect, it } from "vitest";
import {
  EXPORT_CODE_ID,
  EXPORT_DATA_ID,
  EXPORT_META_ID,
  EXPORT_SCHEMA_IDS,
} from "../../lib/features/library/export-page";
import { TranscriptError } from "../../lib/contracts/transcript";
import { exportHtml, viewerHtml } from "./export";

const dirs: string[] = [];
afterAll(() => {
  for (const dir of dirs) rmSync(dir, { recursive: true, force: true });
});
function tempDir(prefix: string): string {
  const dir = mkdtempSync(path.join(tmpdir(), prefix));
  dirs.push(dir);
  return dir;
}

const demo = readFileSync(path.resolve(import.meta.dirname, "../..", "demo", "gemini-demo.jsonl"), "utf8");
const between = (html: string, open: string) => {
  const start = html.indexOf(open) + open.length;
  return html.slice(start, html.indexOf("</script>", start));
};

describe("exportHtml", () => {
  it("writes the viewer once, allowed by its hash, and the redacted transcript as gzip data", async () => {
    const secret = "gemini-2.5-pro"; // a value the demo contains, standing in for a key
    const { html, redactions } = await exportHtml(demo, [secret], new Date("2027-01-01T00:00:00Z"));
    expect(redactions).toBeGreaterThan(0);
    // The loader and the code it inflates, each allowed by its hash, nothing else.
    const loader = between(html, "<script>");
    const code = gunzipSync(
      Buffer.from(between(html, `<script id="${EXPORT_CODE_ID}" type="application/gzip+base64">`), "base64"),
    ).toString("utf8");
    const hash = (text: string) => createHash("sha256").update(text, "utf8").digest("base64");
    const csp = /http-equiv="Content-Security-Policy" content="([^"]*)"/.exec(html)![1]!.replaceAll("&#39;", "'");
    expect(csp).toContain(`script-src 'sha256-${hash(loader)}' 'sha256-${hash(code)}';`);
    expect(csp).toContain("default-src 'none'");
    // ACP v1's schemas only: the demo's agent answered initialize with version 1.
    expect(html).toContain(`id="${EXPORT_SCHEMA_IDS.stable}"`);
    expect(html).not.toContain(`id="${EXPORT_SCHEMA_IDS.v2}"`);
    expect(html).not.toContain(`id="${EXPORT_SCHEMA_IDS.appServer}"`);
    const data = between(html, `<script id="${EXPORT_DATA_ID}" type="application/gzip+base64">`);
    const text = gunzipSync(Buffer.from(data, "base64")).toString("utf8");
    expect(text).not.toContain(secret);
    expect(text).toContain("[REDACTED]");
    expect(text.split("\n")[0]).toContain('"id":"20261122-023946-6528ecb1"');
    const meta = JSON.parse(between(html, `<script id="${EXPORT_META_ID}" type="application/json">`));
    expect(meta).toEqual({
      exportedAt: "2027-01-01T00:00:00.000Z",
      redactions,
      title: "Demo: Gemini CLI explains ACP and writes a file",
    });
    // Seven script elements (meta, transcript, two schemas, CSS, code, loader), each closed once,
    // and nothing that loads from anywhere.
    expect(html.match(/<\/script/gi)).toHaveLength(7);
    expect(html).not.toContain("<!--");
    expect(html).not.toMatch(/<(link|img|iframe)\b/i);
  }, 120_000);

  it("keeps the shipped demo's page within 600 KB, the viewer's code and CSS compressed", async () => {
    const { html } = await exportHtml(demo, []);
    expect(Buffer.byteLength(html)).toBeLessThanOrEqual(600 * 1024);
  }, 120_000);

  it("refuses a file that is not a transcript", async () => {
    await expect(exportHtml("not a transcript\n", [])).rejects.toThrow(TranscriptError);
  });
});

describe("viewerHtml", () => {
  it("is the same viewer with no transcript in it, under the same policy", async () => {
    const { html, csp } = await viewerHtml(new Date("2027-01-01T00:00:00Z"));
    const script = between(html, "<script>");
    expect(csp).toContain(`script-src 'sha256-${createHash("sha256").update(script, "utf8").digest("base64")}'`);
    // A file dropped on it may be of either protocol and version: every schema is there.
    for (const id of Object.values(EXPORT_SCHEMA_IDS)) expect(html).toContain(`id="${id}"`);
    expect(csp).toContain("connect-src blob:");
    expect(between(html, `<script id="${EXPORT_DATA_ID}" type="application/gzip+base64">`)).toBe("");
    expect(JSON.parse(between(html, `<script id="${EXPORT_META_ID}" type="application/json">`))).toEqual({
      exportedAt: "2027-01-01T00:00:00.000Z",
      redactions: 0,
      title: "Transcript viewer",
      viewer: true,
    });
  }, 120_000);
});

describe("acp-playground export", () => {
  const cli = (...args: string[]) =>
    execa(process.execPath, ["--import", "tsx", "server/cli/cli.ts", "export", ...args], {
      cwd: path.resolve(import.meta.dirname, "../.."),
      reject: false,
    });

  it("says what is wrong with its arguments or its file, and writes nothing", async () => {
    const dir = tempDir("acp-export-cli-");
    const bad = path.join(dir, "bad.jsonl");
    writeFileSync(bad, "{}\n");
    const none = await cli();
    expect([none.exitCode, none.stderr]).toEqual([2, expect.stringContaining("export needs one transcript file")]);
    const missing = await cli(path.join(dir, "missing.jsonl"));
    expect([missing.exitCode, missing.stderr]).toEqual([4, expect.stringContaining("cannot read")]);
    const invalid = await cli(bad, "-o", path.join(dir, "bad.html"));
    expect([invalid.exitCode, invalid.stderr]).toEqual([4, expect.stringContaining("bad.jsonl: line 1")]);
    expect(() => readFileSync(path.join(dir, "bad.html"))).toThrow();
    const both = await cli("--viewer", bad);
    expect([both.exitCode, both.stderr]).toEqual([
      2,
      expect.stringContaining("export --viewer takes no transcript file"),
    ]);
  }, 60_000);

  it("writes the empty viewer with --viewer", async () => {
    const out = path.join(tempDir("acp-export-viewer-"), "viewer.html");
    const r = await cli("--viewer", "-o", out);
    expect([r.exitCode, r.stdout]).toEqual([0, expect.stringContaining(`wrote ${out}`)]);
    expect(readFileSync(out, "utf8")).toContain('"viewer":true');
  }, 120_000);
});
