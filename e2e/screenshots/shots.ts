/** Where the README's pictures go (docs/screenshots/), taken at the e2e viewport of 1440x900. */
import path from "node:path";
import type { Page } from "@playwright/test";

export const SCREENSHOTS = path.resolve(import.meta.dirname, "../../docs/screenshots");

export const shot = (page: Page, name: string) => page.screenshot({ path: path.join(SCREENSHOTS, name) });
