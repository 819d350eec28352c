/**
 * Answering the agent where it asks: every pending request appears in the
 * Session view's conversation with real buttons and keyboard shortcuts, the
 * turn, the tab and the page title say "waiting for you", policy presets are
 * one click and kept per browser. A real Gemini CLI behind the fake Gemini API;
 * everything waits on locators.
 */
import { readFileSync } from "node:fs";
import { expect, test, type Page } from "@playwright/test";
import {
  choosePreset,
  connect,
  failOnPageErrors,
  openPolicies,
  printFramesOnFailure,
  prompt,
  scriptWrite,
  stopAgent,
  workspaceFile,
} from "./helpers";

printFramesOnFailure();

const watchErrors = failOnPageErrors();

const inline = (page: Page, method?: string) =>
  page.locator(`[data-testid="inline-request"]${method ? `[data-method="${method}"]` : ""}`);
const footer = (page: Page) => page.getByTestId("turn-footer").last();

const PERMISSION_JOURNEY =
  "answer inline: the permission card in the conversation, 'a' allows once, Enter serves the write";

test.describe.serial(PERMISSION_JOURNEY, () => {
  // One agent and one page for the whole journey; each step is its own test, so a failure names it.
  let page: Page;
  const target = workspaceFile("inline-edit.txt");
  const permission = () => inline(page, "session/request_permission");

  test.beforeAll(async ({ browser }) => {
    test.setTimeout(180_000);
    page = await browser.newPage();
    watchErrors(page);
    // An existing file: Gemini reads it first (served by the preset), then asks.
    await scriptWrite(target, "inline\n", { before: "before\n", reply: "Written inline." });
    await connect(page, { fs: true });
  });

  test.afterAll(async () => {
    await stopAgent(page);
    await page.close();
  });

  test("a preset in one click: reads are served, permission and the write wait", async () => {
    await choosePreset(page, "writes");
    await expect(page.locator('[data-testid="policy-select"][data-method="fs/read_text_file"]')).toHaveAttribute(
      "data-acked",
      "auto",
    );
    await prompt(page, "write a new file");
  });

  test("the request waits in the conversation, and the turn, tab and title say so", async () => {
    await expect(permission()).toBeVisible();
    await expect(footer(page)).toHaveAttribute("data-waiting", "true");
    await expect(footer(page).getByTestId("turn-waiting")).toHaveText("waiting for you");
    await expect(page.getByTestId("agent-tab").first().getByTestId("tab-waiting")).toBeVisible();
    await expect(page).toHaveTitle(/waiting for you/);
    // Real buttons with their keys shown; Gemini's "allow always" is refused in an untrusted folder: last, with the reason.
    const options = permission().getByTestId("permission-option");
    await expect(options.first()).toHaveAttribute("data-kind", "allow_once");
    await expect(options.first()).toHaveAttribute("data-shortcut", "a");
    await expect(options.first()).toContainText("a");
    expect(await options.first().evaluate((el) => el.tagName)).toBe("BUTTON");
    await expect(permission().locator('[data-kind="allow_always"]')).toHaveAttribute("data-refused", "true");
    await expect(permission().getByTestId("untrusted-note")).toContainText("untrusted folder");
    // The tool card's options are plain text now, not look-alike buttons.
    await expect(page.getByTestId("tool-permission")).toContainText("waiting for your answer");
  });

  test("a key typed in a text field is not an answer", async () => {
    await page.getByTestId("prompt-input").press("a");
    await expect(permission()).toBeVisible();
    await page.getByTestId("prompt-input").fill("");
    await page.getByTestId("prompt-input").blur();
  });

  test("'a' allows once", async () => {
    await page.keyboard.press("a");
    const info = page.getByTestId("tool-permission");
    await expect(info).toHaveAttribute("data-state", "selected");
    await expect(info.locator('[data-chosen="true"]')).toHaveAttribute("data-option-kind", "allow_once");
  });

  test("the write waits next; Enter serves it", async () => {
    const write = inline(page, "fs/write_text_file");
    await expect(write).toBeVisible();
    await expect(write.getByTestId("serve-allow")).toHaveAttribute("data-primary", "true");
    await page.keyboard.press("Enter");
    await expect(footer(page)).toHaveAttribute("data-stop-reason", "end_turn");
    await expect(footer(page)).toHaveAttribute("data-waiting", "false");
    expect(readFileSync(target, "utf8")).toBe("inline\n");
    await expect(page.getByTestId("tab-waiting")).toHaveCount(0);
    await expect(page).toHaveTitle("ACP Playground");
  });

  test("the preset is kept in this browser: a new tab starts from it", async () => {
    await page.getByTestId("new-tab").click();
    await expect(page.getByTestId("agent-tab")).toHaveCount(2);
    await openPolicies(page);
    await expect(page.locator('[data-testid="policy-select"][data-method="fs/read_text_file"]')).toHaveAttribute(
      "data-acked",
      "auto",
    );
    await expect(page.locator('[data-testid="policy-preset"][data-preset="writes"]')).toHaveAttribute(
      "aria-pressed",
      "true",
    );
    await page.getByTestId("agent-tab").first().getByRole("tab").click();
  });
});

