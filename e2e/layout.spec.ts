/**
 * The Playground as one layout (docs/design.md): the connection strip, the conversation with the
 * prompt at its bottom, one card per question with pointers elsewhere (in every view), panels that
 * open when wanted and are remembered per tab, the slash menu inside the window, the Sessions
 * panel's actions on one line, and Sign out. With SHOTS=dir, 1440x900 screenshots of each state.
 */
import path from "node:path";
import { expect, test, type Page } from "@playwright/test";
import { connect, printFramesOnFailure, prompt, scriptWrite, stopAgent, url, workspaceFile } from "./helpers";

printFramesOnFailure();

const shot = async (page: Page, name: string) => {
  if (process.env.SHOTS) await page.screenshot({ path: path.join(process.env.SHOTS, `${name}.png`) });
};
const inline = (page: Page) => page.locator('[data-testid="inline-request"]');

/** The element's box lies inside the window. */
async function expectInViewport(page: Page, testId: string) {
  const box = (await page.getByTestId(testId).boundingBox())!;
  const size = page.viewportSize()!;
  expect(box.y, `${testId} top`).toBeGreaterThanOrEqual(0);
  expect(box.y + box.height, `${testId} bottom`).toBeLessThanOrEqual(size.height);
  expect(box.x + box.width, `${testId} right`).toBeLessThanOrEqual(size.width);
}

test.describe.serial("one question, one card, in every view", () => {
  let page: Page;
  test.beforeAll(async ({ browser }) => {
    test.setTimeout(180_000);
    page = await browser.newPage();
    await scriptWrite(workspaceFile("layout-card.txt"), "card\n", { reply: "Written." });
    await connect(page);
    await shot(page, "connected");
  });
  test.afterAll(async () => {
    await stopAgent(page);
    await page.close();
  });

  test("the connection is one strip; the settings fold away once the agent runs", async () => {
    await expect(page.getByTestId("agent-bar").getByTestId("agent-status")).toHaveAttribute("data-status", "running");
    await expect(page.getByTestId("agent-options")).toHaveCount(0);
    const strip = (await page.getByTestId("agent-bar").boundingBox())!;
    expect(strip.height).toBeLessThan(60);
    // The prompt box sits at the bottom of the window, under the conversation.
    const box = (await page.getByTestId("prompt-input").boundingBox())!;
    expect(box.y + box.height).toBeGreaterThan(900 - 160);
    expect(box.y).toBeGreaterThan((await page.getByTestId("view-pane").boundingBox())!.y);
  });

  test("the slash menu opens above the prompt box, inside the window, also in a short one", async () => {
    const input = page.getByTestId("prompt-input");
    await input.fill("/");
    await expect(page.getByTestId("slash-menu")).toBeVisible();
    await expectInViewport(page, "slash-menu");
    await shot(page, "slash-menu");
    await page.setViewportSize({ width: 1440, height: 420 });
    await expect(page.getByTestId("slash-menu")).toBeVisible();
    await expectInViewport(page, "slash-menu");
    await page.setViewportSize({ width: 1440, height: 900 });
    await input.fill("");
    await expect(page.getByTestId("slash-menu")).toHaveCount(0);
  });

  test("the question shows once, as the conversation's card; the dock points to it and focuses it", async () => {
    await prompt(page, "write the card file");
    await expect(inline(page)).toHaveCount(1);
    await expect(page.getByTestId("pending-card")).toHaveCount(0);
    await expect(page.getByTestId("waiting-pointer")).toHaveCount(1);
    await expect(page.getByTestId("agent-tab").first().getByTestId("tab-waiting")).toHaveText("1 waiting");
    await shot(page, "card-waiting");
    await page.getByTestId("prompt-input").focus();
    await page.getByTestId("waiting-goto").click();
    await expect(inline(page).locator("button[data-primary='true'], button").first()).toBeFocused();
  });

  test("in the Frames view the card is in the dock, once, and its keys answer it", async () => {
    await page.getByTestId("view-frames").click();
    await expect(inline(page)).toHaveCount(0);
    await expect(page.getByTestId("pending-card")).toHaveCount(1);
    await expect(page.getByTestId("waiting-pointer")).toHaveCount(0);
    await shot(page, "card-waiting-frames");
    await page.getByTestId("prompt-input").focus();
    await page.keyboard.press("Escape");
    await page.keyboard.press("a");
    await expect(page.getByTestId("pending-card")).toHaveCount(0);
    await expect(page.getByTestId("tab-waiting")).toHaveCount(0);
    await page.getByTestId("view-session").click();
    await expect(page.getByTestId("turn-footer").last()).toHaveAttribute("data-stop-reason", "end_turn");
    await shot(page, "finished-turn");
  });
});

