/**
 * Accessibility: axe-core on every page and its main states, failing on any
 * serious or critical violation (contrast, names, roles, ARIA). The playground
 * states use the shipped demo as a replayed agent, so no model is needed.
 */
import AxeBuilder from "@axe-core/playwright";
import { expect, test, type Page } from "@playwright/test";
import { connect, openPanel, prompt, scriptWrite, stopAgent, url, workspaceFile } from "./helpers";

const origin = () => process.env.E2E_ORIGIN!;
const token = () => new URL(url()).searchParams.get("token")!;

async function expectAccessible(page: Page, state: string): Promise<void> {
  const { violations } = await new AxeBuilder({ page }).analyze();
  const serious = violations
    .filter((v) => v.impact === "serious" || v.impact === "critical")
    .map((v) => `${v.impact} ${v.id}: ${v.help}\n    ${v.nodes.map((n) => n.target.join(" ")).join("\n    ")}`);
  // Soft: one run lists every state's violations, not only the first state's.
  expect.soft(serious, `axe on ${state}`).toEqual([]);
}

test("the playground, empty and with an agent, in each view", async ({ page }) => {
  await page.goto(url());
  await expect(page.getByTestId("connection")).toHaveAttribute("data-state", "connected");
  await expectAccessible(page, "playground, empty");
  await page.getByTestId("view-frames").click();
  await expect(page.getByTestId("frame-log")).toBeVisible();
  await expectAccessible(page, "playground, Frames view without frames");
  await page.getByTestId("view-session").click();

  const link = new URL(url());
  link.searchParams.set("profile", "replay:demo-gemini");
  await page.goto(link.toString());
  await expect(page.getByTestId("profile-select")).toHaveValue("replay:demo-gemini");
  await page.getByTestId("connect").click();
  await expect(page.getByTestId("connect-status")).toHaveAttribute("data-step", "ready");
  await expect(page.getByTestId("view-pane")).toHaveAttribute("data-view", "session");
  await expectAccessible(page, "playground, Session view with an agent");

  await page.getByTestId("view-frames").click();
  await expect(page.getByTestId("frame-row").first()).toBeVisible();
  await expectAccessible(page, "playground, Frames view");
  await page.getByTestId("frame-row").first().click();
  await expectAccessible(page, "playground, Frames view with a frame selected");
  // Scrolled up in a short window (the frames overflow the list): "jump to newest" shows.
  await page.setViewportSize({ width: 1440, height: 360 });
  const log = page.getByTestId("frame-log");
  await expect.poll(() => log.evaluate((el) => el.scrollHeight > el.clientHeight + 50)).toBe(true);
  await log.evaluate((el) => el.scrollTo({ top: 0 }));
  await expect(page.getByTestId("jump-to-newest")).toBeVisible();
  await expectAccessible(page, "playground, Frames view scrolled up");
  await page.setViewportSize({ width: 1440, height: 900 });

  await page.getByTestId("view-waterfall").click();
  await expect(page.getByTestId("view-pane")).toHaveAttribute("data-view", "waterfall");
  await expectAccessible(page, "playground, Waterfall view");
  await page.getByTestId("stop-agent").click();
  await expect(page.getByTestId("agent-status")).toHaveAttribute("data-status", "exited");
});

test("the playground's layout: a panel open, a card waiting (in the conversation and in the dock), a finished turn", async ({
  page,
}) => {
  test.setTimeout(180_000);
  await scriptWrite(workspaceFile("a11y-card.txt"), "axe\n", { reply: "Written." });
  await connect(page);
  for (const tab of ["compose", "raw", "stderr"] as const) {
    await openPanel(page, tab);
    await expectAccessible(page, `playground, ${tab} panel open`);
  }
  await page.getByTestId("panel-close").click();
  await page.getByTestId("agent-options-toggle").click();
  await expectAccessible(page, "playground, the strip's options open while the agent runs");
  await page.getByTestId("agent-options-toggle").click();

  await prompt(page, "write the axe file");
  await expect(page.getByTestId("inline-request")).toBeVisible();
  await expect(page.getByTestId("waiting-pointer")).toBeVisible();
  await expectAccessible(page, "playground, a card waiting in the conversation, its pointer in the dock");
  await page.getByTestId("view-frames").click();
  await expect(page.getByTestId("pending-card")).toBeVisible();
  await expectAccessible(page, "playground, a card waiting in the dock (Frames view)");
  await page.getByTestId("view-session").click();
  await page.getByTestId("inline-request").locator('[data-testid="permission-option"][data-kind="allow_once"]').click();
  await expect(page.getByTestId("turn-footer").last()).toHaveAttribute("data-stop-reason", "end_turn");
  await expectAccessible(page, "playground, a finished turn");
  await stopAgent(page);
});

