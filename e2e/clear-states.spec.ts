/**
 * Clear states and access: read-only views without live controls, tabs named
 * by what they hold and closed only after asking, the frame list following
 * the newest frame, one empty-state story, "copy link" and the refusal page,
 * resizable and collapsible panes. A real Gemini CLI behind the fake API.
 */
import { expect, test } from "@playwright/test";
import { everyFrame } from "./shared-page";
import {
  connect,
  failOnPageErrors,
  openPanel,
  openPolicies,
  printFramesOnFailure,
  prompt,
  rows,
  scriptTurns,
  scriptWrite,
  startAgent,
  stopAgent,
  url,
  workspaceFile,
} from "./helpers";

printFramesOnFailure();

failOnPageErrors();

const origin = () => process.env.E2E_ORIGIN!;
const token = () => new URL(url()).searchParams.get("token")!;

test("one empty-state story: the Session view says Connect, once (the prompt dock under it does not repeat it)", async ({
  page,
}) => {
  await page.goto(url());
  await expect(page.getByTestId("connection")).toHaveAttribute("data-state", "connected");
  await expect(page.getByTestId("session-empty")).toContainText("Press Connect");
  await expect(page.getByTestId("prompt-dock")).not.toContainText("Press Connect");
});

test("a read-only transcript viewer mid-turn has no Cancel turn and no answer buttons", async ({ browser, page }) => {
  test.setTimeout(180_000);
  await scriptWrite(workspaceFile("readonly.txt"), "x\n", { before: "before\n" });
  await connect(page, { fs: true });
  await prompt(page, "write readonly.txt");
  // Live: the turn waits for the user, with Cancel and answer buttons (the read first, then the permission).
  const read = page.locator('[data-testid="inline-request"][data-method="fs/read_text_file"]');
  await expect(read).toBeVisible();
  await page.keyboard.press("a");
  await expect(page.locator('[data-testid="inline-request"][data-method="session/request_permission"]')).toBeVisible();
  await expect(page.getByTestId("prompt-cancel")).toBeVisible();
  // One Cancel: the session header leaves it to the prompt box.
  await expect(page.getByTestId("cancel-turn")).toHaveCount(0);

  const res = await fetch(`${origin()}/api/transcripts`, { headers: { authorization: `Bearer ${token()}` } });
  const { transcripts } = (await res.json()) as { transcripts: Array<{ id: string; recording: boolean }> };
  const live = transcripts.find((t) => t.recording);
  expect(live).toBeDefined();

  const viewer = await browser.newPage();
  await viewer.goto(`${origin()}/transcripts/${live!.id}?token=${token()}`);
  await viewer.getByTestId("view-session").click();
  await expect(viewer.getByTestId("tool-call").first()).toBeVisible();
  await expect(viewer.getByTestId("tool-permission").first()).toHaveAttribute("data-state", "pending");
  await expect(viewer.getByTestId("cancel-turn")).toHaveCount(0);
  await expect(viewer.getByTestId("prompt-cancel")).toHaveCount(0);
  await expect(viewer.getByTestId("inline-request")).toHaveCount(0);
  await expect(viewer.locator("[data-testid='session-view'] [data-testid='permission-option']:is(button)")).toHaveCount(
    0,
  );
  await viewer.close();

  // Let the turn finish so the next test's script starts clean: everything answered from here on.
  await openPolicies(page);
  await page.locator('[data-testid="policy-preset"][data-preset="auto"]').click();
  // A request shown as waiting may be answered by the policy before the click lands (the card then
  // goes, and a plain click would wait for a card that never comes back): each round tries briefly.
  const waiting = page.locator('[data-testid="inline-request"] button[data-primary="true"]');
  const footer = page.getByTestId("turn-footer").last();
  await expect(async () => {
    if (await waiting.count()) await waiting.first().click({ timeout: 1_000 });
    await expect(footer).toHaveAttribute("data-ended", "true", { timeout: 500 });
  }).toPass({ timeout: 90_000 });
  await expect(page.getByTestId("turn-footer").last()).toHaveAttribute("data-stop-reason", "end_turn");
  await stopAgent(page);
});

