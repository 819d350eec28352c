/**
 * Composing and answering from the browser, end to end with a real Gemini CLI
 * behind the fake Gemini API: Connect and prompt, a permission card, the
 * initialize form, a deny policy, and a method the agent does not support.
 * Everything waits on locators, never on sleeps.
 */
import { readFileSync } from "node:fs";
import { expect, test, type Page } from "@playwright/test";
import {
  failOnPageErrors,
  openPanel,
  printFramesOnFailure,
  rows,
  scriptWrite,
  setPolicy,
  startAgent,
  stopAgent,
  url,
  workspaceFile,
} from "./helpers";

printFramesOnFailure();

// These tests read the Frames view (the page opens on the Session view otherwise).
test.beforeEach(({ page }) => page.addInitScript(() => localStorage.setItem("acp-playground.view", "frames")));

const watchErrors = failOnPageErrors();

/**
 * The built-in gemini profile advertises no fs capabilities (Gemini then edits files
 * itself after a permission): these journeys need it to ask the playground to read and write.
 */
async function advertiseFs(page: Page) {
  for (const cap of ["cap-fsRead", "cap-fsWrite"]) await page.getByTestId(cap).check();
}

async function connect(page: Page) {
  await page.getByTestId("connect").click();
  await expect(page.getByTestId("connect-status")).toHaveAttribute("data-step", "ready");
  await expect(page.getByTestId("prompt-input")).toBeVisible();
}

async function prompt(page: Page, text: string) {
  const input = page.getByTestId("prompt-input");
  await input.fill(text);
  await input.press("Enter");
}

test.describe.serial("Connect, then a prompt: the answer streams in and the prompt box shows usage", () => {
  // One agent and one page for the whole journey; each step is its own test, so a failure names it.
  let page: Page;

  test.beforeAll(async ({ browser }) => {
    test.setTimeout(180_000);
    page = await browser.newPage();
    watchErrors(page);
    await page.addInitScript(() => localStorage.setItem("acp-playground.view", "frames"));
    await page.goto(url());
    await expect(page.getByTestId("connection")).toHaveAttribute("data-state", "connected");
  });

  test.afterAll(async () => {
    await stopAgent(page);
    await page.close();
  });

  test("Connect: one initialize (the warm pool's or its own), then session/new in the workspace", async () => {
    await connect(page);

    // One initialize, whether the warm pool did it or Connect did; then one session/new.
    await expect(rows(page, { kind: "response", method: "initialize" })).toHaveCount(1);
    await expect(rows(page, { kind: "request", method: "session/new", dir: "to-agent" })).toHaveCount(1);
    const newSession = rows(page, { kind: "request", method: "session/new" });
    await newSession.click();
    await expect(page.getByTestId("frame-detail").getByTestId("frame-raw")).toContainText(
      `"cwd":"${process.env.E2E_WORKSPACE}","mcpServers":[]`,
    );
  });

  test("typing / shows the agent's slash commands", async () => {
    const input = page.getByTestId("prompt-input");
    await input.fill("/mem");
    await expect(page.getByTestId("slash-item").first()).toHaveAttribute("data-name", /^memory/);
    await input.press("Tab");
    await expect(input).toHaveValue(/^\/memory/);
    await expect(page.getByTestId("slash-menu")).toHaveCount(0);
  });

  test("Enter sends a session/prompt; chunks stream in; usage shows", async () => {
    await prompt(page, "hello compose");
    await expect(page.getByTestId("prompt-input")).toHaveValue("");
    const request = rows(page, { kind: "request", method: "session/prompt", dir: "to-agent" });
    await expect(request).toHaveCount(1);
    await expect(request).toContainText('"prompt":[{"type":"text","text":"hello compose"}]');
    const chunks = rows(page, { kind: "notification", method: "session/update", dir: "from-agent" }).filter({
      hasText: "agent_message_chunk",
    });
    await expect(chunks.filter({ hasText: "Echo: hello compose" }).first()).toBeVisible();
    await expect(rows(page, { kind: "response", method: "session/prompt" })).toHaveCount(1);
    await expect(page.getByTestId("turn-status")).toHaveAttribute("data-state", "ended");
    await expect(page.getByTestId("prompt-usage")).toHaveText(/tokens: in \d+ · out \d+/);
    await expect(page.getByTestId("empty-response-notice")).toHaveCount(0);
  });

  test("the history holds what was sent; a re-sent request gets a new id", async () => {
    await openPanel(page, "raw");
    const entries = page.getByTestId("history-entry");
    await expect(entries.filter({ hasText: "session/prompt" })).toHaveCount(1);
    await entries.filter({ hasText: "session/prompt" }).getByTestId("history-edit").click();
    const draft = JSON.parse(await page.getByTestId("composer").inputValue());
    expect(draft).toMatchObject({
      method: "session/prompt",
      params: { prompt: [{ type: "text", text: "hello compose" }] },
    });
  });
});

