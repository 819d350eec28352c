/**
 * The foundation end to end: the page, the relay and a real Gemini CLI talking
 * to the fake Gemini API. Everything waits on locators, never on sleeps.
 */
import { expect, test, type Locator, type Page } from "@playwright/test";
import { printFramesOnFailure, rows, scriptWrite, startAgent, url, workspaceFile } from "./helpers";
import { framesView, sharedPage } from "./shared-page";

printFramesOnFailure();

const origin = () => process.env.E2E_ORIGIN!;

// These specs read raw frames: each opens the Frames view.

async function send(page: Page, text?: string) {
  if (text !== undefined) await page.getByTestId("composer").fill(text);
  await page.getByTestId("send-frame").click();
}

test("without a token, the page says where to get one", async ({ page }) => {
  await framesView(page);
  await page.goto(`${origin()}/`);
  await expect(page.getByTestId("token-message")).toContainText("No access token");
  // In words for a server started with npm start; the token goes into a form, not an address.
  await expect(page.getByTestId("token-where")).toContainText("The terminal where npm start runs printed a URL");
  await expect(page.getByTestId("sign-in-token")).toHaveAttribute("type", "password");
  await expect(page.getByTestId("start-agent")).toHaveCount(0);
});

test("a wrong token is refused", async ({ page }) => {
  await framesView(page);
  await page.goto(`${origin()}/?token=not-the-token`);
  await expect(page.getByTestId("token-message")).toContainText("The access token was refused");
  // The refusal says how to keep one token across restarts.
  await expect(page.getByTestId("token-stable-hint")).toContainText("ACP_PLAYGROUND_TOKEN");
  expect(page.url()).not.toContain("token=");
});

test("start failures are shown verbatim", async ({ page }) => {
  await framesView(page);
  await page.goto(url());
  const status = page.getByTestId("agent-status");
  await page.getByTestId("profile-select").selectOption("missing");
  await page.getByTestId("start-agent").click();
  await expect(page.getByTestId("agent-error")).toContainText(
    /^Failed to start ACP agent: executable not found: .*no-such-agent$/,
  );
  await expect(status).toHaveAttribute("data-status", "not-started");

  await page.getByTestId("profile-select").selectOption("gemini");
  await page.getByTestId("cwd-input").fill("../..");
  await page.getByTestId("start-agent").click();
  await expect(page.getByTestId("agent-error")).toContainText("cwd is outside the workspace roots");
  await expect(status).toHaveAttribute("data-status", "not-started");
});

