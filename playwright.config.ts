import { defineConfig, devices } from "@playwright/test";
import { CHROMIUM_LAUNCH } from "./e2e/chromium";
import { enterWorld } from "./e2e/world";

enterWorld();

/**
 * e2e against the production build (`npm run test:e2e` builds first). The
 * global setup starts, per worker, the real server with a fake Gemini API behind
 * the real Gemini CLI; the system Chromium is used, nothing is downloaded.
 */
export default defineConfig({
  testDir: "e2e",
  globalSetup: "./e2e/global-setup.ts",
  // Spec files run in parallel, one world each; a file's tests run in order (serial journeys share a page).
  workers: Number(process.env.E2E_WORKERS ?? 2),
  fullyParallel: false,
  forbidOnly: !!process.env.CI,
  // No retries: a journey that fails now and then has a race to find, not to hide.
  retries: 0,
  // A real Gemini CLI takes a few seconds to start and answer.
  timeout: 120_000,
  expect: { timeout: 30_000 },
  reporter: [["list"]],
  use: {
    ...devices["Desktop Chrome"],
    headless: true,
    viewport: { width: 1440, height: 900 },
    // Without DOM snapshots: a serial journey's shared page is snapshotted again at every test's start,
    // which made those specs a third slower. The screencast and the action log stay (`--trace on` for all).
    // None in CI, which keeps only the log (a failed spec prints its transcript there): tracing every
    // test cost the CPU-bound run about a twentieth of its time.
    trace: process.env.CI ? "off" : { mode: "retain-on-failure", snapshots: false, screenshots: true, sources: true },
    launchOptions: CHROMIUM_LAUNCH,
  },
  // The installed tool's journey packs and installs the package first (native modules compile): its
  // own project, listed first, so a worker starts it at once instead of it ending the run alone.
  projects: [
    { name: "installed", testMatch: "installed-tool.spec.ts" },
    { name: "chromium", testIgnore: "installed-tool.spec.ts" },
  ],
});
