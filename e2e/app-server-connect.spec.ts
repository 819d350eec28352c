/**
 * Codex's app-server from the browser, end to end with the pinned Codex behind the fake Responses
 * API: choosing the codex profile, Connect runs its handshake and lands in the prompt box; a prompt
 * is a turn/start whose reply streams in; its frames (no "jsonrpc") are valid against the
 * app-server's schema; a thread/list composed from its form gets its answer; a slow turn is
 * steered, then Cancel interrupts it. The reply is read in the Frames view.
 */
import { expect, test, type Page } from "@playwright/test";
import { openPanel, printFramesOnFailure, prompt, rows, scriptResponses, stopAgent, url } from "./helpers";

printFramesOnFailure();

const detail = (page: Page) => page.getByTestId("frame-detail").getByTestId("frame-raw");

/** The rows of one method, the list filtered to it (the list is virtual: rows out of view are not there). */
async function only(page: Page, method: string, attrs: Record<string, string> = {}) {
  await page.getByTestId("filter-method").selectOption(method);
  return rows(page, { method, ...attrs });
}

test.describe.serial("Codex app-server: Connect, prompt, schema checks, compose, cancel", () => {
  let page: Page;
  let threadId: string;
  const pageErrors: string[] = [];

  test.beforeAll(async ({ browser }) => {
    page = await browser.newPage();
    page.on("pageerror", (e) => pageErrors.push(e.message));
    await page.addInitScript(() => localStorage.setItem("acp-playground.view", "frames"));
    await page.goto(url());
    await expect(page.getByTestId("connection")).toHaveAttribute("data-state", "connected");
  });

  test.afterEach(() => expect(pageErrors).toEqual([]));

  test.afterAll(async () => {
    await stopAgent(page);
    await page.close();
  });

  test("choosing codex, Connect runs initialize, initialized, thread/start and lands in the prompt box", async () => {
    await expect(page.getByTestId("view-session")).toHaveText("Session");
    await page.getByTestId("profile-select").selectOption("codex");
    // Before Codex runs, the conversation view is already its thread view, saying how to start one.
    await expect(page.getByTestId("view-session")).toHaveText("Thread");
    await page.getByTestId("view-session").click();
    await expect(page.getByTestId("session-empty")).toContainText("No thread yet");
    await page.getByTestId("view-frames").click();
    // No ACP capabilities or version to choose: the settings say the handshake instead.
    await expect(page.getByTestId("connect-settings")).toHaveAttribute("data-protocol", "codex-app-server");
    await expect(page.getByTestId("start-help")).toContainText("(initialize, initialized, thread/start)");
    await page.getByTestId("connect").click();
    await expect(page.getByTestId("connect-status")).toHaveAttribute("data-step", "ready");
    await expect(page.getByTestId("prompt-input")).toBeVisible();
    // The thread's id: from thread/start's answer (the Thread view's header names it, the strip does not).
    await rows(page, { kind: "response", method: "thread/start", dir: "from-agent" }).click();
    threadId = JSON.parse((await detail(page).textContent())!).result.thread.id as string;
    expect(threadId).toMatch(/^[0-9a-f-]{36}$/);
    await expect(page.getByTestId("connect-status")).not.toContainText(threadId);

    await expect(rows(page, { kind: "response", method: "initialize" })).toHaveCount(1);
    await expect(rows(page, { kind: "notification", method: "initialized", dir: "to-agent" })).toHaveCount(1);
    await expect(rows(page, { kind: "request", method: "session/new" })).toHaveCount(0);
    const start = rows(page, { kind: "request", method: "thread/start", dir: "to-agent" });
    await start.click();
    const raw = JSON.parse((await detail(page).textContent())!);
    expect(raw).not.toHaveProperty("jsonrpc");
    expect(raw.params).toEqual({ cwd: process.env.E2E_WORKSPACE });
  });

  test("a prompt is a turn/start; the reply streams in and the turn completes", async () => {
    await scriptResponses([{ text: ["Hello ", "from the fake model"] }]);
    await prompt(page, "say hello");
    await expect(page.getByTestId("prompt-input")).toHaveValue("");
    await expect(rows(page, { kind: "request", method: "turn/start", dir: "to-agent" })).toHaveCount(1);
    const deltas = rows(page, { method: "item/agentMessage/delta" });
    await expect(deltas.filter({ hasText: "from the fake model" })).toHaveCount(1);
    await expect(page.getByTestId("turn-status")).toHaveAttribute("data-state", "ended");
    await expect(page.getByTestId("turn-end")).toHaveText('status "completed"');
    await expect(page.getByTestId("prompt-usage")).toHaveText(/tokens: in \d+ · out \d+/);
    // Codex 0.171 sends more notifications around a turn: its end may be out of the virtual list's view.
    await expect(await only(page, "turn/completed", { kind: "notification" })).toHaveCount(1);
  });

  test("frames without jsonrpc are valid, and checked against the app-server's schema", async () => {
    await expect(rows(page, { kind: "invalid" })).toHaveCount(0);
    for (const [kind, method] of [
      ["response", "thread/start"],
      ["request", "turn/start"],
      ["notification", "turn/completed"],
    ] as const) {
      const row = (await only(page, method, { kind })).first();
      await expect(row).toHaveAttribute("data-schema", "stable");
      await expect(row).not.toHaveAttribute("data-checks", /schema/);
    }
    await page.getByTestId("filter-method").selectOption("");
    // Nothing the real Codex sent breaks its own schema.
    await expect(page.locator('[data-testid="frame-row"][data-checks~="schema"]')).toHaveCount(0);
  });

  test("thread/list composed from its form gets its answer", async () => {
    await openPanel(page, "compose");
    await expect(page.getByTestId("compose-schema")).toHaveAttribute("data-protocol", "codex-app-server");
    // The app-server's methods, grouped: no ACP method is offered.
    await expect(page.locator('[data-testid="compose-group"]').first()).toHaveAttribute("data-group", "initialize");
    await expect(page.locator('[data-testid="compose-method"][data-method="session/new"]')).toHaveCount(0);
    await page.locator('[data-testid="compose-method"][data-method="thread/list"]').click();
    await expect(page.getByTestId("compose-issues")).toHaveCount(0);
    await expect(page.getByTestId("compose-preview")).not.toContainText("jsonrpc");
    await page.getByTestId("compose-send").click();
    await expect(page.getByTestId("compose-outcome")).toContainText("result");
    const answer = await only(page, "thread/list", { kind: "response", dir: "from-agent" });
    await expect(answer).toHaveCount(1);
    await expect(answer).toHaveAttribute("data-schema", "stable");
    await answer.click();
    await expect(detail(page)).toContainText(`"id":"${threadId}"`);
    await page.getByTestId("filter-method").selectOption("");
  });

  test("while a slow turn runs, sending steers it; Cancel interrupts it", async () => {
    // The prompt box is always under the conversation: the Compose panel just closes.
    await page.getByTestId("panel-close").click();
    // Still running when Cancel comes, however loaded the machine, steered or not (steering may start
    // a model call of its own): eight events 10 s apart. At 1.5 s apart, a loaded CI run once saw the
    // turn complete before the steps up to Cancel were done.
    const slow = { text: ["slow ", "slow ", "slow ", "slow"], delayMs: 10_000 };
    await scriptResponses([slow, slow]);
    await prompt(page, "take your time");
    await expect(page.getByTestId("turn-status")).toHaveAttribute("data-state", "running");
    await expect(await only(page, "turn/start", { kind: "response" })).toHaveCount(2);
    await expect(page.getByTestId("prompt-send")).toHaveText("Steer");

    await prompt(page, "and a bit more");
    await expect(await only(page, "turn/steer", { kind: "request", dir: "to-agent" })).toHaveCount(1);
    const steered = rows(page, { kind: "response", method: "turn/steer" });
    await expect(steered).toHaveAttribute("data-schema", "stable");
    await expect(steered).not.toHaveAttribute("data-checks", /schema/);

    await page.getByTestId("prompt-cancel").click();
    const interrupt = await only(page, "turn/interrupt", { kind: "request", dir: "to-agent" });
    await expect(interrupt).toHaveCount(1);
    await interrupt.click();
    const turnStart = JSON.parse((await detail(page).textContent())!).params.turnId as string;
    expect(turnStart).toMatch(/[0-9a-f-]{36}/);
    await expect(page.getByTestId("turn-end")).toHaveText('status "interrupted"');
    await expect(page.getByTestId("prompt-send")).toHaveText("Send");
  });
});
