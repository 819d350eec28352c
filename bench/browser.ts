/**
 * The browser's main thread under a flood: a synthetic agent streams
 * agent_message_chunk updates at a fixed rate into the production page, once
 * with the Session view showing and once with the Frames view, while a
 * PerformanceObserver records long tasks (> 50 ms). Uses the system Chromium.
 *
 * Each view runs `--runs` times (a fresh page and agent each); the figures are
 * the medians, every run is listed too (a shared machine makes single runs noisy).
 *
 *   node --import tsx bench/browser.ts [--rate 10000] [--frames 50000] [--runs 3]
 */
import { chromium, type Browser } from "@playwright/test";
import { execa } from "execa";
import { randomBytes } from "node:crypto";
import { mkdirSync, mkdtempSync, realpathSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { startPlaygroundServer, stopServer } from "../e2e/global-setup";
import { benchAgent, numberFlags, percentile, round, root } from "./harness";
import { CHROMIUM_LAUNCH } from "../e2e/chromium";

const flags = numberFlags({ rate: 10_000, frames: 50_000, runs: 3 });
const VIEWS = ["session", "frames"] as const;
type View = (typeof VIEWS)[number];

async function startServer() {
  // Build output on stderr: stdout carries only the JSON result.
  await execa(process.execPath, ["scripts/ensure-build.mjs"], { cwd: root, stdout: process.stderr, stderr: "inherit" });
  const tmp = realpathSync(mkdtempSync(path.join(tmpdir(), "acp-bench-browser-")));
  const workspace = path.join(tmp, "workspace");
  mkdirSync(workspace);
  const configFile = path.join(tmp, "config.json");
  const flood = { command: process.execPath, args: [benchAgent, "rate", String(flags.rate), String(flags.frames)] };
  writeFileSync(configFile, JSON.stringify({ workspaceRoots: [workspace], profiles: { flood } }));
  const server = startPlaygroundServer({
    configFile,
    dataDir: path.join(tmp, "data"),
    token: randomBytes(24).toString("base64url"),
  });
  const url = await server.url;
  return {
    url,
    close: async () => {
      await stopServer(server.process);
      rmSync(tmp, { recursive: true, force: true });
    },
  };
}

interface LongTask {
  start: number;
  duration: number;
}

async function run(browser: Browser, url: string, view: View) {
  const context = await browser.newContext({ viewport: { width: 1440, height: 900 } });
  const page = await context.newPage();
  // A string, not a function: tsx would wrap named functions in a helper the page does not have.
  await page.addInitScript(`
    localStorage.setItem("acp-playground.view", ${JSON.stringify(view)});
    window.__longTasks = [];
    new PerformanceObserver((list) => {
      for (const e of list.getEntries()) window.__longTasks.push({ start: e.startTime, duration: e.duration });
    }).observe({ type: "longtask", buffered: true });
    // Long tasks are only reported above 50 ms; the longest gap between frames gives a figure below that too.
    window.__maxFrameMs = 0;
    let last = 0;
    requestAnimationFrame(function frame(t) {
      if (last) window.__maxFrameMs = Math.max(window.__maxFrameMs, t - last);
      last = t;
      requestAnimationFrame(frame);
    });
  `);
  await page.goto(url);
  await page.getByTestId("profile-select").selectOption("flood");
  await page.getByTestId("start-agent").click();
  await page.locator('[data-testid="agent-status"][data-status="running"]').waitFor();
  await page.locator(`[data-testid="view-${view}"][aria-selected="true"]`).waitFor();

  // "go" (any first line) starts the flood; its echo is seq 1, then the chunks, then bench/done.
  const lastSeq = flags.frames + 2;
  await page.getByTestId("composer").fill("go");
  const pageT0 = await page.evaluate(() => {
    const w = window as unknown as { __longTasks: LongTask[]; __maxFrameMs: number };
    w.__longTasks = [];
    w.__maxFrameMs = 0;
    return performance.now();
  });
  const t0 = Date.now();
  await page.getByTestId("send-frame").click();
  const shown =
    view === "session"
      ? page.locator(`[data-testid="session-view"][data-last-seq="${lastSeq}"]`)
      : page.getByTestId("frame-count").getByText(`${lastSeq.toLocaleString("en")} frames`, { exact: true });
  await shown.waitFor({ timeout: 30_000 + (flags.frames / flags.rate) * 20_000 });
  const seconds = (Date.now() - t0) / 1000;
  // Let the last render land, then read what the observer saw.
  await page.evaluate(() => new Promise((r) => requestAnimationFrame(() => requestAnimationFrame(r))));
  const { tasks, maxFrameMs } = await page.evaluate(() => {
    const w = window as unknown as { __longTasks: LongTask[]; __maxFrameMs: number };
    return { tasks: w.__longTasks, maxFrameMs: w.__maxFrameMs };
  });
  await page.getByTestId("stop-agent").click();
  await page.locator('[data-testid="agent-status"][data-status="exited"]').waitFor();
  await context.close();

  const durations = tasks.map((t) => t.duration);
  if (process.env.BENCH_DEBUG)
    console.error(view, tasks.map((t) => `${Math.round(t.start - pageT0)}ms:+${Math.round(t.duration)}`).join(" "));
  return {
    /** 0: no task over 50 ms (the longtask API reports nothing shorter). */
    longestTaskMs: round(Math.max(0, ...durations), 1),
    longTasks: durations.filter((d) => d > 50).length,
    totalBlockingMs: round(
      durations.reduce((sum, d) => sum + Math.max(0, d - 50), 0),
      1,
    ),
    longestFrameMs: round(maxFrameMs, 1),
    secondsToShowAll: round(seconds, 2),
  };
}

type Run = Awaited<ReturnType<typeof run>>;
const median = (runs: Run[], key: keyof Run) =>
  percentile(
    runs.map((r) => r[key]).sort((a, b) => a - b),
    50,
  );

const server = await startServer();
const browser = await chromium.launch({ ...CHROMIUM_LAUNCH, headless: true });
try {
  const results = [];
  for (const view of VIEWS) {
    const runs: Run[] = [];
    for (let i = 0; i < flags.runs; i++) runs.push(await run(browser, server.url, view));
    results.push({
      benchmark: "browser",
      framesPerSecond: flags.rate,
      frames: flags.frames,
      view,
      longestTaskMs: median(runs, "longestTaskMs"),
      longTasks: median(runs, "longTasks"),
      totalBlockingMs: median(runs, "totalBlockingMs"),
      longestFrameMs: median(runs, "longestFrameMs"),
      secondsToShowAll: median(runs, "secondsToShowAll"),
      runs,
      targets: { longestTaskMs: 50 },
    });
  }
  console.log(JSON.stringify(results, null, 2));
} finally {
  await browser.close();
  await server.close();
}