test("a permission card for a write: Allow completes the tool call and the file changes", async ({ page }) => {
  test.setTimeout(180_000);
  // Gemini 0.61 fails new-file writes when fs capabilities are advertised: write to an existing file.
  const target = workspaceFile("compose-permission.txt");
  await scriptWrite(target, "new line\n", { before: "old line\n", reply: "Written." });

  await page.goto(url());
  await expect(page.getByTestId("connection")).toHaveAttribute("data-state", "connected");
  // The relay serves the file reads and writes; the permission waits for the user.
  await setPolicy(page, "fs/read_text_file", "auto");
  await setPolicy(page, "fs/write_text_file", "auto");
  await expect(page.locator('[data-testid="policy-select"][data-method="session/request_permission"]')).toHaveAttribute(
    "data-acked",
    "ask",
  );
  await advertiseFs(page);
  await connect(page);
  // Policies still hold after Connect (a warm agent brings its own session).
  await expect(page.locator('[data-testid="policy-select"][data-method="fs/read_text_file"]')).toHaveAttribute(
    "data-acked",
    "auto",
  );
  await prompt(page, "please write the file");

  const card = page.locator('[data-testid="pending-card"][data-method="session/request_permission"]');
  await expect(card).toHaveCount(1);
  await expect(card.getByTestId("answer-tool-call")).toContainText("compose-permission.txt");
  await expect(card.getByTestId("tool-diff").locator('[data-diff="add"]')).toContainText("new line");
  await expect(card.getByTestId("pending-age")).toContainText("waiting");
  // Nothing answers on the user's behalf meanwhile.
  await expect(rows(page, { kind: "response", method: "session/request_permission" })).toHaveCount(0);

  await card.locator('[data-testid="permission-option"][data-kind="allow_once"]').click();
  const answer = rows(page, { kind: "response", method: "session/request_permission", dir: "to-agent" });
  await expect(answer).toHaveCount(1);
  await expect(answer).toContainText('"outcome":"selected"');
  await expect(card).toHaveCount(0);
  await expect(rows(page, { kind: "response", method: "fs/write_text_file", dir: "to-agent" })).toHaveCount(1);
  await expect(
    rows(page, { method: "session/update" })
      .filter({ hasText: "tool_call_update" })
      .filter({ hasText: '"status":"completed"' })
      .first(),
  ).toBeVisible();
  await expect(rows(page, { kind: "response", method: "session/prompt" })).toHaveCount(1);
  expect(readFileSync(target, "utf8")).toBe("new line\n");
  await stopAgent(page);
});

test("the initialize form: a capability switched off is what the sent frame says", async ({ page }) => {
  test.setTimeout(180_000);
  await page.goto(url());
  await expect(page.getByTestId("connection")).toHaveAttribute("data-state", "connected");
  await startAgent(page);
  // A raw start leads to the raw editor; the forms are one tab away.
  await expect(page.getByTestId("composer")).toBeVisible();
  await openPanel(page, "compose");
  await page.locator('[data-testid="compose-method"][data-method="initialize"]').click();

  const terminal = page.locator(
    '[data-testid="form-field"][data-path="params.clientCapabilities.terminal"] input[type="checkbox"]',
  );
  await expect(terminal).toBeChecked();

  await test.step("a capability whose policy is deny is warned about", async () => {
    await setPolicy(page, "terminal/create", "deny");
    await expect(page.getByTestId("capability-warning")).toContainText("terminal/create");
  });

  await terminal.uncheck();
  await expect(page.getByTestId("capability-warning")).toHaveCount(0);
  await expect(page.getByTestId("compose-preview")).toContainText('"terminal": false');
  await expect(page.getByTestId("compose-issues")).toHaveCount(0);

  await test.step("validation as you type, and send anyway", async () => {
    const version = page.locator('[data-path="params.protocolVersion"] input').first();
    await version.fill("x");
    await expect(page.getByTestId("compose-issues")).toContainText("params.protocolVersion");
    await expect(page.getByTestId("compose-send")).toBeDisabled();
    await expect(page.getByTestId("compose-send-anyway")).toBeVisible();
    await version.fill("1");
    await expect(page.getByTestId("compose-issues")).toHaveCount(0);
  });

  await page.getByTestId("compose-send").click();
  await expect(page.getByTestId("compose-outcome")).toContainText("result");
  const request = rows(page, { kind: "request", method: "initialize", dir: "to-agent" });
  await expect(request).toHaveCount(1);
  await request.click();
  const raw = page.getByTestId("frame-detail").getByTestId("frame-raw");
  await expect(raw).toContainText('"terminal":false');
  await expect(raw).toContainText('"fs":{"readTextFile":true,"writeTextFile":true}');
  await expect(raw).toContainText('"id":1');

  await test.step("the session/new form is prefilled with the workspace", async () => {
    await page.locator('[data-testid="compose-method"][data-method="session/new"]').click();
    await expect(page.getByTestId("compose-preview")).toContainText(`"cwd": "${process.env.E2E_WORKSPACE}"`);
    await expect(page.getByTestId("compose-preview")).toContainText('"id": 2');
  });
  await stopAgent(page);
});

