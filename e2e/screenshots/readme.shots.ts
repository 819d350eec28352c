/**
 * The README's screenshots (docs/screenshots/), at the e2e viewport of 1440x900: every page in
 * its main states. The tests of this file run in order in one world, so the library holds the
 * first run's recording when it is taken.
 */
import { rmSync } from "node:fs";
import path from "node:path";
import { expect, test } from "@playwright/test";
import { connect, prompt, scriptTurns, stopAgent, url } from "../helpers";
import { shot } from "./shots";

const origin = () => process.env.E2E_ORIGIN!;
const token = () => new URL(url()).searchParams.get("token")!;

test.describe.configure({ mode: "serial" });

test("the first run: Gemini CLI with the offline model asks before it writes", async ({ page }) => {
  const target = path.join(process.env.E2E_WORKSPACE!, "hello.txt");
  await connect(page, { profile: "gemini-offline" });
  await prompt(page, "write hello.txt saying hi");
  await expect(page.locator('[data-testid="inline-request"][data-method="session/request_permission"]')).toBeVisible();
  await shot(page, "first-run.png");
  await page.keyboard.press("a");
  await expect(page.getByTestId("turn-footer").last()).toHaveAttribute("data-stop-reason", "end_turn");
  await shot(page, "finished-turn.png");
  await stopAgent(page);
  rmSync(target, { force: true });
});

test("a transcript: the shipped demo in the viewer's Session view", async ({ page }) => {
  await page.goto(`${origin()}/transcripts/demo-gemini?token=${token()}`);
  await expect(page.getByTestId("transcript-viewer")).toHaveAttribute("data-complete", "true");
  // Loaded is not yet drawn: on a busy machine the conversation comes a moment later.
  await expect(page.getByTestId("conversation")).toBeVisible();
  await shot(page, "transcript.png");
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

test("the library: the first run's recording beside the demo", async ({ page }) => {
  await page.goto(url());
  await page.getByTestId("nav-transcripts").click();
  await expect(page.locator('[data-testid="transcript-row"][data-id="demo-gemini"]')).toBeVisible();
  await expect.poll(() => page.getByTestId("transcript-row").count()).toBeGreaterThan(1);
  await shot(page, "library.png");
});

test("Profiles with a probe result: the real Gemini CLI with the offline model", async ({ page }) => {
  // A probe takes up to two minutes on a loaded machine.
  test.setTimeout(240_000);
  await page.goto(`${origin()}/profiles?token=${token()}`);
  const row = page.locator('[data-testid="profile-row"][data-name="gemini-offline"]');
  await row.getByTestId("probe-button").click();
  await expect(row.getByTestId("probe-result")).toBeVisible({ timeout: 200_000 });
  await shot(page, "profiles.png");
});

test("Side by side: one prompt, two models, compared", async ({ page }) => {
  const write = {
    parts: [{ functionCall: { name: "write_file", args: { file_path: "hello.txt", content: "hi\n" } } }],
  };
  const turns = (model: string, reply: string) => [write, { parts: [{ text: reply }] }].map((t) => ({ ...t, model }));
  await scriptTurns([
    ...turns("gemini-2.5-flash", "Done: wrote hello.txt."),
    ...turns("gemini-2.5-pro", "I wrote hello.txt with one line, `hi`."),
  ]);
  await page.goto(`${origin()}/compare?token=${token()}`);
  await page.getByTestId("compare-profile-a").selectOption("gemini");
  await page.getByTestId("compare-profile-b").selectOption("gemini");
  await page.getByTestId("compare-model-a").fill("gemini-2.5-flash");
  await page.getByTestId("compare-model-b").fill("gemini-2.5-pro");
  await page.getByTestId("compare-prompt").fill("Write hello.txt saying hi");
  await page.getByTestId("compare-run").click();
  await expect(page.getByTestId("compare-saved")).toBeVisible({ timeout: 90_000 });
  await shot(page, "compare.png");
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
