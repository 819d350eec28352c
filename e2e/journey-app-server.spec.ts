/**
 * Codex's app-server from Connect to the probe, with the pinned Codex behind the fake Responses API
 * (the codex profile): Connect starts a thread, a prompt's turn runs a command needing escalation, so
 * Codex asks for its approval, Accept on the card in the thread, the command runs and the turn
 * completes; the recording is in the library, replayed as a mock agent it shows the same thread (the
 * approval answered from the recording, the command not run again), and the probe of codex on the
 * Profiles page gives its ASP-* verdict.
 */
import { existsSync, readFileSync, rmSync } from "node:fs";
import { expect, test, type Page } from "@playwright/test";
import { codexEscalatedCommand } from "../test/agent-profiles";
import { scriptResponses, stopAgent, workspaceFile } from "./helpers";
import { expectPassing, journey, probeProfile } from "./journey";

const PROFILE = "codex";
const PROMPT = "make journey-codex.txt";

test.describe.serial("Codex app-server: Connect, prompt, answer, record, replay, probe", () => {
  test.describe.configure({ timeout: 90_000 });
  const target = workspaceFile("journey-codex.txt");
  let page: Page;
  const j = journey(PROFILE, PROMPT, (p) => (page = p));

  const approval = () =>
    page.locator('[data-testid="inline-request"][data-method="item/commandExecution/requestApproval"]');
  const completed = () => page.locator('[data-testid="turn-footer"][data-status="completed"]');

  test("Connect starts a thread; a prompt's command waits for approval", async () => {
    rmSync(target, { force: true });
    await scriptResponses([
      { tools: [codexEscalatedCommand("echo approved > journey-codex.txt")] },
      { text: ["Made ", "**journey-codex.txt**."] },
    ]);
    await j.connect();
    await page.getByTestId("view-session").click();
    await expect(page.getByTestId("thread-view")).toHaveAttribute("data-thread-id", /^[0-9a-f-]{36}$/);
    await j.prompt();
    await expect(approval()).toBeVisible();
    await expect(page.getByTestId("as-command")).toContainText("echo approved > journey-codex.txt");
    await expect(page.getByTestId("turn-waiting")).toBeVisible();
    expect(existsSync(target)).toBe(false);
  });

  test("Accept on the card: the command runs and the turn completes", async () => {
    await approval().locator('[data-testid="approval-choice"][data-decision="accept"]').click();
    await expect(approval()).toHaveCount(0);
    await expect(completed()).toHaveCount(1);
    await expect(page.getByTestId("as-approval-outcome")).toContainText("accept");
    await expect(page.getByTestId("as-exit-code")).toHaveText("exit 0");
    await expect(page.locator('[data-testid="agent-message"][data-completed="true"] strong')).toHaveText(
      "journey-codex.txt",
    );
    expect(readFileSync(target, "utf8").trim()).toBe("approved");
    const said = await j.keepConversation();
    expect(said[0]).toMatch(/^user-message: .*make journey-codex\.txt$/);
    expect(said.at(-1)).toMatch(/^agent-message: .*Made journey-codex\.txt\.$/);
    await stopAgent(page);
  });

  j.recordingInLibraryStep();

  test("replayed as a mock agent: the same thread, the approval answered from the recording, nothing run", async () => {
    rmSync(target);
    // A model asked now would say something else.
    await scriptResponses([{ text: ["Not the recording."] }]);
    await j.connectReplay();
    await j.prompt();
    await page.getByTestId("view-session").click();
    await expect(completed()).toHaveCount(1);
    // A replayed agent's requests are answered from the recording (RecordedClient): no card.
    await expect(approval()).toHaveCount(0);
    await expect(page.getByTestId("as-approval-outcome")).toContainText("accept");
    await j.expectSameConversation();
    await expect(page.getByText("Not the recording.")).toHaveCount(0);
    // The replay carries nothing out: the command did not run again.
    expect(existsSync(target)).toBe(false);
    await stopAgent(page);
  });

  test("the probe of codex on the Profiles page: its ASP-* verdict", async () => {
    await scriptResponses([
      { text: ["Hello."] },
      { text: ["Running it."], tools: [codexEscalatedCommand("echo probe > probe.txt")] },
      { text: ["Done."] },
      // Long enough for the probe's turn/interrupt to find it running.
      { text: Array.from({ length: 60 }, (_, i) => `${i + 1}\n`), delayMs: 200 },
    ]);
    const report = await probeProfile(page, PROFILE, 60_000);
    await expectPassing(report, "app-server", ["ASP-INIT-001", "ASP-THREAD-001", "ASP-TURN-001", "ASP-APPROVAL-001"]);
    await expect(report.getByTestId("probe-verdict")).toHaveAttribute("data-verdict", "CONFORMANT");
  });
});