test("a deny policy answers the agent with an error, and no card waits", async ({ page }) => {
  test.setTimeout(180_000);
  const target = workspaceFile("compose-denied.txt");
  await scriptWrite(target, "changed\n", { before: "keep\n", reply: "Could not." });
  await page.goto(url());
  await expect(page.getByTestId("connection")).toHaveAttribute("data-state", "connected");
  await setPolicy(page, "fs/read_text_file", "deny");
  await advertiseFs(page);
  await connect(page);
  await prompt(page, "try to write");

  // Gemini may read more than once (it retries); every read gets the policy's error.
  const denied = rows(page, { kind: "response", method: "fs/read_text_file", dir: "to-agent" });
  await expect(denied.first()).toContainText("was denied by the playground's policy");
  await expect(rows(page, { kind: "response", method: "session/prompt" })).toHaveCount(1);
  const reads = await rows(page, { kind: "request", method: "fs/read_text_file", dir: "from-agent" }).count();
  expect(reads).toBeGreaterThan(0);
  await expect(denied).toHaveCount(reads);
  for (const row of await denied.all()) await expect(row).toContainText('"code":-32000');
  await expect(page.getByTestId("pending-card")).toHaveCount(0);
  expect(readFileSync(target, "utf8")).toBe("keep\n");
  await stopAgent(page);
});

test("a method the agent answers -32601 is marked as not supported, not as a crash", async ({ page }) => {
  test.setTimeout(180_000);
  await page.goto(url());
  await expect(page.getByTestId("connection")).toHaveAttribute("data-state", "connected");
  await connect(page);
  await openPanel(page, "compose");
  const item = page.locator('[data-testid="compose-method"][data-method="session/list"]');
  await item.click();
  await expect(page.getByTestId("method-support")).toHaveAttribute("data-state", /^(not-advertised|advertised)$/);
  await page.getByTestId("compose-send").or(page.getByTestId("compose-send-anyway")).first().click();
  await expect(page.getByTestId("compose-outcome")).toContainText("-32601");
  await expect(rows(page, { kind: "response", method: "session/list", dir: "from-agent" })).toHaveCount(1);
  await expect(item).toHaveAttribute("data-support", "unsupported");
  await expect(page.getByTestId("method-support")).toHaveAttribute("data-state", "unsupported");
  await expect(page.getByTestId("method-support")).toContainText("not supported by this agent");
  // The agent is fine and the session goes on.
  await expect(page.getByTestId("agent-status")).toHaveAttribute("data-status", "running");
  await expect(page.getByTestId("agent-error-notice")).toHaveCount(0);
  await stopAgent(page);
});

test("terminal and elicitation cards: Run lets the relay run the command, the elicitation form is built from its schema", async ({
  page,
}) => {
  test.setTimeout(120_000);
  const workspace = process.env.E2E_WORKSPACE!;
  // A live stub agent asks for both (a replayed agent's requests are answered from its recording).
  await page.goto(url());
  await expect(page.getByTestId("connection")).toHaveAttribute("data-state", "connected");
  await page.getByTestId("profile-select").selectOption("cards");
  await connect(page);
  await prompt(page, "go");

  const terminal = page.locator('[data-testid="pending-card"][data-method="terminal/create"]');
  await expect(terminal.getByTestId("terminal-command")).toHaveText("$ echo hello 'from a card'");
  await expect(terminal).toContainText(`cwd ${workspace}`);
  await terminal.getByTestId("serve-allow").click();
  const served = rows(page, { kind: "response", method: "terminal/create", dir: "to-agent" });
  await expect(served).toContainText('"terminalId"');

  const elicitation = page.locator('[data-testid="pending-card"][data-method="elicitation/create"]');
  await expect(elicitation).toContainText("Who is asking?");
  const name = elicitation.locator('[data-testid="form-field"][data-path="name"] input');
  await name.fill("A");
  await expect(elicitation.getByTestId("field-issues")).toContainText("shorter than 2");
  await expect(elicitation.getByTestId("elicitation-accept")).toBeDisabled();
  await name.fill("Ada");
  await elicitation.locator('[data-testid="field-add"][data-path="color"]').click();
  await elicitation.locator('[data-testid="form-field"][data-path="color"] select').selectOption("g");
  await elicitation.getByTestId("elicitation-accept").click();
  const accepted = rows(page, { kind: "response", method: "elicitation/create", dir: "to-agent" });
  await expect(accepted).toContainText('{"action":"accept","content":{"name":"Ada","color":"g"}}');
  await expect(rows(page, { kind: "response", method: "session/prompt" })).toHaveCount(1);
  await expect(page.getByTestId("pending-card")).toHaveCount(0);
  await stopAgent(page);
});

