/**
 * The decoded Session view, end to end: a real Gemini CLI behind the fake
 * Gemini API, whose model turns each test scripts. Everything waits on
 * locators, never on sleeps.
 */
import { rmSync } from "node:fs";
import { expect, test, type Page } from "@playwright/test";
import { printFramesOnFailure, rows, scriptTurns, sendTemplate, startAgent, stopAgent, url } from "./helpers";
import { sharedPage } from "./shared-page";

printFramesOnFailure();

type Part = { text: string; thought?: boolean } | { functionCall: { name: string; args: Record<string, unknown> } };

const script = (...turns: Array<{ parts: Part[]; delayMs?: number }>) => scriptTurns(turns);

const items = (page: Page, type?: string) =>
  page.locator(`[data-testid="sv-item"]${type ? `[data-type="${type}"]` : ""}`);
const footers = (page: Page) => page.getByTestId("turn-footer");

/** Start agent, initialize, session/new through the templates, all from the Session view. */
async function startSession(page: Page) {
  await page.goto(url());
  await expect(page.getByTestId("view-session")).toHaveAttribute("aria-selected", "true");
  await expect(page.getByTestId("session-empty")).toBeVisible();
  await startAgent(page);
  await sendTemplate(page, "template-initialize");
  // The initialize response (seq 2) has been folded into the view.
  await expect(page.getByTestId("session-view")).toHaveAttribute("data-last-seq", "2");
  // The session appears in the view once session/new is answered.
  await sendTemplate(page, "template-session-new");
  await expect(page.getByTestId("session-header")).toBeVisible();
}

/** Sends a session/prompt from the template with this text; returns its sessionId. */
async function prompt(page: Page, text: string): Promise<string> {
  await page.getByTestId("template-session-prompt").click();
  const composer = page.getByTestId("composer");
  const draft = JSON.parse(await composer.inputValue());
  draft.params.prompt[0].text = text;
  await composer.fill(JSON.stringify(draft));
  await page.getByTestId("send-frame").click();
  return draft.params.sessionId as string;
}

const XSS = [
  "Inert markup follows.",
  '<script>window.__xss = "script"</script>',
  'Inline: <img src="x" onerror="window.__xss = \'img\'"> and <span onmouseover="window.__xss = \'hover\'" onclick="window.__xss = \'click\'">hover me</span>.',
  "[a bad link](javascript:window.__xss='link') and <a href=\"javascript:window.__xss='a'\">another</a>",
  '<svg><script>window.__xss = "svg"</script></svg> <iframe src="javascript:window.__xss=\'iframe\'"></iframe>',
  "![tracker](http://127.0.0.1:9/pixel.png) [fine](https://example.com/)",
].join("\n\n");

