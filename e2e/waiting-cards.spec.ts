/**
 * A question from the agent as a keyboard user meets it, and how it ends: asked
 * once (the tool card points to the card); after Enter in the prompt box the
 * waiting card has the focus, so its keys answer it; the keys work in the Frames view too; Escape leaves the prompt box; a
 * prompt sent while the turn waits is queued visibly and goes out after it;
 * Stop agent ends every waiting request (cards, badges, title, Cancel request),
 * and each of these states passes axe. A real Gemini CLI behind the fake API.
 */
import { readFileSync, writeFileSync } from "node:fs";
import AxeBuilder from "@axe-core/playwright";
import { expect, test, type Page } from "@playwright/test";
import {
  choosePreset,
  connect,
  openPanel,
  printFramesOnFailure,
  scriptTurns,
  stopAgent,
  workspaceFile,
} from "./helpers";

printFramesOnFailure();

let pageErrors: string[] = [];

const inline = (page: Page, method?: string) =>
  page.locator(`[data-testid="inline-request"]${method ? `[data-method="${method}"]` : ""}`);
const footer = (page: Page) => page.getByTestId("turn-footer").last();

async function expectAccessible(page: Page, state: string): Promise<void> {
  const { violations } = await new AxeBuilder({ page }).analyze();
  const serious = violations
    .filter((v) => v.impact === "serious" || v.impact === "critical")
    .map((v) => `${v.impact} ${v.id}: ${v.help}\n    ${v.nodes.map((n) => n.target.join(" ")).join("\n    ")}`);
  expect(serious, `axe on ${state}`).toEqual([]);
}

/** Scripts a write of `content` to `target` (which exists: Gemini reads it first), its reply, and `more` turns after. */
async function scriptWriteThen(target: string, content: string, more: string[] = []): Promise<void> {
  writeFileSync(target, "before\n");
  await scriptTurns([
    { parts: [{ functionCall: { name: "write_file", args: { file_path: target, content } } }] },
    { parts: [{ text: "Written." }] },
    ...more.map((text) => ({ parts: [{ text }] })),
  ]);
}

/** Types into the prompt box and presses Enter there, leaving the focus where the page puts it. */
async function typePrompt(page: Page, text: string): Promise<void> {
  const input = page.getByTestId("prompt-input");
  await input.click();
  await input.fill(text);
  await input.press("Enter");
}

