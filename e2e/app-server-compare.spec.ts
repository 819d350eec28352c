/**
 * One prompt on Codex (app-server: the pinned Codex behind the fake Responses API) and Gemini (ACP:
 * the real Gemini CLI behind the fake Gemini API) side by side on /compare: each side runs in its
 * profile's protocol and shows in its view, both answers land in the report, and the saved pair
 * reopens with them.
 */
import { expect, test } from "@playwright/test";
import { printFramesOnFailure, scriptResponses, scriptTurns, url } from "./helpers";

printFramesOnFailure();

const origin = () => process.env.E2E_ORIGIN!;
const token = () => new URL(url()).searchParams.get("token")!;

test("one prompt on Codex and Gemini: both answers side by side, saved and reopened", async ({ page }) => {
  await scriptTurns([{ parts: [{ text: "Hello from Gemini." }] }]);
  await scriptResponses([{ text: ["Hello from ", "Codex."] }]);

  await page.goto(`${origin()}/compare?token=${token()}`);
  await page.getByTestId("compare-profile-a").selectOption("codex");
  await page.getByTestId("compare-profile-b").selectOption("gemini");
  await page.getByTestId("compare-prompt").fill("say hello");
  await page.getByTestId("compare-run").click();

  // Each side's conversation in its own protocol's view: the thread view for Codex, the Session view for Gemini.
  await expect(page.getByTestId("compare-side-a").getByTestId("thread-view")).toContainText("Hello from Codex.", {
    timeout: 60_000,
  });
  await expect(page.getByTestId("compare-side-b").getByTestId("session-view")).toContainText("Hello from Gemini.");
  const report = page.getByTestId("comparison-report");
  await expect(report.getByTestId("compare-answer-a")).toHaveText("Hello from Codex.", { timeout: 60_000 });
  await expect(report.getByTestId("compare-answer-b")).toHaveText("Hello from Gemini.");
  await expect(report.getByTestId("compare-answers-equal")).not.toHaveText("same answer");
  // Each turn's end as its protocol says it: the app-server turn's status, ACP's stop reason.
  const stop = report.getByTestId("compare-figures").locator("tr").filter({ hasText: "stop reason" });
  await expect(stop.locator('[data-side="a"]')).toHaveText("completed");
  await expect(stop.locator('[data-side="b"]')).toHaveText("end_turn");
  await expect(page.getByTestId("compare-status")).toHaveText("done");

  // Saved: both transcripts reopen with the same answers.
  const saved = page.getByTestId("compare-saved");
  await expect(saved).toBeVisible();
  await saved.click();
  const viewer = page.getByTestId("comparison-viewer");
  await expect(viewer.getByTestId("compare-answer-a")).toHaveText("Hello from Codex.");
  await expect(viewer.getByTestId("compare-answer-b")).toHaveText("Hello from Gemini.");
  await expect(viewer.getByTestId("compare-side-a").getByTestId("thread-view")).toContainText("Hello from Codex.");
});
