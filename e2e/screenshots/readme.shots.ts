/** The README's screenshots (docs/*.png), at the e2e viewport of 1440x900. */
import { rmSync } from "node:fs";
import path from "node:path";
import { expect, test, type Page } from "@playwright/test";
import { connect, prompt, scriptTurns, stopAgent, url } from "../helpers";

const docs = path.resolve(import.meta.dirname, "../../docs");
const shot = (page: Page, name: string) => page.screenshot({ path: path.join(docs, name) });

test("the first run: Gemini CLI with the offline model asks before it writes", async ({ page }) => {
  const target = path.join(process.env.E2E_WORKSPACE!, "hello.txt");
  await connect(page, { profile: "gemini-offline" });
  await prompt(page, "write hello.txt saying hi");
  await expect(page.locator('[data-testid="inline-request"][data-method="session/request_permission"]')).toBeVisible();
  await shot(page, "first-run.png");
  await page.keyboard.press("a");
  await expect(page.getByTestId("turn-footer").last()).toHaveAttribute("data-stop-reason", "end_turn");
  await stopAgent(page);
  rmSync(target, { force: true });
});

test("the Session view of the shipped demo", async ({ page }) => {
  const token = new URL(url()).searchParams.get("token")!;
  await page.goto(`${process.env.E2E_ORIGIN}/transcripts/demo-gemini?token=${token}`);
  await expect(page.getByTestId("transcript-viewer")).toHaveAttribute("data-complete", "true");
  // Loaded is not yet drawn: on a busy machine the conversation comes a moment later.
  await expect(page.getByTestId("conversation")).toBeVisible();
  await shot(page, "session-view.png");
});

test("a permission request answered where the agent asks", async ({ page }) => {
  const target = path.join(process.env.E2E_WORKSPACE!, "notes.md");
  await scriptTurns([
    {
      parts: [
        { text: "I'll write the notes." },
        { functionCall: { name: "write_file", args: { file_path: target, content: "ACP notes\n" } } },
      ],
    },
    { parts: [{ text: "Written." }] },
  ]);
  await connect(page);
  await prompt(page, "Write my ACP notes to notes.md");
  await expect(page.locator('[data-testid="inline-request"][data-method="session/request_permission"]')).toBeVisible();
  await shot(page, "answer-inline.png");
  await page.keyboard.press("a");
  await expect(page.getByTestId("turn-footer").last()).not.toHaveAttribute("data-waiting", "true");
  await stopAgent(page);
});

test("the Transcripts page", async ({ page }) => {
  await page.goto(url());
  await page.getByTestId("nav-transcripts").click();
  await expect(page.locator('[data-testid="transcript-row"][data-id="demo-gemini"]')).toBeVisible();
  await shot(page, "transcripts.png");
});

test("a subagent nested under its tool call, and plan cards (test/fixtures/every-update-agent.mjs)", async ({
  page,
}) => {
  await connect(page, { profile: "every-update" });
  await prompt(page, "Show me every update kind");
  await expect(page.getByTestId("turn-footer").last()).toContainText("end_turn");
  const sub = page.locator('[data-testid="sv-subagent"][data-session-id="sub-1"]');
  await expect(sub.getByTestId("agent-message")).toBeVisible();
  await page.locator('[data-testid="sv-item"][data-type="tool_call"]').first().scrollIntoViewIfNeeded();
  await page.locator('[data-testid="conversation"]').evaluate((el, target) => {
    const t = el.querySelector<HTMLElement>(target);
    if (t) el.scrollTop = t.offsetTop - 80;
  }, '[data-testid="sv-item"][data-type="tool_call"]');
  await shot(page, "subagent.png");
  await page.locator('[data-testid="conversation"]').evaluate((el, target) => {
    const t = el.querySelector<HTMLElement>(target);
    if (t) el.scrollTop = t.offsetTop - 80;
  }, '[data-testid="plan"]');
  await shot(page, "plan-updates.png");
  await stopAgent(page);
});
