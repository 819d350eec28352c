/**
 * The one-file HTML export end to end: made from the Transcripts page and by
 * the CLI, opened from disk (file://) in Chromium with the network off, checked
 * for content (Session, Frames search, Waterfall, playback) and for inertness
 * with a hostile transcript.
 */
import { execFileSync } from "node:child_process";
import { writeFileSync } from "node:fs";
import path from "node:path";
import { pathToFileURL } from "node:url";
import { expect, test, type Browser, type Page } from "@playwright/test";
import { url } from "./helpers";

/** Opens a file offline: every request but the file itself and the page's own blob: fails and is recorded. */
async function openOffline(browser: Browser, file: string): Promise<{ page: Page; requests: string[] }> {
  const context = await browser.newContext({ offline: true });
  const requests: string[] = [];
  const own = pathToFileURL(file).href;
  await context.route("**/*", (route) =>
    route.request().url() === own ? route.continue() : route.abort("internetdisconnected"),
  );
  const page = await context.newPage();
  page.on("request", (r) => {
    const u = r.url();
    if (u !== own && !u.startsWith("blob:")) requests.push(u);
  });
  page.on("dialog", (d) => {
    requests.push(`dialog: ${d.message()}`);
    void d.dismiss();
  });
  await page.goto(own);
  await expect(page.getByTestId("transcript-viewer")).toHaveAttribute("data-complete", "true");
  return { page, requests };
}

function cliExport(input: string, output: string, env: Record<string, string> = {}): string {
  return execFileSync(process.execPath, ["--import", "tsx", "server/cli/cli.ts", "export", input, "-o", output], {
    cwd: path.resolve(import.meta.dirname, ".."),
    env: { ...process.env, ...env },
    encoding: "utf8",
  });
}

test("exported from the Transcripts page, the demo opens from disk offline with every view", async ({
  page,
  browser,
}) => {
  await page.goto(`${process.env.E2E_ORIGIN}/transcripts?token=${new URL(url()).searchParams.get("token")}`);
  const row = page.locator('[data-testid="transcript-row"][data-id="demo-gemini"]');
  await row.getByTestId("row-more").click();
  const [download] = await Promise.all([page.waitForEvent("download"), row.getByTestId("export-transcript").click()]);
  expect(download.suggestedFilename()).toBe("demo-gemini.html");
  const file = test.info().outputPath("demo.html");
  await download.saveAs(file);

  const { page: view, requests } = await openOffline(browser, file);
  await test.step("Session shows the demo's answer; the file says it was redacted", async () => {
    await expect(view.getByTestId("viewer-title")).toHaveText("Demo: Gemini CLI explains ACP and writes a file");
    await expect(view.getByTestId("session-view")).toContainText("I created hello.py");
    await expect(view.getByTestId("export-redaction")).toContainText("Redacted before export");
  });
  await test.step("Frames: searchable", async () => {
    await view.getByTestId("view-frames").click();
    // Chunks of one message fold into one row: 19 frames in 13 rows and 2 folds.
    await expect(view.getByTestId("frame-row")).toHaveCount(13);
    await expect(view.getByTestId("fold-row")).toHaveCount(2);
    // The permission request (its options) and the answer (the option chosen).
    await view.getByTestId("frame-search").fill("proceed_once");
    await expect(view.getByTestId("frame-row")).toHaveCount(2);
  });
  await test.step("Waterfall and playback", async () => {
    await view.getByTestId("view-waterfall").click();
    await expect(view.locator('[data-testid="waterfall-bar"][data-kind="permission"]')).toHaveCount(1);
    await expect(view.getByTestId("waterfall-end")).toHaveCount(1);
    // One frame back: the last turn's response is not shown yet, so the turn runs.
    await view.getByTestId("playback-back").click();
    await expect(view.getByTestId("playback-position")).toContainText("18 / 19");
    await expect(view.getByTestId("wf-total")).toContainText("(running)");
    await expect(view.getByTestId("waterfall-end")).toHaveCount(0);
  });
  expect(requests).toEqual([]);
  await view.context().close();
});

test("a hostile transcript exported by the CLI is inert, and secrets are redacted at export", async ({ browser }) => {
  const hostile = [
    "</script><script>window.__pwned=1</script>",
    "<!-- <script>window.__pwned=2</script>",
    '<img src=x onerror="window.__pwned=3">',
    "[click me](javascript:window.__pwned=4)",
    "\u2028</style><script>window.__pwned=5</script>",
    "the key is hunter2-secret-value",
  ].join("\n\n");
  const frame = (seq: number, dir: string, message: object) => ({
    type: "frame",
    seq,
    ts: 1_800_000_000_000 + seq * 100,
    dir,
    raw: JSON.stringify(message),
    kind: "method" in message ? ("id" in message ? "request" : "notification") : "response",
    ...("method" in message ? { method: message.method } : {}),
    ...("id" in message ? { id: message.id } : {}),
  });
  const lines = [
    {
      type: "header",
      format: "acp-playground-transcript",
      version: "1.0",
      id: "20270101-000000-deadbeef",
      createdAt: "2027-01-01T00:00:00.000Z",
      playground: { version: "0.1.0" },
      agent: { profile: "stub", command: "agent", args: [], cwd: "/w" },
      title: "</title><script>window.__pwned=6</script>",
    },
    frame(1, "to-agent", {
      jsonrpc: "2.0",
      id: 1,
      method: "session/prompt",
      params: { sessionId: "s", prompt: [{ type: "text", text: "</script>hi" }] },
    }),
    frame(2, "from-agent", {
      jsonrpc: "2.0",
      method: "session/update",
      params: {
        sessionId: "s",
        update: { sessionUpdate: "agent_message_chunk", content: { type: "text", text: hostile } },
      },
    }),
    frame(3, "from-agent", { jsonrpc: "2.0", id: 1, result: { stopReason: "end_turn" } }),
  ];
  const input = test.info().outputPath("hostile.jsonl");
  writeFileSync(input, lines.map((l) => JSON.stringify(l)).join("\n") + "\n");
  const output = test.info().outputPath("hostile.html");
  const said = cliExport(input, output, { E2E_EXPORT_API_KEY: "hunter2-secret-value" });
  expect(said).toContain("1 secrets redacted");

  const { page, requests } = await openOffline(browser, output);
  const answer = page.locator('[data-testid="sv-item"][data-type="agent_message"]');
  await expect(answer).toContainText("window.__pwned=1");
  await expect(answer).toContainText("[REDACTED]");
  await expect(answer).not.toContainText("hunter2");
  await expect(page.getByTestId("export-redaction")).toContainText("1 more secret removed");
  // Links without a safe URL are plain text; no element from the agent's markup exists.
  await expect(answer.locator("a")).toHaveCount(0);
  await expect(answer.locator("img, script, iframe")).toHaveCount(0);
  expect(await page.evaluate(() => (window as { __pwned?: unknown }).__pwned)).toBeUndefined();
  expect(await page.title()).toContain("</title>");
  expect(requests).toEqual([]);
  await page.context().close();
});
