/**
 * A Codex app-server session recorded in the browser (the pinned Codex behind the fake Responses
 * API: the codex profile, Connect, a prompt), replayed as a mock agent from the Transcripts page
 * with the same prompt (the same reply in the thread view, no model asked), and the probe of the
 * codex profile on the Profiles page (its ASP-* requirements and verdict).
 */
import { expect, test, type Page } from "@playwright/test";
import { connect, printFramesOnFailure, prompt, scriptResponses, stopAgent, url } from "./helpers";
import { sharedPage } from "./shared-page";

printFramesOnFailure();

const origin = () => new URL(url()).origin;
const auth = () => ({ authorization: `Bearer ${new URL(url()).searchParams.get("token")}` });

async function sessionIds(): Promise<string[]> {
  const res = await fetch(`${origin()}/api/transcripts`, { headers: auth() });
  const { transcripts } = (await res.json()) as { transcripts: { id: string; kind: string; profile: string }[] };
  return transcripts.filter((t) => t.kind === "session" && t.profile === "codex").map((t) => t.id);
}

const PROMPT = "say something to replay";

/** The thread's completed reply: Markdown rendered. */
async function expectReply(page: Page) {
  await page.getByTestId("view-session").click();
  await expect(page.getByTestId("thread-view")).toHaveAttribute("data-thread-id", /^[0-9a-f-]{36}$/);
  const reply = page.locator('[data-testid="agent-message"][data-completed="true"]');
  await expect(reply).toHaveCount(1);
  await expect(reply).toContainText("Replayed word for word.");
  await expect(reply.locator("strong")).toHaveText("word for word");
  await expect(page.locator('[data-testid="turn-footer"][data-status="completed"]')).toHaveCount(1);
}

test.describe.serial("Codex app-server: record, replay as a mock agent, probe", () => {
  test.describe.configure({ timeout: 60_000 });
  let page: Page;
  let recorded = "";
  sharedPage(async (p) => {
    page = p;
  });

  test("record: Connect the codex profile, a prompt, the reply in the thread view", async () => {
    const before = new Set(await sessionIds());
    await scriptResponses([{ text: ["Replayed ", "**word for word**."] }]);
    await connect(page, { profile: "codex" });
    await prompt(page, PROMPT);
    await expectReply(page);
    await stopAgent(page);
    await expect.poll(async () => (await sessionIds()).filter((id) => !before.has(id))).toHaveLength(1);
    recorded = (await sessionIds()).find((id) => !before.has(id))!;
  });

  test("Replay as mock agent on the Transcripts page: the same prompt gets the same reply", async () => {
    // Anything the model were asked now would say something else.
    await scriptResponses([{ text: ["Not the recording."] }]);
    await page.getByTestId("nav-transcripts").click();
    await page
      .locator(`[data-testid="transcript-row"][data-id="${recorded}"]`)
      .getByTestId("replay-transcript")
      .click();
    await expect(page.getByTestId("profile-select")).toHaveValue(`replay:${recorded}`);
    await page.getByTestId("option-speed").selectOption("instant");
    await page.getByTestId("connect").click();
    await expect(page.getByTestId("connect-status")).toHaveAttribute("data-step", "ready");
    await prompt(page, PROMPT);
    await expectReply(page);
    await expect(page.getByText("Not the recording.")).toHaveCount(0);
    await stopAgent(page);
  });

  test("the probe of the codex profile: its ASP-* requirements and verdict", async () => {
    await scriptResponses([
      { text: ["Hello."] },
      {
        text: ["Running it."],
        tools: [
          {
            name: "exec_command",
            input: {
              cmd: "echo probe > probe.txt",
              sandbox_permissions: "require_escalated",
              justification: "The user asked for it.",
            },
          },
        ],
      },
      { text: ["Done."] },
      // Long enough for the probe's turn/interrupt to find it running.
      { text: Array.from({ length: 60 }, (_, i) => `${i + 1}\n`), delayMs: 200 },
    ]);
    await page.getByTestId("nav-profiles").click();
    const codex = page.locator('[data-testid="profile-row"][data-name="codex"]');
    await codex.getByTestId("probe-button").click();
    const report = page.getByTestId("probe-report");
    await expect(report).toHaveAttribute("data-profile", "codex", { timeout: 45_000 });
    const part = report.locator('[data-testid="conformance-part"][data-variant="app-server"]');
    for (const id of [
      "ASP-INIT-001",
      "ASP-THREAD-001",
      "ASP-TURN-001",
      "ASP-TURN-002",
      "ASP-APPROVAL-001",
      "ASP-RPC-001",
    ])
      await expect(part.locator(`[data-testid="requirement-row"][data-id="${id}"]`)).toHaveAttribute(
        "data-status",
        "pass",
      );
    await expect(report.getByTestId("probe-verdict")).toHaveAttribute("data-verdict", "CONFORMANT");
    await expect(
      report.locator('[data-testid="probe-row"][data-check="approval round trip (a command needing escalation)"]'),
    ).toHaveAttribute("data-conforms", "true");
    // No ACP step ran against it.
    await expect(report.locator('[data-testid="probe-row"][data-check*="session/"]')).toHaveCount(0);
  });
});
