/**
 * ACP v2 (the draft) from Connect to the probe, with the v2 reference agent
 * (test/fixtures/v2-reference-agent.mjs, on the pinned SDK's experimental v2 API) as an `acp-v2`
 * profile: Connect negotiates version 2, a prompt is acknowledged at once and its turn asks
 * permission for a tool call (state requires_action), Allow on the card, the turn ends at
 * state_update idle; the recording is in the library, replayed as a mock agent it shows the same
 * conversation, and the probe of the profile (the v2 probe, a fresh agent per scenario) gives its
 * verdict. The SDK's own dual-version example agent asks nothing, so it cannot carry this journey.
 */
import { expect, test, type Page } from "@playwright/test";
import { stopAgent } from "./helpers";
import {
  allowOnce,
  answeredFromRecording,
  expectPassing,
  journey,
  permissionCard,
  probeProfile,
  turnFooter,
} from "./journey";

const PROFILE = "v2-reference";
const PROMPT = "edit the notes";

test.describe.serial("ACP v2 (reference agent): Connect, prompt, answer, record, replay, probe", () => {
  test.describe.configure({ timeout: 90_000 });
  let page: Page;
  const j = journey(PROFILE, PROMPT, (p) => (page = p));
  const permission = () => permissionCard(page);

  test("Connect negotiates v2; a prompt's turn asks permission for its tool call", async () => {
    await j.connect();
    await expect(page.getByTestId("negotiated-version")).toHaveText("v2");
    await j.prompt();
    await expect(permission()).toBeVisible();
    // The card shows what it asks about: the request's title, and its subject (the tool call).
    await expect(permission().getByTestId("permission-title")).toHaveText("Edit notes.txt?");
    await expect(permission().getByTestId("permission-subject")).toHaveAttribute("data-subject-type", "tool_call");
    await expect(permission().getByTestId("permission-subject")).toContainText("Edit notes.txt");
    await expect(page.getByTestId("conversation").getByTestId("tool-title")).toHaveText("Edit notes.txt");
    await expect(turnFooter(page)).toHaveAttribute("data-waiting", "true");
  });

  test("Allow on the card: the tool call completes and the turn ends at state_update idle", async () => {
    // The v2 fold puts the answer on the subject's tool call.
    await allowOnce(page);
    // The reference agent completes the tool call only when allowed (failed otherwise).
    await expect(page.getByTestId("conversation").getByTestId("tool-status")).toHaveText("completed");
    await expect(page.getByTestId("conversation").getByTestId("agent-message").last()).toContainText(
      `You said: ${PROMPT}`,
    );
    const said = await j.keepConversation();
    expect(said[0]).toMatch(/^user-message: .*edit the notes$/);
    expect(said).toContain("tool-title: Edit notes.txt");
    await stopAgent(page);
  });

  j.recordingInLibraryStep();

  test("replayed as a mock agent: the same conversation, its question answered from the recording", async () => {
    await j.connectReplay();
    await expect(page.getByTestId("negotiated-version")).toHaveText("v2");
    await j.prompt();
    await answeredFromRecording(page);
    await expect(page.getByTestId("conversation").getByTestId("tool-status")).toHaveText("completed");
    await j.expectSameConversation();
    await stopAgent(page);
  });

  test("the probe of the profile on the Profiles page: the v2 probe's verdict", async () => {
    const report = await probeProfile(page, PROFILE, 60_000);
    await expectPassing(report, "v2", ["ACP-STATE-201", "ACP-STATE-202", "ACP-PERM-201", "ACP-RESUME-201"]);
    await expect(report.getByTestId("probe-verdict")).toHaveAttribute("data-verdict", "CONFORMANT");
  });
});
