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
import { FrameSequencer } from "../lib/protocol/frame-sequencer";
import { frameEvent, serialize, type TranscriptHeader } from "../lib/contracts/transcript";
import config from "../playwright.config";
import { exportHtml, viewerAssets } from "../server/transcripts/export";
import { numberFlags, root, round } from "./harness";

/** `--open 0`: sizes and export time only, no browser for the generated file. */
const flags = numberFlags({ frames: 100_000, chunksPerTurn: 400, open: 1 });

function generate(total: number, chunksPerTurn: number): string {
  let now = Date.parse("2026-11-22T02:35:12.331Z");
  const seq = new FrameSequencer({ wall: () => now, mono: () => now });
  const header: TranscriptHeader = {
    type: "header",
    format: "acp-playground-transcript",
    version: "1.0",
    id: "bench-export",
    createdAt: new Date(now).toISOString(),
    title: `Export benchmark: ${total.toLocaleString("en")} frames`,
    playground: { version: "0.1.0" },
    agent: { profile: "bench", command: "/usr/bin/bench-agent", args: ["--acp"], cwd: "/tmp/bench-project" },
  };
  const out = [serialize(header)];
  const line = (dir: "to-agent" | "from-agent", message: object, gapMs = 3) => {
    now += gapMs;
    out.push(serialize(frameEvent(seq.line(dir, JSON.stringify({ jsonrpc: "2.0", ...message })))));
  };
  const update = (update: object) =>
    line("from-agent", { method: "session/update", params: { sessionId: "s1", update } });
  let id = 1;
  for (let turn = 1; seq.seq < total - 6; turn++) {
    const promptId = ++id;
    line("to-agent", {
      id: promptId,
      method: "session/prompt",
      params: { sessionId: "s1", prompt: [{ type: "text", text: `Turn ${turn}` }] },
    });
    update({ sessionUpdate: "tool_call", toolCallId: `t${turn}`, title: `edit file ${turn}`, kind: "edit" });
    line("from-agent", {
      id: 1000 + turn,
      method: "session/request_permission",
      params: { sessionId: "s1", toolCall: { toolCallId: `t${turn}` }, options: [] },
    });
    line("to-agent", { id: 1000 + turn, result: { outcome: { outcome: "selected", optionId: "allow" } } }, 400);
    update({ sessionUpdate: "tool_call_update", toolCallId: `t${turn}`, status: "completed" });
    for (let c = 0; c < chunksPerTurn && seq.seq < total - 1; c++) {
      update({ sessionUpdate: "agent_message_chunk", content: { type: "text", text: `Turn ${turn}: word ${c} ` } });
    }
    line("from-agent", { id: promptId, result: { stopReason: "end_turn" } });
  }
  return out.join("");
}

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

  const text = generate(flags.frames, flags.chunksPerTurn);
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
