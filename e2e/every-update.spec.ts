/**
 * Every v1 stable and unstable `session/update` kind, decoded in the Session view
 * (test/fixtures/every-update-agent.mjs sends them all on one prompt): compaction as a marker
 * with its summary, plan operations on the plan cards, a subagent nested and collapsible with
 * its own conversation, notices by severity, and the one-line fallback for a kind no schema
 * defines.
 */
import { expect, test, type Page } from "@playwright/test";
import { connect, openPanel, printFramesOnFailure, prompt, stopAgent } from "./helpers";

printFramesOnFailure();

const item = (page: Page, type: string) =>
  page.locator(`[data-testid="conversation"] > div > [data-testid="sv-item"][data-type="${type}"]`);

test("every update kind is rendered, none as the unknown fallback but the made-up one", async ({ page }) => {
  await connect(page, { profile: "every-update" });
  await prompt(page, "Show me every update kind");
  await expect(page.getByTestId("turn-footer").last()).toContainText("end_turn");

  // Messages and thoughts.
  await expect(page.getByTestId("agent-message").filter({ hasText: "That was every kind." })).toBeVisible();
  await expect(page.getByTestId("thought").first()).toBeVisible();

  // Plans: the stable plan, items, markdown and file forms, and a removed one.
  const plans = page.locator('[data-testid="conversation"] [data-testid="plan"]');
  await expect(plans).toHaveCount(5);
  await expect(page.locator('[data-testid="plan"][data-plan-id="plan-a"] [data-testid="plan-entry"]')).toHaveCount(3);
  await expect(
    page.locator('[data-testid="plan"][data-plan-id="plan-md"] [data-testid="plan-markdown"] h2'),
  ).toHaveText("Notes");
  await expect(page.locator('[data-testid="plan"][data-plan-id="plan-file"] [data-testid="plan-file"]')).toContainText(
    "file:///work/PLAN.md",
  );
  await expect(page.locator('[data-testid="plan"][data-plan-id="plan-old"]')).toHaveAttribute("data-removed", "true");

  // The subagent: nested under the tool call that started it, with its own conversation, collapsible.
  const sub = page.locator('[data-testid="sv-subagent"][data-session-id="sub-1"]');
  await expect(sub).toContainText("Schema reader");
  await expect(sub).toContainText("from tool call call-1");
  await expect(sub.getByTestId("subagent-state")).toContainText("idle · end_turn");
  await expect(sub.getByTestId("agent-message")).toContainText("The unstable schema adds 5 update kinds.");
  await expect(sub.getByTestId("tool-call")).toContainText("Read schema.unstable.json");
  await sub.getByTestId("subagent-toggle").click();
  await expect(sub.getByTestId("subagent-items")).toHaveCount(0);
  await sub.getByTestId("subagent-toggle").click();
  await expect(sub.getByTestId("subagent-items")).toBeVisible();
  // Its session is not a second session to pick: the header names the one session.
  await expect(page.getByTestId("session-picker")).toHaveCount(0);
  // The view follows the parent session (titled by session_info_update), not its newer child.
  await expect(page.getByTestId("session-header")).toContainText("“Every update kind”");

  // Session messages.
  await expect(page.getByTestId("sv-session-message")).toContainText("Found 26 kinds. Done.");
  await expect(page.getByTestId("sv-session-message")).toContainText("sub-1 → every-1");

  // Compaction: a marker with its summary.
  const compaction = page.getByTestId("sv-compaction");
  await expect(compaction).toHaveAttribute("data-status", "completed");
  await compaction.locator("summary").click();
  await expect(compaction.getByTestId("compaction-summary")).toContainText("the schema lists them");

  // Notices, coloured by severity.
  for (const severity of ["info", "warning", "error"]) {
    await expect(
      page.locator(`[data-testid="sv-event"][data-variant="notice"][data-severity="${severity}"]`),
    ).toHaveCount(1);
  }
  await expect(page.locator('[data-testid="sv-event"][data-severity="warning"]')).toContainText("Rate limit near");

  // Session-state events, one line each.
  for (const variant of [
    "available_commands_update",
    "current_mode_update",
    "config_option_update",
    "session_info_update",
    "usage_update",
  ]) {
    await expect(page.locator(`[data-testid="sv-event"][data-variant="${variant}"]`)).toHaveCount(1);
  }
  await expect(page.locator('[data-testid="sv-event"][data-variant="session_info_update"]')).toContainText(
    "Every update kind",
  );

  // Only the made-up kind falls back, as one line saying no schema defines it.
  const unknown = page.getByTestId("sv-unknown");
  await expect(unknown).toHaveCount(1);
  await expect(unknown).toHaveAttribute("data-variant", "vendor_sparkles");
  await expect(unknown).toContainText("unknown update kind");
  expect((await unknown.boundingBox())!.height).toBeLessThan(40);

  // Tool call done, with its content.
  await expect(item(page, "tool_call").first().getByTestId("tool-status")).toHaveText("completed");
  await stopAgent(page);
});

test("session/load's replay is the session's history, with Gemini's <session_context> folded", async ({ page }) => {
  await connect(page, { profile: "every-update" });
  await prompt(page, "Show me every update kind");
  await expect(page.getByTestId("turn-footer").last()).toContainText("end_turn");
  const youBefore = await page.locator('[data-testid="conversation"] [data-testid="user-message"]').count();

  await openPanel(page, "raw");
  const load = {
    jsonrpc: "2.0",
    id: 900,
    method: "session/load",
    params: { sessionId: "every-1", cwd: process.env.E2E_WORKSPACE, mcpServers: [] },
  };
  await page.getByTestId("composer").fill(JSON.stringify(load));
  await page.getByTestId("send-frame").click();

  const history = page.getByTestId("sv-history");
  await expect(history).toContainText("2 items replayed by session/load");
  // The context and the question came as one message (no messageId on the first chunk): split apart.
  await expect(history.getByTestId("session-context")).toHaveCount(1);
  await expect(history.getByTestId("session-context")).not.toHaveAttribute("open", "");
  await expect(history.getByTestId("user-message")).toHaveText(/What changed\?/);
  await expect(history.getByTestId("agent-message")).toContainText("Two files.");
  // Nothing replayed lands in turn 1: one more YOU bubble, the one in the history.
  await expect(page.locator('[data-testid="conversation"] [data-testid="user-message"]')).toHaveCount(youBefore + 1);
  await expect(
    page.locator('[data-testid="conversation"] [data-testid="sv-item"] >> text="arrived after the turn ended"'),
  ).toHaveCount(0);
  await stopAgent(page);
});
