/**
 * The frame inspector and agent tabs, end to end with a real Gemini CLI behind
 * the fake Gemini API. Everything waits on locators, never on sleeps.
 */
import { expect, test, type Locator, type Page } from "@playwright/test";
import { openPanel, printFramesOnFailure, rows, scriptTurns, sendTemplate, startAgent, url } from "./helpers";
import { framesView, sharedPage } from "./shared-page";

printFramesOnFailure();

// These specs read raw frames: each opens the Frames view.

async function send(page: Page, frame: string | object) {
  await page.getByTestId("composer").fill(typeof frame === "string" ? frame : JSON.stringify(frame));
  await page.getByTestId("send-frame").click();
}

/** initialize (+ session/new) through the templates; returns the session id. */
async function handshake(page: Page, withSession: boolean): Promise<string | undefined> {
  await sendTemplate(page, "template-initialize");
  await expect(rows(page, { kind: "response", method: "initialize" })).toHaveCount(1);
  if (!withSession) return undefined;
  await sendTemplate(page, "template-session-new");
  await expect(rows(page, { kind: "response", method: "session/new" })).toHaveCount(1);
  await page.getByTestId("template-session-prompt").click();
  return JSON.parse(await page.getByTestId("composer").inputValue()).params.sessionId as string;
}

function alive(pid: string): boolean {
  try {
    process.kill(Number(pid), 0);
    return true;
  } catch {
    return false;
  }
}

async function pidOf(page: Page): Promise<string> {
  const text = await page.getByTestId("agent-status").textContent();
  return /pid (\d+)/.exec(text ?? "")![1]!;
}

/** Every listed row has this attribute value (and there is at least one). */
async function expectAll(page: Page, attr: string, value: string | RegExp) {
  const all = rows(page);
  await expect(all.first()).toBeVisible();
  for (const v of await all.evaluateAll((els, a) => els.map((e) => e.getAttribute(`data-${a}`) ?? ""), attr)) {
    expect(v).toMatch(value instanceof RegExp ? value : new RegExp(`^${value.replace(/[/$]/g, "\\$&")}$`));
  }
}