test("answer inline: one click allows every read in the workspace; 'r' rejects the permission", async ({ page }) => {
  test.setTimeout(180_000);
  const target = workspaceFile("inline-existing.txt");
  await scriptWrite(target, "changed\n", { before: "keep me\n", reply: "Left it alone." });
  await connect(page, { fs: true });
  await prompt(page, "edit the file");

  const read = inline(page, "fs/read_text_file");
  await expect(read).toBeVisible();
  await expect(footer(page).getByTestId("turn-waiting")).toBeVisible();
  await read.getByTestId("allow-all-reads").click();
  await openPolicies(page);
  await expect(page.locator('[data-testid="policy-select"][data-method="fs/read_text_file"]')).toHaveAttribute(
    "data-acked",
    "auto",
  );
  await expect(read).toHaveCount(0);

  const permission = inline(page, "session/request_permission");
  await expect(permission).toBeVisible();
  // The read was answered: only the permission waits.
  await expect(inline(page)).toHaveCount(1);
  await page.keyboard.press("r");
  const info = page.getByTestId("tool-permission");
  await expect(info).toHaveAttribute("data-state", "selected");
  await expect(info.locator('[data-chosen="true"]')).toHaveAttribute("data-option-kind", "reject_once");
  await expect(inline(page)).toHaveCount(0);
  await expect(footer(page)).toHaveAttribute("data-ended", "true");
  expect(readFileSync(target, "utf8")).toBe("keep me\n");
  await stopAgent(page);
});

test("the left column's waiting list jumps to the card in the conversation", async ({ page }) => {
  test.setTimeout(180_000);
  await page.addInitScript(() => localStorage.setItem("acp-playground.view", "frames"));
  await scriptWrite(workspaceFile("jump.txt"), "x\n", { before: "before\n" });
  await connect(page, { fs: true });
  await choosePreset(page, "writes");
  await prompt(page, "write jump.txt");
  const card = page.getByTestId("pending-card").first();
  await expect(card).toBeVisible();
  await expect(page.getByTestId("view-pane")).toHaveAttribute("data-view", "frames");
  await card.getByTestId("pending-show").click();
  await expect(page.getByTestId("view-pane")).toHaveAttribute("data-view", "session");
  const first = inline(page).first();
  await expect(first).toBeInViewport();
  // The card's primary answer has the focus: Enter answers it; the write that follows takes Enter too.
  await expect(first.locator('button[data-primary="true"]:focus')).toHaveCount(1);
  await page.keyboard.press("Enter");
  await expect(inline(page, "fs/write_text_file")).toBeVisible();
  await page.keyboard.press("Enter");
  await expect(footer(page)).toHaveAttribute("data-stop-reason", "end_turn");
  await stopAgent(page);
});