test("tabs are named by the session's first prompt, and closing a running tab asks first", async ({ page }) => {
  test.setTimeout(180_000);
  await scriptTurns([{ parts: [{ text: "Hi." }] }]);
  await connect(page);
  await prompt(page, "plan the quarterly report");
  const tab = page.getByTestId("agent-tab").first();
  await expect(tab.getByTestId("tab-label")).toHaveText("gemini");
  await expect(tab.getByTestId("tab-topic")).toHaveText("plan the quarterly report");
  await page.getByTestId("new-tab").click();
  await expect(page.getByTestId("agent-tab")).toHaveCount(2);

  const dialogs: string[] = [];
  page.once("dialog", (d) => {
    dialogs.push(d.message());
    void d.dismiss();
  });
  await tab.getByTestId("close-tab").click();
  expect(dialogs).toHaveLength(1);
  expect(dialogs[0]).toContain("will be stopped");
  await expect(page.getByTestId("agent-tab")).toHaveCount(2);
  await expect(tab.getByTestId("tab-label")).toHaveText("gemini");

  // A tab without an agent closes without asking; Delete on a tab closes it too (the × is out of the tablist's way).
  page.once("dialog", (d) => {
    dialogs.push(d.message());
    void d.dismiss();
  });
  await page.getByTestId("agent-tab").nth(1).getByRole("tab").press("Delete");
  await expect(page.getByTestId("agent-tab")).toHaveCount(1);
  expect(dialogs).toHaveLength(1);
  await stopAgent(page);
});

test("the frame list follows the newest frame until the user scrolls up, then offers 'jump to newest'", async ({
  page,
}) => {
  test.setTimeout(180_000);
  // Every frame its own row: folded, the 60 chunks would be one row and never overflow the list.
  await everyFrame(page);
  await scriptTurns([{ parts: Array.from({ length: 60 }, (_, i) => ({ text: `chunk ${i} ` })) }]);
  await connect(page);
  await prompt(page, "stream a lot");
  await expect(page.getByTestId("turn-footer").last()).toHaveAttribute("data-ended", "true");
  // A short window, so the frames overflow the list (under the strip, and above the prompt box).
  await page.setViewportSize({ width: 1440, height: 560 });
  await page.getByTestId("view-frames").click();
  const log = page.getByTestId("frame-log");
  expect(await log.evaluate((el) => el.scrollHeight > el.clientHeight + 100)).toBe(true);
  const last = rows(page, { kind: "response", method: "session/prompt" });
  // Opens at the newest frame.
  await expect(last).toBeInViewport();
  await expect(log).toHaveAttribute("data-following", "true");
  await expect(page.getByTestId("jump-to-newest")).toHaveCount(0);

  await log.evaluate((el) => el.scrollTo({ top: 0 }));
  await expect(log).toHaveAttribute("data-following", "false");
  await page.getByTestId("jump-to-newest").click();
  await expect(last).toBeInViewport();
  await expect(log).toHaveAttribute("data-following", "true");
  // A smaller pane still shows the newest frame while following.
  await page.setViewportSize({ width: 1440, height: 480 });
  await expect(last).toBeInViewport();

  await test.step("the focused frame list shows a focus ring", async () => {
    // A key press puts the page in keyboard mode, as for a user tabbing to the list.
    await page.keyboard.press("Tab");
    await log.focus();
    await page.keyboard.press("ArrowUp");
    const ring = await log.evaluate((el) => ({
      visible: el.matches(":focus-visible"),
      shadow: getComputedStyle(el).boxShadow,
    }));
    expect(ring.visible).toBe(true);
    expect(ring.shadow).not.toBe("none");
  });
  await stopAgent(page);
});

test("copy link gives the URL without the token; a page without it explains how to sign in and keep a stable token", async ({
  browser,
  page,
}) => {
  await page.context().grantPermissions(["clipboard-read", "clipboard-write"]);
  await page.goto(url());
  await expect(page.getByTestId("connection")).toHaveAttribute("data-state", "connected");
  // The token has left the address bar.
  expect(page.url()).not.toContain("token=");
  await page.getByTestId("copy-link").click();
  await expect(page.getByTestId("copy-link")).toHaveText("Link copied");
  const copied = await page.evaluate(() => navigator.clipboard.readText());
  expect(new URL(copied).searchParams.get("token")).toBeNull();

  // A new browser profile (e2e/sign-in.spec.ts follows a link there): it signs in once, by a form.
  const other = await browser.newPage();
  await other.goto(copied);
  await expect(other.getByTestId("token-message")).toContainText("No access token");
  await expect(other.getByTestId("token-stable-hint")).toContainText("ACP_PLAYGROUND_TOKEN");
  await other.getByTestId("sign-in-token").fill(token());
  await other.getByTestId("sign-in-submit").click();
  await expect(other.getByTestId("connection")).toHaveAttribute("data-state", "connected");
  await other.close();
});

