/**
 * Codex's app-server in the thread view, end to end with the pinned Codex behind the fake
 * Responses API: Connect, a streamed Markdown reply to a prompt, then a command approval
 * answered on its card in the thread, after which the command has run in the workspace, and a
 * file change shown as a diff; the
 * recording plays back in the same view, and so does its HTML export.
 */
import { existsSync, readFileSync, rmSync } from "node:fs";
import { pathToFileURL } from "node:url";
import { expect, test, type Page } from "@playwright/test";
import { connect, printFramesOnFailure, prompt, rows, scriptResponses, url, workspaceFile } from "./helpers";

printFramesOnFailure();

/** Connects to Codex (its handshake starts a thread) and returns the thread's id. */
async function startThread(page: Page): Promise<string> {
  await connect(page, { profile: "codex" });
  await page.getByTestId("view-session").click();
  const view = page.getByTestId("thread-view");
  await expect(view).toHaveAttribute("data-thread-id", /^[0-9a-f-]{36}$/);
  return (await view.getAttribute("data-thread-id"))!;
}

test("the thread view: a streamed Markdown reply, then a command accepted on its card (key a)", async ({ page }) => {
  test.setTimeout(180_000);
  const file = workspaceFile("codex-approved.txt");
  rmSync(file, { force: true });
  rmSync(workspaceFile("codex-notes.md"), { force: true });
  const threadId = await startThread(page);

  await test.step("a Markdown reply streams into the thread", async () => {
    await scriptResponses([{ text: ["# Hi\n\n", "Some **bold** words."] }]);
    await prompt(page, "say hi");
    const reply = page.locator('[data-testid="agent-message"][data-completed="true"]');
    await expect(reply.locator("h1")).toHaveText("Hi");
    await expect(reply.locator("strong")).toHaveText("bold");
    await expect(page.locator('[data-testid="turn-footer"][data-status="completed"]')).toHaveCount(1);
    await expect(page.getByTestId("turn-usage").first()).toContainText("total");
  });

  await test.step("the command waits on its card; Accept runs it", async () => {
    await scriptResponses([
      {
        tools: [
          {
            name: "exec_command",
            input: {
              cmd: "echo approved > codex-approved.txt",
              sandbox_permissions: "require_escalated",
              justification: "The user asked for it.",
            },
          },
        ],
      },
      // Codex applies a patch the model runs as a command itself (inside the workspace: no approval).
      {
        tools: [
          {
            name: "exec_command",
            input: {
              cmd: "apply_patch <<'EOF'\n*** Begin Patch\n*** Add File: codex-notes.md\n+# Notes\n*** End Patch\nEOF\n",
            },
          },
        ],
      },
      { text: ["Done."] },
    ]);
    await prompt(page, "make codex-approved.txt");
    const card = page.getByTestId("inline-request");
    await expect(card).toHaveAttribute("data-method", "item/commandExecution/requestApproval");
    await expect(page.getByTestId("turn-waiting")).toBeVisible();
    await expect(page.getByTestId("as-command")).toContainText("echo approved > codex-approved.txt");
    expect(existsSync(file)).toBe(false);
    await expect(card.locator('[data-testid="approval-choice"][data-decision="accept"]')).toHaveAttribute(
      "data-primary",
      "true",
    );
    // The session view's answer key: `a` accepts.
    await page.keyboard.press("a");

    await expect(page.locator('[data-testid="turn-footer"][data-status="completed"]')).toHaveCount(2);
    await expect(page.getByTestId("inline-request")).toHaveCount(0);
    await expect(page.getByTestId("as-approval-outcome")).toContainText("accept");
    await expect(page.getByTestId("as-exit-code")).toHaveText("exit 0");
    expect(readFileSync(file, "utf8").trim()).toBe("approved");
    await expect(page.locator('[data-testid="tool-diff"][data-path$="/codex-notes.md"]')).toContainText("# Notes");
    expect(readFileSync(workspaceFile("codex-notes.md"), "utf8")).toBe("# Notes\n");
  });

  await test.step("the command's frame link opens the Frames view on its first frame; the answer is the page's", async () => {
    const command = page.locator('[data-testid="as-item"][data-type="commandExecution"]');
    const seq = (await command.getAttribute("data-seq"))!;
    await command.getByTestId("show-frames").click();
    await expect(page.getByTestId("view-frames")).toHaveAttribute("aria-selected", "true");
    await expect(rows(page, { seq })).toHaveAttribute("data-selected", "true");
    await expect(rows(page, { seq })).toHaveAttribute("data-method", "item/started");
    await expect(
      rows(page, { kind: "response", dir: "to-agent", method: "item/commandExecution/requestApproval" }),
    ).toHaveCount(1);
  });

  await page.getByTestId("stop-agent").click();
  await expect(page.getByTestId("agent-status")).toHaveAttribute("data-status", "exited");

  await test.step("the recording plays back in the thread view", async () => {
    const origin = process.env.E2E_ORIGIN!;
    const token = new URL(url()).searchParams.get("token")!;
    const list = (await (
      await fetch(`${origin}/api/transcripts`, { headers: { authorization: `Bearer ${token}` } })
    ).json()) as { transcripts: { id: string; kind: string }[] };
    const newest = list.transcripts.find((t) => t.kind === "session")!;
    await page.goto(`${origin}/transcripts/${newest.id}?token=${token}`);
    await expect(page.getByTestId("transcript-viewer")).toHaveAttribute("data-complete", "true");
    await page.getByTestId("view-session").click();
    await expect(page.getByTestId("thread-view")).toHaveAttribute("data-thread-id", threadId);
    await expect(page.getByTestId("as-exit-code")).toHaveText("exit 0");
    await expect(page.getByTestId("as-approval-outcome")).toContainText("accept");
  });

  await test.step("the HTML export shows the thread view too, offline", async () => {
    const [download] = await Promise.all([page.waitForEvent("download"), page.getByTestId("viewer-export").click()]);
    const file = test.info().outputPath("codex.html");
    await download.saveAs(file);
    const context = await page.context().browser()!.newContext({ offline: true });
    const view = await context.newPage();
    await view.goto(pathToFileURL(file).href);
    await view.getByTestId("view-session").click();
    await expect(view.getByTestId("thread-view")).toHaveAttribute("data-thread-id", threadId);
    await expect(view.locator("h1", { hasText: "Hi" })).toBeVisible();
    await expect(view.getByTestId("as-approval-outcome")).toContainText("accept");
    await context.close();
  });
});

test("the thread view: a permissions request shows what it asks, and its card grants it for the session", async ({
  page,
}) => {
  test.setTimeout(180_000);
  await startThread(page);
  const out = workspaceFile("codex-published");
  await scriptResponses([
    {
      tools: [
        {
          name: "request_permissions",
          input: { permissions: { network: { enabled: true }, file_system: { write: [out] } }, reason: "To publish." },
        },
      ],
    },
    { text: ["Published."] },
  ]);
  await prompt(page, "publish it");
  const card = page.getByTestId("inline-request");
  await expect(card).toHaveAttribute("data-method", "item/permissions/requestApproval");
  await expect(card).toContainText("To publish.");
  await expect(page.getByTestId("as-permissions-network")).toBeVisible();
  await expect(page.getByTestId("as-permissions-write")).toContainText(out);
  await card.getByRole("button", { name: "Grant for session" }).click();

  await expect(page.locator('[data-testid="turn-footer"][data-status="completed"]')).toHaveCount(1);
  await expect(page.getByTestId("inline-request")).toHaveCount(0);
  await expect(page.getByTestId("as-approval-outcome")).toContainText(`granted for the session: network, ${out}`);
});
