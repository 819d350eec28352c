/**
 * The waterfall of a Codex app-server turn, end to end with the pinned Codex behind the fake
 * Responses API: Connect, a prompt whose command waits for an approval answered on its card; the
 * turn is drawn from turn/start to turn/completed, the wait in the command's lane, the messages as
 * streams, and the usage of both model calls.
 */
import { rmSync } from "node:fs";
import { expect, test } from "@playwright/test";
import { connect, printFramesOnFailure, prompt, scriptResponses, stopAgent, workspaceFile } from "./helpers";

printFramesOnFailure();

test("a Codex turn in the waterfall: the command, its approval as the user's wait, the turn's status", async ({
  page,
}) => {
  test.setTimeout(180_000);
  await scriptResponses([
    {
      text: ["Running it."],
      tools: [
        {
          name: "exec_command",
          input: { cmd: "echo wf > codex-wf.txt", sandbox_permissions: "require_escalated", justification: "Asked." },
        },
      ],
    },
    { text: ["Done."] },
  ]);
  await connect(page, { profile: "codex" });
  await prompt(page, "make codex-wf.txt");
  const card = page.getByTestId("view-pane").getByTestId("approval-card");
  await expect(card).toHaveAttribute("data-method", "item/commandExecution/requestApproval");

  // While the turn waits for the user, the waterfall draws the wait and the turn runs on.
  await page.getByTestId("view-waterfall").click();
  await expect(page.getByTestId("wf-total")).toContainText("(running)");
  await expect(page.locator('[data-testid="waterfall-bar"][data-kind="permission"]')).toHaveCount(1);
  await expect(page.getByTestId("waterfall-lane").filter({ hasText: "echo wf > codex-wf.txt" })).toHaveCount(1);

  await page.getByTestId("view-session").click();
  await card.locator('[data-testid="approval-choice"][data-decision="accept"]').click();
  await expect(page.locator('[data-testid="turn-footer"][data-status="completed"]')).toHaveCount(1);

  await page.getByTestId("view-waterfall").click();
  await expect(page.getByTestId("waterfall-end")).toHaveCount(1);
  // The turn's final status in turn/completed, where ACP shows its stop reason.
  await expect(page.getByTestId("waterfall-hover")).toContainText("stop reason completed");
  await expect(page.getByTestId("wf-total")).not.toContainText("running");
  await expect(page.getByTestId("wf-tools")).toHaveText("1");
  await expect(page.getByTestId("wf-user")).not.toHaveText("0 ms");
  // The command's own time around the wait (before it, when Codex started the item a moment earlier).
  await expect(page.locator('[data-testid="waterfall-bar"][data-kind="tool"]').last()).toBeVisible();
  await expect(page.locator('[data-testid="waterfall-bar"][data-kind="message"]').first()).toBeVisible();
  // Two model calls (the command, then the answer): the fake's 30 tokens each.
  await expect(page.getByTestId("wf-tokens")).toHaveText("42 in · 18 out · 60 total");
  await stopAgent(page);
  rmSync(workspaceFile("codex-wf.txt"), { force: true });
});