test("transcripts list, viewer, share page and profiles", async ({ page, browser }) => {
  await page.goto(url());
  await page.getByTestId("nav-transcripts").click();
  await expect(page.locator('[data-testid="transcript-row"][data-id="demo-gemini"]')).toBeVisible();
  await expectAccessible(page, "transcripts list");
  await page.locator('[data-testid="transcript-row"][data-id="demo-gemini"]').getByTestId("share-transcript").click();
  await expect(page.getByTestId("share-box")).toBeVisible();
  await expectAccessible(page, "transcripts list, share box open");

  await page.goto(`${origin()}/transcripts/demo-gemini`);
  await expect(page.getByTestId("viewer-title")).toBeVisible();
  await expectAccessible(page, "viewer");

  const shared = await fetch(`${origin()}/api/transcripts/demo-gemini/share`, {
    method: "POST",
    headers: { authorization: `Bearer ${token()}` },
  });
  expect(shared.status).toBe(200);
  const { shareToken } = (await shared.json()) as { shareToken: string };
  try {
    const other = await (await browser.newContext()).newPage();
    await other.goto(`${origin()}/share/demo-gemini?token=${shareToken}`);
    await expect(other.getByTestId("viewer-title")).toBeVisible();
    await expectAccessible(other, "share page");
    await other.context().close();
  } finally {
    await fetch(`${origin()}/api/transcripts/demo-gemini/share`, {
      method: "DELETE",
      headers: { authorization: `Bearer ${token()}` },
    });
  }

  await page.getByTestId("nav-profiles").click();
  await expect(page).toHaveURL(/\/profiles$/);
  await expect(page.locator('[data-testid="replay-profile"]').first()).toBeVisible();
  await expectAccessible(page, "profiles");
});

