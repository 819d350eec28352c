/**
 * One-file export: the file size for the shipped demo and for a generated
 * transcript of `--frames` frames (prompt turns streaming chunks, a tool call
 * behind a permission per turn), the export's own time, and, opened from disk
 * in Chromium with the network off, the time to first paint (the browser's
 * first-contentful-paint), to the transcript's first frame shown, and to the
 * whole transcript loaded.
 */
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { pathToFileURL } from "node:url";
import { chromium } from "@playwright/test";
import config from "../playwright.config";
import { exportHtml, viewerAssets } from "../server/transcripts/export";
import { numberFlags, root, round } from "./harness";
import { permissionTurns } from "./permission-turns";

/** `--open 0`: sizes and export time only, no browser for the generated file. */
const flags = numberFlags({ frames: 100_000, chunksPerTurn: 400, open: 1 });

async function measure(file: string, lastSeqText: string) {
  const browser = await chromium.launch({ ...config.use?.launchOptions, headless: true });
  try {
    const context = await browser.newContext({ offline: true, viewport: { width: 1440, height: 900 } });
    const own = pathToFileURL(file).href;
    await context.route("**/*", (r) => (r.request().url() === own ? r.continue() : r.abort()));
    const page = await context.newPage();
    const started = Date.now();
    await page.goto(own, { waitUntil: "commit" });
    await page.getByTestId("view-frames").waitFor();
    await page.getByTestId("view-frames").click();
    await page.getByTestId("frame-row").first().waitFor();
    const firstFrameMs = Date.now() - started;
    await page.locator('[data-testid="transcript-viewer"][data-complete="true"]').waitFor({ timeout: 600_000 });
    await page.getByTestId("frame-count").filter({ hasText: lastSeqText }).waitFor({ timeout: 600_000 });
    const completeMs = Date.now() - started;
    const fcp = await page.evaluate(
      () => performance.getEntriesByName("first-contentful-paint")[0]?.startTime ?? Number.NaN,
    );
    return { firstContentfulPaintMs: round(fcp, 0), firstFrameShownMs: firstFrameMs, completeMs };
  } finally {
    await browser.close();
  }
}

const dir = mkdtempSync(path.join(tmpdir(), "acp-export-bench-"));
try {
  const assetsStarted = Date.now();
  const assets = await viewerAssets();
  const viewerMs = Date.now() - assetsStarted;

  const demo = await exportHtml(readFileSync(path.join(root, "demo", "gemini-demo.jsonl"), "utf8"), []);
  const demoFile = path.join(dir, "demo.html");
  writeFileSync(demoFile, demo.html);

  const text = [...permissionTurns("bench-export", flags.frames, flags.chunksPerTurn)].join("");
  const exportStarted = Date.now();
  const big = await exportHtml(text, []);
  const exportMs = Date.now() - exportStarted;
  const bigFile = path.join(dir, "big.html");
  writeFileSync(bigFile, big.html);

  const result = {
    benchmark: "export",
    viewer: { jsBytes: assets.script.length, cssBytes: assets.css.length, loadOrBuildMs: viewerMs },
    demo: { htmlBytes: Buffer.byteLength(demo.html), open: await measure(demoFile, "19 frames") },
    generated: {
      frames: flags.frames,
      jsonlBytes: Buffer.byteLength(text),
      htmlBytes: Buffer.byteLength(big.html),
      exportMs,
      open: flags.open ? await measure(bigFile, `${flags.frames.toLocaleString("en")} frames`) : undefined,
    },
  };
  console.log(JSON.stringify(result, null, 2));
} finally {
  rmSync(dir, { recursive: true, force: true });
}
