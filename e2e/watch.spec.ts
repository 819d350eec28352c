/**
 * A watch link as a demo uses it: the owner Connects a real Gemini CLI (behind the fake API),
 * makes a watch link, and a second browser (no access token) opens it: it sees the conversation
 * and the waiting card live, cannot answer it, and is told when the owner ends the link.
 */
import { writeFileSync } from "node:fs";
import { expect, test } from "@playwright/test";
import {
  choosePreset,
  connect,
  printFramesOnFailure,
  prompt,
  scriptTurns,
  stopAgent,
  url,
  workspaceFile,
} from "./helpers";

printFramesOnFailure();

test("a watcher sees the owner's conversation and waiting card live, answers nothing, and sees the link end", async ({
  page,
  browser,
}) => {
  test.setTimeout(180_000);
  await connect(page, { fs: true });
  // The write waits for the owner.
  await choosePreset(page, "writes");

  await page.getByTestId("watch-link-create").click();
  const link = await page.getByTestId("watch-link-url").inputValue();
  expect(link).toMatch(/\/watch\/[\w-]{32}$/);

  // Another person: a browser of their own, without the access token.
  const other = await browser.newContext();
  const watcher = await other.newPage();
  const errors: string[] = [];
  watcher.on("pageerror", (e) => errors.push(e.message));
  try {
    await watcher.goto(link);
    await expect(watcher.getByTestId("watch-status")).toHaveAttribute("data-state", "connected");
    await expect(watcher.getByTestId("prompt-input")).toHaveCount(0);

    const target = workspaceFile("watched.txt");
    writeFileSync(target, "before\n");
    await scriptTurns([
      { parts: [{ functionCall: { name: "write_file", args: { file_path: target, content: "watched\n" } } }] },
      { parts: [{ text: "Written while watched." }] },
    ]);
    await prompt(page, "write watched.txt");

    // The owner's card waits; the watcher sees the same card, live, with nothing it can press.
    const ownerCard = page.locator('[data-testid="inline-request"][data-method="session/request_permission"]');
    await expect(ownerCard).toBeVisible();
    const watchedCard = watcher.locator('[data-testid="inline-request"][data-method="session/request_permission"]');
    await expect(watchedCard).toBeVisible();
    await expect(watcher.getByTestId("watch-waiting")).toContainText("session/request_permission");
    const buttons = watchedCard.locator("button");
    expect(await buttons.count()).toBeGreaterThan(0);
    for (const button of await buttons.all()) await expect(button).toBeDisabled();
    await watcher.keyboard.press("a");

    // Only the owner's answer moves the turn on.
    await ownerCard.locator('button[data-primary="true"]').click();
    const write = page.locator('[data-testid="inline-request"][data-method="fs/write_text_file"]');
    await write.locator('button[data-primary="true"]').click();
    await expect(watcher.getByTestId("session-view")).toContainText("Written while watched.");
    await expect(watcher.getByTestId("turn-footer").last()).toHaveAttribute("data-stop-reason", "end_turn");

    // The frames are there too, read-only.
    await watcher.getByTestId("view-frames").click();
    await expect(watcher.locator('[data-testid="frame-row"][data-method="session/prompt"]').first()).toBeVisible();
    await expect(watcher.getByTestId("composer")).toHaveCount(0);

    await page.getByTestId("watch-link-end").click();
    await expect(watcher.getByTestId("watch-status")).toHaveAttribute("data-state", "ended");
    await expect(watcher.getByTestId("watch-status")).toContainText("the owner ended this watch link");
    expect(errors).toEqual([]);
  } finally {
    await other.close();
    await stopAgent(page);
  }
});

test("a watch link that has ended, or never existed, says so and tells the watcher of nothing to press", async ({
  browser,
}) => {
  // Another person: no access token, so nothing of the playground's own page.
  const other = await browser.newContext();
  const watcher = await other.newPage();
  try {
    await watcher.goto(`${new URL(url()).origin}/watch/${"e".repeat(32)}`);
    await expect(watcher.getByTestId("watch-status")).toHaveAttribute("data-state", "ended");
    await expect(watcher.getByTestId("session-empty")).toHaveText("No session was opened while this link was live.");
    await expect(watcher.getByRole("button", { name: "Connect" })).toHaveCount(0);
  } finally {
    await other.close();
  }
});
