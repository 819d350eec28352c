/**
 * ACP v2 (the draft) from Connect to the probe, with the v2 reference agent
 * (test/fixtures/v2-reference-agent.mjs, on the pinned SDK's experimental v2 API) as an `acp-v2`
 * profile: Connect negotiates version 2, a prompt is acknowledged at once and its turn asks
 * permission for a tool call (state requires_action), Allow on the card, the turn ends at
 * state_update idle; the recording is in the library, replayed as a mock agent it shows the same
 * conversation, and the probe of the profile (the v2 probe, a fresh agent per scenario) gives its
 * verdict. The SDK's own dual-version example agent asks nothing, so it cannot carry this journey.
 */
import { expect, test, type Locator, type Page } from "@playwright/test";
import { connect, printFramesOnFailure, prompt, stopAgent } from "./helpers";
import { connectReplay, conversationText, libraryRow, newRecording, probeProfile, sessionIds } from "./journey";
import { sharedPage } from "./shared-page";

printFramesOnFailure();

const PROFILE = "v2-reference";
const PROMPT = "edit the notes";

test.describe.serial("ACP v2 (reference agent): Connect, prompt, answer, record, replay, probe", () => {
  test.describe.configure({ timeout: 90_000 });
  let page: Page;
  let before: string[] = [];
  let recorded = "";
  let said: string[] = [];
  let row: Locator;
  sharedPage(
    async (p) => {
      page = p;
    },
    { failOnPageErrors: true },
  );

  const permission = () => page.locator('[data-testid="inline-request"][data-method="session/request_permission"]');
  const chosen = () => page.locator('[data-testid="tool-permission"] [data-chosen="true"]');
  const footer = () => page.getByTestId("conversation").getByTestId("turn-footer");

  test("Connect negotiates v2; a prompt's turn asks permission for its tool call", async () => {
    before = await sessionIds(PROFILE);
    await connect(page, { profile: PROFILE });
    await expect(page.getByTestId("negotiated-version")).toHaveText("v2");
    await prompt(page, PROMPT);
    await expect(permission()).toBeVisible();
    // The card shows what it asks about: the request's title, and its subject (the tool call).
    await expect(permission().getByTestId("permission-title")).toHaveText("Edit notes.txt?");
    await expect(permission().getByTestId("permission-subject")).toHaveAttribute("data-subject-type", "tool_call");
    await expect(permission().getByTestId("permission-subject")).toContainText("Edit notes.txt");
    await expect(page.getByTestId("conversation").getByTestId("tool-title")).toHaveText("Edit notes.txt");
    await expect(footer()).toHaveAttribute("data-waiting", "true");
  });

  test("Allow on the card: the tool call completes and the turn ends at state_update idle", async () => {
    await permission().locator('[data-testid="permission-option"][data-kind="allow_once"]').click();
    await expect(permission()).toHaveCount(0);
    // The v2 fold puts the answer on the subject's tool call.
    await expect(chosen()).toHaveAttribute("data-option-kind", "allow_once");
    await expect(footer()).toHaveAttribute("data-stop-reason", "end_turn");
    await expect(footer()).toHaveAttribute("data-waiting", "false");
    // The reference agent completes the tool call only when allowed (failed otherwise).
    await expect(page.getByTestId("conversation").getByTestId("tool-status")).toHaveText("completed");
    await expect(page.getByTestId("conversation").getByTestId("agent-message").last()).toContainText(
      `You said: ${PROMPT}`,
    );
    said = await conversationText(page);
    expect(said[0]).toMatch(/^user-message: .*edit the notes$/);
    expect(said).toContain("tool-title: Edit notes.txt");
    await stopAgent(page);
  });

  test("the recording is in the library", async () => {
    recorded = await newRecording(PROFILE, before);
    row = await libraryRow(page, recorded);
    await expect(row).toContainText(PROMPT);
  });

  test("replayed as a mock agent: the same conversation, its question answered from the recording", async () => {
    await connectReplay(page, row, recorded);
    await expect(page.getByTestId("negotiated-version")).toHaveText("v2");
    await prompt(page, PROMPT);
    await expect(footer()).toHaveAttribute("data-stop-reason", "end_turn");
    // A replayed agent's requests are answered from the recording (RecordedClient): no card.
    await expect(permission()).toHaveCount(0);
    await expect(chosen()).toHaveAttribute("data-option-kind", "allow_once");
    await expect(page.getByTestId("conversation").getByTestId("tool-status")).toHaveText("completed");
    await expect.poll(() => conversationText(page)).toEqual(said);
    await stopAgent(page);
  });

  test("the probe of the profile on the Profiles page: the v2 probe's verdict", async () => {
    const report = await probeProfile(page, PROFILE, 60_000);
    const v2 = report.locator('[data-testid="conformance-part"][data-variant="v2"]');
    for (const id of ["ACP-STATE-201", "ACP-STATE-202", "ACP-PERM-201", "ACP-RESUME-201"])
      await expect(v2.locator(`[data-testid="requirement-row"][data-id="${id}"]`)).toHaveAttribute(
        "data-status",
        "pass",
      );
    await expect(report.getByTestId("probe-verdict")).toHaveAttribute("data-verdict", "CONFORMANT");
  });
});