test.describe.serial("waiting cards: keys answer them without a click, in every view, and Stop ends them", () => {
  let page: Page;

  test.beforeAll(async ({ browser }) => {
    test.setTimeout(180_000);
    // A context of its own: axe needs one (browser.newPage's is closed under it).
    page = await (await browser.newContext()).newPage();
    page.on("pageerror", (e) => pageErrors.push(e.message));
    await connect(page, { fs: true });
    // Reads are served; the permission and the write wait for the user.
    await choosePreset(page, "writes");
  });
  test.beforeEach(() => {
    pageErrors = [];
  });
  test.afterEach(() => expect(pageErrors).toEqual([]));
  test.afterAll(async () => {
    if (await page.getByTestId("stop-agent").isEnabled()) await stopAgent(page);
    await page.context().close();
  });

  test("after Enter in the prompt box the card has the focus: 'a' allows, it types nothing", async () => {
    const target = workspaceFile("keys-focus.txt");
    await scriptWriteThen(target, "focus\n");
    await typePrompt(page, "write keys-focus.txt");
    const permission = inline(page, "session/request_permission");
    await expect(permission).toBeVisible();
    await expect(permission.getByTestId("keys-hint")).toContainText("Esc leaves the prompt box");
    await expect(permission.locator('button[data-primary="true"]')).toBeFocused();
    // Asked once: the tool card above points to the card instead of listing its options again.
    const info = page.getByTestId("tool-permission").last();
    await expect(info.getByTestId("permission-pointer")).toHaveAttribute("href", /^#request-\d+$/);
    await expect(info.getByTestId("permission-option")).toHaveCount(0);
    await expectAccessible(page, "playground, a permission card waiting");

    await page.keyboard.press("a");
    await expect(page.getByTestId("prompt-input")).toHaveValue("");
    await expect(page.getByTestId("tool-permission").last()).toHaveAttribute("data-state", "selected");
    // The write waits next: it takes the focus too, Enter serves it.
    const write = inline(page, "fs/write_text_file");
    await expect(write.locator('button[data-primary="true"]')).toBeFocused();
    await page.keyboard.press("Enter");
    await expect(footer(page)).toHaveAttribute("data-stop-reason", "end_turn");
    expect(readFileSync(target, "utf8")).toBe("focus\n");
    // The chosen option stands out; the others are dimmed but still readable.
    await expectAccessible(page, "playground, a turn with its answered permission");
  });

  test("in the Frames view the left column's card answers the keys; Escape leaves the prompt box", async () => {
    const target = workspaceFile("keys-frames.txt");
    await scriptWriteThen(target, "never\n");
    await page.getByTestId("view-frames").click();
    await expect(page.getByTestId("view-pane")).toHaveAttribute("data-view", "frames");
    // A draft of the next prompt is in the box: the focus stays there until Escape.
    await typePrompt(page, "write keys-frames.txt");
    await page.getByTestId("prompt-input").fill("a draft");
    const card = page.locator('[data-testid="pending-card"][data-method="session/request_permission"]');
    await expect(card).toBeVisible();
    await expect(page.getByTestId("prompt-input")).toBeFocused();
    await expectAccessible(page, "playground, Frames view with a card waiting");
    await page.keyboard.press("Escape");
    await expect(page.getByTestId("prompt-input")).not.toBeFocused();
    await page.keyboard.press("r");
    await expect(card).toHaveCount(0);
    await expect(page.getByTestId("prompt-input")).toHaveValue("a draft");
    await page.getByTestId("view-session").click();
    await expect(page.getByTestId("tool-permission").last().locator('[data-chosen="true"]')).toHaveAttribute(
      "data-option-kind",
      "reject_once",
    );
    await expect(footer(page)).toHaveAttribute("data-ended", "true");
    expect(readFileSync(target, "utf8")).toBe("before\n");
    await page.getByTestId("prompt-input").fill("");
  });

  test("a prompt sent while the turn waits is queued visibly and goes out when the turn ends", async () => {
    const target = workspaceFile("keys-queue.txt");
    await scriptWriteThen(target, "queued\n", ["Answering the queued prompt."]);
    await typePrompt(page, "write keys-queue.txt");
    const permission = inline(page, "session/request_permission");
    await expect(permission).toBeVisible();
    await typePrompt(page, "and then say hello");
    await expect(page.getByTestId("prompt-queued")).toContainText("and then say hello");
    await expect(page.getByTestId("prompt-input")).toHaveValue("");
    await page.getByTestId("prompt-input").blur();
    await page.keyboard.press("a");
    await expect(inline(page, "fs/write_text_file")).toBeVisible();
    await page.keyboard.press("Enter");
    // The turn ended, the queued prompt went out as the next turn and got its answer.
    await expect(page.getByTestId("prompt-queued")).toHaveCount(0);
    await expect(page.getByTestId("session-view")).toContainText("and then say hello");
    await expect(page.getByTestId("session-view")).toContainText("Answering the queued prompt.");
    await expect(footer(page)).toHaveAttribute("data-stop-reason", "end_turn");
  });

  test("Stop agent ends every waiting request: no live card, badge, title or Cancel request", async () => {
    await scriptWriteThen(workspaceFile("keys-stop.txt"), "never\n");
    await typePrompt(page, "write keys-stop.txt");
    await expect(inline(page, "session/request_permission")).toBeVisible();
    await expect(page).toHaveTitle(/\(1\) waiting for you/);
    await openPanel(page, "raw");
    await expect(page.getByTestId("withdraw-request")).not.toHaveCount(0);

    await stopAgent(page);
    await expect(inline(page)).toHaveCount(0);
    await expect(page.getByTestId("pending-card")).toHaveCount(0);
    await expect(page.getByTestId("withdraw-request")).toHaveCount(0);
    await expect(page.getByTestId("tab-waiting")).toHaveCount(0);
    await expect(page).toHaveTitle("ACP Playground");
    const info = page.getByTestId("tool-permission").last();
    await expect(info).toHaveAttribute("data-state", "ended");
    await expect(info).toContainText("not answered: the agent stopped");
    await expect(footer(page).getByTestId("turn-agent-stopped")).toBeVisible();
    await expect(page.getByTestId("ended-by-exit")).toContainText("1 request ended unanswered: the agent stopped");
    await expectAccessible(page, "playground, after Stop agent with a request that waited");
  });
});