test.describe.serial("inspector: one agent's log", () => {
  let page: Page;
  let total = 0;
  let count: Locator;
  let request: Locator;
  let response: Locator;
  let detail: Locator;
  sharedPage(
    async (p) => {
      page = p;
      count = page.getByTestId("frame-count");
      request = rows(page, { kind: "request", method: "initialize" });
      response = rows(page, { kind: "response", method: "initialize" });
      detail = page.getByTestId("frame-detail");
      await page.context().grantPermissions(["clipboard-read", "clipboard-write"]);
      await page.goto(url());
      await startAgent(page);
      const sessionId = await handshake(page, true);

      // A prompt the fake API echoes, then a few frames worth inspecting.
      await send(page, {
        jsonrpc: "2.0",
        id: 3,
        method: "session/prompt",
        params: { sessionId, prompt: [{ type: "text", text: "hello inspector" }] },
      });
      await expect(rows(page, { kind: "response", method: "session/prompt" })).toHaveCount(1);
      await send(page, { jsonrpc: "2.0", id: 4, method: "nope/nothing", params: {} });
      await expect(rows(page, { kind: "response", method: "nope/nothing" })).toHaveCount(1);
      await send(page, "{not json");
      await send(page, { jsonrpc: "2.0", id: 4242, result: {} });
      await send(page, { jsonrpc: "2.0", id: 77, method: "session/cancel", params: { sessionId } });
      await send(page, { jsonrpc: "2.0", method: "session/set_mode", params: { sessionId, modeId: "default" } });
      await expect(rows(page, { kind: "notification", method: "session/set_mode" })).toHaveCount(1);
      total = await rows(page).count();
      await expect(count).toHaveText(`${total} frames`);
    },
    { framesView: true, failOnPageErrors: true, everyFrame: true },
  );

  test("protocol checks are flagged on their rows", async () => {
    await expect(rows(page, { kind: "response", dir: "to-agent" }).filter({ hasText: "4242" })).toHaveAttribute(
      "data-checks",
      /orphan-response/,
    );
    await expect(rows(page, { kind: "request", method: "session/cancel" })).toHaveAttribute(
      "data-checks",
      /notification-with-id/,
    );
    await expect(rows(page, { method: "session/set_mode" })).toHaveAttribute("data-checks", "request-without-id");
    await expect(rows(page, { kind: "request", method: "initialize" })).toHaveAttribute("data-checks", "");
  });

  test("direction filter", async () => {
    await page.getByTestId("filter-dir").selectOption("to-agent");
    await expect(rows(page, { dir: "from-agent" })).toHaveCount(0);
    await expectAll(page, "dir", "to-agent");
    await expect(count).toHaveText(new RegExp(`^\\d+ of ${total} frames$`));
    await page.getByTestId("filter-dir").selectOption("");
    await expect(rows(page)).toHaveCount(total);
  });

  test("kind filter", async () => {
    await page.getByTestId("filter-kind").selectOption("response");
    await expect(rows(page, { kind: "request" })).toHaveCount(0);
    await expectAll(page, "kind", "response");
    await page.getByTestId("filter-kind").selectOption("");
  });

  test("method filter, from the methods seen", async () => {
    await page.getByTestId("filter-method").selectOption("session/prompt");
    await expect(rows(page)).toHaveCount(2);
    await expectAll(page, "method", "session/prompt");
    await page.getByTestId("filter-method").selectOption("");
  });

  test("session/update variant filter", async () => {
    await page.getByTestId("filter-update").selectOption("agent_message_chunk");
    await expect(rows(page).first()).toBeVisible();
    await expectAll(page, "method", "session/update");
    await expect(rows(page).filter({ hasText: "Echo: hello inspector" }).first()).toBeVisible();
    await page.getByTestId("filter-update").selectOption("");
  });

  test("errors only", async () => {
    await page.getByTestId("filter-errors").check();
    await expect(rows(page, { kind: "invalid" })).toHaveCount(1);
    await expect(rows(page, { kind: "response", method: "nope/nothing" })).toHaveCount(1);
    await expect(rows(page, { kind: "response", dir: "to-agent" }).filter({ hasText: "4242" })).toHaveCount(1);
    await expect(rows(page, { kind: "request" })).toHaveCount(0);
    await expect(rows(page, { method: "initialize" })).toHaveCount(0);
    await page.getByTestId("filter-errors").uncheck();
  });

  test("protocol issues only, schema warnings included (the rows and the filter agree)", async () => {
    // A request only the schema objects to (cwd is not a string); the agent answers it with an error.
    await send(page, { jsonrpc: "2.0", id: 5, method: "session/new", params: { cwd: 7, mcpServers: [] } });
    await expect(rows(page, { kind: "response", method: "session/new" })).toHaveCount(2);
    total = await rows(page).count();
    const badNew = rows(page, { kind: "request", method: "session/new" }).filter({ hasText: '"cwd":7' });
    await expect(badNew).toHaveAttribute("data-checks", /schema/);
    await page.getByTestId("filter-checks").check();
    await expect(rows(page, { method: "session/set_mode" })).toHaveCount(1);
    await expect(rows(page, { kind: "request", method: "session/cancel" })).toHaveCount(1);
    await expect(rows(page, { kind: "request", method: "session/new" })).toHaveCount(1);
    await expect(badNew).toHaveCount(1);
    await expect(rows(page, { method: "initialize" })).toHaveCount(0);
    await page.getByTestId("filter-checks").uncheck();
    await expect(rows(page)).toHaveCount(total);
  });

  test("full-text search over the raw lines", async () => {
    await page.getByTestId("frame-search").fill("HELLO INSPECTOR");
    await expect(rows(page, { kind: "request", method: "session/prompt" })).toHaveCount(1);
    await expect(rows(page, { method: "initialize" })).toHaveCount(0);
    for (const text of await rows(page).allTextContents()) expect(text.toLowerCase()).toContain("hello inspector");
    await expect(count).toHaveText(new RegExp(`^\\d+ of ${total} frames$`));
    await page.getByTestId("clear-filters").click();
    await expect(page.getByTestId("frame-search")).toHaveValue("");
    await expect(rows(page)).toHaveCount(total);
  });

  test("a selected frame shows its JSON tree and exact raw line", async () => {
    await request.click();
    await expect(request).toHaveAttribute("data-selected", "true");
    await expect(detail).toHaveAttribute("data-seq", "1");
    // The detail opening under the list does not scroll the clicked row away.
    await expect(request).toBeInViewport();
    await expect(detail.getByTestId("frame-json")).toContainText("protocolVersion");
    await expect(detail.getByTestId("frame-json")).toContainText('"acp-playground"');
    const raw = await page.evaluate(() => document.querySelector('[data-testid="frame-raw"]')!.textContent);
    expect(JSON.parse(raw)).toMatchObject({ jsonrpc: "2.0", id: 1, method: "initialize" });
    // Collapsing a node hides its children.
    await detail
      .getByTestId("frame-json")
      .getByRole("button", { name: /collapse/i })
      .nth(1)
      .click();
    await expect(detail.getByTestId("frame-json")).not.toContainText('"acp-playground"');
  });

  test("copy buttons", async () => {
    await detail.getByTestId("copy-raw").click();
    await expect(detail.getByTestId("copy-status")).toHaveText("raw line copied");
    const raw = await detail.getByTestId("frame-raw").textContent();
    expect(await page.evaluate(() => navigator.clipboard.readText())).toBe(raw);
    await detail.getByTestId("copy-json").click();
    await expect(detail.getByTestId("copy-status")).toHaveText("JSON copied");
    expect(await page.evaluate(() => navigator.clipboard.readText())).toBe(JSON.stringify(JSON.parse(raw!), null, 2));
  });

  test("jump from the request to its response and back", async () => {
    const responseSeq = (await response.getAttribute("data-seq"))!;
    await expect(detail.getByTestId("jump-partner")).toHaveAttribute("data-target", responseSeq);
    await detail.getByTestId("jump-partner").click();
    await expect(detail).toHaveAttribute("data-seq", responseSeq);
    await expect(response).toHaveAttribute("data-selected", "true");
    await expect(request).toHaveAttribute("data-selected", "false");
    await expect(detail.getByTestId("frame-json")).toContainText("agentCapabilities");
    await expect(detail.getByTestId("jump-partner")).toHaveText(/Go to request #1/);
    await detail.getByTestId("jump-partner").click();
    await expect(detail).toHaveAttribute("data-seq", "1");
    await expect(request).toHaveAttribute("data-selected", "true");
    // Arrow keys move the selection along the list.
    await request.click();
    await page.keyboard.press("ArrowDown");
    await expect(detail).toHaveAttribute("data-seq", "2");
    await page.keyboard.press("ArrowUp");
    await expect(detail).toHaveAttribute("data-seq", "1");
    // A response to no request has nowhere to jump.
    await rows(page, { kind: "response", dir: "to-agent" }).filter({ hasText: "4242" }).click();
    await expect(detail).toContainText("orphan response");
    await expect(detail.getByTestId("jump-partner")).toHaveCount(0);
  });

  test("new frames update the count without re-rendering the filter controls", async () => {
    // React re-sets a controlled input's type and name on every update, and the browser then
    // re-styles and re-lays out the page: under a flood of frames that made the view's tasks long.
    await page.evaluate(() => {
      const w = window as unknown as { __controlWrites: number };
      w.__controlWrites = 0;
      const observer = new MutationObserver((records) => (w.__controlWrites += records.length));
      for (const id of ["frame-search", "filter-errors", "filter-checks", "toggle-events", "filter-dir"])
        observer.observe(document.querySelector(`[data-testid="${id}"]`)!, { attributes: true });
    });
    // A method already seen: the method filter's options stay as they are.
    await send(page, { jsonrpc: "2.0", id: 5, method: "nope/nothing", params: {} });
    total += 2;
    await expect(count).toHaveText(`${total} frames`);
    // The list follows the newest frame: the answer to it is the last row (the rows on screen depend on the window).
    await expect(rows(page).last()).toContainText('"id":5');
    expect(await page.evaluate(() => (window as unknown as { __controlWrites: number }).__controlWrites)).toBe(0);
  });

  test("stderr & lifecycle on the same timeline, toggleable", async () => {
    const events = page.getByTestId("event-row");
    await expect(events).toHaveCount(0);
    await page.getByTestId("toggle-events").check();
    // The start is the list's first row: scrolled to (under the connection strip the list may not hold every row).
    await page.getByTestId("frame-log").evaluate((el) => el.scrollTo({ top: 0 }));
    await expect(page.locator('[data-testid="event-row"][data-type="started"]')).toHaveCount(1);
    await expect(page.locator('[data-testid="event-row"][data-type="started"]')).toContainText("agent started: gemini");
    // It comes before the first frame.
    const first = page.locator('[data-testid="frame-log"] [role="option"]').first();
    await expect(first).toHaveAttribute("data-type", "started");
    await page.getByTestId("stop-agent").click();
    await expect(page.getByTestId("agent-status")).toHaveAttribute("data-status", "exited");
    // The jumps above left the tail (the list follows no more): End goes back to the newest row.
    await page.getByTestId("frame-log").press("End");
    await expect(page.getByTestId("frame-log")).toHaveAttribute("data-following", "true");
    await expect(page.locator('[data-testid="event-row"][data-type="exited"]')).toHaveCount(1);
    await page.getByTestId("toggle-events").uncheck();
    await expect(events).toHaveCount(0);
    // Counted, not as rows on screen: the stopped agent's settings row under the strip takes some of the list's room.
    await expect(count).toHaveText(`${total} frames`);
  });
});

test("an agent request is flagged unanswered, with a growing age, until the user answers it", async ({ page }) => {
  test.setTimeout(180_000);
  await framesView(page);
  await scriptTurns([
    {
      parts: [
        {
          functionCall: {
            name: "write_file",
            args: { file_path: `${process.env.E2E_WORKSPACE}/inspector.txt`, content: "x\n" },
          },
        },
      ],
    },
    { parts: [{ text: "Done." }] },
  ]);
  await page.goto(url());
  await startAgent(page);
  await handshake(page, true);
  await page.getByTestId("send-frame").click();

  const ask = rows(page, { kind: "request", method: "session/request_permission" });
  await expect(ask).toHaveAttribute("data-checks", "unanswered");
  const badge = ask.getByTestId("frame-check");
  await expect(badge).toHaveText(/^\d+ (ms|s)$/);
  // The hourglass is an inline SVG: it renders without an emoji font.
  await expect(badge.locator("svg")).toHaveCount(1);
  const first = await badge.textContent();
  await expect(badge).not.toHaveText(first!);
  // The prompt itself waits too, for the turn to end.
  await expect(rows(page, { kind: "request", method: "session/prompt" })).toHaveAttribute("data-checks", "unanswered");
  await expect(page.getByTestId("unanswered-count")).toHaveText("2 unanswered");
  await page.getByTestId("unanswered-count").click();
  await expect(page.getByTestId("filter-checks")).toBeChecked();
  await expect(rows(page)).toHaveCount(2);
  await page.getByTestId("clear-filters").click();

  await ask.click();
  await expect(page.getByTestId("frame-detail").locator('[data-check="unanswered"]')).toContainText(
    "no response after",
  );
  await page.getByTestId("pending-request").click();
  await page.getByTestId("send-frame").click();
  await expect(rows(page, { kind: "response", method: "session/prompt" })).toHaveCount(1);
  await expect(ask).toHaveAttribute("data-checks", "");
  await expect(page.getByTestId("unanswered-count")).toHaveCount(0);
  await expect(page.getByTestId("frame-detail").getByTestId("jump-partner")).toHaveText(/Go to response #\d+/);
  await page.getByTestId("stop-agent").click();
  await expect(page.getByTestId("agent-status")).toHaveAttribute("data-status", "exited");
});

test.describe.serial("tabs: one agent per tab, each with its own log, kept across a reload", () => {
  let page: Page;
  let tabs: Locator;
  let tab2Frames = 0;
  let pid1 = "";
  let pid2 = "";
  sharedPage(
    async (p) => {
      page = p;
      await page.goto(url());
      tabs = page.getByTestId("agent-tab");
      await expect(tabs).toHaveCount(1);
      await expect(page.getByTestId("close-tab")).toHaveCount(0);
      await startAgent(page);
      await handshake(page, false);
      await expect(rows(page)).toHaveCount(2);
      pid1 = await pidOf(page);
      await expect(tabs.first().getByTestId("tab-label")).toHaveText("gemini");
      await expect(tabs.first()).toHaveAttribute("data-status", "running");
    },
    { framesView: true, everyFrame: true },
  );

  test("a new tab starts empty, with an agent of its own", async () => {
    await page.getByTestId("new-tab").click();
    await expect(tabs).toHaveCount(2);
    await expect(tabs.nth(1)).toHaveAttribute("data-active", "true");
    await expect(page.getByTestId("connection")).toHaveAttribute("data-state", "connected");
    await expect(page.getByTestId("agent-status")).toHaveAttribute("data-status", "not-started");
    await expect(rows(page)).toHaveCount(0);
    await startAgent(page);
    await handshake(page, true);
    // Gemini sends its commands list just after answering session/new: count once it is in.
    await expect(rows(page, { method: "session/update" }).first()).toBeVisible();
    tab2Frames = await rows(page).count();
    expect(tab2Frames).toBeGreaterThanOrEqual(4);
    await expect(rows(page).first()).toHaveAttribute("data-seq", "1");
    pid2 = await pidOf(page);
    expect(pid2).not.toBe(pid1);
    await expect(tabs.nth(1)).toHaveAttribute("data-status", "running");
    // View state belongs to the tab.
    await page.getByTestId("filter-kind").selectOption("request");
    await expect(rows(page, { kind: "response" })).toHaveCount(0);
    await expect(rows(page)).toHaveCount(2);
  });

  test("tab 1's log stayed intact meanwhile", async () => {
    await tabs.first().getByRole("tab").click();
    await expect(tabs.first()).toHaveAttribute("data-active", "true");
    await expect(page.getByTestId("filter-kind")).toHaveValue("");
    await expect(rows(page)).toHaveCount(2);
    await expect(rows(page, { method: "session/new" })).toHaveCount(0);
    expect(await pidOf(page)).toBe(pid1);
    // Back in tab 2, its filter is as it was left.
    await tabs.nth(1).getByRole("tab").click();
    await expect(page.getByTestId("filter-kind")).toHaveValue("request");
    await expect(rows(page, { kind: "response" })).toHaveCount(0);
    await page.getByTestId("filter-kind").selectOption("");
    await expect(rows(page)).toHaveCount(tab2Frames);
    await tabs.first().getByRole("tab").click();
    await expect(rows(page)).toHaveCount(2);
  });

  test("a reload keeps the tabs, re-attaches each to its agent and keeps what each sent", async () => {
    await page.reload();
    await expect(tabs).toHaveCount(2);
    await expect(tabs.first()).toHaveAttribute("data-active", "true");
    await expect(page.getByTestId("agent-status")).toHaveAttribute("data-status", "running");
    await expect(rows(page)).toHaveCount(2);
    expect(await pidOf(page)).toBe(pid1);
    await openPanel(page, "raw");
    const sent = page.getByTestId("history-entry");
    await expect(sent).toHaveCount(1);
    await expect(sent).toHaveAttribute("data-method", "initialize");
    await tabs.nth(1).getByRole("tab").click();
    await expect(page.getByTestId("agent-status")).toHaveAttribute("data-status", "running");
    await expect(rows(page)).toHaveCount(tab2Frames);
    await expect(rows(page, { kind: "response", method: "session/new" })).toHaveCount(1);
    await expect(sent.filter({ hasText: "session/new" })).toHaveCount(1);
  });

  test("closing a tab stops its agent and leaves the other alone", async () => {
    expect(alive(pid2)).toBe(true);
    // Closing a tab whose agent runs asks first.
    page.once("dialog", (d) => void d.accept());
    await tabs.nth(1).getByTestId("close-tab").click();
    await expect(tabs).toHaveCount(1);
    await expect.poll(() => alive(pid2), { timeout: 20_000 }).toBe(false);
    expect(alive(pid1)).toBe(true);
    await expect(tabs.first()).toHaveAttribute("data-active", "true");
    await expect(page.getByTestId("agent-status")).toHaveAttribute("data-status", "running");
    expect(await pidOf(page)).toBe(pid1);
    await expect(rows(page)).toHaveCount(2);
    await page.getByTestId("stop-agent").click();
    await expect(page.getByTestId("agent-status")).toHaveAttribute("data-status", "exited");
  });
});
