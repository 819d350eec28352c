/** The README's screenshot of the Sessions panel (docs/screenshots/sessions-panel.png), at the e2e viewport of 1440x900. */
import { expect, test } from "@playwright/test";
import { connect, prompt, stopAgent } from "../helpers";
import { shot } from "./shots";

test("the Sessions panel beside a session with its config options", async ({ page }) => {
  await connect(page, { profile: "sessions" });
  await prompt(page, "What did we do last week?");
  await page.getByTestId("column-tab-sessions").click();
  await expect(page.getByTestId("session-row")).toHaveCount(3);
  await page.getByTestId("sessions-more").click();
  await expect(page.getByTestId("session-row")).toHaveCount(6);
  await page.getByTestId("view-session").click();
  await expect(page.getByTestId("config-select-model")).toBeVisible();
  await shot(page, "sessions-panel.png");
  await stopAgent(page);
});
