/**
 * A tapped conversation in the browser: a scripted editor runs `acp-playground
 * tap` against the e2e server; the page shows it in a tab marked tapped,
 * read-only until injection is turned on for that tab.
 */
import { expect, test } from "@playwright/test";
import { execa } from "execa";
import path from "node:path";
import { rows, url } from "./helpers";

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
    editor.stdout!.on("data", (d: Buffer) => (out += d.toString()));
    editor.stdin!.write(line({ id: 1, method: "initialize", params: {} }));
    await expect.poll(() => out).toContain('"id":1');

    await page.goto(url());
    await page.getByTestId("taps-menu").locator("summary").click();
    await page.getByTestId("watch-tap").first().click();
    await expect(page.getByTestId("tab-tapped")).toBeVisible();
    await expect(page.getByTestId("tap-panel")).toContainText("An editor drives this conversation");
    await page.getByRole("tab", { name: "Frames" }).click();
    await expect(rows(page, { dir: "from-agent", kind: "response" })).toHaveCount(1);
    await expect(page.getByTestId("composer")).toHaveCount(0);

    editor.stdin!.write(line({ id: 2, method: "echo/me", params: { live: true } }));
    await expect(rows(page, { method: "echo/me", dir: "to-agent" })).toHaveCount(1);

    await page.getByTestId("tap-injection").check();
    await page.getByTestId("composer").fill(JSON.stringify({ jsonrpc: "2.0", id: 50, method: "injected/one" }));
    await page.getByTestId("send-frame").click();
    await expect(rows(page, { method: "injected/one", injected: "true" })).toHaveCount(1);
    await expect.poll(() => out).toContain('"id":50');
  } finally {
    editor.stdin!.end();
    await editor;
  }
});
