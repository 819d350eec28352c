/**
 * The session lifecycle and settings (test/fixtures/sessions-agent.mjs): the Sessions panel lists, pages,
 * renames, archives, closes and deletes; the session header's config options (select, boolean), mode
 * and legacy model follow the agent's config_option_update; and Connect asking for the v2 draft
 * (test/fixtures/v2-agent.mjs) negotiates it and runs a turn.
 */
import { expect, test, type Page } from "@playwright/test";
import { connect, openPanel, printFramesOnFailure, prompt, rows, stopAgent, url } from "./helpers";

printFramesOnFailure();

const openSessions = async (page: Page) => {
  await openPanel(page, "sessions");
  await expect(page.getByTestId("sessions-panel")).toBeVisible();
};
/** Shows the Frames view searched for `method`: its rows (few enough not to be virtualised away). */
async function framesOf(page: Page, method: string) {
  await page.getByTestId("view-frames").click();
  await page.getByTestId("frame-search").fill(`"method":"${method}"`);
  return rows(page, { method });
}

const row = (page: Page, id: string) => page.locator(`[data-testid="session-row"][data-session-id="${id}"]`);

test("the Sessions panel lists sessions page by page and renames, archives, closes and deletes them", async ({
  page,
}) => {
  await connect(page, { profile: "sessions" });
  await openSessions(page);
  const list = page.getByTestId("session-row");
  // The agent's own new session first, then stored ones: 3 per page.
  await expect(list).toHaveCount(3);
  await expect(row(page, "sess-alpha").getByTestId("session-title")).toHaveText("Refactor the parser");
  await expect(row(page, "sess-alpha").getByTestId("session-updated")).toContainText("2026-01-20 09:30 UTC");
  await page.getByTestId("sessions-more").click();
  await expect(list).toHaveCount(6);
  // A hostile title is text, not markup.
  await expect(row(page, "sess-charlie").getByTestId("session-title")).toHaveText(
    "<img src=x onerror=alert(1)> hostile title",
  );
  await expect(row(page, "sess-charlie").locator("img")).toHaveCount(0);
  await expect(row(page, "sess-echo").getByTestId("session-title")).toHaveText("(untitled)");
  await page.getByTestId("sessions-more").click();
  await expect(list).toHaveCount(8);
  await expect(page.getByTestId("sessions-more")).toHaveCount(0);

  // Each action the agent advertises is offered: the frequent ones on the row, the rare ones in its menu.
  const bravo = row(page, "sess-bravo");
  for (const a of ["resume", "load", "fork"]) await expect(bravo.getByTestId(`session-action-${a}`)).toBeVisible();
  const more = async (a: string) => {
    await bravo.getByTestId("session-menu").click();
    return bravo.getByTestId(`session-action-${a}`);
  };
  await bravo.getByTestId("session-menu").click();
  for (const a of ["rename", "close", "archive", "delete"])
    await expect(bravo.getByTestId(`session-action-${a}`)).toBeVisible();
  await bravo.getByTestId("session-menu").click();

  await (await more("rename")).click();
  await bravo.getByTestId("session-rename-input").fill("Flaky test fixed");
  await bravo.getByTestId("session-rename-save").click();
  await expect(bravo.getByTestId("session-title")).toHaveText("Flaky test fixed");

  await (await more("archive")).click();
  await expect(bravo.getByTestId("session-archived")).toBeVisible();
  await (await more("unarchive")).click();
  await expect(bravo.getByTestId("session-archived")).toHaveCount(0);

  await (await more("close")).click();
  await expect(bravo.getByTestId("session-menu")).toHaveText("More ▾");
  await expect(bravo.getByTestId("session-row-error")).toHaveCount(0);

  // Delete asks once more, then the row goes.
  await row(page, "sess-delta").getByTestId("session-menu").click();
  await row(page, "sess-delta").getByTestId("session-action-delete").click();
  await row(page, "sess-delta").getByTestId("session-action-delete-confirm").click();
  await expect(row(page, "sess-delta")).toHaveCount(0);
  await expect(list).toHaveCount(7);

  // A refresh starts the list again from the agent's first page.
  await page.getByTestId("sessions-refresh").click();
  await expect(list).toHaveCount(3);
  // Four session/list requests were sent, each with its cursor or none.
  await expect(await framesOf(page, "session/list")).toHaveCount(4);
  await page.getByTestId("frame-search").fill('"cursor":"page-3"');
  await expect(rows(page, { method: "session/list", kind: "request" })).toHaveCount(1);
  await expect(await framesOf(page, "session/close")).toHaveCount(1);
  await stopAgent(page);
});