test.describe.serial("raw frames with a real Gemini CLI: initialize, session/new, session/prompt", () => {
  let page: Page;
  let status: Locator;
  sharedPage(
    async (p) => {
      page = p;
      await page.goto(url());
      await expect(page).not.toHaveURL(/token=/);
      await expect(page.getByTestId("connection")).toHaveAttribute("data-state", "connected");

      status = page.getByTestId("agent-status");
      await expect(status).toHaveAttribute("data-status", "not-started");
      await page.getByTestId("start-agent").click();
      await expect(status).toHaveAttribute("data-status", "running");
      await expect(status).toContainText(/pid \d+/);
      await expect(status).toContainText("--acp");
      await expect(status).toContainText(process.env.E2E_WORKSPACE!);
    },
    // Hydration mismatches and runtime errors surface as console errors.
    { framesView: true, failOnPageErrors: true, failOnConsoleErrors: true, everyFrame: true },
  );

  test("initialize", async () => {
    await page.getByTestId("template-initialize").click();
    await expect(page.getByTestId("composer")).toHaveValue(/"method": "initialize"/);
    await send(page);
    const request = rows(page, { kind: "request", method: "initialize" });
    await expect(request).toHaveAttribute("data-dir", "to-agent");
    await expect(request).toHaveAttribute("data-seq", "1");
    const response = rows(page, { kind: "response", method: "initialize" });
    await expect(response).toHaveAttribute("data-dir", "from-agent");
    await expect(response.getByTestId("frame-latency")).toHaveText(/^\d+(\.\d+)? m?s$/);
  });

  test("a reload re-attaches without duplicating frames", async () => {
    const count = await page.getByTestId("frame-row").count();
    await page.reload();
    await expect(page).not.toHaveURL(/token=/);
    await expect(status).toHaveAttribute("data-status", "running");
    await expect(rows(page, { kind: "response", method: "initialize" })).toHaveCount(1);
    await expect(page.getByTestId("frame-row")).toHaveCount(count);
  });

  test("session/new", async () => {
    await page.getByTestId("template-session-new").click();
    const draft = JSON.parse(await page.getByTestId("composer").inputValue());
    // The template id follows the last id sent.
    expect(draft).toMatchObject({
      id: 2,
      method: "session/new",
      params: { cwd: process.env.E2E_WORKSPACE, mcpServers: [] },
    });
    await send(page);
    await expect(rows(page, { kind: "response", method: "session/new" })).toHaveAttribute("data-dir", "from-agent");
  });

  test("session/prompt streams session/update and answers", async () => {
    await page.getByTestId("template-session-prompt").click();
    const composer = page.getByTestId("composer");
    const draft = JSON.parse(await composer.inputValue());
    expect(draft.id).toBe(3);
    expect(draft.params.sessionId).toMatch(/^[\w-]+$/);
    draft.params.prompt[0].text = "hello e2e";
    await composer.fill(JSON.stringify(draft));
    await composer.press("Control+Enter");

    await expect(
      rows(page, { kind: "notification", method: "session/update", dir: "from-agent" }).first(),
    ).toBeVisible();
    const done = rows(page, { kind: "response", method: "session/prompt" });
    await expect(done).toHaveAttribute("data-dir", "from-agent");
    await done.click();
    const detail = page.getByTestId("frame-detail");
    await expect(detail).toHaveAttribute("data-seq", (await done.getAttribute("data-seq"))!);
    await expect(detail.getByTestId("frame-raw")).toContainText('"stopReason":"end_turn"');
    await expect(detail.getByTestId("frame-json")).toContainText('"end_turn"');
    // The fake API echoes the prompt back as the agent's message.
    await expect(rows(page, { method: "session/update" }).filter({ hasText: "Echo: hello e2e" }).first()).toBeVisible();
  });

  test("malformed frames: an invalid line is recorded, a newline is refused", async () => {
    await send(page, "{not json");
    const invalid = rows(page, { kind: "invalid", dir: "to-agent" });
    await expect(invalid).toHaveCount(1);
    await expect(invalid).toContainText("not JSON");

    // Agent text is text: markup in a frame must not become elements.
    await send(page, '<img id="injected" src="x">');
    await expect(rows(page, { kind: "invalid", dir: "to-agent" })).toHaveCount(2);
    await expect(page.locator("#injected")).toHaveCount(0);

    await send(page, "{not json\n}");
    await expect(page.getByTestId("composer-error")).toContainText("must not contain a newline");
  });

  test("stop", async () => {
    await page.getByTestId("stop-agent").click();
    await expect(status).toHaveAttribute("data-status", "exited");
  });
});

test("an agent request waits for the user, who answers it from the pending list", async ({ page }) => {
  test.setTimeout(180_000);
  await framesView(page);
  const target = workspaceFile("from-e2e.txt");
  await scriptWrite(target, "hi\n", { reply: "Written." });

  await page.goto(url());
  await startAgent(page);
  for (const [template, method] of [
    ["template-initialize", "initialize"],
    ["template-session-new", "session/new"],
    ["template-session-prompt", "session/prompt"],
  ] as const) {
    await page.getByTestId(template).click();
    await send(page);
    if (method !== "session/prompt") await expect(rows(page, { kind: "response", method })).toHaveCount(1);
  }

  const ask = rows(page, { kind: "request", method: "session/request_permission", dir: "from-agent" });
  await expect(ask).toHaveCount(1);
  const pending = page.getByTestId("pending-request");
  await expect(pending).toHaveCount(1);
  await expect(pending).toContainText("session/request_permission");
  // Nothing answers on the user's behalf.
  await expect(rows(page, { kind: "response", method: "session/prompt" })).toHaveCount(0);

  await pending.click();
  const draft = JSON.parse(await page.getByTestId("composer").inputValue());
  // The draft answers that very request, by its id.
  expect(draft.jsonrpc).toBe("2.0");
  await expect(pending).toContainText(`id ${JSON.stringify(draft.id)}`);
  expect(draft.result.outcome).toMatchObject({ outcome: "selected", optionId: expect.any(String) });
  await send(page);

  await expect(rows(page, { kind: "response", method: "session/request_permission", dir: "to-agent" })).toHaveCount(1);
  await expect(pending).toHaveCount(0);
  await expect(rows(page, { kind: "response", method: "session/prompt" })).toHaveCount(1);
  await page.getByTestId("stop-agent").click();
  await expect(page.getByTestId("agent-status")).toHaveAttribute("data-status", "exited");
});