test("the side panel opens, resizes from its edge and closes; stderr is one of its tabs", async ({ page }) => {
  await page.goto(url());
  await expect(page.getByTestId("connection")).toHaveAttribute("data-state", "connected");
  const views = page.getByTestId("view-pane");
  const full = (await views.boundingBox())!.width;
  await openPanel(page, "stderr");
  const panel = page.getByTestId("column-panel-stderr");
  await expect(page.getByTestId("stderr-pane")).toBeVisible();
  expect((await panel.boundingBox())!.width).toBeGreaterThan(300);
  await expect.poll(async () => (await views.boundingBox())!.width).toBeLessThan(full - 300);

  // Drag the panel's edge to the left: the panel grows.
  const edge = (await page.getByTestId("panel-separator").boundingBox())!;
  const width = (await panel.boundingBox())!.width;
  await page.mouse.move(edge.x + edge.width / 2, edge.y + edge.height / 2);
  await page.mouse.down();
  await page.mouse.move(edge.x - 120, edge.y + edge.height / 2, { steps: 5 });
  await page.mouse.up();
  await expect.poll(async () => (await panel.boundingBox())!.width).toBeGreaterThan(width + 80);

  await page.getByTestId("panel-close").click();
  await expect(panel).toHaveCount(0);
  await expect.poll(async () => (await views.boundingBox())!.width).toBeGreaterThan(full - 10);
});

test("at 900 px height, Compose gets the window's height beside the conversation", async ({ page }) => {
  await page.goto(url());
  await expect(page.getByTestId("connection")).toHaveAttribute("data-state", "connected");
  await openPanel(page, "compose");
  // Everything under the strip but the panel's own header. Both measured in one look, again until it
  // holds: the strip grows when the profile's start options arrive (a look between the two measures
  // once saw the strip before them and the panel after).
  await expect
    .poll(async () => {
      const strip = (await page.getByTestId("agent-bar").boundingBox())!;
      const scroll = (await page.getByTestId("panel-scroll").boundingBox())!;
      return scroll.height - (900 - (strip.y + strip.height) - 40);
    })
    .toBeGreaterThan(0);
});

test("Replay as mock agent opens the replay in a new tab; the running tab keeps its profile and agent", async ({
  page,
}) => {
  await page.goto(url());
  await expect(page.getByTestId("connection")).toHaveAttribute("data-state", "connected");
  await page.getByTestId("profile-select").selectOption("cards");
  await startAgent(page);

  await page.getByTestId("nav-transcripts").click();
  await page.locator('[data-testid="transcript-row"][data-id="demo-gemini"]').getByTestId("replay-transcript").click();
  const tabs = page.getByTestId("agent-tab");
  await expect(tabs).toHaveCount(2);
  await expect(page.getByTestId("profile-select")).toHaveValue("replay:demo-gemini");
  await expect(page.getByTestId("agent-status")).not.toHaveAttribute("data-status", "running");

  await tabs.first().getByRole("tab").click();
  await expect(page.getByTestId("profile-select")).toHaveValue("cards");
  await expect(page.getByTestId("agent-status")).toHaveAttribute("data-status", "running");

  // A reload does not follow the link again.
  await page.reload();
  await expect(page.getByTestId("connection")).toHaveAttribute("data-state", "connected");
  await expect(page.getByTestId("agent-status")).toHaveAttribute("data-status", "running");
  await expect(tabs).toHaveCount(2);
  await stopAgent(page);
});

test("an address with no page says so and links on, answering 404", async ({ page }) => {
  const res = await page.goto(`${origin()}/no-such-page`);
  expect(res?.status()).toBe(404);
  await expect(page.getByTestId("not-found")).toContainText("No page at this address");
  await page.getByTestId("not-found").getByRole("link", { name: "playground" }).click();
  await expect(page).toHaveURL(`${origin()}/`);
});