test.describe.serial("session view: Markdown, thoughts, turn footer, inert agent HTML, cross-highlighting", () => {
  let page: Page;
  sharedPage(
    async (p) => {
      page = p;
      await startSession(page);
    },
    { failOnPageErrors: true, failOnConsoleErrors: true },
  );

  test("streamed chunks become one Markdown message with highlighted code; the thought folds", async () => {
    await script({
      parts: [
        { text: "Planning a friendly greeting.", thought: true },
        { text: "Hello " },
        { text: "**world**, here is code:\n\n" },
        { text: "```js\nconst answer = 42;\n```\n" },
      ],
    });
    await prompt(page, "greet me");
    await expect(footers(page).first()).toHaveAttribute("data-ended", "true");
    const user = items(page, "user_message");
    await expect(user).toHaveCount(1);
    await expect(user).toContainText("greet me");

    const message = items(page, "agent_message");
    await expect(message).toHaveCount(1);
    await expect(message.locator("strong")).toHaveText("world");
    await expect(message).toContainText("Hello world, here is code:");
    const code = message.locator("pre code.hljs.language-js");
    await expect(code).toContainText("const answer = 42;");
    // Highlighted: tokens are spans with hljs classes.
    await expect(code.locator(".hljs-keyword").first()).toHaveText("const");
    // One message merged from several chunk frames.
    expect(
      Number((await message.getByTestId("show-frames").textContent())?.match(/\+(\d+)/)?.[1]),
    ).toBeGreaterThanOrEqual(1);

    const thought = page.getByTestId("thought");
    await expect(thought).toHaveCount(1);
    await expect(thought.getByTestId("thought-body")).toBeHidden();
    await thought.getByTestId("thought-toggle").click();
    await expect(thought.getByTestId("thought-body")).toBeVisible();
    await expect(thought.getByTestId("thought-body")).toContainText("Planning a friendly greeting");
    await thought.getByTestId("thought-toggle").click();
    await expect(thought.getByTestId("thought-body")).toBeHidden();
  });

  test("the turn footer shows stop reason, timings and token usage", async () => {
    const footer = footers(page).first();
    await expect(footer).toHaveAttribute("data-stop-reason", "end_turn");
    await expect(footer.getByTestId("stop-reason")).toHaveText("end_turn");
    await expect(footer.getByTestId("turn-usage")).toHaveText(/^tokens \d+ in · \d+ out · \d+ total$/);
    await expect(footer).toContainText(/first chunk \d/);
    await expect(footer).toContainText(/total \d/);
    await expect(footer.getByTestId("empty-response")).toHaveCount(0);
    // Said once: the prompt dock under the Session view leaves them to the footer, and says them in other views.
    const dock = page.getByTestId("prompt-dock");
    await expect(dock.getByTestId("turn-status")).toHaveAttribute("data-state", "ended");
    await expect(dock.getByTestId("prompt-usage")).toHaveCount(0);
    await expect(dock.getByTestId("turn-end")).toHaveCount(0);
    await page.getByTestId("view-waterfall").click();
    await expect(dock.getByTestId("turn-end")).toHaveText('stopReason "end_turn"');
    await expect(dock.getByTestId("prompt-usage")).toHaveText(/^tokens: in \d+ · out \d+/);
    await page.getByTestId("view-session").click();
    await expect(dock.getByTestId("prompt-usage")).toHaveCount(0);
  });

  test("agent HTML renders inert: no script, no handlers, no javascript: links", async () => {
    await script({ parts: XSS.split("\n\n").map((text) => ({ text: `${text}\n\n` })) });
    await prompt(page, "be evil");
    await expect(footers(page)).toHaveCount(2);
    await expect(footers(page).nth(1)).toHaveAttribute("data-ended", "true");
    const message = items(page, "agent_message").nth(1);
    await expect(message).toContainText("Inert markup follows.");
    await expect(message).toContainText("hover me");
    await expect(message.getByText("a bad link")).toBeVisible();
    // Hover and click where handlers would have been.
    await message.getByText("hover me").hover();
    await message.getByText("hover me").click();
    const report = await message.evaluate((el) => ({
      scripts: el.querySelectorAll("script").length,
      iframes: el.querySelectorAll("iframe, object, embed").length,
      images: el.querySelectorAll("img").length,
      handlers: [...el.querySelectorAll("*")].flatMap((n) =>
        n.getAttributeNames().filter((a) => a.toLowerCase().startsWith("on")),
      ),
      jsLinks: el.querySelectorAll('a[href^="javascript:" i]').length,
      hrefs: [...el.querySelectorAll("a")].map((a) => a.getAttribute("href")),
      xss: (window as unknown as { __xss?: unknown }).__xss,
    }));
    expect(report).toEqual({
      scripts: 0,
      iframes: 0,
      images: 0,
      handlers: [],
      jsLinks: 0,
      hrefs: ["https://example.com/"],
      xss: undefined,
    });
    // The page as a whole: no script element came from the message either.
    expect(await page.evaluate(() => [...document.scripts].some((s) => s.textContent?.includes("__xss")))).toBe(false);
  });

  test("clicking a message highlights its frames in the Frames view", async () => {
    const message = items(page, "agent_message").first();
    await message.click();
    await expect(message).toHaveAttribute("data-highlighted", "true");
    await expect(items(page, "agent_message").nth(1)).toHaveAttribute("data-highlighted", "false");
    const first = Number(await message.getAttribute("data-seq"));
    await page.getByTestId("view-frames").click();
    const highlighted = rows(page).and(page.locator('[data-highlighted="true"]'));
    await expect(highlighted.first()).toBeVisible();
    for (const method of await highlighted.evaluateAll((els) => els.map((e) => e.getAttribute("data-method")))) {
      expect(method).toBe("session/update");
    }
    await expect(rows(page, { seq: String(first) })).toHaveAttribute("data-highlighted", "true");
    await expect(rows(page, { kind: "request", method: "session/prompt" }).first()).toHaveAttribute(
      "data-highlighted",
      "false",
    );

    // A frame selected in the inspector highlights its item back in the Session view.
    const prompt = rows(page, { kind: "request", method: "session/prompt" }).nth(1);
    await prompt.click();
    // Selecting a frame outside the highlighted item drops the highlight.
    await expect(highlighted).toHaveCount(0);
    await page.getByTestId("view-session").click();
    await expect(items(page, "user_message").nth(1)).toHaveAttribute("data-highlighted", "true");
    await expect(items(page, "agent_message").first()).toHaveAttribute("data-highlighted", "false");
  });

  test("an item's frame link opens the Frames view on its first frame", async () => {
    const thought = items(page, "thought");
    const seq = (await thought.getAttribute("data-seq"))!;
    await thought.getByTestId("show-frames").click();
    await expect(page.getByTestId("view-frames")).toHaveAttribute("aria-selected", "true");
    await expect(rows(page, { seq })).toBeInViewport();
    await expect(rows(page, { seq })).toHaveAttribute("data-selected", "true");
    await expect(page.getByTestId("frame-detail")).toHaveAttribute("data-seq", seq);
    await page.getByTestId("view-session").click();
    await stopAgent(page);
  });
});

