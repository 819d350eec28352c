/**
 * The turn waterfall end to end: live with a real Gemini CLI behind the fake
 * Gemini API (a tool call behind a permission request), growing while the
 * turn runs; and in the transcript viewer over the shipped demo.
 */
import { expect, test, type Page } from "@playwright/test";
import { printFramesOnFailure, rows, scriptTurns, sendTemplate, startAgent, stopAgent, url } from "./helpers";
import { sharedPage } from "./shared-page";

printFramesOnFailure();

const bars = (page: Page, kind?: string) =>
  page.locator(`[data-testid="waterfall-bar"]${kind ? `[data-kind="${kind}"]` : ""}`);

test.describe.serial("live: the waterfall grows while a turn runs, shows the permission wait, selects frames", () => {
  let page: Page;
  sharedPage(async (p) => {
    page = p;
    const workspace = process.env.E2E_WORKSPACE!;
    await page.goto(url());
    await page.getByTestId("view-waterfall").click();
    await expect(page.getByTestId("waterfall-empty")).toBeVisible();
    await startAgent(page);
    await sendTemplate(page, "template-initialize");
    await expect(page.getByTestId("waterfall-view")).toHaveAttribute("data-last-seq", "2");
    await sendTemplate(page, "template-session-new");
    // The session/new response (seq 4); Gemini may follow it with an update.
    await expect
      .poll(async () => Number(await page.getByTestId("waterfall-view").getAttribute("data-last-seq")))
      .toBeGreaterThanOrEqual(4);

    await scriptTurns([
      {
        parts: [{ functionCall: { name: "write_file", args: { file_path: `${workspace}/wf.txt`, content: "hi\n" } } }],
      },
      { parts: [{ text: "Written." }] },
    ]);
    await sendTemplate(page, "template-session-prompt");
  });

  test("while the agent waits for the user, the turn runs and the wait is drawn", async () => {
    await expect(page.getByTestId("wf-total")).toContainText("(running)");
    await expect(bars(page, "permission")).toHaveCount(1);
    await expect(page.getByTestId("waterfall-end")).toHaveCount(0);
    const before = await bars(page, "permission").getAttribute("width");
    // Growing with the clock, not only with frames.
    await expect
      .poll(async () => Number(await bars(page, "permission").getAttribute("width")))
      .toBeGreaterThan(Number(before));
  });

  test("answering ends the wait; the turn ends with its stop reason", async () => {
    const once = await page
      .locator('[data-testid="pending-request"]')
      .first()
      .click()
      .then(() => page.getByTestId("composer").inputValue());
    const draft = JSON.parse(once);
    // Gemini refuses "always" in an untrusted folder: pick allow once.
    draft.result.outcome.optionId = "proceed_once";
    await page.getByTestId("composer").fill(JSON.stringify(draft));
    await page.getByTestId("send-frame").click();
    await expect(page.getByTestId("waterfall-end")).toHaveCount(1);
    await expect(page.getByTestId("wf-total")).not.toContainText("running");
    await expect(page.getByTestId("waterfall-hover")).toContainText("stop reason end_turn");
    await expect(bars(page, "tool").first()).toBeVisible();
    await expect(bars(page, "message").first()).toBeVisible();
    await expect(page.getByTestId("wf-user")).not.toHaveText("0 ms");
    await expect(page.getByTestId("wf-tools")).toHaveText("1");
    await expect(page.getByTestId("wf-tokens")).toContainText("in");
  });

  test("hover shows exact times; click selects the frames for the Frames view", async () => {
    const wait = bars(page, "permission");
    await wait.hover();
    await expect(page.getByTestId("waterfall-hover")).toContainText(
      /^waiting for the user: session\/request_permission \(answer: proceed_once\) · \+[\d.]+ m?s → \+[\d.]+ m?s · /,
    );
    await wait.click();
    await expect(wait).toHaveAttribute("data-selected", "true");
    await page.getByTestId("view-frames").click();
    const highlighted = page.locator('[data-testid="frame-row"][data-highlighted="true"]');
    await expect(highlighted).toHaveCount(2); // the permission request and its answer
    await expect(rows(page, { method: "session/request_permission" }).first()).toHaveAttribute(
      "data-highlighted",
      "true",
    );
    await stopAgent(page);
  });
});

test("transcript viewer: the demo's turns on the waterfall", async ({ page }) => {
  const token = new URL(url()).searchParams.get("token")!;
  await page.goto(`${process.env.E2E_ORIGIN}/transcripts/demo-gemini?token=${token}`);
  await expect(page.getByTestId("transcript-viewer")).toHaveAttribute("data-complete", "true");
  await page.getByTestId("view-waterfall").click();
  await expect(page.getByTestId("waterfall-turn").locator("option")).toHaveCount(2);
  await expect(page.getByTestId("waterfall-view")).toHaveAttribute("data-turn", "1");
  await expect(page.getByTestId("waterfall-lane").filter({ hasText: "hello.py" })).toHaveCount(1);
  await expect(bars(page, "permission")).toHaveCount(1);
  await expect(page.getByTestId("wf-tokens")).toContainText("38 total");
  await page.getByTestId("waterfall-turn").selectOption("0");
  await expect(page.getByTestId("waterfall-view")).toHaveAttribute("data-turn", "0");
  await expect(page.getByTestId("wf-tokens")).toContainText("19 total");
  await expect(bars(page, "thought")).toHaveCount(1);
});
