/** What the e2e specs share: the page's URL, frame-row locators, the fake API's script, stopping the agent. */
import { expect, type Page } from "@playwright/test";

export const url = () => process.env.E2E_URL!;

/** Frame rows, optionally only those whose data-* attributes have these values. */
export const rows = (page: Page, attrs: Record<string, string> = {}) =>
  page.locator(
    `[data-testid="frame-row"]${Object.entries(attrs)
      .map(([k, v]) => `[data-${k}="${v}"]`)
      .join("")}`,
  );

/**
 * Scripts the fake Gemini API's model turns (one per streamGenerateContent call), replacing any
 * an earlier test left unplayed: a failed test must not hand its turns to the next one.
 */
export async function scriptTurns(turns: object[]): Promise<void> {
  const res = await fetch(`${process.env.E2E_FAKE_API}/__fake/script`, {
    method: "POST",
    body: JSON.stringify({ turns, replace: true }),
  });
  expect(res.status).toBe(204);
}

export async function stopAgent(page: Page): Promise<void> {
  await page.getByTestId("stop-agent").click();
  await expect(page.getByTestId("agent-status")).toHaveAttribute("data-status", "exited");
}
