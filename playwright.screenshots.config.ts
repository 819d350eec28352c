import { defineConfig } from "@playwright/test";
import base from "./playwright.config";

/**
 * `npm run screenshots`: the README's pictures, taken from the production build
 * against the same offline setup as the e2e suite. Not part of `npm test`.
 */
export default defineConfig({
  ...base,
  testDir: "e2e/screenshots",
  testMatch: "*.shots.ts",
  retries: 0,
});