test("resume from the panel makes that session current and Compose prefills its own cwd", async ({ page }) => {
  await connect(page, { profile: "sessions" });
  await openSessions(page);
  await row(page, "sess-alpha").getByTestId("session-action-resume").click();
  await expect(row(page, "sess-alpha")).toContainText("current");
  await openPanel(page, "compose");
  await page.locator('[data-testid="compose-method"][data-method="session/load"]').click();
  await expect(page.getByTestId("compose-panel")).toContainText("sess-alpha");
  await stopAgent(page);
});

test("config options and modes are selectors in the session header, kept current by the agent's updates", async ({
  page,
}) => {
  await connect(page, { profile: "sessions" });
  const header = page.getByTestId("session-header");
  const model = header.getByTestId("config-select-model");
  const yolo = header.getByTestId("config-boolean-yolo");
  const mode = header.getByTestId("mode-select");
  await expect(model).toHaveValue("auto");
  await expect(yolo).not.toBeChecked();
  await expect(mode).toHaveValue("ask");
  await expect(header.getByTestId("legacy-model-control")).toContainText("model (legacy)");

  await model.selectOption("fast");
  await expect(model).toHaveValue("fast");
  // The box shows the agent's value: it turns on once the agent accepts.
  await yolo.click();
  await expect(yolo).toBeChecked();
  await mode.selectOption("code");
  await expect(mode).toHaveValue("code");
  await header.getByTestId("legacy-model-select").selectOption("m-large");
  await expect(header.getByTestId("legacy-model-select")).toHaveValue("m-large");

  await mode.selectOption("ask");
  await expect(mode).toHaveValue("ask");
  // The agent changes them itself: config_option_update and current_mode_update.
  await prompt(page, "please switch");
  await expect(model).toHaveValue("faster");
  await expect(yolo).not.toBeChecked();
  await expect(mode).toHaveValue("code");
  // What the selectors sent: a select's value id, a boolean with its type, and the legacy set_model.
  await expect(await framesOf(page, "session/set_config_option")).toHaveCount(2);
  await page.getByTestId("frame-search").fill('"type":"boolean","value":true');
  await expect(rows(page, { method: "session/set_config_option" })).toHaveCount(1);
  await expect(await framesOf(page, "session/set_model")).toHaveCount(1);
  await stopAgent(page);
});

test("Connect asks for protocol version 2 when chosen, says it was negotiated, and a v2 turn completes", async ({
  page,
}) => {
  await page.goto(url());
  await page.getByTestId("profile-select").selectOption("v2");
  const version = page.getByTestId("protocol-version");
  await expect(version).toHaveValue("1");
  await version.selectOption("2");
  await page.getByTestId("connect").click();
  await expect(page.getByTestId("connect-status")).toHaveAttribute("data-step", "ready");
  await expect(page.getByTestId("negotiated-version")).toHaveText("v2");

  await prompt(page, "hello v2");
  // The turn ends on state_update idle, after the agent's v2 message.
  await page.getByTestId("view-frames").click();
  const updates = rows(page, { method: "session/update" });
  await expect(updates).toHaveCount(8);
  await updates.last().click();
  await expect(page.getByTestId("frame-detail")).toContainText('"idle"');
  await expect(page.getByTestId("frame-detail")).toContainText('"end_turn"');

  await openPanel(page, "compose");
  await expect(page.getByTestId("compose-schema")).toHaveAttribute("data-version", "2");
  await expect(page.locator('[data-testid="compose-method"][data-method="auth/login"]')).toBeVisible();
  await expect(page.locator('[data-testid="compose-method"][data-method="session/load"]')).toHaveCount(0);
  await stopAgent(page);
  // The choice is kept for the profile; v1 stays the default elsewhere.
  await page.reload();
  await page.getByTestId("profile-select").selectOption("v2");
  await expect(page.getByTestId("protocol-version")).toHaveValue("2");
  await page.getByTestId("profile-select").selectOption("sessions");
  await expect(page.getByTestId("protocol-version")).toHaveValue("1");
});
