/**
 * A newcomer's first run without an account: the built-in gemini-offline profile, the real
 * Gemini CLI talking to the offline model this server runs (nothing scripted by the test: what
 * is typed decides what the agent does). It streams, asks before writing, writes in the
 * workspace and runs a command. Then the shipped demo replay, which says a typed prompt is not
 * the recorded one.
 */
import { existsSync, readFileSync, rmSync } from "node:fs";
import { expect, test, type Page } from "@playwright/test";
import { printFramesOnFailure, prompt, stopAgent, url, workspaceFile } from "./helpers";

printFramesOnFailure();

const footer = (page: Page) => page.getByTestId("turn-footer").last();
const lastMessage = (page: Page) => page.getByTestId("agent-message").last();

test.describe.serial("first run: Gemini CLI with the offline model", () => {
  let page: Page;
  const target = workspaceFile("first-run-hello.txt");

  test.beforeAll(async ({ browser }) => {
    test.setTimeout(180_000);
    rmSync(target, { force: true });
    page = await browser.newPage();
    await page.goto(url());
    await expect(page.getByTestId("connection")).toHaveAttribute("data-state", "connected");
  });

  test.afterAll(async () => {
    rmSync(target, { force: true });
    await page.close();
  });

  test("the picker offers the offline model, says what it is and what Connect does; Connect opens a session", async () => {
    await page.getByTestId("profile-select").selectOption("gemini-offline");
    await expect(page.getByTestId("profile-description")).toContainText("offline model");
    await expect(page.getByTestId("profile-description")).toContainText("write hello.txt saying hi");
    await expect(page.getByTestId("credentials-note")).toHaveCount(0);
    await expect(page.getByTestId("start-help")).toContainText("Start agent only starts the process");
    await page.getByTestId("connect").click();
    await expect(page.getByTestId("connect-status")).toHaveAttribute("data-step", "ready", { timeout: 60_000 });
  });

  test("a prompt it does not know streams a reply saying what it can do", async () => {
    await prompt(page, "hello, who are you?");
    await expect(footer(page)).toHaveAttribute("data-stop-reason", "end_turn");
    await expect(lastMessage(page)).toContainText("offline model");
    await expect(lastMessage(page)).toContainText("write hello.txt saying hi");
    await expect(page.getByTestId("thought").last()).toBeVisible();
  });

  test("a write asks first: the permission card answered, the file is written in the workspace", async () => {
    await prompt(page, "write first-run-hello.txt saying hi from the first run");
    const permission = page.locator('[data-testid="inline-request"][data-method="session/request_permission"]');
    await expect(permission).toBeVisible();
    expect(existsSync(target)).toBe(false);
    await page.keyboard.press("a");
    await expect(permission).toHaveCount(0);
    await expect(footer(page)).toHaveAttribute("data-stop-reason", "end_turn");
    expect(readFileSync(target, "utf8")).toBe("hi from the first run\n");
    await expect(lastMessage(page)).toContainText("Wrote first-run-hello.txt");
  });

  test("a command runs as a tool call, and its output comes back", async () => {
    await prompt(page, "run ls");
    await expect(footer(page)).toHaveAttribute("data-stop-reason", "end_turn");
    await expect(page.getByTestId("tool-call").last()).toHaveAttribute("data-status", "completed");
    await expect(lastMessage(page)).toContainText("first-run-hello.txt");
    await stopAgent(page);
  });

  test("the demo is listed as a recording; a prompt other than the recorded one gets a note naming both", async () => {
    const demo = page.locator('[data-testid="profile-select"] option[value="replay:demo-gemini"]');
    await expect(demo).toContainText("a recording, not a live agent");
    await page.getByTestId("profile-select").selectOption("replay:demo-gemini");
    await expect(page.getByTestId("demo-note")).toContainText("answers its own recorded prompts");
    await page.getByTestId("connect").click();
    await expect(page.getByTestId("connect-status")).toHaveAttribute("data-step", "ready");
    await prompt(page, "write a.txt");
    await expect(footer(page)).toHaveAttribute("data-stop-reason", "end_turn");
    // The note, then the recorded answer (its own message: the recording's updates come between).
    const note = page.getByTestId("agent-message").filter({ hasText: "you typed “write a.txt”" });
    await expect(note).toContainText("“What is ACP, in three lines?”");
    await expect(page.getByTestId("agent-message").last()).toContainText("Agent Client Protocol");
    await stopAgent(page);
  });
});
