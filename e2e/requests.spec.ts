/**
 * Requests in flight both ways (issue 22): elicitation in URL mode (a link the user opens, never the
 * page), the agent's elicitation/complete closing its card, the agent's $/cancel_request dismissing a
 * card (the relay answers it -32800), the page withdrawing its own request with $/cancel_request,
 * logout / auth/status where advertised, and mcp/message showing its inner MCP method. One stub agent
 * (test/fixtures/requests-agent.mjs, profile "requests") and one page for the journey.
 */
import { expect, test, type Page } from "@playwright/test";
import { connect, openPanel, printFramesOnFailure, prompt, requestCard, rows, stopAgent } from "./helpers";

printFramesOnFailure();

const card = requestCard;
/** What the agent said, in the Session view. */
async function said(page: Page, text: string) {
  await page.getByTestId("view-session").click();
  return page.getByTestId("view-pane").getByText(text);
}

/** Frame rows, in the Frames view. */
async function frameRows(page: Page, attrs: Record<string, string>) {
  await page.getByTestId("view-frames").click();
  return rows(page, attrs);
}

test.describe.serial("requests in flight: elicitation, cancellation both ways, auth, MCP over ACP", () => {
  let page: Page;
  const pageErrors: string[] = [];

  test.beforeAll(async ({ browser }) => {
    test.setTimeout(120_000);
    page = await browser.newPage();
    page.on("pageerror", (e) => pageErrors.push(e.message));
    await connect(page, { profile: "requests" });
    await expect(page.getByTestId("profile-select")).toHaveValue("requests");
  });

  test.afterAll(async () => {
    await stopAgent(page);
    await page.close();
    expect(pageErrors).toEqual([]);
  });

  test("form mode: a form from the requested schema; Accept sends the content", async () => {
    await prompt(page, "form");
    const form = card(page, "elicitation/create");
    await expect(form).toContainText("Your name, please");
    await form.locator('[data-testid="form-field"][data-path="name"] input').fill("Ada");
    await form.getByTestId("elicitation-accept").click();
    await expect(
      await said(page, 'elicitation/create answered: {"action":"accept","content":{"name":"Ada"}}'),
    ).toHaveCount(1);
    await expect(card(page, "elicitation/create")).toHaveCount(0);
  });

  test("URL mode: the link is shown, opened only by the user (noopener), and Accept sends no content", async () => {
    await prompt(page, "url");
    const link = card(page, "elicitation/create").getByTestId("elicitation-url");
    await expect(link).toHaveAttribute("href", "https://example.com/sign-in");
    await expect(link).toHaveAttribute("target", "_blank");
    await expect(link).toHaveAttribute("rel", /noopener/);
    expect(page.context().pages()).toHaveLength(1);
    await card(page, "elicitation/create").getByTestId("elicitation-accept").click();
    await expect(await said(page, 'elicitation/create answered: {"action":"accept"}')).toHaveCount(1);
  });

  test("the agent's elicitation/complete closes the card and says so", async () => {
    await prompt(page, "complete");
    await expect(card(page, "elicitation/create")).toBeVisible();
    await expect(card(page, "elicitation/create")).toHaveCount(0);
    await expect(page.getByTestId("agent-dismissal").last()).toHaveText(
      'The agent completed elicitation "e-done" (elicitation/complete): its card was closed.',
    );
    await expect(await frameRows(page, { kind: "response", method: "session/prompt" })).toHaveCount(3);
  });

  test("the agent's $/cancel_request dismisses its card; the relay answers it -32800", async () => {
    await prompt(page, "cancel");
    await expect(card(page, "session/request_permission")).toBeVisible();
    await expect(card(page, "session/request_permission")).toHaveCount(0);
    await expect(page.getByTestId("agent-dismissal").last()).toContainText(
      'The agent cancelled session/request_permission (id "perm-1") with $/cancel_request: its card was closed.',
    );
    await expect(await said(page, "answered: error -32800 Request cancelled")).toHaveCount(1);
    await expect(
      await frameRows(page, { kind: "response", method: "session/request_permission", dir: "to-agent" }),
    ).toContainText('"code":-32800');
  });

  test("the page withdraws its own request: Cancel sends $/cancel_request with its id", async () => {
    await prompt(page, "slow");
    // The page's own requests in flight are listed in the Raw panel, each with its Cancel request.
    await openPanel(page, "raw");
    const outgoing = page.locator('[data-testid="outgoing-pending"][data-method="session/prompt"]');
    await expect(outgoing).toBeVisible();
    await outgoing.getByTestId("withdraw-request").click();
    const cancel = await frameRows(page, { kind: "notification", method: "$/cancel_request", dir: "to-agent" });
    await expect(cancel).toHaveCount(1);
    await expect(outgoing).toHaveCount(0);
    await expect((await frameRows(page, { kind: "response", method: "session/prompt" })).last()).toContainText(
      '"code":-32800',
    );
  });

  test("logout and auth/status, as the agent advertised them", async () => {
    await page.getByTestId("auth-status").click();
    await expect(page.getByTestId("auth-said")).toHaveText("auth/status: authenticated · 1 account");
    await page.getByTestId("auth-logout").click();
    await expect(page.getByTestId("auth-said")).toHaveText("logout: signed out");
    // auth/status is unstable: the inspector says which schema judged it, and it passed.
    const status = await frameRows(page, { kind: "request", method: "auth/status" });
    await expect(status).toHaveAttribute("data-schema", "unstable");
    await expect(status).toHaveAttribute("data-checks", "");
  });

  test("mcp/message shows its inner MCP method", async () => {
    await prompt(page, "mcp");
    const carrier = await frameRows(page, { kind: "request", method: "mcp/message" });
    await expect(carrier.getByTestId("mcp-inner")).toHaveText("· tools/call");
    await expect(carrier).toHaveAttribute("data-schema", "unstable");
  });
});
