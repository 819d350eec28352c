/**
 * ACP v1 from Connect to the probe, with the real Gemini CLI behind the fake Gemini API: Connect the
 * gemini profile, a prompt whose model turn writes a new file, Gemini asks permission, Allow on the
 * card in the conversation, the turn ends (end_turn); the recording is in the library, replayed as a
 * mock agent it shows the same conversation (its question answered from the recording, nothing carried out), and the probe of
 * gemini on the Profiles page gives its verdict.
 */
import { existsSync, readFileSync, rmSync } from "node:fs";
import { expect, test, type Locator, type Page } from "@playwright/test";
import { connect, printFramesOnFailure, prompt, scriptTurns, stopAgent, workspaceFile } from "./helpers";
import { connectReplay, conversationText, libraryRow, newRecording, probeProfile, sessionIds } from "./journey";
import { sharedPage } from "./shared-page";

printFramesOnFailure();

const PROFILE = "gemini";
const PROMPT = "write journey-v1.txt";
const REPLY = "Wrote journey-v1.txt.";

test.describe.serial("ACP v1 (Gemini): Connect, prompt, answer, record, replay, probe", () => {
  test.describe.configure({ timeout: 150_000 });
  const target = workspaceFile("journey-v1.txt");
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
  // The tool call's record of the answer: the option chosen.
  const chosen = () => page.locator('[data-testid="tool-permission"] [data-chosen="true"]');
  const footer = () => page.getByTestId("conversation").getByTestId("turn-footer");

  test("Connect the gemini profile; a prompt makes Gemini ask permission for a write", async () => {
    rmSync(target, { force: true });
    before = await sessionIds(PROFILE);
    // Without fs capabilities (the profile's default) Gemini asks, then writes the new file itself.
    await scriptTurns([
      { parts: [{ functionCall: { name: "write_file", args: { file_path: target, content: "v1\n" } } }] },
      { parts: [{ text: REPLY }] },
    ]);
    await connect(page, { profile: PROFILE });
    await expect(page.getByTestId("negotiated-version")).toHaveText("v1");
    await prompt(page, PROMPT);
    await expect(permission()).toBeVisible();
    await expect(permission()).toContainText("journey-v1.txt");
    await expect(footer()).toHaveAttribute("data-waiting", "true");
    expect(existsSync(target)).toBe(false);
  });

  test("Allow on the card: the write happens and the turn ends with end_turn", async () => {
    await permission().locator('[data-testid="permission-option"][data-kind="allow_once"]').click();
    await expect(permission()).toHaveCount(0);
    await expect(chosen()).toHaveAttribute("data-option-kind", "allow_once");
    await expect(footer()).toHaveAttribute("data-stop-reason", "end_turn");
    await expect(footer()).toHaveAttribute("data-waiting", "false");
    await expect(page.getByTestId("conversation").getByTestId("agent-message").last()).toContainText(REPLY);
    expect(readFileSync(target, "utf8")).toBe("v1\n");
    said = await conversationText(page);
    expect(said[0]).toMatch(/^user-message: .*write journey-v1\.txt$/);
    expect(said).toContain("tool-title: Writing to journey-v1.txt");
    expect(said.at(-1)).toMatch(/^agent-message: .*Wrote journey-v1\.txt\.$/);
    await stopAgent(page);
  });

  test("the recording is in the library", async () => {
    recorded = await newRecording(PROFILE, before);
    row = await libraryRow(page, recorded);
    await expect(row).toContainText(PROMPT);
  });

  test("replayed as a mock agent: the same conversation, answered from the recording, nothing carried out", async () => {
    rmSync(target);
    // A model asked now would say something else.
    await scriptTurns([{ parts: [{ text: "Not the recording." }] }]);
    await connectReplay(page, row, recorded);
    await prompt(page, PROMPT);
    await expect(footer()).toHaveAttribute("data-stop-reason", "end_turn");
    // No card this time: a replayed agent's requests are answered from the recording (RecordedClient),
    // so the tool call shows the choice made when it was recorded.
    await expect(permission()).toHaveCount(0);
    await expect(chosen()).toHaveAttribute("data-option-kind", "allow_once");
    await expect.poll(() => conversationText(page)).toEqual(said);
    // Gemini wrote the file itself: the replay has no write to carry out.
    expect(existsSync(target)).toBe(false);
    await stopAgent(page);
  });

  test("the probe of gemini on the Profiles page: its verdict", async () => {
    // The probe's prompts get the fake API's echo, not a leftover scripted turn.
    await scriptTurns([]);
    const report = await probeProfile(page, PROFILE, 120_000);
    const v1 = report.locator('[data-testid="conformance-part"][data-variant="v1"]');
    await expect(v1.locator('[data-testid="requirement-row"][data-id="ACP-INIT-001"]')).toHaveAttribute(
      "data-status",
      "pass",
    );
    // Gemini (pinned 0.61) advertises loadSession and fails session/load of its own session.
    const verdict = report.getByTestId("probe-verdict");
    await expect(verdict).toHaveAttribute("data-verdict", "NOT CONFORMANT");
    await expect(verdict).toContainText("ACP-LOAD-001 fail");
  });
});