test.describe.serial("session view: a tool call card through permission to completed, cancel, tabs", () => {
  let page: Page;
  const workspace = process.env.E2E_WORKSPACE!;
  sharedPage(async (p) => {
    page = p;
    await startSession(page);
  });

  test("write_file: one card, permission asked, answered, completed", async () => {
    // A new file each run: a run repeated in the same workspace would otherwise find it written already.
    rmSync(`${workspace}/sv.txt`, { force: true });
    await script(
      {
        parts: [{ functionCall: { name: "write_file", args: { file_path: `${workspace}/sv.txt`, content: "hi\n" } } }],
      },
      { parts: [{ text: "Written." }] },
    );
    await prompt(page, "write a file");
    const card = page.getByTestId("tool-call");
    await expect(card).toHaveCount(1);
    await expect(card.getByTestId("tool-permission")).toHaveAttribute("data-state", "pending");
    await expect(card.getByTestId("tool-permission")).toContainText("waiting for your answer");
    await expect(card).toHaveAttribute("data-status", /^(pending|in_progress)$/);
    await expect(card.getByTestId("tool-kind")).toHaveAttribute("data-kind", "edit");
    await expect(card.getByTestId("tool-title")).toContainText("sv.txt");
    // The diff's header names the file (the card does not list it again as a location).
    const diff = card.getByTestId("tool-diff");
    await expect(diff).toHaveAttribute("data-path", `${workspace}/sv.txt`);
    await expect(diff).toContainText("new file");
    await expect(diff.locator('[data-diff="add"]')).toHaveText(["1+hi"]);
    // The permission card under it names the tool call and points up to that diff instead of repeating it.
    const asks = page.locator('[data-testid="inline-request"][data-method="session/request_permission"]');
    await expect(asks.getByTestId("tool-content-above")).toContainText("its diff in the tool call card above");
    await expect(asks.getByTestId("tool-diff")).toHaveCount(0);
    // The running turn can be cancelled, from the prompt box only (the session header does not repeat it).
    await expect(page.getByTestId("prompt-cancel")).toBeVisible();
    await expect(page.getByTestId("cancel-turn")).toHaveCount(0);

    // Answer from the pending list, choosing "allow once" (Gemini refuses "always" in an untrusted folder):
    // the options are on the card that asks, the tool card only points to it.
    await expect(card.getByTestId("permission-pointer")).toBeVisible();
    const once = await page
      .locator('[data-testid="inline-request"] [data-testid="permission-option"][data-kind="allow_once"]')
      .getAttribute("data-option-id");
    await page.getByTestId("pending-request").click();
    const composer = page.getByTestId("composer");
    const draft = JSON.parse(await composer.inputValue());
    draft.result.outcome.optionId = once;
    await composer.fill(JSON.stringify(draft));
    await page.getByTestId("send-frame").click();
    await expect(card).toHaveAttribute("data-status", "completed");
    await expect(card.getByTestId("tool-status")).toHaveText("completed");
    await expect(card.getByTestId("tool-permission")).toHaveAttribute("data-state", "selected");
    await expect(card.getByTestId("tool-permission").locator('[data-chosen="true"]')).toHaveAttribute(
      "data-option-id",
      once!,
    );
    expect(draft.result.outcome.outcome).toBe("selected");
    await expect(footers(page).first()).toHaveAttribute("data-stop-reason", "end_turn");
    await expect(items(page, "agent_message")).toContainText("Written.");
    await expect(page.getByTestId("prompt-cancel")).toHaveCount(0);
    // Raw details on demand.
    await card.getByTestId("raw-toggle").click();
    await expect(card.getByTestId("raw-json")).toBeVisible();
  });

  test("Cancel sends session/cancel for the running turn", async () => {
    await script({ parts: [{ text: "Starting a long answer… " }, { text: "never reached" }], delayMs: 20_000 });
    const sessionId = await prompt(page, "take your time");
    await expect(items(page, "agent_message").nth(1)).toContainText("Starting a long answer");
    await expect(page.getByTestId("cancel-turn")).toHaveCount(0);
    await page.getByTestId("prompt-cancel").click();
    await expect(footers(page).nth(1).getByTestId("cancel-requested")).toBeVisible();
    await expect(footers(page).nth(1)).toHaveAttribute("data-stop-reason", "cancelled");
    await expect(page.getByTestId("prompt-cancel")).toHaveCount(0);
    await page.getByTestId("view-frames").click();
    const cancel = rows(page, { method: "session/cancel", dir: "to-agent" });
    await expect(cancel).toHaveCount(1);
    await expect(cancel).toHaveAttribute("data-kind", "notification");
    await cancel.click();
    expect(JSON.parse((await page.getByTestId("frame-raw").textContent())!)).toEqual({
      jsonrpc: "2.0",
      method: "session/cancel",
      params: { sessionId },
    });
    await page.getByTestId("view-session").click();
  });

  test("each tab keeps its own session view", async () => {
    const tabs = page.getByTestId("agent-tab");
    const count = await items(page).count();
    await page.getByTestId("new-tab").click();
    await expect(tabs).toHaveCount(2);
    await expect(page.getByTestId("view-session")).toHaveAttribute("aria-selected", "true");
    await expect(page.getByTestId("session-empty")).toBeVisible();
    await page.getByTestId("view-frames").click();
    await tabs.first().getByRole("tab").click();
    await expect(page.getByTestId("view-session")).toHaveAttribute("aria-selected", "true");
    await expect(items(page)).toHaveCount(count);
    await expect(page.getByTestId("tool-call")).toHaveAttribute("data-status", "completed");
    await tabs.nth(1).getByRole("tab").click();
    await expect(page.getByTestId("view-frames")).toHaveAttribute("aria-selected", "true");
    await tabs.nth(1).getByTestId("close-tab").click();
    await expect(tabs).toHaveCount(1);
    await expect(items(page)).toHaveCount(count);
    await stopAgent(page);
  });
});
