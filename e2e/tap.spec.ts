/**
 * A tapped conversation in the browser: a scripted editor runs `acp-playground
 * tap` against the e2e server; the page shows it in a tab marked tapped,
 * read-only until injection is turned on for that tab; a tapped Gemini
 * conversation shows live in the Session view and is recorded marked tapped.
 */
import { expect, test } from "@playwright/test";
import { execa } from "execa";
import path from "node:path";
import { makeGeminiHome } from "../test/gemini-home";
import { printFramesOnFailure, rows, scriptTurns, url } from "./helpers";

printFramesOnFailure();

const root = path.resolve(import.meta.dirname, "..");
const line = (m: object) => `${JSON.stringify({ jsonrpc: "2.0", ...m })}\n`;

test("a tapped conversation opens read-only in a tab marked tapped; injection is per tab", async ({ page }) => {
  const target = new URL(url());
  const editor = execa(
    process.execPath,
    ["bin/acp-playground.mjs", "tap", "--", "node", "test/fixtures/tap-agent.mjs"],
    {
      cwd: root,
      env: { ACP_PLAYGROUND_URL: target.origin, ACP_PLAYGROUND_TOKEN: target.searchParams.get("token")! },
      reject: false,
      buffer: false,
    },
  );
  try {
    let out = "";
    editor.stdout.on("data", (d: Buffer) => (out += d.toString()));
    editor.stdin.write(line({ id: 1, method: "initialize", params: {} }));
    await expect.poll(() => out).toContain('"id":1');

    await page.goto(url());
    await page.getByTestId("taps-menu").locator("summary").click();
    // Taps that have exited stay listed a while: watch the one running now.
    await page.getByTestId("tap-entry").filter({ hasNotText: "exited" }).getByTestId("watch-tap").click();
    await expect(page.getByTestId("tab-tapped")).toBeVisible();
    await expect(page.getByTestId("tap-panel")).toContainText("An editor drives this conversation");
    await page.getByRole("tab", { name: "Frames" }).click();
    await expect(rows(page, { dir: "from-agent", kind: "response" })).toHaveCount(1);
    await expect(page.getByTestId("composer")).toHaveCount(0);

    editor.stdin.write(line({ id: 2, method: "echo/me", params: { live: true } }));
    await expect(rows(page, { method: "echo/me", dir: "to-agent" })).toHaveCount(1);

    // The box follows the relay's answer, not the click: wait for it.
    await page.getByTestId("tap-injection").click();
    await expect(page.getByTestId("tap-injection")).toBeChecked();
    await page.getByTestId("composer").fill(JSON.stringify({ jsonrpc: "2.0", id: 50, method: "injected/one" }));
    await page.getByTestId("send-frame").click();
    await expect(rows(page, { method: "injected/one", injected: "true" })).toHaveCount(1);
    await expect.poll(() => out).toContain('"id":50');
  } finally {
    editor.stdin.end();
    await editor;
  }
});

test("a tapped Gemini conversation shows live in the Session view, and its transcript is marked tapped", async ({
  page,
}) => {
  test.setTimeout(180_000);
  const target = new URL(url());
  const workspace = process.env.E2E_WORKSPACE!;
  const home = makeGeminiHome(process.env.E2E_FAKE_API!);
  const editor = execa(process.execPath, [path.join(root, "bin/acp-playground.mjs"), "tap", "--profile", "gemini"], {
    cwd: workspace,
    env: {
      ...home.env,
      ACP_PLAYGROUND_URL: target.origin,
      ACP_PLAYGROUND_TOKEN: target.searchParams.get("token")!,
    },
    reject: false,
    buffer: false,
  });
  try {
    let out = "";
    editor.stdout.on("data", (d: Buffer) => (out += d.toString()));
    await page.goto(url());
    await page.getByTestId("taps-menu").locator("summary").click();
    const entry = page.getByTestId("tap-entry").filter({ hasText: "gemini" }).filter({ hasNotText: "exited" });
    await entry.getByTestId("watch-tap").click();
    await expect(page.getByTestId("tab-tapped")).toBeVisible();

    // The editor drives Gemini; the page only watches.
    editor.stdin.write(line({ id: 1, method: "initialize", params: { protocolVersion: 1, clientCapabilities: {} } }));
    await expect.poll(() => out, { timeout: 60_000 }).toContain('"id":1,"result"');
    editor.stdin.write(line({ id: 2, method: "session/new", params: { cwd: workspace, mcpServers: [] } }));
    await expect.poll(() => out, { timeout: 60_000 }).toContain('"id":2,"result"');
    const sessionId = /"id":2,"result":\{.*?"sessionId":"([^"]+)"/.exec(out)?.[1];
    expect(sessionId).toBeTruthy();
    await scriptTurns([{ parts: [{ text: "Hello from the " }, { text: "**tapped** editor." }] }]);
    editor.stdin.write(
      line({ id: 3, method: "session/prompt", params: { sessionId, prompt: [{ type: "text", text: "say hello" }] } }),
    );
    await expect.poll(() => out, { timeout: 60_000 }).toContain('"stopReason":"end_turn"');

    await page.getByTestId("view-session").click();
    const message = page.locator('[data-testid="sv-item"][data-type="agent_message"]');
    await expect(message).toContainText("Hello from the tapped editor.");
    await expect(message.locator("strong")).toHaveText("tapped");
    await expect(page.locator('[data-testid="sv-item"][data-type="user_message"]')).toContainText("say hello");

    editor.stdin.end();
    expect((await editor).exitCode).toBe(0);
    await expect(page.getByTestId("tap-panel")).toContainText("exited");

    // Recorded like any conversation, marked tapped in the list and in the viewer.
    await page.getByTestId("nav-transcripts").click();
    const row = page
      .getByTestId("transcript-row")
      .filter({ has: page.getByTestId("tapped-badge") })
      .filter({ hasText: "gemini-cli" });
    // The newest first (an earlier run of this test may have left its own).
    await row.first().getByTestId("open-transcript").click();
    await expect(page.getByTestId("transcript-header").getByTestId("tapped-badge")).toBeVisible();
  } finally {
    if (!editor.stdin.writableEnded) editor.stdin.end();
    await editor;
    home.cleanup();
  }
});