test("every state of the library, a transcript, a diff, profiles, side by side and a watch link", async ({
  page,
  browser,
}) => {
  test.setTimeout(300_000);
  const link = new URL(url());
  await page.goto(`${origin()}/transcripts?token=${token()}`);
  const row = page.locator('[data-testid="transcript-row"][data-id="demo-gemini"]');
  await expect(row).toBeVisible();
  // Shown once: the counts are on the kind chips, with no second total in the title line.
  await expect(page.locator('[data-testid="kind-filter"][data-kind="all"]')).toContainText(/\d/);
  await expect(page.getByText(/recorded or imported/)).toHaveCount(0);
  await page.locator('[data-testid="kind-filter"][data-kind="unstarted"]').click();
  await expectAccessible(page, "library, the 'no turn' filter");
  await page.locator('[data-testid="kind-filter"][data-kind="all"]').click();
  await page.getByTestId("transcript-search").fill("nothing matches this");
  await expect(page.getByTestId("no-match")).toBeVisible();
  await expectAccessible(page, "library, no match");
  await page.getByTestId("transcript-search").fill("");
  await page.getByTestId("library-search-input").fill("hello");
  await expect(page.getByTestId("search-hit").first()).toBeVisible();
  await expectAccessible(page, "library, search results");
  await page.getByTestId("library-search-input").fill("");
  await page.getByTestId("latency-toggle").click();
  await expect(page.getByTestId("library-latency")).toBeVisible();
  await expectAccessible(page, "library, latency per method");
  await page.getByTestId("latency-toggle").click();
  await row.getByTestId("transcript-title").click();
  await expect(row.getByTestId("title-input")).toBeVisible();
  await expectAccessible(page, "library, editing a title");
  await row.getByTestId("title-input").press("Escape");
  await row.getByTestId("diff-pick").click();
  await expect(page.getByTestId("diff-picks")).toBeVisible();
  await expectAccessible(page, "library, one transcript picked to diff");
  await row.getByTestId("diff-pick").click();
  await row.getByTestId("row-more").click();
  await expect(row.getByRole("menu")).toBeVisible();
  await expectAccessible(page, "library, a row's More menu open");
  await row.getByTestId("delete-transcript").click();
  await expect(row.getByTestId("confirm-delete")).toBeVisible();
  await expectAccessible(page, "library, confirming a delete");
  await row.getByTestId("cancel-delete").click();

  await page.goto(`${origin()}/transcripts/demo-gemini`);
  await expect(page.getByTestId("transcript-viewer")).toHaveAttribute("data-complete", "true");
  for (const view of ["frames", "waterfall", "insights"]) {
    await page.getByTestId(`view-${view}`).click();
    await expect(page.getByTestId("view-pane")).toHaveAttribute("data-view", view);
    await expectAccessible(page, `transcript, ${view} view`);
  }
  await page.getByTestId("rerun-open").click();
  await expect(page.getByTestId("rerun-panel")).toBeVisible();
  await expectAccessible(page, "transcript, re-run panel open");
  await page.goto(`${origin()}/transcripts/no-such-transcript`);
  await expect(page.getByTestId("viewer-error")).toBeVisible();
  await expectAccessible(page, "transcript, not found");

  await page.goto(`${origin()}/transcripts/diff?a=demo-gemini&b=demo-gemini&ta=0&tb=1`);
  await expect(page.getByTestId("aligned-steps")).toBeVisible();
  await expectAccessible(page, "diff of two turns");

  await page.goto(`${origin()}/profiles`);
  const sessions = page.locator('[data-testid="profile-row"][data-name="sessions"]');
  await sessions.getByTestId("probe-button").click();
  await expect(sessions.getByTestId("probe-result")).toBeVisible({ timeout: 120_000 });
  await expect(page.getByTestId("probe-report")).toBeVisible();
  await expectAccessible(page, "profiles, a probe's result");

  await page.goto(`${origin()}/compare`);
  await expect(page.getByTestId("compare-profile-a")).not.toHaveValue("");
  await expectAccessible(page, "side by side, the form");
  for (const side of ["a", "b"]) await page.getByTestId(`compare-profile-${side}`).selectOption("replay:demo-gemini");
  await page.getByTestId("compare-prompt").fill("What is ACP, in three lines?");
  await page.getByTestId("compare-run").click();
  await expect(page.getByTestId("compare-saved")).toBeVisible({ timeout: 60_000 });
  await expectAccessible(page, "side by side, both sides answered");
  await page.getByTestId("compare-saved").click();
  await expect(page.getByTestId("comparison-viewer")).toBeVisible();
  await expectAccessible(page, "a saved comparison");

  // A watch link on a running replayed agent, opened by someone without the token.
  link.searchParams.set("profile", "replay:demo-gemini");
  await page.goto(link.toString());
  await expect(page.getByTestId("profile-select")).toHaveValue("replay:demo-gemini");
  await page.getByTestId("connect").click();
  await expect(page.getByTestId("connect-status")).toHaveAttribute("data-step", "ready");
  await page.getByTestId("watch-link-create").click();
  const watchUrl = await page.getByTestId("watch-link-url").inputValue();
  const other = await browser.newContext();
  try {
    const watcher = await other.newPage();
    await watcher.goto(watchUrl);
    await expect(watcher.getByTestId("watch-status")).toHaveAttribute("data-state", "connected");
    await expectAccessible(watcher, "watch page, live");
    await page.getByTestId("watch-link-end").click();
    await expect(watcher.getByTestId("watch-status")).not.toHaveAttribute("data-state", "connected");
    // Ended is said once, by the status line; the header does not still claim "live".
    await expect(watcher.getByRole("banner")).not.toContainText(/live/i);
    await expectAccessible(watcher, "watch page, link ended");
    const stranger = await other.newPage();
    await stranger.goto(`${origin()}/transcripts`);
    await expect(stranger.getByTestId("token-message")).toBeVisible();
    await expectAccessible(stranger, "library without an access token");
  } finally {
    await other.close();
  }
  await page.getByTestId("stop-agent").click();
  await expect(page.getByTestId("agent-status")).toHaveAttribute("data-status", "exited");
});

test("the favicon is served", async () => {
  for (const path of ["/favicon.ico", "/icon.svg"]) {
    const res = await fetch(`${origin()}${path}`);
    expect(res.status, path).toBe(200);
  }
});