test("a panel opens when wanted, closes, and is remembered for the tab across a reload", async ({ page }) => {
  await page.goto(url());
  await expect(page.getByTestId("connection")).toHaveAttribute("data-state", "connected");
  await expect(page.getByTestId("tab-panel")).toHaveAttribute("data-panel", "none");
  await page.getByTestId("column-tab-compose").click();
  await expect(page.getByTestId("compose-panel")).toBeVisible();
  await shot(page, "panel-compose");
  await page.reload();
  await expect(page.getByTestId("compose-panel")).toBeVisible();
  await page.getByTestId("column-tab-raw").click();
  await expect(page.getByTestId("composer")).toBeVisible();
  await expect(page.getByTestId("compose-panel")).toHaveCount(0);
  await page.getByTestId("panel-close").click();
  await expect(page.getByTestId("tab-panel")).toHaveAttribute("data-panel", "none");
  await page.reload();
  await expect(page.getByTestId("connection")).toHaveAttribute("data-state", "connected");
  await expect(page.getByTestId("tab-panel")).toHaveAttribute("data-panel", "none");
  await expect(page.getByTestId("composer")).toHaveCount(0);
});

test("the Sessions panel's actions fit on one line, the rare ones in a menu", async ({ page }) => {
  await connect(page, { profile: "sessions" });
  await page.getByTestId("column-tab-sessions").click();
  const row = page.locator('[data-testid="session-row"][data-session-id="sess-bravo"]');
  const actions = row.getByTestId("session-actions");
  await expect(actions).toBeVisible();
  const buttons = actions.locator(":scope > button, :scope > div > button");
  const tops = await buttons.evaluateAll((els) => els.map((e) => e.getBoundingClientRect().top));
  expect(tops.length).toBeGreaterThan(1);
  // One line: every button's top within a few pixels of the first's (less than a button's height).
  expect(Math.max(...tops) - Math.min(...tops), `tops ${tops.join(", ")}`).toBeLessThan(6);
  await expect(row.getByTestId("session-action-rename")).toHaveCount(0);
  await row.getByTestId("session-menu").click();
  await expect(row.getByTestId("session-action-rename")).toBeVisible();
  await shot(page, "sessions-panel");
  await page.keyboard.press("Escape");
  await expect(row.getByTestId("session-action-rename")).toHaveCount(0);
  await expect(row.getByTestId("session-menu")).toBeFocused();
  await stopAgent(page);
});

test("Sign out clears the browser's sign-in and the page's token", async ({ page }) => {
  await page.goto(url());
  await expect(page.getByTestId("connection")).toHaveAttribute("data-state", "connected");
  // The link's token signed this browser in: Sign out is offered.
  await page.getByTestId("sign-out").click();
  await expect(page.getByTestId("token-message")).toBeVisible();
  await expect(page.getByTestId("sign-out")).toHaveCount(0);
  // Reloaded without a token, the browser is not signed in any more.
  await page.reload();
  await expect(page.getByTestId("token-message")).toBeVisible();
  await expect(page.getByTestId("sign-in-form")).toBeVisible();
});