test("a terminal the relay runs for the agent: its tool call shows the command, what the agent read and the exit", async ({
  page,
}) => {
  await page.addInitScript(() => localStorage.setItem("acp-playground.view", "session"));
  await page.goto(url());
  await expect(page.getByTestId("connection")).toHaveAttribute("data-state", "connected");
  await page.getByTestId("profile-select").selectOption("terminal");
  for (const method of ["terminal/create", "terminal/wait_for_exit", "terminal/output", "terminal/release"])
    await setPolicy(page, method, "auto");
  await connect(page);
  await prompt(page, "build it");

  const card = page.locator('[data-testid="tool-call"][data-tool-call-id="run"]');
  await expect(card).toHaveAttribute("data-status", "completed");
  await expect(card.getByTestId("terminal-command")).toHaveText(
    `$ ${process.execPath} -e 'console.log("<b>built</b> ok")'`,
  );
  await expect(card.getByTestId("terminal-status")).toHaveText("exit 0");
  // The command's output is text: its markup is shown, never rendered.
  const output = card.getByTestId("terminal-output");
  await expect(output).toHaveText("<b>built</b> ok\n");
  await expect(output.locator("b")).toHaveCount(0);
  await stopAgent(page);
});

test("an error's data is shown with its message: in Compose's answer and on the turn's card", async ({ page }) => {
  test.setTimeout(180_000);
  await page.goto(url());
  await expect(page.getByTestId("connection")).toHaveAttribute("data-state", "connected");
  await connect(page);

  await test.step("Compose: session/load of a session that does not exist", async () => {
    await openPanel(page, "compose");
    await page.locator('[data-testid="compose-method"][data-method="session/load"]').click();
    await page.locator('select[data-path="params.sessionId"]').selectOption({ label: "other value…" });
    await page.locator('input[data-path="params.sessionId"]').fill("no-such-session");
    await page.getByTestId("compose-send").or(page.getByTestId("compose-send-anyway")).first().click();
    const response = rows(page, { kind: "response", method: "session/load", dir: "from-agent" });
    await expect(response).toHaveCount(1);
    await response.click();
    const error = JSON.parse((await page.getByTestId("frame-detail").getByTestId("frame-raw").textContent())!).error;
    // Gemini puts the reason in data.details; the message alone says only "Internal error".
    expect(error.data.details).toEqual(expect.any(String));
    const outcome = page.getByTestId("compose-outcome");
    await expect(outcome.getByTestId("rpc-error-message")).toHaveText(error.message);
    await expect(outcome.getByTestId("rpc-error-data")).toHaveText(error.data.details);
  });

  await test.step("the Session view: a prompt the agent fails, with the reason in data", async () => {
    await openPanel(page, "raw");
    await page.getByTestId("template-session-prompt").click();
    const frame = JSON.parse(await page.getByTestId("composer").inputValue());
    frame.params.prompt = "not a list of content blocks";
    await page.getByTestId("composer").fill(JSON.stringify(frame));
    await page.getByTestId("send-frame").click();
    const response = rows(page, { kind: "response", method: "session/prompt", dir: "from-agent" });
    await expect(response).toHaveCount(1);
    await response.click();
    const error = JSON.parse((await page.getByTestId("frame-detail").getByTestId("frame-raw").textContent())!).error;
    // The SDK's validation issues: each shown as "path: message".
    const issue = error.data[0];
    expect(issue.message).toEqual(expect.any(String));
    await page.getByTestId("view-session").click();
    // The turn's footer in the conversation (the prompt dock under it says the failure in a line of its own).
    const shown = page.getByTestId("session-view").getByTestId("turn-error").last();
    await expect(shown.getByTestId("rpc-error-message")).toHaveText(error.message);
    await expect(shown.getByTestId("rpc-error-data").first()).toContainText(
      `${issue.path.join(".")}: ${issue.message}`,
    );
  });
  await stopAgent(page);
});
